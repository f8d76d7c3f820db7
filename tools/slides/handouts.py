"""Print the PDF handouts of every lecture deck, one slide per page, with headless chromium.

Each deck is opened from disk in reveal.js's print mode (``?print-pdf``), which lays every
slide out on a page of its own, and chromium's ``--print-to-pdf`` writes the PDF next to the
deck. Two handouts per deck (:data:`HANDOUTS`):

- the lecturer's (``01_target.html`` -> ``01_target.pdf``): each page holds its slide and,
  below it, the slide's speaker notes (the teaching notes), printed from the deck with
  reveal.js's ``showNotes`` and laid out by the deck template; a question's answer is printed
  under it, and its explanation in the notes;
- the students' (``01_target-students.pdf``): the slides alone, without the speaker notes and
  without the questions' answers (``?print-pdf&students``: the deck template takes both out
  of the page before reveal.js lays it out), to give a class.

``--handouts lecturer`` (or ``students``) prints one kind only. Nothing is fetched: the decks carry their own
reveal.js (and their math typeset when they were built), and chromium's host resolver is mapped
to nowhere, so a deck that tried to reach the network would fail here instead of printing
something else. The virtual-time budget lets the page finish laying out before it is printed.

A handout whose deck and the decks' files (reveal.js, the vendored scripts, styles and still
images) are unchanged since it was printed is not printed again (``_build/handouts-printed-from.json``).

Chromium comes from Debian (``tools/scripts/install_chromium.sh``), not from Playwright: the
build install has no Playwright. Set ``CHROMIUM`` to use another binary.

Usage: python -m tools.slides.handouts _build/slides_out/slides [--handouts KIND ...] [--chapters NAME ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

from .. import toc
from ..freshness import Stamps, files_hash
from ..toc import CHAPTERS, ROOT
from .build import deck_file, handout_file, students_handout_file

# What each handout was printed from (a key of its deck and the decks' files); in _build, not
# beside the PDFs, which the website serves.
STAMPS = Stamps(ROOT / "_build" / "handouts-printed-from.json")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND",
         "--virtual-time-budget=30000", "--run-all-compositor-stages-before-draw"]


def pdf_pages(path):
    """Number of pages of a PDF: its /Type /Page objects (the /Pages tree nodes excluded)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", Path(path).read_bytes()))


def slide_count(chapter):
    """Slides in a chapter's deck: its notebook's cells of slide type ``slide``."""
    notebook = nbformat.read(toc.notebook(chapter), as_version=4)
    return sum(c.metadata.get("slideshow", {}).get("slide_type") == "slide" for c in notebook.cells)


# The deck's address query for each kind of print: reveal.js's print layout, with the speaker
# notes below each slide (the template's lecturer's handout), without the notes and answers (the
# template's students' handout), or the slides as shown (answers on, notes off: a browser's
# own print of ``?print-pdf``, not a handout the build makes).
QUERIES = {"lecturer": "?print-pdf&showNotes=true", "students": "?print-pdf&students",
           "slides": "?print-pdf"}
# The handouts `make slides` prints, and the file each goes to.
HANDOUTS = {"lecturer": handout_file, "students": students_handout_file}


def print_query(kind="lecturer"):
    """The deck's address query for a kind of print (:data:`QUERIES`)."""
    if kind not in QUERIES:
        raise ValueError(f"kind must be one of {sorted(QUERIES)}; got {kind!r}")
    return QUERIES[kind]


def print_deck(deck, pdf, profile, kind="lecturer"):
    """Print one deck to ``pdf`` through reveal.js's print mode, as ``kind`` (:func:`print_query`)."""
    query = print_query(kind)
    pdf.unlink(missing_ok=True)
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
               deck.as_uri() + query]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180)
    if run.returncode != 0 or not pdf.exists():
        raise RuntimeError(f"chromium could not print {deck.name} (exit {run.returncode}):\n"
                           f"{run.stderr[-2000:]}")


def print_handouts(out, kinds=tuple(HANDOUTS), chapters=CHAPTERS):
    """Print the handouts of ``kinds`` (both by default) of ``chapters`` into ``out``."""
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: run `bash tools/scripts/install_chromium.sh` first")
    unknown = sorted(set(chapters) - set(CHAPTERS))
    if unknown:
        sys.exit(f"not chapters of _toc.yml: {unknown}")
    unknown = sorted(set(kinds) - set(HANDOUTS))
    if unknown:
        sys.exit(f"not kinds of handout: {unknown} (kinds: {', '.join(HANDOUTS)})")
    # A handout is printed again only when its deck, anything the decks load or its kind changed.
    assets = sorted(p for part in ("vendor", "reveal.js") for p in (out / part).rglob("*")
                    if p.is_file())
    shared = {kind: files_hash(assets + [Path(__file__)], *FLAGS, print_query(kind))
              for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="handouts-chromium-") as profile:
        for chapter, kind in ((chapter, kind) for chapter in chapters for kind in kinds):
            deck, pdf = out / deck_file(chapter), out / HANDOUTS[kind](chapter)
            if not deck.exists():
                sys.exit(f"no deck {deck}: run `python -m tools.slides.build` first")
            key = files_hash([deck], shared[kind])
            if STAMPS.current(pdf, key):
                print(f"{pdf.relative_to(out.parent)}: unchanged, not printed again")
                continue
            STAMPS.forget(pdf)
            print_deck(deck, pdf, profile, kind)
            pages, slides = pdf_pages(pdf), slide_count(chapter)
            if pages != slides:
                raise RuntimeError(f"{pdf.name} has {pages} pages for {slides} slides")
            print(f"{pdf.relative_to(out.parent)}: {pages} pages")
            STAMPS.record(pdf, key)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?",
                        default=ROOT / "_build" / "slides_out" / "slides")
    parser.add_argument("--handouts", nargs="+", metavar="KIND", default=list(HANDOUTS),
                        choices=list(HANDOUTS),
                        help="print only these kinds: lecturer (with the notes and answers), "
                             "students (without them); default: both")
    parser.add_argument("--chapters", nargs="+", metavar="NAME", default=CHAPTERS,
                        help="print only these chapters' handouts (default: every chapter)")
    args = parser.parse_args()
    print_handouts(args.out.resolve(), args.handouts, args.chapters)
