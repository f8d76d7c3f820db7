"""The term: every slide's notes open with its minutes, the parts' headers add them up, the
lectures of tools/slides/lectures.json take every part of every deck once, each lecture at most
50 minutes by its slides' own minutes, and the term plan's table in TEACHING.md is that file."""
import copy
import re

import pytest

from tools import toc
from tools.slides import lectures
from tools.toc import ROOT

DECKS = lectures.notebooks()
PLAN = lectures.load()


def minutes_problems(slides):
    """Why a deck's slides are not timed (an empty list when they are)."""
    found, parts = [], {}
    for k, slide in enumerate(slides, 1):
        if slide["minutes"] is None:
            found.append(f"slide {k} ({slide['title']}): its notes do not open with its minutes")
            continue
        if slide["after"] and slide["minutes"]:
            found.append(f"slide {k}: an exercise slide takes no lecture minutes")
        if slide["optional"] and ("**Ask" in slide["notes"] or slide["header"]):
            found.append(f"slide {k}: an optional slide holds its part's start or question")
        if slide["part"] is not None:
            parts.setdefault(slide["part"], [None, 0])[1] += slide["minutes"]
            if slide["header"]:
                parts[slide["part"]][0] = slide["header"]["minutes"] or 0
    for number, (stated, summed) in parts.items():
        if stated != summed:
            found.append(f"part {number}: header says {stated} min, its slides {summed}")
    return found


@pytest.mark.parametrize("name", toc.CHAPTERS)
def test_every_slide_opens_with_its_minutes(name):
    bad = minutes_problems(lectures.timed_slides(DECKS[name]))
    assert bad == [], f"{name}: {bad}"


def test_the_minutes_check_sees_untimed_slides():
    """Negative controls: a slide without its minutes, a part whose header disagrees with its
    slides, an optional slide that holds the part's question."""
    check = lambda *notes: minutes_problems(lectures.timed_slides(fake(notes)))
    head, ask = "(3 min)\n\n**Part 1 · P** (about 5 min)\n\n- a", "(2 min)\n\n- **Ask:** b"
    assert check(head, ask) == []
    assert any("do not open" in p for p in check(head, "- **Ask:** b"))
    assert any("header says 5" in p for p in check(head, "(3 min)\n\n- c"))
    assert any("optional" in p for p in check(
        head, "(2 min, optional: skip if short of time)\n\n- **Ask:** b"))


def fake(notes):
    """A deck of one slide per notes text."""
    import nbformat
    cells = []
    for k, text in enumerate(notes):
        cells += [nbformat.v4.new_markdown_cell(f"## S{k}", metadata={"slideshow": {"slide_type": "slide"}}),
                  nbformat.v4.new_markdown_cell(text, metadata={"slideshow": {"slide_type": "notes"},
                                                                "tags": ["teaching-notes"]})]
    return nbformat.v4.new_notebook(cells=cells)


def plan_problems(plan, decks):
    """Why a term plan does not agree with the decks (an empty list when it does)."""
    found, covered = [], []
    limit = plan["lecture_minutes"]
    if [lecture["lecture"] for lecture in plan["lectures"]] != list(range(1, len(plan["lectures"]) + 1)):
        found.append("lectures not numbered 1, 2, ...")
    for lecture in plan["lectures"]:
        minutes, _ = lectures.lecture_minutes(lecture, decks)
        if "minutes" in lecture:
            found.append(f"lecture {lecture['lecture']}: minutes typed in the plan; they are its "
                         f"slides' sum ({minutes})")
        if minutes > limit:
            found.append(f"lecture {lecture['lecture']}: {minutes} min, more than {limit}")
        for k, entry in enumerate(lecture["decks"]):
            parts = lectures.deck_parts(decks[entry["chapter"]])
            chosen = entry.get("parts", sorted(parts))
            covered += [(entry["chapter"], number) for number in chosen]
            if "parts" in entry and chosen[0] != min(parts) and k == 0:
                opening = parts[chosen[0]]["slides"][0]["title"]
                found += [] if (re.match(lectures.BREAK, opening) and int(
                    re.match(lectures.BREAK, opening)["lecture"]) == lecture["lecture"]) else [
                    f"lecture {lecture['lecture']} starts in {entry['chapter']} on {opening!r}, "
                    f"not on a slide titled 'Lecture {lecture['lecture']} starts here'"]
    wanted = [(name, number) for name in toc.CHAPTERS for number in sorted(
        lectures.deck_parts(decks[name]))]
    if covered != wanted:
        found.append(f"the lectures do not take every part of every deck once, in order: "
                     f"{sorted(set(wanted) ^ set(covered)) or 'out of order'}")
    return found


def test_the_lectures_agree_with_the_decks():
    assert plan_problems(PLAN, DECKS) == []


def test_the_plan_check_sees_a_wrong_plan():
    typed = copy.deepcopy(PLAN)
    typed["lectures"][1]["minutes"] = 48
    assert any("typed" in p for p in plan_problems(typed, DECKS))
    merged = copy.deepcopy(PLAN)
    merged["lectures"][1]["decks"] += merged["lectures"][2]["decks"]
    del merged["lectures"][2]
    assert any("more than" in p for p in plan_problems(merged, DECKS))
    moved = copy.deepcopy(PLAN)
    moved["lectures"][3]["decks"][0]["parts"] = [1, 2, 3]
    moved["lectures"][4]["decks"][0]["parts"] = [4, 5, 6, 7]
    assert any("starts here" in p for p in plan_problems(moved, DECKS))


def teaching_table(text):
    """The rows of TEACHING.md's table under its "Term plan" heading, as lists of cells."""
    section = re.search(r"^#+ Term plan\s*$(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert section, "TEACHING.md has no 'Term plan' section"
    block = re.search(r"(?:^\|.*\n?)+", section[1], re.M)   # the section's first table
    assert block, "TEACHING.md's 'Term plan' section has no table"
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in block[0].splitlines()]
    return rows[0], rows[2:]


def table_problems(text, plan):
    header, rows = teaching_table(text)
    wanted = {"lecture", "decks", "what it covers"}
    if not wanted <= {h.lower() for h in header}:
        return [f"the table's columns {header} lack {sorted(wanted)}"]
    at = {h.lower(): k for k, h in enumerate(header)}
    shown = [(row[at["lecture"]], row[at["decks"]]) for row in rows]
    stated = [(str(lecture["lecture"]), lectures.decks_cell(lecture)) for lecture in plan["lectures"]]
    found = [] if shown == stated else [f"TEACHING.md has {shown}, lectures.json gives {stated}"]
    return found + [f"lecture {row[at['lecture']]}: says nothing of what it covers"
                    for row in rows if not row[at["what it covers"]]]


def test_teaching_md_term_plan_agrees():
    text = (ROOT / "TEACHING.md").read_text(encoding="utf-8")
    assert table_problems(text, PLAN) == []
    # Negative controls: a row with other decks, a row that covers nothing.
    row = next(line for line in text.splitlines() if line.startswith("| 2 | 02 |"))
    wrong = text.replace(row, row.replace("| 02 |", "| 02, 03 |"), 1)
    assert wrong != text and table_problems(wrong, PLAN) != []
    empty = text.replace(row, "| 2 | 02 | |", 1)
    assert any("covers" in p for p in table_problems(empty, PLAN))


def test_the_report_gives_each_lectures_minutes():
    rows = lectures.table(PLAN, DECKS).splitlines()[2:]
    assert [int(row.split("|")[3]) for row in rows] == [
        lectures.lecture_minutes(lecture, DECKS)[0] for lecture in PLAN["lectures"]]
