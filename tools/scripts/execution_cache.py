"""Keep the website's execution cache honest about the package.

Jupyter Book runs the chapters through jupyter-cache (``execute_notebooks: cache`` in
``_config.yml``; the PDF's build reuses that cache), which keys each chapter on its code cells
only, and Sphinx keeps each page's parsed outputs in its environment (the doctrees) until the
page's source changes. A change to ``bayescomp`` (or to the build lock) that leaves every cell's
source as it was would then leave the website and the PDF showing the outputs of the old code.
This step, run by ``make book`` before both, clears the execution cache and both doctrees
whenever the package's files or the build lock change, and keeps them otherwise (so a second
build with nothing changed stays fast).

It then fills the cache with the chapters that are not in it, two at a time, each from a fresh
kernel in its own process, exactly as myst-nb would run them one after another (in the
chapter's folder, with the timeout of ``_config.yml``); the website's build then finds every
chapter cached. A chapter that fails is left out, so the website's build runs it again and
reports the error as usual.

Usage: python -m tools.scripts.execution_cache
"""
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor

from ..freshness import Stamps, files_hash, tree_files
from ..toc import CHAPTERS, ROOT, notebook

# What a chapter's outputs depend on besides its own cells.
INPUTS = ("code/bayescomp", "tools/requirements/build.txt")
# What holds outputs computed by an older package: the execution cache, the website's and the
# PDF's Sphinx environments.
CACHES = (ROOT / "_build" / ".jupyter_cache", ROOT / "_build" / ".doctrees",
          ROOT / "_build" / "pdf" / "_build" / ".doctrees")
STAMPS = Stamps(ROOT / "_build" / "execution-inputs.json")


def fingerprint(inputs=INPUTS):
    """A key for the content of every file under ``inputs`` (bytecode caches left out)."""
    return files_hash(tree_files(inputs))


def refresh(caches, stamps, current):
    """Clear ``caches`` unless they were filled under the key ``current`` (recorded in
    ``stamps``, a :class:`~tools.freshness.Stamps`, under the first cache's folder); True if
    they were cleared."""
    if stamps.current(caches[0].parent, current):
        return False
    for cache in caches:
        shutil.rmtree(cache, ignore_errors=True)
    stamps.record(caches[0].parent, current)
    return True


def timeout_per_cell(config=ROOT / "_config.yml"):
    """The website's execution timeout (``execute: timeout`` in ``_config.yml``)."""
    import yaml
    return yaml.safe_load(config.read_text(encoding="utf-8"))["execute"]["timeout"]


def execute(path, timeout):
    """Run the notebook at ``path`` from a fresh kernel in its own folder, as myst-nb does;
    return it with its run time and the error's traceback (None when it ran through)."""
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution
    executed = nbformat.read(path, as_version=4)
    result = single_nb_execution(executed, cwd=str(path.parent), timeout=timeout,
                                 allow_errors=False, meta_override=True)
    return executed, result.time, result.exc_string if result.err else None


def fill(paths, cache_path=CACHES[0], workers=2):
    """Execute the notebooks of ``paths`` that the cache does not match, ``workers`` at a
    time, and store each one that ran through; return the names of those that failed."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.cache.main import CacheBundleIn
    cache = get_cache(str(cache_path))

    def cached(path):
        try:
            cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            return False
        return True

    missing = [path for path in paths if not cached(path)]
    failed = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        runs = pool.map(execute, missing, [timeout_per_cell()] * len(missing))
        for path, (executed, seconds, error) in zip(missing, runs):
            if error is not None:
                failed.append(path.name)
                continue
            # The writes stay in this process: the cache is one SQLite file.
            record = cache.add_nb_to_project(str(path))
            cache.cache_notebook_bundle(CacheBundleIn(executed, record.uri,
                                                      data={"execution_seconds": seconds}),
                                        check_validity=False, overwrite=True)
            print(f"executed {path.name} in {seconds:.0f} s into the website's cache", flush=True)
    return failed


if __name__ == "__main__":
    if refresh(CACHES, STAMPS, fingerprint()):
        print("execution cache and doctrees cleared: the package or the build lock changed "
              "(or no record of them)")
    failed = fill([notebook(name) for name in CHAPTERS])
    if failed:
        print("failed (the website's build runs them again and reports why): "
              + ", ".join(failed), file=sys.stderr)
