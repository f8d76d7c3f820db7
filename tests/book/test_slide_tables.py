"""Tables on slides are tables: :class:`bayescomp.book.Table`, which the decks render as HTML
tables with TeX in the headers, not text printed in monospace with plain-text symbols.

A printed table is a stream output of a cell on a slide with at least three lines, two or more
of them split by runs of spaces into three or more columns. No slide shows one.
"""
import re

import nbformat
import pytest

from tools import toc
from tools.slides.metadata import slide_type

def is_printed_table(text):
    lines = [line for line in text.splitlines() if line.strip()]
    columns = [len(re.split(r"\s{2,}", line.strip())) for line in lines]
    return len(lines) >= 3 and sum(count >= 3 for count in columns) >= 2


def printed_tables(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    return {(name, cell.id) for cell in notebook.cells
            if cell.cell_type == "code" and slide_type(cell) not in ("skip", "notes")
            for output in cell.get("outputs", [])
            if output.output_type == "stream" and is_printed_table(output.text)}


def test_the_check_sees_a_printed_table():
    assert is_printed_table("      a    b\nmean  1.0  2.0\nsd    0.5  0.7\n")
    assert not is_printed_table("ESS 681.1 of 20000, max weight 0.0029\nmean: -0.34, 1.49\n")
    assert not is_printed_table("a  b  c\n")


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_slide_tables_are_tables(name):
    found = printed_tables(name)
    assert found == set(), f"printed tables on slides, make them book.Table: {found}"
