"""The student copies of the chapters (``make student-chapters``, ``tools/course/student_chapters.py``):
every exercise's solution removed, and nothing else, compared with the chapters cell by cell.

The solutions are found here independently of the tool, by their gated directives'
positions: a solution runs from the line ``:::{solution-start}`` in one Markdown cell to the
line after ``:::{solution-end}`` in the same or a later one. Each copy must then hold, in order,
exactly the chapter's cells outside the solutions, unchanged (source, metadata, id, outputs);
the cells that hold a directive, cut at it; every exercise's statement; and no line of any
solution.
"""
import filecmp

import nbformat
import pytest

from tools.course import student_chapters
from tools.toc import CHAPTERS, CHAPTERS_DIR, notebook

START, END = ":::{solution-start}", ":::{solution-end}"


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    out = tmp_path_factory.mktemp("course")
    student_chapters.main([str(out)])
    return out


def solutions(nb):
    """(cell index, character offset) of each solution's start and of its end's last character."""
    found, start = [], None
    for index, cell in enumerate(nb.cells):
        text = cell.source
        position = 0
        while True:
            if start is None:
                at = text.find(START, position)
                if at < 0:
                    break
                start, position = (index, at), at
            else:
                at = text.find(END, position)
                if at < 0:
                    break
                close = text.find(":::", at + len(END))
                stop = close + 3
                found.append((start, (index, stop)))
                start, position = None, stop
    assert start is None, "a solution that never ends"
    return found


def expected_cells(nb):
    """The chapter's cells with the solutions cut out, as (id, source) pairs."""
    spans = solutions(nb)
    kept = []
    for index, cell in enumerate(nb.cells):
        pieces, cursor = [], 0
        inside = any(s[0] < index < e[0] for s, e in spans)
        if inside:
            continue
        if not any(index in (s[0], e[0]) for s, e in spans):
            kept.append((cell.id, cell.source))
            continue
        for (s_cell, s_at), (e_cell, e_at) in spans:
            if s_cell == index:
                pieces.append(cell.source[cursor:s_at])
                cursor = None
            if e_cell == index:
                cursor = e_at
        if cursor is not None:
            pieces.append(cell.source[cursor:])
        text = "".join(pieces).strip("\n")
        if text.strip():
            kept.append((cell.id, text))
    return kept


@pytest.mark.parametrize("name", CHAPTERS)
def test_each_copy_is_its_chapter_without_the_solutions(copies, name):
    source = nbformat.read(notebook(name), as_version=4)
    copy = nbformat.read(copies / "chapters" / f"{name}.ipynb", as_version=4)
    assert copy.metadata == source.metadata
    assert [(c.id, c.source) for c in copy.cells] == expected_cells(source)
    by_id = {c.id: c for c in source.cells}
    for cell in copy.cells:
        original = by_id[cell.id]
        assert cell.cell_type == original.cell_type and cell.metadata == original.metadata
        if cell.source == original.source:
            assert cell == original, f"{name}: cell {cell.id} changed"
    # Nothing of any solution is left, and every exercise's statement is.
    text = "\n".join(c.source for c in copy.cells)
    assert "{solution" not in text
    assert text.count(":::{exercise}") == sum(c.source.count(":::{exercise}") for c in source.cells)
    for (s_cell, _), (e_cell, _) in solutions(source):
        for inner in source.cells[s_cell + 1:e_cell]:
            assert inner.id not in {c.id for c in copy.cells}
    if any(START in c.source for c in source.cells):
        assert len(copy.cells) < len(source.cells)


def test_every_chapter_with_exercises_loses_its_solutions():
    counts = {name: len(solutions(nbformat.read(notebook(name), as_version=4))) for name in CHAPTERS}
    assert sum(counts.values()) >= 3 * (len(CHAPTERS) - 1), counts


def test_the_other_pages_are_copied_unchanged(copies):
    others = [p for p in CHAPTERS_DIR.iterdir() if p.is_file() and p.suffix != ".ipynb"]
    assert others
    for path in others:
        assert filecmp.cmp(path, copies / "chapters" / path.name, shallow=False), path.name
    assert "solution" in (copies / "README.md").read_text()


def markdown(*sources):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(s) for s in sources])


@pytest.mark.parametrize("cells", [
    (":::{solution} ex-a\nThe answer.\n:::",),                       # a plain solution directive
    (":::{solution-start} ex-a\n:::", "The answer."),               # never ends
    ("The answer.", ":::{solution-end}\n:::"),                      # ends without a start
])
def test_a_solution_in_an_unknown_form_is_an_error(cells):
    with pytest.raises(student_chapters.SolutionError):
        student_chapters.strip_solutions(markdown(*cells))


def test_a_solution_inside_one_cell_is_cut_there():
    nb = markdown("Statement.\n\n:::{solution-start} ex-a\n:::\nAnswer.\n:::{solution-end}\n:::\nAfter.")
    assert [c.source for c in student_chapters.strip_solutions(nb).cells] == ["Statement.\n\nAfter."]
