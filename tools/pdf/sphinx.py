"""The book as one HTML page (Sphinx's ``singlehtml`` builder, through Jupyter Book), for print.

The page is built from the website's own configuration and table of contents, with three
changes for print (written to ``_build/pdf/``):

- the chapters are numbered (1 to 7) and so are their sections, figures, equations and exercises
  ("Fig. 3.2", "(4.1)", "Exercise 2.3"), since one volume needs numbers that are unique in it;
  the landing page opens the book unnumbered, and the pages after the last chapter (notation,
  references, the API reference) form an unnumbered back matter; the website-only execution
  table is left out;
- the website-only links (the deck links, the download links) are not added, and the page
  gets ``tools/pdf/static/`` (``print.css`` and ``print.js``: a title page, the contents, the
  live figures as stills, the solutions in an appendix);
- the notebooks are not executed again: the build reuses the website's execution cache.

Usage: python -m tools.pdf.sphinx   (writes _build/pdf/singlehtml/index.html)
"""
import subprocess
import sys
from pathlib import Path

import yaml

from .. import toc
from ..toc import ROOT

OUT = ROOT / "_build" / "pdf"
WEBSITE_ONLY_PAGES = ("chapters/execution",)
WEBSITE_ONLY_EXTENSIONS = ("tools.website.deck_links", "tools.website.downloads")


def print_toc():
    """The website's pages in its order: the root, numbered chapters, then back matter."""
    pages = [page for page in toc.PAGES[1:] if page not in WEBSITE_ONLY_PAGES]
    chapters = [page for page in pages if Path(page).name in toc.CHAPTERS]
    back = [page for page in pages if page not in chapters]
    parts = [{"caption": "Chapters", "numbered": True, "chapters": [{"file": p} for p in chapters]}]
    if back:
        parts.append({"caption": "Back matter", "chapters": [{"file": p} for p in back]})
    return {"format": "jb-book", "root": toc.PAGES[0], "parts": parts}


def print_config():
    """The website's ``_config.yml`` with the print changes above."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config["execute"]["cache"] = str(ROOT / config["execute"]["cache"])
    sphinx = config["sphinx"]
    sphinx["local_extensions"] = {name: str(ROOT) for name in sphinx["local_extensions"]
                                  if name not in WEBSITE_ONLY_EXTENSIONS}
    settings = sphinx["config"]
    settings["numfig_secnum_depth"] = 1
    settings["html_extra_path"] = []
    settings["html_static_path"] = [*settings["html_static_path"], "tools/pdf/static"]
    settings["html_css_files"] = [*settings["html_css_files"], "print.css"]
    settings["html_js_files"] = ["print.js"]
    return config


def build():
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "_toc.yml").write_text(yaml.safe_dump(print_toc(), sort_keys=False), encoding="utf-8")
    (OUT / "_config.yml").write_text(yaml.safe_dump(print_config(), sort_keys=False),
                                     encoding="utf-8")
    subprocess.run([sys.executable, "-m", "jupyter", "book", "build", str(ROOT), "--builder",
                    "singlehtml", "--path-output", str(OUT), "--config", str(OUT / "_config.yml"),
                    "--toc", str(OUT / "_toc.yml"), "-W", "-n", "--keep-going"], check=True)
    return at_top(OUT / "_build" / "singlehtml")


def at_top(folder):
    """The page as ``book.html`` in the build's top folder, where its relative links point.

    The root page is ``chapters/index``, so singlehtml writes ``chapters/index.html``, yet its
    links to ``_static/`` and ``_images/`` are relative to the top folder, and its links within
    the book point at ``chapters/index.html#...``: they become ``#...``, links inside the PDF.
    """
    root = toc.PAGES[0]
    text = (folder / f"{root}.html").read_text(encoding="utf-8")
    text = text.replace(f'href="{root}.html#', 'href="#')
    page = folder / "book.html"
    page.write_text(text, encoding="utf-8")
    return page


if __name__ == "__main__":
    print(build())
