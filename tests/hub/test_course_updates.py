"""What nbgitpuller does to a student's work when the course changes, on the local hub.

The student's server pulls the book (the link's page reads nbgitpuller's event stream; here the
test reads it), the student changes files through their server's contents API (what JupyterLab
does on save), the course commits an update, and the student clicks the link again:

- a chapter the student edited and the course updated: the two merge cell by cell (git, hunk by
  hunk); where both changed the same lines, the student's version wins (``git merge -Xours``);
  the notebook stays valid;
- a file the student made where the course now adds one of the same name: the student's is
  renamed ``name__<timestamp>.ext``, the course's arrives;
- a chapter the student deleted comes back as the course has it on the next click;
- a chapter the student broke stays as it is on the next click (nbgitpuller never throws away a
  student's change); the documented route, rename or delete it and click again, brings the
  course's copy back, and the broken one stays under its new name;
- the student's other work (their own notebook, their edits elsewhere) is untouched throughout.
"""
import json
import re
import urllib.parse

import nbformat

from tools.hub.local import REPO_NAME

STUDENT = "updater"
MINE = f"{REPO_NAME}/my-work.ipynb"


def contents(hub, path, method="GET", body=None):
    url = f"/api/contents/{urllib.parse.quote(path)}"
    return hub.user_api(STUDENT, method, url + ("?content=1" if method == "GET" else ""), body)


def save_notebook(hub, path, notebook):
    contents(hub, path, "PUT", {"type": "notebook", "format": "json", "content": notebook})


def save_text(hub, path, text):
    contents(hub, path, "PUT", {"type": "file", "format": "text", "content": text})


def on_disk(hub, path):
    return (hub.home(STUDENT) / path).read_text(encoding="utf-8")


def notebook_on_disk(hub, path):
    notebook = nbformat.reads(on_disk(hub, path), as_version=4)
    nbformat.validate(notebook)
    return notebook


def markdown_cells(notebook):
    return [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"]


def test_pulls_merge_the_course_with_the_students_work(hub, course):
    hub.start_server(STUDENT)
    try:
        hub.pull(STUDENT, course.url)
        chapter = f"{REPO_NAME}/chapters/03_mcmc.ipynb"
        first = contents(hub, chapter)["content"]
        markdown = markdown_cells(nbformat.from_dict(first))
        early, middle = markdown[3], markdown[len(markdown) // 2]

        # The student's work: a note in one cell, a cell of their own at the end, a notebook of
        # their own, and a file whose name the course will use too.
        mine = nbformat.from_dict(first)
        mine.cells[middle].source = "My own words for this paragraph.\n\n" + mine.cells[middle].source
        mine.cells.append(nbformat.v4.new_markdown_cell("My notes on the exercises."))
        save_notebook(hub, chapter, mine)
        save_notebook(hub, MINE, nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")]))
        save_text(hub, f"{REPO_NAME}/chapters/extra.md", "the student's extra\n")
        my_work = on_disk(hub, MINE)

        # The course's update: a fix in an early cell, a change to the cell the student edited,
        # and a new file.
        stored = course.path / "chapters" / "03_mcmc.ipynb"
        update = nbformat.read(stored, as_version=4)
        update.cells[early].source = "The course's fix.\n\n" + update.cells[early].source
        update.cells[middle].source = "The course's new words.\n\n" + update.cells[middle].source
        nbformat.write(update, stored)
        (course.path / "chapters" / "extra.md").write_text("the course's extra\n")
        course.commit("Chapter 3 revised; an extra page")

        events = hub.pull(STUDENT, course.url)
        merged = notebook_on_disk(hub, chapter)
        assert merged.cells[early].source == update.cells[early].source, "the course's fix is missing"
        assert merged.cells[middle].source == mine.cells[middle].source, "the student's note was lost"
        assert merged.cells[-1].source == "My notes on the exercises."
        assert len(merged.cells) == len(update.cells) + 1
        assert on_disk(hub, MINE) == my_work
        assert on_disk(hub, f"{REPO_NAME}/chapters/extra.md") == "the course's extra\n"
        renamed = [p.name for p in (hub.home(STUDENT) / REPO_NAME / "chapters").glob("extra__*.md")]
        assert len(renamed) == 1 and re.fullmatch(r"extra__\d{14}\.md", renamed[0]), renamed
        assert on_disk(hub, f"{REPO_NAME}/chapters/{renamed[0]}") == "the student's extra\n"
        assert any("Renamed" in e.get("output", "") for e in events), events

        # Deleted: the next click restores the course's copy.
        target = f"{REPO_NAME}/chapters/01_target.ipynb"
        contents(hub, target, "DELETE")
        assert not (hub.home(STUDENT) / target).exists()
        hub.pull(STUDENT, course.url)
        assert on_disk(hub, target) == (course.path / "chapters" / "01_target.ipynb").read_text()

        # Broken: the next click keeps it (the student's change); renamed, the next click
        # restores the course's copy and the broken one stays as renamed.
        broken = f"{REPO_NAME}/chapters/02_importance_sampling.ipynb"
        cut = on_disk(hub, broken)[:5000]
        save_text(hub, broken, cut)
        hub.pull(STUDENT, course.url)
        assert on_disk(hub, broken) == cut
        aside = f"{REPO_NAME}/chapters/02_importance_sampling-broken.ipynb"
        contents(hub, broken, "PATCH", {"path": aside})
        hub.pull(STUDENT, course.url)
        course_copy = (course.path / "chapters" / "02_importance_sampling.ipynb").read_text()
        assert on_disk(hub, broken) == course_copy
        json.loads(on_disk(hub, broken))
        assert on_disk(hub, aside) == cut

        # Throughout, the student's other work stayed as it was.
        assert on_disk(hub, MINE) == my_work
        assert notebook_on_disk(hub, chapter).cells[middle].source == mine.cells[middle].source
    finally:
        hub.stop_servers([STUDENT])
