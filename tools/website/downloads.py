"""Sphinx extension: "Download the book" under the title of the landing page and every chapter.

Two files, built by ``make book`` into ``_build/download/`` and served from the website's top
folder (``html_extra_path`` in ``_config.yml``):

- the archive (:mod:`tools.download.archive`): the chapter notebooks with their outputs, the
  ``bayescomp`` wheel, a locked reader requirements file and a README; Python is all it needs;
- the whole book as one PDF (:mod:`tools.pdf.build`).

Beside them the same folder holds the question bank for an LMS quiz
(:mod:`tools.download.question_bank`), which TEACHING.md and the deck index link.

The build warns (an error under ``-W``) when any of them is missing, so no page links to nothing.
"""
from pathlib import Path

from sphinx.util import logging

from ..download.archive import ARCHIVE_NAME
from ..download.question_bank import GIFT_NAME, MOODLE_NAME
from ..pdf.build import PDF_NAME
from ..toc import CHAPTERS, PAGES, ROOT

DOWNLOADS = ROOT / "_build" / "download"
LINK = ('<p class="download-links">Download the book: <a href="{up}{archive}">the chapters to run '
        'in Jupyter</a> (a {archive_size} zip of the notebooks and the book\'s package; it needs '
        'only Python, and its README says how) or <a href="{up}{pdf}">the whole book as one '
        'PDF</a> ({pdf_size}).</p>')

logger = logging.getLogger(__name__)


def size(path):
    megabytes = path.stat().st_size / 1e6
    return f"{megabytes:.1f} MB" if megabytes >= 1 else f"{path.stat().st_size // 1000} kB"


def check_files(app):
    if app.builder.format != "html":
        return
    for name in (ARCHIVE_NAME, PDF_NAME, MOODLE_NAME, GIFT_NAME):
        if not (DOWNLOADS / name).exists():
            logger.warning("%s is missing: `make book` builds it (the pages would link to "
                           "nothing)", DOWNLOADS / name)


def add_download_links(app, pagename, templatename, context, doctree):
    page = Path(pagename)
    if not (pagename == PAGES[0] or (page.parent.name == "chapters" and page.name in CHAPTERS)):
        return
    body = context.get("body", "")
    at = body.find("</h1>")
    if at < 0 or not all((DOWNLOADS / name).exists() for name in (ARCHIVE_NAME, PDF_NAME)):
        return
    at += len("</h1>")
    if body.startswith('<p class="slides-link">', at):   # below the deck link, if there is one
        at = body.index("</p>", at) + len("</p>")
    link = LINK.format(up="../" * pagename.count("/"), archive=ARCHIVE_NAME, pdf=PDF_NAME,
                       archive_size=size(DOWNLOADS / ARCHIVE_NAME),
                       pdf_size=size(DOWNLOADS / PDF_NAME))
    context["body"] = body[:at] + link + body[at:]


def copy_extra_files(app, exception):
    """Copy ``html_extra_path`` (the decks, handouts, archive and PDF) again at the end of every
    build: Sphinx copies it only when it rewrites some page, so a build in which only a deck or
    a download changed ("no targets are out of date") would serve the old one."""
    if exception is None and app.builder.format == "html" and hasattr(app.builder, "copy_extra_files"):
        app.builder.copy_extra_files()


def setup(app):
    app.connect("builder-inited", check_files)
    app.connect("build-finished", copy_extra_files)
    # After the deck links (priority 500), so the download line goes below them.
    app.connect("html-page-context", add_download_links, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
