"""The decks' own figures: each chapter re-run with the deck style, cached by content.

The website and nbval use the figures stored in the notebooks, drawn for a page. A slide is
seen from the back of a hall, so the decks draw the same figures from the same cells with
``BAYESCOMP_FIGURES=deck`` in the kernel's environment: ``bayescomp.book.setup_figures()`` then
uses larger text and lines and resizes each figure to fill a slide (``bayescomp.book.plotting``).

Only what the slides need runs: the chapter's cells up to its last figure on a slide (the
exercises after it do not), in a fresh kernel from ``chapters/``, exactly as the stored run
(cells tagged ``skip-execution`` stay unrun). The notebooks themselves are never written.
The figures are cached in ``_build/deck_figures/`` under a hash of everything they depend on:
the chapter's code cells, the ``bayescomp`` sources and this file; so a second build with
nothing changed runs no kernel.
"""
import json
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from ..freshness import files_hash
from ..toc import ROOT
from .metadata import slide_type

CACHE = ROOT / "_build" / "deck_figures"
PACKAGE = ROOT / "code" / "bayescomp"
SVG = "image/svg+xml"


def figure_cells(notebook):
    """Indices of the code cells whose stored outputs hold a figure shown on a slide."""
    return [i for i, cell in enumerate(notebook.cells)
            if cell.cell_type == "code" and slide_type(cell) != "skip"
            and any(SVG in output.get("data", {}) for output in cell.outputs)]


def content_hash(notebook):
    """What the deck figures of a chapter depend on: its code, the package, this builder."""
    # The figures are keyed by cell index: a cell added before a figure moves it.
    code = [json.dumps([index, cell.source, cell.metadata.get("tags", [])])
            for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    return files_hash(sorted(PACKAGE.rglob("*.py")) + [Path(__file__)], *code)


def run_for_decks(notebook, name):
    """Run a copy of the chapter up to its last slide figure with the deck style; return the
    SVG figures of each figure cell, keyed by cell index."""
    wanted = figure_cells(notebook)
    if not wanted:
        return {}
    copy = nbformat.from_dict(json.loads(json.dumps(notebook)))
    copy.cells = copy.cells[: wanted[-1] + 1]
    for cell in copy.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    env = dict(os.environ, BAYESCOMP_FIGURES="deck")
    print(f"deck figures: running {name} with the deck style", flush=True)
    NotebookClient(copy, timeout=300, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(ROOT / "chapters")}}).execute(env=env)
    figures = {}
    for index in wanted:
        drawn = [o["data"][SVG] for o in copy.cells[index].outputs if SVG in o.get("data", {})]
        stored = [o for o in notebook.cells[index].outputs if SVG in o.get("data", {})]
        if len(drawn) != len(stored):
            raise RuntimeError(f"{name}, cell {index}: {len(drawn)} figures in the deck run, "
                               f"{len(stored)} stored; re-execute the chapter "
                               f"(python -m tools.scripts.execute_chapters)")
        figures[str(index)] = drawn
    return figures


def deck_figures(notebook, name):
    """The deck's figures of a chapter (cell index -> SVG texts), from the cache or a run."""
    path = CACHE / f"{name}-{content_hash(notebook)}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    figures = run_for_decks(notebook, name)
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{name}-*.json"):
        stale.unlink()
    path.write_text(json.dumps(figures), encoding="utf-8")
    return figures


def use_deck_figures(notebook, name):
    """Put the deck's figures in place of the stored ones, in a notebook about to become a deck
    (call before any cell is moved or dropped)."""
    for index, drawn in deck_figures(notebook, name).items():
        outputs = [o for o in notebook.cells[int(index)].outputs if SVG in o.get("data", {})]
        for output, svg in zip(outputs, drawn):
            output["data"][SVG] = svg
    return notebook
