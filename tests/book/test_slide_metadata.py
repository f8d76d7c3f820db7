"""The chapters' slide metadata conventions (``tools/slides/metadata.py``) and the speaker notes
the deck builder makes from them.

- Every chapter keeps the conventions: each ``teaching-notes`` cell is a Markdown cell of slide
  type ``notes``, tagged ``remove-cell``, collapsed in JupyterLab, after the first slide; each
  figure cell (``slides-hide-input``) is collapsed in JupyterLab, so RISE hides its code.
- A chapter with teaching notes has no other notes cells (RISE would show its prose as notes).
- A slide whose notes call it optional is marked so on the slide.
- The builder attaches each teaching-notes cell to the slide whose content it follows, also
  after a build-up step; leftover prose stays off the deck; a chapter without teaching notes
  keeps its prose as notes, moved to the slide that follows it (the transition).
"""
import re

import nbformat
from tools import toc
from tools.slides import build, metadata


def chapter(name):
    return nbformat.read(toc.notebook(name), as_version=4)


def test_every_chapter_keeps_the_conventions():
    found = metadata.check_chapters([toc.notebook(name) for name in toc.CHAPTERS])
    assert found == [], "run `python -m tools.slides.metadata`:\n" + "\n".join(found)


# A backslash-n not followed by a letter is an escaped newline that reached the text, never a
# LaTeX command (those are \nabla, \neq, ...): a lecturer's notes showed it literally.
LITERAL_NEWLINE = re.compile(r"\\n(?![A-Za-z])")


def test_no_markdown_cell_holds_a_literal_backslash_n():
    found = [(name, cell.get("id")) for name in toc.CHAPTERS for cell in chapter(name).cells
             if cell.cell_type == "markdown" and LITERAL_NEWLINE.search(cell.source)]
    assert found == [], found
    assert LITERAL_NEWLINE.search("one line,\\n  the next") and not LITERAL_NEWLINE.search(r"\nabla")


def test_chapters_with_teaching_notes_have_no_other_notes():
    """(Chapters without teaching notes, still in the transition, keep their prose as notes.)"""
    prose = {}
    for name in toc.CHAPTERS:
        notebook = chapter(name)
        if metadata.has_teaching_notes(notebook):
            prose[name] = [i for i, cell in enumerate(notebook.cells)
                           if metadata.slide_type(cell) == "notes"
                           and not metadata.is_teaching_notes(cell)]
    assert all(cells == [] for cells in prose.values()), (
        f"notes cells that are not teaching notes (make them skip): {prose}")


def cell(kind, source, slide_type=None, tags=()):
    new = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    made = new(source)
    if slide_type:
        made.metadata["slideshow"] = {"slide_type": slide_type}
    if tags:
        made.metadata["tags"] = list(tags)
    return made


def notes_cell(text):
    made = cell("markdown", text, "notes", ["teaching-notes", "remove-cell"])
    made.metadata["jupyter"] = {"source_hidden": True}
    return made


def notebook_of(cells):
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


def deck_slides(notebook):
    """(slide text, notes text) of every slide of the exported deck."""
    from bs4 import BeautifulSoup
    body, _ = build.exporter().from_notebook_node(build.speaker_notes(build.plain_notes(notebook)))
    found = []
    for section in BeautifulSoup(body, "html.parser").select(".reveal .slides > section"):
        notes = " ".join(aside.get_text(" ") for aside in section.select("aside.notes"))
        for aside in section.select("aside.notes"):
            aside.decompose()
        text = lambda words: " ".join(words.replace("\u00b6", "").split())
        found.append((text(section.get_text(" ")), text(notes)))
    return found


