"""Benchmark (not a test): how much each way of running the book costs, side by side in one run.

Times, in one process and one run, on the same machine state:
1. the raw computation: every method through ``bayescomp.book.run_lecture`` (no notebooks);
2. executing all chapters from fresh kernels;
3. the nbval suite;
4. a clean site build (assets must exist: run ``make book`` once first).
Each is reported in seconds and as a ratio to the raw computation, because absolute times on a
shared machine are noisy while ratios measured together are comparable.

Usage: python -m tools.benchmarks.stages
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .. import toc
from ..toc import ROOT


def timed(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def raw_computation():
    import bayescomp.book
    bayescomp.book.run_lecture()


def execute_chapters():
    for path in map(toc.notebook, toc.CHAPTERS):
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str(path.parent)}}).execute()


def run(*command):
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def nbval_suite():
    run(sys.executable, "-m", "pytest", "-q", "--nbval", "chapters", "--nbval-sanitize-with",
        "tests/book/nbval_sanitize.cfg", "-p", "no:cacheprovider")


def clean_site_build():
    # A fresh output folder and a fresh execution cache, so every notebook really executes.
    import yaml
    with tempfile.TemporaryDirectory() as out:
        config = yaml.safe_load((ROOT / "_config.yml").read_text())
        config["execute"]["cache"] = str(Path(out) / "cache")
        # The copied config lives elsewhere: point its local extensions back at this checkout.
        extensions = config["sphinx"]["local_extensions"]
        config["sphinx"]["local_extensions"] = {name: str(ROOT / path) for name, path in extensions.items()}
        config_file = Path(out) / "_config.yml"
        config_file.write_text(yaml.safe_dump(config))
        run(sys.executable, "-m", "jupyter", "book", "build", ".", "--path-output", out,
            "--config", str(config_file), "-W", "-n", "--keep-going")


if __name__ == "__main__":
    stages = [("raw computation (package only)", raw_computation),
              ("execute all chapters", execute_chapters),
              ("nbval suite", nbval_suite),
              ("clean site build", clean_site_build)]
    results = [(name, timed(function)) for name, function in stages]
    base = results[0][1]
    print(f"{'stage':34}{'seconds':>9}{'x raw':>8}")
    for name, seconds in results:
        print(f"{name:34}{seconds:9.1f}{seconds / base:8.1f}")
