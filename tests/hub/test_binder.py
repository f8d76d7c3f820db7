"""The Binder configuration (``.binder/``): repo2docker builds the reader's environment from the
repository as it is.

There is no container runtime on these machines, so the image is not built. What is checked:
the Dockerfile that repo2docker itself writes for this repository (``repo2docker --no-build``),
and the one install line in it, run by pip from the repository's top folder as the Dockerfile runs
it (``--dry-run``: it resolves every requirement and finds ``code/``, and installs nothing).
"""
import re
import subprocess
import sys
from pathlib import Path

from tools.toc import ROOT

BIN = Path(sys.executable).parent
LOCK_PYTHON = "3.11"      # make locks: uv pip compile --python-version 3.11


def dockerfile():
    run = subprocess.run([str(BIN / "repo2docker"), "--no-build", "--debug", str(ROOT)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout + run.stderr


def test_repo2docker_builds_the_reader_lock_in_the_locks_python():
    text = dockerfile()
    python = re.search(r"Building conda environment for python=(\d+\.\d+)", text)
    assert python and python.group(1) == LOCK_PYTHON, (
        f"repo2docker picks Python {python and python.group(1)}; the locks are made for "
        f"{LOCK_PYTHON} (.binder/runtime.txt)")
    lines = text.splitlines()
    copy = next(i for i, line in enumerate(lines) if re.match(r"COPY .*src/ \$\{REPO_DIR\}/$", line))
    install = [i for i, line in enumerate(lines)
               if re.search(r'pip install --no-cache-dir -r "\.binder/requirements\.txt"', line)]
    assert install, "repo2docker does not install .binder/requirements.txt"
    # After the whole repository is copied in: the lock's `-e ./code` needs it.
    assert install[0] > copy, "the install runs before the repository is copied in"
    workdir = max(i for i, line in enumerate(lines[:install[0]]) if line.startswith("WORKDIR"))
    assert lines[workdir] == "WORKDIR ${REPO_DIR}"


def test_the_binder_install_line_resolves_to_the_reader_lock():
    run = subprocess.run([str(BIN / "python"), "-m", "pip", "install", "--dry-run", "--no-deps",
                          "--no-build-isolation", "--no-index", "-r", ".binder/requirements.txt"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    # Every pin came from the top folder's lock (through .binder/requirements.txt), and
    # `-e ./code` found the package from the top folder. pip names the lock as the -r line
    # spells it (.binder/../requirements.txt) before pip 25 and by its absolute path since.
    sources = set(re.findall(r"\(from -r (\S+) \(line \d+\)\)", run.stdout))
    assert sources and {(ROOT / source).resolve() for source in sources} == {
        ROOT / "requirements.txt"}, run.stdout[-1000:]
    assert "Would install bayescomp-" in run.stdout, run.stdout[-1000:]
