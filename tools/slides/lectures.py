"""The term: which parts of which decks make each 50-minute lecture, and how long they take.

Every slide's speaker notes open with its minutes, ``(2 min)``, on a line of their own; a slide a
lecturer may skip says so there, ``(2 min, optional: skip if short of time)``, and the exercise
slides, set for after the lecture, take ``(0 min, after the lecture)``. A part's header (the
next line, ``**Part 2 · Four chains** (about 7 min)``) gives the sum of its slides' minutes.

The lectures themselves are stated once, in ``lectures.json`` beside this file: for each
lecture, its decks (a chapter of ``_toc.yml``) and, where a deck is shared between two
lectures, the parts of it that lecture takes (what each covers is said in TEACHING.md's term
plan, whose lecture and decks columns must be this file's). Its minutes are not typed anywhere: they are the
sum of its slides' (questions included, since the polls are slides with their own minutes). A
deck split between two lectures has a break slide titled "Lecture N starts here..." opening the
later lecture's first part. ``tests/book/test_lectures.py`` checks the file against the decks
(each lecture at most 50 minutes, every part in one lecture) and the term plan's table in
TEACHING.md against the file; ``python -m tools.slides.lectures`` prints the plan with each
lecture's minutes (``make slides`` writes it to ``_build/reports/term-plan.md``).
"""
import json
import re
from pathlib import Path

import nbformat

from .. import toc
from .metadata import is_teaching_notes, slide_type

LECTURES = Path(__file__).resolve().parent / "lectures.json"
LECTURE_MINUTES = 50
#: The first line of every slide's notes: its minutes, and what kind of slide it is.
MINUTES = re.compile(r"^\((?P<minutes>\d+) min(?:, (?P<kind>optional: skip if short of time|"
                     r"after the lecture))?\)[ \t]*$", re.M)
OPTIONAL = "optional: skip if short of time"
PART = re.compile(r"^\*\*Part (?P<number>\d+) · (?P<title>[^*\n]+)\*\*"
                  r"(?: \(about (?P<minutes>\d+) min\))?[ \t]*$", re.M)
BREAK = re.compile(r"^Lecture (?P<lecture>\d+) starts here\b")


def deck_slides(notebook):
    """A chapter's slides as nbconvert cuts them, each the list of its cells (skipped cells
    left out; a notes cell belongs to the slide whose content it follows)."""
    slides = []
    for cell in notebook.cells:
        kind = slide_type(cell)
        if kind == "skip":
            continue
        if kind in ("slide", "subslide") or not slides:
            slides.append([])
        slides[-1].append(cell)
    return slides


def chapter_slides(name):
    """:func:`deck_slides` of the chapter named ``name`` in ``_toc.yml``, read from its notebook."""
    return deck_slides(nbformat.read(toc.notebook(name), as_version=4))


def slide_title(cells):
    for cell in cells:
        found = re.search(r"^#{1,3}\s+(.+?)\s*$|<h1>(.+?)</h1>", cell.source, re.M)
        if cell.cell_type == "markdown" and found:
            return found[1] or found[2]
    return ""


def slide_notes(cells):
    return "\n".join(c.source for c in cells if is_teaching_notes(c))


def timed_slides(notebook):
    """Each slide as a dict: title, notes, minutes (None when its notes do not open with
    them), optional, after (an exercise slide), and the part it belongs to (None before any)."""
    slides, part = [], None
    for cells in deck_slides(notebook):
        notes = slide_notes(cells)
        first = notes.lstrip().split("\n", 1)[0]
        timed = MINUTES.fullmatch(first.strip())
        rest = notes.lstrip().split("\n", 1)[1].lstrip() if timed and "\n" in notes.lstrip() else notes
        header = PART.match(rest.lstrip())
        if header:
            part = int(header["number"])
        slides.append({"title": slide_title(cells), "notes": notes,
                       "minutes": int(timed["minutes"]) if timed else None,
                       "optional": bool(timed) and timed["kind"] == OPTIONAL,
                       "after": bool(timed) and timed["kind"] == "after the lecture",
                       "part": part, "header": header and {
                           "number": int(header["number"]), "title": header["title"],
                           "minutes": int(header["minutes"]) if header["minutes"] else None}})
    return slides


def deck_parts(notebook):
    """{part number: {"title", "minutes" (the header's), "slides": [...]}} of a deck."""
    parts = {}
    for slide in timed_slides(notebook):
        if slide["header"]:
            parts[slide["part"]] = {**slide["header"], "slides": []}
        if slide["part"] in parts:
            parts[slide["part"]]["slides"].append(slide)
    return parts


def load(path=LECTURES):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def notebooks():
    return {name: nbformat.read(toc.notebook(name), as_version=4) for name in toc.CHAPTERS}


def lecture_minutes(lecture, decks):
    """(minutes, optional minutes) of a lecture: the sum over the slides of its decks' parts
    (every part of a deck when the lecture names none)."""
    minutes = optional = 0
    for entry in lecture["decks"]:
        parts = deck_parts(decks[entry["chapter"]])
        for number in entry.get("parts", sorted(parts)):
            for slide in parts[number]["slides"]:
                minutes += slide["minutes"] or 0
                optional += (slide["minutes"] or 0) if slide["optional"] else 0
    return minutes, optional


def deck_number(chapter):
    return "00" if chapter == "index" else chapter[:2]


def decks_cell(lecture):
    """How the term plan's table names a lecture's decks: "00, 01" or "04 (parts 1-4), 05"."""
    names = []
    for entry in lecture["decks"]:
        parts = entry.get("parts")
        names.append(deck_number(entry["chapter"]) + (
            f" (parts {parts[0]}-{parts[-1]})" if parts and len(parts) > 1 else
            f" (part {parts[0]})" if parts else ""))
    return ", ".join(names)


def table(plan, decks):
    """The term plan with each lecture's minutes, from the decks (the report's table)."""
    rows = ["| lecture | decks | minutes | of which optional |", "|---|---|---|---|"]
    for lecture in plan["lectures"]:
        minutes, optional = lecture_minutes(lecture, decks)
        rows.append(f"| {lecture['lecture']} | {decks_cell(lecture)} | {minutes} | {optional} |")
    return "\n".join(rows)


if __name__ == "__main__":
    plan = load()
    print(f"# The term plan\n\nEach lecture's minutes, summed from its slides' speaker notes "
          f"(at most {plan['lecture_minutes']} each, questions and polls included); what each covers: "
          f"TEACHING.md, \"Term plan\".\n")
    print(table(plan, notebooks()))
