"""Print a PDF handout of every lecture deck, one slide per page, with headless chromium.

Each deck is opened from disk in reveal.js's print mode (``?print-pdf``), which lays every
slide out on a page of its own, and chromium's ``--print-to-pdf`` writes the PDF next to the
deck (``01_target.html`` -> ``01_target.pdf``). By default the handout is the lecturer's: each
page holds its slide and, below it, the slide's speaker notes (the teaching notes), printed
from the deck with reveal.js's ``showNotes`` and laid out by the deck template; ``--no-notes``
prints the slides alone. Nothing is fetched: the decks carry their own
reveal.js and MathJax, and chromium's host resolver is mapped to nowhere, so a deck that tried
to reach the network would fail here instead of printing something else. The virtual-time
budget lets the page finish typesetting and laying out before it is printed.

A handout whose deck and the decks' files (reveal.js, the vendored scripts, styles and still
images) are unchanged since it was printed is not printed again (``_build/handouts-printed-from.json``).

Chromium comes from Debian (``tools/scripts/install_chromium.sh``), not from Playwright: the
build install has no Playwright. Set ``CHROMIUM`` to use another binary.

Usage: python -m tools.slides.handouts _build/slides_out/slides [--no-notes] [--chapters NAME ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

from .. import toc
from ..toc import CHAPTERS, ROOT
from .build import deck_file, handout_file
from .figures import files_hash

# What each handout was printed from (a key of its deck and the decks' files); in _build, not
# beside the PDFs, which the website serves.
KEYS = ROOT / "_build" / "handouts-printed-from.json"

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


def print_query(notes=True):
    """The deck's address query for its handout: reveal.js's print layout, with the speaker
    notes below each slide unless ``notes`` is false (the template's lecturer's handout)."""
    return "?print-pdf&showNotes=true" if notes else "?print-pdf"


def print_deck(deck, pdf, profile, notes=True):
    """Print one deck to ``pdf`` through reveal.js's print mode (with its notes: :func:`print_query`)."""
    pdf.unlink(missing_ok=True)
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
               deck.as_uri() + print_query(notes)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180)
    if run.returncode != 0 or not pdf.exists():
        raise RuntimeError(f"chromium could not print {deck.name} (exit {run.returncode}):\n"
                           f"{run.stderr[-2000:]}")


def print_handouts(out, notes=True, chapters=CHAPTERS):
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: run `bash tools/scripts/install_chromium.sh` first")
    unknown = sorted(set(chapters) - set(CHAPTERS))
    if unknown:
        sys.exit(f"not chapters of _toc.yml: {unknown}")
    # A handout is printed again only when its deck, anything the decks load or the kind of
    # handout (with notes or without) changed.
    assets = sorted(p for part in ("vendor", "reveal.js") for p in (out / part).rglob("*")
                    if p.is_file())
    shared = files_hash(assets + [Path(__file__)], *FLAGS, print_query(notes))
    printed = json.loads(KEYS.read_text()) if KEYS.exists() else {}
    with tempfile.TemporaryDirectory(prefix="handouts-chromium-") as profile:
        for chapter in chapters:
            deck, pdf = out / deck_file(chapter), out / handout_file(chapter)
            if not deck.exists():
                sys.exit(f"no deck {deck}: run `python -m tools.slides.build` first")
            key = files_hash([deck], shared)
            if printed.get(pdf.name) == key and pdf.exists():
                print(f"{pdf.relative_to(out.parent)}: unchanged, not printed again")
                continue
            printed.pop(pdf.name, None)
            print_deck(deck, pdf, profile, notes)
            pages, slides = pdf_pages(pdf), slide_count(chapter)
            if pages != slides:
                raise RuntimeError(f"{pdf.name} has {pages} pages for {slides} slides")
            print(f"{pdf.relative_to(out.parent)}: {pages} pages")
            printed[pdf.name] = key
            KEYS.parent.mkdir(parents=True, exist_ok=True)
            KEYS.write_text(json.dumps(printed, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?",
                        default=ROOT / "_build" / "slides_out" / "slides")
    parser.add_argument("--no-notes", dest="notes", action="store_false",
                        help="the slides alone, without each slide's speaker notes below it")
    parser.add_argument("--chapters", nargs="+", metavar="NAME", default=CHAPTERS,
                        help="print only these chapters' handouts (default: every chapter)")
    args = parser.parse_args()
    print_handouts(args.out.resolve(), args.notes, args.chapters)
