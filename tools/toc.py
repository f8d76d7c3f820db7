"""The book's pages, read once from ``_toc.yml``.

Every build script, Sphinx extension, benchmark and test takes the chapter list from here, so
a chapter added to ``_toc.yml`` reaches the decks, the handouts, the deck links, the stored-output
check and the browser checks with no other edit.

- ``PAGES``: every page in reading order, as paths without a suffix (``"chapters/01_target"``);
- ``CHAPTERS``: the pages that are notebooks, by name (``"index"``, ``"01_target"``, ...): each
  runs as a notebook and gets a lecture deck;
- :func:`notebook`: a chapter's notebook file.

``python -m tools.toc`` prints the notebook paths, one a line (for shell scripts).
"""
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS_DIR = ROOT / "chapters"


def _files(entry):
    """The ``file`` entries of a table-of-contents node, depth first, in order."""
    if isinstance(entry, dict):
        if "file" in entry:
            yield entry["file"]
        for key in ("parts", "chapters", "sections"):
            for child in entry.get(key, []):
                yield from _files(child)
    elif isinstance(entry, list):
        for child in entry:
            yield from _files(child)


def read_pages(toc_path=ROOT / "_toc.yml"):
    """Every page of a Jupyter Book table of contents (root first), without a suffix."""
    toc = yaml.safe_load(Path(toc_path).read_text(encoding="utf-8"))
    pages = [toc["root"], *_files(toc)]
    return tuple(str(Path(page).with_suffix("")) for page in pages)


def notebook(name):
    """The notebook of chapter ``name`` (``"01_target"`` -> ``chapters/01_target.ipynb``)."""
    return CHAPTERS_DIR / f"{name}.ipynb"


PAGES = read_pages()
CHAPTERS = tuple(Path(page).name for page in PAGES if (ROOT / f"{page}.ipynb").exists())

if __name__ == "__main__":
    for name in CHAPTERS:
        print(notebook(name).relative_to(ROOT))
