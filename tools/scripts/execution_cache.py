"""Keep the website's execution cache honest about the package.

Jupyter Book runs the chapters through jupyter-cache (``execute_notebooks: cache`` in
``_config.yml``; the PDF's build reuses that cache), which keys each chapter on its code cells
only. A change to ``bayescomp`` (or to the build lock) that leaves every cell's source as it was
would then leave the website and the PDF showing the outputs of the old code. This step, run by
``make book`` before both, clears the cache whenever the package's files or the build lock
change, and keeps it otherwise (so a second build with nothing changed stays fast).

Usage: python -m tools.scripts.execution_cache [CACHE]   (default: _build/.jupyter_cache)
"""
import shutil
import sys
from pathlib import Path

from ..slides.figures import files_hash, tree_files
from ..toc import ROOT

# What a chapter's outputs depend on besides its own cells.
INPUTS = ("code/bayescomp", "tools/requirements/build.txt")


def fingerprint(inputs=INPUTS):
    """A key for the content of every file under ``inputs`` (bytecode caches left out)."""
    return files_hash(tree_files(inputs))


def refresh(cache, current):
    """Clear ``cache`` unless it was filled under the key ``current``; True if cleared."""
    stamp = cache.with_name(cache.name + ".inputs")
    if cache.exists() and stamp.exists() and stamp.read_text() == current:
        return False
    shutil.rmtree(cache, ignore_errors=True)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current)
    return True


if __name__ == "__main__":
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / ".jupyter_cache"
    if refresh(cache, fingerprint()):
        print(f"{cache}: cleared (the package or the build lock changed, or no record of them)")
