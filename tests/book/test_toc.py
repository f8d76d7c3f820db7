"""The table of contents is the one chapter list (tools/toc.py reads it): it must hold every
notebook in chapters/, and every page it lists must exist."""
from tools import toc


def test_every_notebook_is_in_the_table_of_contents():
    stored = sorted(path.stem for path in toc.CHAPTERS_DIR.glob("*.ipynb"))
    assert sorted(toc.CHAPTERS) == stored, "add the notebook to _toc.yml (or delete it)"


def test_every_page_of_the_table_of_contents_exists():
    missing = [page for page in toc.PAGES
               if not any((toc.ROOT / f"{page}{suffix}").exists() for suffix in (".ipynb", ".md"))]
    assert missing == []


def test_pages_are_read_in_order_through_parts_and_sections(tmp_path):
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n"
        "  - caption: One\n    chapters:\n      - file: a/first.ipynb\n"
        "        sections:\n          - file: a/inner\n"
        "  - caption: Two\n    chapters:\n      - file: b/second\n")
    assert toc.read_pages(tmp_path / "_toc.yml") == ("intro", "a/first", "a/inner", "b/second")
