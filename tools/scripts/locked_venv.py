"""A venv of its own with one lock installed, made once: a second call installs nothing while the
lock is unchanged (a copy of it in the venv, the stamp, says so). The course's hub
(:func:`tools.hub.local.singleuser_env`) and CITATION.cff's validator
(``tests/book/test_edition.py``) each have one under ``_build/``.
"""
import shutil
import subprocess
import sys
from pathlib import Path

from ..toc import ROOT


def locked_venv(venv, lock, stamp_name):
    """A venv at ``venv`` with ``lock`` installed by pip from the checkout's top folder (where a
    lock's ``-e ./code`` finds the package). Returns the venv's folder."""
    venv = Path(venv)
    stamp = venv / stamp_name
    if stamp.exists() and stamp.read_bytes() == Path(lock).read_bytes():
        if "-e ./code" not in Path(lock).read_text(encoding="utf-8") or imports_from_here(venv):
            return venv
    if venv.exists():
        shutil.rmtree(venv)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    run = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-r", str(lock)],
                         cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if run.returncode:
        raise RuntimeError(f"pip install -r {lock} failed:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}")
    shutil.copy(lock, stamp)
    return venv


# Whether the venv's bayescomp is this checkout's code/ (found, not imported): the stamp says the
# lock is installed, not from which clone its editable bayescomp came.
HERE = ("import importlib.util, pathlib, sys; spec = importlib.util.find_spec('bayescomp'); "
        "sys.exit(spec is None or pathlib.Path(spec.origin).resolve().parent "
        "!= pathlib.Path(sys.argv[1]).resolve())")


def imports_from_here(venv):
    """True when ``venv``'s Python finds ``bayescomp`` in this checkout's ``code/bayescomp``."""
    return subprocess.run([str(Path(venv).resolve() / "bin" / "python"), "-c", HERE,
                           str(ROOT / "code" / "bayescomp")], cwd="/").returncode == 0
