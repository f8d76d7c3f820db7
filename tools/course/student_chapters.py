"""Student copies of the chapters: every exercise's worked solution removed, nothing else.

A chapter marks each solution with sphinx-exercise's gated directives, in Markdown cells:

    :::{solution-start} ex-label
    :class: dropdown
    :::
    ... the solution: Markdown and code cells ...
    :::{solution-end}
    :::

The start directive shares its cell with the exercise's statement (and sometimes with the
solution's first paragraph), the end directive with the solution's last one. A copy keeps the
text before the start directive in its cell and the text after the end directive in its cell,
and drops everything between, whole cells included; every other cell (its source, metadata,
id and outputs) and the notebook's metadata stay as they are. A solution marked any other way
(a plain ``solution`` directive, a start with no end) is an error, so a new form cannot leak.

Usage: python -m tools.course.student_chapters OUT   (make student-chapters OUT=dir)

writes OUT/chapters/<chapter>.ipynb for every chapter, copies the chapters' other files
(references, notation) unchanged, and writes OUT/README.md.
"""
import argparse
import re
import shutil
from pathlib import Path

import nbformat

from .. import edition
from ..toc import CHAPTERS, CHAPTERS_DIR, notebook

START = re.compile(r"^:::\{solution-start\}.*?\n:::[ \t]*$\n?", re.M | re.S)
END = re.compile(r"^:::\{solution-end\}[ \t]*\n:::[ \t]*$\n?", re.M)
ANY = re.compile(r"\{solution(?:-start|-end)?\}")


class SolutionError(ValueError):
    pass


def strip_solutions(nb, name="notebook"):
    """A copy of ``nb`` (nbformat v4) without its exercises' solutions."""
    out = nbformat.from_dict(nb)
    cells, inside = [], False
    for index, cell in enumerate(nb.cells):
        source = cell.source
        marks = ANY.findall(source) if cell.cell_type == "markdown" else []
        if not marks:
            if not inside:
                cells.append(nbformat.from_dict(cell))
            continue
        if len(START.findall(source)) + len(END.findall(source)) != len(marks):
            raise SolutionError(f"{name}, cell {index}: a solution marked in a form this tool "
                                f"does not know: {marks}")
        keep, cursor = [], 0
        while True:        # the cell's directives in their order: keep what lies outside
            pattern = END if inside else START
            match = pattern.search(source, cursor)
            if match is None:
                break
            if not inside:
                keep.append(source[cursor:match.start()])
            cursor, inside = match.end(), not inside
        if (START if inside else END).search(source, cursor):
            where = "inside a solution" if inside else "with no start"
            raise SolutionError(f"{name}, cell {index}: a solution directive {where}")
        if not inside:
            keep.append(source[cursor:])
        text = "".join(keep).strip("\n")
        if text.strip():
            copy = nbformat.from_dict(cell)
            copy.source = text
            cells.append(copy)
    if inside:
        raise SolutionError(f"{name}: a solution-start with no solution-end")
    out.cells = cells
    return out


README = """# {title}: the chapters for students

The chapters of *{title}* ({version}), with every exercise's worked solution removed, for a
course's JupyterHub: its nbgitpuller links open `chapters/<chapter>.ipynb` from this
repository. Written by `make student-chapters` in the book's repository; do not edit these
copies, make them again from the book instead.

{notice}
"""


def write(out):
    out = Path(out)
    target = out / "chapters"
    target.mkdir(parents=True, exist_ok=True)
    for name in CHAPTERS:
        nb = nbformat.read(notebook(name), as_version=4)
        nbformat.write(strip_solutions(nb, name), target / f"{name}.ipynb")
    for path in sorted(CHAPTERS_DIR.iterdir()):
        if path.is_file() and path.suffix != ".ipynb":
            shutil.copy2(path, target / path.name)
    (out / "README.md").write_text(README.format(
        title=edition.config()["title"], version=edition.version(),
        notice=edition.notice_markdown()), encoding="utf-8")
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the folder to write (the course's repository)")
    args = parser.parse_args(argv)
    print(f"Student copies of {len(CHAPTERS)} chapters in {write(args.out)}")


if __name__ == "__main__":
    main()
