"""The whole book as one PDF: ``make book`` writes ``_build/download/bayescomp-book.pdf``.

Why this way: the PDF is the website's own rendering, printed. Sphinx's single-page HTML of the
book (:mod:`tools.pdf.sphinx`) has the same MathJax math, the same SVG figures, the same code
highlighting and the same stored outputs as the website, and Debian's chromium, which the build
already installs for the handouts, prints it offline. This is Jupyter Book's own ``pdfhtml``
route, with Debian's browser instead of the one pyppeteer downloads. The LaTeX route (TeX Live)
would need every SVG figure converted, the raw-HTML live figures and the rendered Markdown
outputs redone in LaTeX, and the MathJax-only macros checked again: a second rendering to keep
in step with the first.

Two printings: the first one's links say on which page each entry of the contents landed (the
pages of chromium's link targets, read with poppler's ``pdftohtml -xml``), and the second prints
those numbers into the contents. The page's own script (``tools/pdf/static/print.js``) makes the
title page, the contents, the stills of the live figures and the solutions' appendix; nothing
is fetched (every host name is mapped to nowhere).

Usage: python -m tools.pdf.build [OUT.pdf]   (default _build/download/bayescomp-book.pdf)
"""
import json
import re
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

import yaml

from .. import edition
from ..freshness import Stamps, files_hash, tree_files
from ..slides.handouts import CHROMIUM, FLAGS
from ..toc import ROOT
from . import sphinx

PDF_NAME = "bayescomp-book.pdf"
DEFAULT_OUT = ROOT / "_build" / "download" / PDF_NAME
# The key of what each PDF was made from (below): a book whose sources are unchanged is not
# built or printed again, as the handouts are not (a second `make book`).
STAMPS = Stamps(ROOT / "_build" / "pdf" / "printed-from.json")
PRINT_FLAGS = [*(flag for flag in FLAGS if not flag.startswith("--virtual-time-budget")),
               "--virtual-time-budget=120000", "--window-size=820,1200",
               "--force-device-scale-factor=2", "--generate-pdf-document-outline"]


def book_front():
    """The title page's lines, from ``_config.yml`` and the package's description; the last
    one is the edition and its licences, as every page's footer and deck's title slide state
    them (:func:`tools.edition.notice_html`, HTML with its links)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return {"title": config["title"],
            "subtitle": "One posterior, a grid reference and four approximations",
            "author": config["author"],
            "note": "The printed edition of the website. Its live figures appear as stills; "
                    "their captions say where the live ones are.",
            "copyright": f"© {config['copyright']}",
            "notice": edition.notice_html()}


def chromium_print(html, pdf, profile, pages=()):
    query = urllib.parse.urlencode({"book": json.dumps(book_front()), "pages": json.dumps(list(pages))})
    pdf.unlink(missing_ok=True)
    run = subprocess.run([CHROMIUM, *PRINT_FLAGS, f"--user-data-dir={profile}",
                          f"--print-to-pdf={pdf}", f"{html.as_uri()}?{query}"],
                         capture_output=True, text=True, timeout=900)
    if run.returncode != 0 or not pdf.exists():
        raise RuntimeError(f"chromium could not print {html} (exit {run.returncode}):\n"
                           f"{run.stderr[-2000:]}")


def links(pdf, first, last):
    """The target page of each internal link on pages ``first`` to ``last`` (poppler's XML)."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", str(first),
                          "-l", str(last), str(pdf)], capture_output=True, text=True,
                         check=True).stdout
    return [int(page) for page in re.findall(r'<a href="[^"]*?#(\d+)"', xml)]


def contents_pages(pdf):
    """The page of each entry of the contents, in order. The contents start on page 2, and
    their first entry, the landing page, starts the page after their last."""
    body = links(pdf, 2, 2)[0]
    return links(pdf, 2, body - 1)


# What the single page is made from: the chapters and the book's configuration, the website's
# and the PDF's Sphinx extensions and static files, the package (its live figures' bundles
# are on the page), MathJax (its version in the npm lock: it typesets the math when the page is
# built), the build lock (Sphinx and its extensions' versions).
SOURCES = ("chapters", "_config.yml", "_toc.yml", "tools/pdf", "tools/website", "tools/toc.py",
           "code/bayescomp", "tools/npm/package-lock.json", "tools/requirements/build.txt")


def inputs_key():
    """A key for every file the single page and its printing are made from, chromium's flags
    and the title page (the edition): while it holds, the PDF would come out the same, and
    neither Sphinx's singlehtml build (minutes: it writes the whole book again each time) nor
    chromium runs."""
    return files_hash(tree_files(SOURCES), *PRINT_FLAGS, json.dumps(book_front()))


def build(out=DEFAULT_OUT):
    out = Path(out)
    key = inputs_key()
    if STAMPS.current(out, key):
        print(f"{out.name}: its sources are unchanged, not built or printed again")
        return out
    STAMPS.forget(out)
    html = sphinx.build()
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="book-pdf-") as tmp:
        first = Path(tmp) / "first.pdf"
        chromium_print(html, first, Path(tmp) / "profile")
        pages = contents_pages(first)
        chromium_print(html, out, Path(tmp) / "profile", pages)
    if contents_pages(out) != pages:
        raise RuntimeError("the contents' page numbers moved between the two printings")
    text = subprocess.run(["pdftotext", "-l", "1", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    if book_front()["title"] not in text or "PRINT ERROR" in text:
        raise RuntimeError(f"{out}: the page's print script did not finish: {text[:2000]}")
    STAMPS.record(out, key)
    return out


if __name__ == "__main__":
    print(build(*sys.argv[1:2]))
