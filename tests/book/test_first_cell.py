"""A chapter downloaded on its own explains itself.

The website's per-page download button gives a reader one notebook, without the package it
imports. Its first code cell (the imports) must then say what to do, in a few lines: get the
whole book's archive, or install the package. Here that cell runs in a Python without
``bayescomp``: the interpreter of this venv with ``-S`` (no site-packages, so neither the
editable install nor anything else of the venv), from an empty folder.
"""
import subprocess
import sys

import nbformat
import pytest

from tools import toc
from tools.download.archive import ARCHIVE_NAME

LONGEST = 300   # characters: a message a reader takes in at a glance


def first_code_cell(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    return next(cell for cell in notebook.cells if cell.cell_type == "code")


def run_without_package(source, folder):
    return subprocess.run([sys.executable, "-S", "-c", source], cwd=folder, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_first_cell_says_what_to_do_without_the_package(name, tmp_path):
    run = run_without_package(first_code_cell(name).source, tmp_path)
    assert run.returncode != 0, "the first cell ran without bayescomp"
    last = run.stderr.strip().splitlines()[-1]
    kind, _, message = last.partition(": ")
    assert kind == "ModuleNotFoundError", run.stderr[-500:]
    assert ARCHIVE_NAME in message and "pip install" in message, (
        f"{name}: the first cell fails without saying where to get the package: {last}")
    assert len(message) <= LONGEST, f"{name}: the message is {len(message)} characters"
    assert "During handling" not in run.stderr, "show the message alone, not a chained traceback"


def test_the_guard_passes_other_missing_modules_through(tmp_path):
    # Only a missing bayescomp gets the message; a module missing inside it stays as it is.
    (tmp_path / "bayescomp").mkdir()
    (tmp_path / "bayescomp" / "__init__.py").write_text("import a_module_that_is_not_there\n")
    run = run_without_package(first_code_cell(toc.CHAPTERS[0]).source, tmp_path)
    assert run.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: No module named 'a_module_that_is_not_there'")


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_the_guard_is_a_cell_of_its_own_that_the_website_leaves_out(name):
    # Readers of the website see the imports, not the guard; the notebook keeps both.
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    guard, imports = [cell for cell in notebook.cells if cell.cell_type == "code"][:2]
    assert "remove-cell" in guard.metadata.get("tags", []), f"{name}: the guard shows on the website"
    assert "import numpy" not in guard.source, f"{name}: the guard cell holds the imports too"
    assert imports.source.startswith("import bayescomp as bc\n"), imports.source[:80]
    assert "remove-cell" not in imports.metadata.get("tags", [])
