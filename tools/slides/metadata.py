"""The slide metadata conventions of the chapters, checked and applied in one place.

Two kinds of cell carry metadata that the decks, RISE and JupyterLab rely on:

- **Speaker notes** (``teaching-notes``): a Markdown cell tagged ``teaching-notes`` holds the
  notes of the slide whose content it follows. It has slide type ``notes`` (the decks and RISE
  show it in the speaker view, not on the slide), the tag ``remove-cell`` (the website hides
  it) and ``"jupyter": {"source_hidden": true}`` (JupyterLab shows it collapsed). It comes
  after the chapter's first slide cell: notes before any slide would belong to none.
- **Figure cells** (tag ``slides-hide-input``, not skipped): a code cell whose figure (or
  table) is shown on a slide without the code that makes it. The static decks drop the code
  (``tools.slides.build``); RISE shows a cell as JupyterLab has it, so the cell also carries
  ``"jupyter": {"source_hidden": true}`` (collapsed input; the website ignores it and shows
  the code). A skipped cell is on no slide and keeps its code open.

- **Live-figure cells**: the Jupyter-only cell ``book.widgets.<name>()`` (tags ``nbval-skip``,
  ``skip-execution``, ``remove-cell``) under a live figure's placeholder. It is part of that
  figure's slide (slide type ``-``), with its code collapsed: RISE shows its output there
  (RISE cannot run a Jupyter widget; the output offers a still image of the figure and a link
  to its live slide in the deck). The static decks drop the cell: they show the figure itself.

``python -m tools.slides.metadata`` adds whatever metadata is missing to every chapter (or to
the notebooks named); ``--check`` only reports it and exits 1. The deck build runs the check
and stops with this command in its message, so a new chapter or cell gets the metadata.
"""
import argparse
import re
import sys
from pathlib import Path

import nbformat

from .. import toc

NOTES_TAG = "teaching-notes"
FIGURE_TAG = "slides-hide-input"


def slide_type(cell):
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def tags(cell):
    return cell.metadata.get("tags", [])


def is_teaching_notes(cell):
    return NOTES_TAG in tags(cell)


# A live-figure cell: it only shows a widget, and nbval does not run it (tests/skips.py).
WIDGET_CELL = re.compile(r"^book\.widgets\.\w+\(", re.MULTILINE)


def is_widget_cell(cell):
    """A chapter cell that only displays a live widget, and is marked to be skipped by nbval."""
    tags = cell.get("metadata", {}).get("tags", [])
    return "nbval-skip" in tags and bool(WIDGET_CELL.search(cell.get("source", "")))


def is_figure_cell(cell):
    """A code cell shown on a slide by its output only."""
    return cell.cell_type == "code" and FIGURE_TAG in tags(cell) and slide_type(cell) != "skip"


def has_teaching_notes(notebook):
    """Whether a chapter has moved to the ``teaching-notes`` convention (any such cell)."""
    return any(is_teaching_notes(cell) for cell in notebook.cells)


def missing(cell):
    """The metadata a convention cell lacks, as (description, fix) pairs; fix(cell) adds it."""
    found = []
    hidden = cell.metadata.get("jupyter", {}).get("source_hidden") is True
    if is_teaching_notes(cell):
        if slide_type(cell) != "notes":
            found.append(("slide type notes", lambda c: c.metadata.setdefault(
                "slideshow", {}).__setitem__("slide_type", "notes")))
        if "remove-cell" not in tags(cell):
            found.append(("tag remove-cell", lambda c: c.metadata.setdefault(
                "tags", []).append("remove-cell")))
    if cell.cell_type == "code" and is_widget_cell(cell) and slide_type(cell) != "-":
        found.append(("slide type - (on its live figure's slide)", lambda c: c.metadata.setdefault(
            "slideshow", {}).__setitem__("slide_type", "-")))
    if (is_teaching_notes(cell) or is_figure_cell(cell) or is_widget_cell(cell)) and not hidden:
        found.append(("jupyter.source_hidden", lambda c: c.metadata.setdefault(
            "jupyter", {}).__setitem__("source_hidden", True)))
    return found


def problems(notebook):
    """What breaks the conventions, one sentence each (cell numbers count from 0)."""
    found = []
    first_slide = next((i for i, c in enumerate(notebook.cells) if slide_type(c) == "slide"),
                       len(notebook.cells))
    for index, cell in enumerate(notebook.cells):
        if is_teaching_notes(cell) and cell.cell_type != "markdown":
            found.append(f"cell {index}: a teaching-notes cell must be Markdown")
        if is_teaching_notes(cell) and index < first_slide:
            found.append(f"cell {index}: teaching notes before the first slide belong to no slide")
        found += [f"cell {index}: no {what}" for what, _ in missing(cell)]
    return found


def apply(notebook):
    """Add every missing piece of metadata in place; returns how many were added."""
    added = 0
    for cell in notebook.cells:
        for _, fix in missing(cell):
            fix(cell)
            added += 1
    return added


def check_chapters(paths):
    """Every convention problem of the given notebooks, as ``path: problem`` lines."""
    found = []
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        found += [f"{Path(path).relative_to(toc.ROOT)}: {p}" for p in problems(notebook)]
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks (default: every chapter of _toc.yml)")
    parser.add_argument("--check", action="store_true", help="report only; exit 1 on a problem")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or [toc.notebook(n) for n in toc.CHAPTERS]
    if args.check:
        found = check_chapters(paths)
        print("\n".join(found) or "slide metadata: all conventions hold")
        return 1 if found else 0
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        added = apply(notebook)
        if added:
            nbformat.write(notebook, path)
            print(f"{path.relative_to(toc.ROOT)}: added {added} piece(s) of slide metadata")
    left = check_chapters(paths)
    print("\n".join(left) or "slide metadata: all conventions hold")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
