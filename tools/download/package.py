"""Build ``bayescomp`` as a wheel and an sdist, offline and reproducibly.

The package's ``static/`` folder (the live figures' built bundles, package data) travels in both,
so a reader who installs the wheel gets the live figures in JupyterLab with no Node.js; so does
its licence file (``code/LICENSE``, named by ``license-files`` in ``pyproject.toml``).

The build runs setuptools' PEP 517 hooks in this interpreter (setuptools and wheel are pinned in
the build lock), on a copy of ``code/`` in a temporary folder: no build isolation, so nothing is
fetched, and no ``build/`` or ``*.egg-info`` is left in the checkout. ``SOURCE_DATE_EPOCH`` is
fixed, so the same sources give the same archive bytes.

Usage: python -m tools.download.package OUT_DIR   (prints the two files' paths)
"""
import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ..toc import ROOT

SOURCE = ROOT / "code"
# Zip and tar entries carry this time (2026-01-01), not the checkout's file times.
EPOCH = "1767225600"


def _copy_source(to):
    """The package's sources: pyproject.toml, its licence file and the bayescomp folder,
    without caches."""
    for name in ("pyproject.toml", "LICENSE"):
        shutil.copy2(SOURCE / name, to / name)
    shutil.copytree(SOURCE / "bayescomp", to / "bayescomp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def build(out):
    """Build the sdist and the wheel into ``out``; return their paths (sdist, wheel)."""
    from setuptools import build_meta

    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    previous, epoch = Path.cwd(), os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        with tempfile.TemporaryDirectory() as tmp:
            _copy_source(Path(tmp))
            os.chdir(tmp)
            log = io.StringIO()   # setuptools' file-by-file log, shown only if the build fails
            try:
                with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                    sdist = build_meta.build_sdist(str(out))
                    wheel = build_meta.build_wheel(str(out))
            except BaseException:
                sys.stderr.write(log.getvalue())
                raise
    finally:
        os.chdir(previous)
        if epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH")
        else:
            os.environ["SOURCE_DATE_EPOCH"] = epoch
    return out / sdist, out / wheel


if __name__ == "__main__":
    for path in build(sys.argv[1] if len(sys.argv) > 1 else ROOT / "_build" / "dist"):
        print(path)
