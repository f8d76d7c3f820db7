"""Keep the website's execution cache honest about the package.

Jupyter Book runs the chapters through jupyter-cache (``execute_notebooks: cache`` in
``_config.yml``; the PDF's build reuses that cache), which keys each chapter on its code cells
only, and Sphinx keeps each page's parsed outputs in its environment (the doctrees) until the
page's source changes. A change to ``bayescomp`` (or to the build lock) that leaves every cell's
source as it was would then leave the website and the PDF showing the outputs of the old code.
This step, run by ``make book`` before both, clears the execution cache and both doctrees
whenever the package's files or the build lock change, and keeps them otherwise (so a second
build with nothing changed stays fast).

Usage: python -m tools.scripts.execution_cache
"""
import shutil

from ..slides.figures import files_hash, tree_files
from ..toc import ROOT

# What a chapter's outputs depend on besides its own cells.
INPUTS = ("code/bayescomp", "tools/requirements/build.txt")
# What holds outputs computed by an older package: the execution cache, the website's and the
# PDF's Sphinx environments.
CACHES = (ROOT / "_build" / ".jupyter_cache", ROOT / "_build" / ".doctrees",
          ROOT / "_build" / "pdf" / "_build" / ".doctrees")
STAMP = ROOT / "_build" / "execution-inputs.txt"


def fingerprint(inputs=INPUTS):
    """A key for the content of every file under ``inputs`` (bytecode caches left out)."""
    return files_hash(tree_files(inputs))


def refresh(caches, stamp, current):
    """Clear ``caches`` unless they were filled under the key ``current`` (recorded in
    ``stamp``); True if they were cleared."""
    if stamp.exists() and stamp.read_text() == current:
        return False
    for cache in caches:
        shutil.rmtree(cache, ignore_errors=True)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current)
    return True


if __name__ == "__main__":
    if refresh(CACHES, STAMP, fingerprint()):
        print("execution cache and doctrees cleared: the package or the build lock changed "
              "(or no record of them)")
