"""The package's version and licence, as Python and pip report them: ``bayescomp.__version__``
is the version of ``code/pyproject.toml`` (its one source), read from the installed metadata,
and ``pip show bayescomp`` gives that version and the licence (PEP 639's License-Expression,
which pip shows from 25.1 on; `make` gives its venvs such a pip)."""
import re
import subprocess
import sys
import tomllib

import bayescomp
from tools.toc import ROOT

PROJECT = tomllib.loads((ROOT / "code" / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_version_is_pyprojects():
    assert bayescomp.__version__ == PROJECT["version"], (
        "the installed metadata is stale: reinstall the package (pip install -e code)")


def test_pip_show_gives_licence_and_version():
    shown = subprocess.run([sys.executable, "-m", "pip", "show", "bayescomp"], capture_output=True,
                           text=True, check=True).stdout.splitlines()
    assert f"Version: {PROJECT['version']}" in shown
    assert f"License-Expression: {PROJECT['license']}" in shown, (
        f"pip show gives no licence (pip 25.1 or newer shows it): {shown}")


def test_requires_python_is_the_locks_python():
    """One Python floor: the package's ``requires-python`` is the Python the locks are made for
    (``make locks``) and Binder runs (``.binder/runtime.txt``)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    locks = re.search(r"--python-version (\d+\.\d+)", makefile).group(1)
    binder = (ROOT / ".binder" / "runtime.txt").read_text(encoding="utf-8").strip()
    assert binder == f"python-{locks}", f".binder/runtime.txt asks for {binder}; the locks: {locks}"
    assert PROJECT["requires-python"] == f">={locks}", (
        f"code/pyproject.toml: requires-python {PROJECT['requires-python']}; the locks are made "
        f"for Python {locks}")
