"""A complete lecture (issue 20, points 3 and 4), read from the notebooks the decks are cut from.

Every slide has teaching notes that are a script for that slide (three to five points, short
enough for the speaker view, nothing that only makes sense in the book); the slides fall into
parts, each opened by a header in its first slide's notes, and each part holds one question for
the room (an Ask), so a lecture asks every 5 to 12 minutes rather than on every slide; every deck
ends on a summary slide (then only exercises); every exercise is on an exercise slide with its
statement. Negative controls show that the script and the part checks can fail. These read only
the notebooks, so `make test` runs them; that no slide of a *built* deck reaches the speaker view
without notes is checked in tests/browser/test_slides.py.
"""
import re

import nbformat
import pytest

from tools import toc
from tools.slides import lectures
from tools.slides.lectures import PART
from tools.slides.metadata import is_teaching_notes
from tools.toc import CHAPTERS

# What only makes sense on the page: "the cell below", "the figure above", "equation (3)", a
# {eq} role or a link to a figure label.
BOOK_ONLY = re.compile(
    r"\bcells?\b"
    r"|\b(?:figure|table|plot|listing|code|output|equation|formula)s?\s+(?:below|above)\b"
    r"|\b(?:below|above)\s+(?:figure|table|plot|listing|code|output|equation|formula)s?\b"
    r"|\b(?:see|shown|as)\s+(?:below|above)\b"
    r"|\bequations?\s*\(?\d|\{eq\}|\]\(#", re.I)
NOTES_POINTS = (3, 5)       # points per slide
NOTES_WORDS = 150           # what the speaker view shows without scrolling at 1100 x 700
# A part of a lecture opens with its header (lectures.PART), "**Part 2 · Four chains** (about 7
# min)"; the minutes are given for every part that is lectured, not for the exercises. Each
# part holds exactly one question for the room, a point starting "**Ask" (a poll slide's
# follow-up counts as its part's question).
ASK = re.compile(r"\*\*Ask\b")
PART_MINUTES = (5, 12)      # one question every 5 to 12 minutes (about one every 8 to 10)
SUMMARY_TITLE = re.compile(r"^(?:Summary|Takeaways)\b")
EXERCISE = re.compile(r"^:{3,}\{exercise\}\s*(?P<title>.+?)\s*$", re.M)
STATEMENT_WORDS = (12, 70)  # a statement one can read off a slide, not just a title


deck_slides = lectures.chapter_slides
slide_title = lectures.slide_title


def notes_of(cells):
    return [c for c in cells if is_teaching_notes(c)]


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_slide_has_teaching_notes(name):
    missing = [(k, slide_title(cells)) for k, cells in enumerate(deck_slides(name))
               if not any(c.source.strip() for c in notes_of(cells))]
    assert missing == [], f"slides of {name} without teaching notes (slide, title): {missing}"


def script_problems(text):
    """Why a slide's notes are not a script for it (an empty list when they are)."""
    found = []
    points = re.findall(r"^\s*(?:[-*+]|\d+\.)\s", text, re.M)
    if not NOTES_POINTS[0] <= len(points) <= NOTES_POINTS[1]:
        found.append(f"{len(points)} points, not {NOTES_POINTS[0]} to {NOTES_POINTS[1]}")
    text = re.sub(r"^\s*\(\d+ min[^)\n]*\)[ \t]*\n", "", text)  # the slide's minutes
    if len(text.split()) > NOTES_WORDS:
        found.append(f"{len(text.split())} words, more than {NOTES_WORDS}")
    found += [f"book-only reference {m[0]!r}" for m in BOOK_ONLY.finditer(text)]
    return found


def test_the_script_check_sees_book_prose():
    """Negative control: the chapter's prose, as the decks used to show it, fails the check."""
    prose = ("The cell below runs the chain, and [the figure below](#fig-walk) shows it; by "
             "equation (3) the weights cancel, as {eq}`eq-snis` says.")
    problems = script_problems(prose)
    assert any("points" in p for p in problems)
    assert len([p for p in problems if "book-only" in p]) >= 4
    assert any("words" in p for p in script_problems("- a\n- b\n- c " + "word " * 150))
    script = "- Say what the slide shows.\n- Point at the table.\n- Read the last row aloud."
    assert script_problems(script) == []


@pytest.mark.parametrize("name", CHAPTERS)
def test_teaching_notes_are_a_script(name):
    bad = [(k, slide_title(cells), problems) for k, cells in enumerate(deck_slides(name))
           for problems in [script_problems("\n".join(c.source for c in notes_of(cells)))]
           if notes_of(cells) and problems]
    assert bad == [], f"notes of {name} that are not a script (slide, title, why): {bad}"