def test_teaching_notes_go_with_the_slide_they_follow():
    notebook = notebook_of([
        cell("markdown", "# Chapter\n\nProse of the introduction.", "notes"),
        cell("markdown", "# Title slide", "slide"),
        notes_cell("Say hello ALPHA."),
        cell("markdown", "## A section\n\nProse of the section BETA.", "notes"),
        cell("markdown", "## Second slide", "slide"),
        cell("markdown", "A step shown later.", "fragment"),
        cell("code", "x = 1", "skip"),
        notes_cell("Point at the step GAMMA."),
        notes_cell("Ask the room DELTA."),
        cell("markdown", "## Third slide", "slide"),
    ])
    slides = deck_slides(notebook)
    assert [s[0].split()[:2] for s in slides] == [["Title", "slide"], ["Second", "slide"],
                                                  ["Third", "slide"]]
    assert slides[0][1] == "Say hello ALPHA."
    assert slides[1][1] == "Point at the step GAMMA. Ask the room DELTA."
    assert slides[2][1] == ""
    assert "BETA" not in " ".join(map(" ".join, slides)), "prose must stay off the deck"


def test_without_teaching_notes_the_prose_is_the_next_slides_notes():
    notebook = notebook_of([
        cell("markdown", "# Title slide", "slide"),
        cell("markdown", "# Chapter\n\nIntroduction EPSILON.", "notes"),
        cell("markdown", "## A section\n\nProse of the section ZETA.", "notes"),
        cell("code", "setup = 1", "skip"),
        cell("markdown", "## Section slide", "slide"),
    ])
    slides = deck_slides(notebook)
    assert "EPSILON" in slides[0][1] and "ZETA" not in slides[0][1]
    assert "ZETA" in slides[1][1]


def test_a_slide_the_notes_call_optional_says_so_on_the_slide():
    notebook = notebook_of([
        cell("markdown", '<p class="kicker">09 · A chapter</p>\n\n## Kept', "slide"),
        notes_cell("(3 min)\n\nSay it."),
        cell("markdown", '<p class="kicker">09 · A chapter</p>\n\n## Skippable', "slide"),
        notes_cell("(2 min, optional: skip if short of time)\n\nIf there is time."),
        cell("markdown", "## No kicker", "slide"),
        notes_cell("(2 min, optional: skip if short of time)\n\nAlso skippable."),
        cell("markdown", "## After", "slide"),
        notes_cell("(5 min, after the lecture)\n\nAn exercise, optional in spirit only."),
    ])
    slides = [text.split() for text, _ in deck_slides(build.with_optional_marks(notebook))]
    assert ["optional" in words for words in slides] == [False, True, True, False]
    assert slides[1][:5] == ["09", "·", "A", "chapter", "optional"]   # at the kicker's end
    assert slides[2][0] == "optional"                                # a kicker of its own
    # Every chapter: as many marks on the slides as notes that call their slide optional.
    chapters = {name: build.with_optional_marks(chapter(name)) for name in toc.CHAPTERS}
    shown = sum(f'class="{build.OPTIONAL_CLASS}"' in c.source
                for notebook in chapters.values() for c in notebook.cells)
    said = sum(c.source.lstrip().startswith("(") and "optional: skip if short of time" in
               c.source.split("\n", 1)[0] for notebook in map(chapter, toc.CHAPTERS)
               for c in notebook.cells if metadata.is_teaching_notes(c))
    assert shown == said > 0


def test_metadata_check_finds_and_apply_fixes():
    bare_notes = cell("markdown", "Notes.", None, ["teaching-notes"])
    figure = cell("code", "plot()", "-", ["slides-hide-input"])
    early = notes_cell("Before any slide.")
    notebook = notebook_of([early, cell("markdown", "# Title", "slide"), bare_notes, figure])
    found = metadata.problems(notebook)
    assert any("before the first slide" in p for p in found)
    assert {p for p in found if p.startswith("cell 2")} == {
        "cell 2: no slide type notes", "cell 2: no tag remove-cell",
        "cell 2: no jupyter.source_hidden"}
    assert found.count("cell 3: no jupyter.source_hidden") == 1
    assert metadata.apply(notebook) == 4
    assert metadata.problems(notebook) == ["cell 0: teaching notes before the first slide "
                                           "belong to no slide"]
    assert metadata.apply(notebook) == 0
