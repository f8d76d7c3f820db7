"""The website: Sphinx extensions (deck links, live figures, math and icons typeset when the book
is built, each page's scripts trimmed) and static files (CSS)."""
from pathlib import Path

# What a build writes besides its pages: static files, sources, figures, the decks and downloads.
NOT_PAGES = {"_static", "_sources", "_images", "slides", "download"}


def built_pages(outdir):
    """Every HTML page a build wrote into ``outdir`` (not the decks or static files)."""
    for path in sorted(Path(outdir).rglob("*.html")):
        if not NOT_PAGES & set(path.relative_to(outdir).parts[:-1]):
            yield path