def part_problems(slides):
    """Why a deck's parts do not pace its questions (an empty list when they do).

    ``slides`` is the deck in order, each slide as (title, notes text) or (title, notes text,
    kind), kind "poll" or "live figure" for such a slide. Every slide belongs to the part whose
    header came last; the first slide opens part 1, parts are numbered in order, no part
    starts on a poll's or a live figure's slide, each holds exactly one Ask, each lectured part
    (not one of exercise slides only) gives its minutes, 5 to 12, and together they fit a lecture.
    """
    found, parts = [], []
    for k, (title, notes, *kind) in enumerate(slides):
        headers = list(PART.finditer(notes))
        if len(headers) > 1:
            found.append(f"slide {k} ({title}): {len(headers)} part headers")
        if headers and kind and kind[0]:
            found.append(f"slide {k} ({title}): a part starts on a {kind[0]}'s slide")
        if headers:
            # The notes open with the slide's minutes (tools/slides/lectures.py), then the header.
            opening = re.sub(r"^\s*\(\d+ min[^)\n]*\)[ \t]*\n", "", notes)
            if not opening.lstrip().startswith(headers[0][0]):
                found.append(f"slide {k} ({title}): the part header does not open the notes")
            parts.append({"number": int(headers[0]["number"]), "title": headers[0]["title"],
                          "minutes": headers[0]["minutes"], "slides": []})
        elif not parts:
            found.append(f"slide {k} ({title}): no part header before it")
            continue
        parts[-1]["slides"].append((title, notes))
    numbers = [part["number"] for part in parts]
    if numbers != list(range(1, len(parts) + 1)):
        found.append(f"parts numbered {numbers}")
    for part in parts:
        name = f"part {part['number']} ({part['title']})"
        asks = sum(len(ASK.findall(notes)) for _, notes in part["slides"])
        if asks != 1:
            found.append(f"{name}: {asks} asks, not 1")
        exercises = all(title.startswith("Exercises") for title, _ in part["slides"])
        if exercises and part["minutes"]:
            found.append(f"{name}: exercises take no lecture minutes")
        elif not exercises and not part["minutes"]:
            found.append(f"{name}: no minutes")
        elif not exercises and not PART_MINUTES[0] <= int(part["minutes"]) <= PART_MINUTES[1]:
            found.append(f"{name}: {part['minutes']} min, not {PART_MINUTES[0]} to {PART_MINUTES[1]}")
    total = sum(int(part["minutes"] or 0) for part in parts)
    if total > lectures.LECTURE_MINUTES:
        found.append(f"{total} min in all, more than a {lectures.LECTURE_MINUTES}-minute lecture")
    return found


def test_the_part_check_sees_unpaced_questions():
    """Negative controls: a part without its question, a part with two, a part too long, a
    slide before any part, parts out of order, and minutes that do not fit a lecture."""
    ask, plain = "- a\n- b\n- **Ask:** \"Why?\"", "- a\n- b\n- c"
    head = lambda k, minutes=None: f"**Part {k} · P{k}**" + (f" (about {minutes} min)" if minutes else "")
    good = [("Title", head(1, 8) + "\n\n" + plain), ("Two", ask), ("Three", head(2, 6) + "\n\n" + ask),
            ("Exercises", head(3) + "\n\n" + ask), ("Exercises, continued", plain)]
    assert part_problems(good) == []
    assert any("0 asks" in p for p in part_problems(good[:1] + [("Two", plain)] + good[2:]))
    assert any("2 asks" in p for p in part_problems(good[:1] + [("Two", ask), ("Three", ask)]))
    assert any("20 min" in p for p in part_problems([("Title", head(1, 20) + "\n\n" + ask)]))
    assert any("no part header" in p for p in part_problems([("Title", ask)] + good[2:]))
    assert any("numbered" in p for p in part_problems(good[:2] + [("Three", head(3, 6) + "\n\n" + ask)]))
    assert any("no minutes" in p for p in part_problems([("Title", head(1) + "\n\n" + ask)]))
    five = [(f"S{k}", head(k, 12) + "\n\n" + ask) for k in range(1, 6)]
    assert any("more than" in p for p in part_problems(five))
    on_poll = good[:2] + [("Three", head(2, 6) + "\n\n" + ask, "poll")] + good[3:]
    assert any("starts on a poll's" in p for p in part_problems(on_poll))


def slide_kind(cells):
    """"poll" for a question's slide, "live figure" for a live figure's, else None."""
    sources = "\n".join(cell.source for cell in cells)
    if "data-widget=" in sources:
        return "live figure"
    return "poll" if "questions.ask(" in sources else None


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_part_asks_once(name):
    slides = [(slide_title(cells), "\n".join(c.source for c in notes_of(cells)), slide_kind(cells))
              for cells in deck_slides(name)]
    assert any(kind for *_, kind in slides) or name == "index", "no poll or live figure seen"
    bad = part_problems(slides)
    assert bad == [], f"the parts of {name} do not pace its questions: {bad}"


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_deck_ends_on_a_summary(name):
    titles = [slide_title(cells) for cells in deck_slides(name)]
    summaries = [k for k, title in enumerate(titles) if SUMMARY_TITLE.match(title)]
    assert summaries, f"{name} has no summary slide (titled Summary or Takeaways): {titles}"
    after = titles[summaries[-1] + 1:]
    assert all(title.startswith("Exercises") for title in after), (
        f"{name}: the summary should close the lecture, before the exercises; after it: {after}")


@pytest.mark.parametrize("name", CHAPTERS)
def test_exercise_slides_hold_their_statements(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    exercises = [m["title"] for c in notebook.cells if c.cell_type == "markdown"
                 for m in EXERCISE.finditer(c.source)]
    shown = "\n".join(c.source for cells in deck_slides(name)
                      if slide_title(cells).startswith("Exercises")
                      for c in cells if c.cell_type == "markdown"
                      and not is_teaching_notes(c))
    assert bool(exercises) == bool(shown), f"{name}: exercises {exercises}, exercise slides {bool(shown)}"
    for title in exercises:
        found = re.search(r"\*\*" + re.escape(title.rstrip(".?")) + r"[.?]?\*\*[.:]?[ \t]*(.+)", shown)
        assert found, f"{name}: exercise {title!r} is not on an exercise slide with its statement"
        words = len(found[1].split())
        assert STATEMENT_WORDS[0] <= words <= STATEMENT_WORDS[1], (
            f"{name}: the statement of {title!r} on its slide has {words} words, "
            f"not {STATEMENT_WORDS[0]} to {STATEMENT_WORDS[1]}")
