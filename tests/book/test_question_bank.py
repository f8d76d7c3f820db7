"""The question bank for an LMS quiz (tools/download/question_bank.py): Moodle XML and GIFT.

- Each file parses: the Moodle XML with the standard library's XML parser, the GIFT with the
  small parser below (GIFT has no parser in the standard library; this one reads the subset the
  bank writes: categories, titles, ``[html]`` text, ``=``/``~`` choices, ``#answer:tolerance``,
  ``####`` feedback, backslash escapes).
- Every question of every chapter is there, in order, with its prompt, every choice, the right
  answer and the book's explanation; a numeric answer carries its tolerance. What is expected is
  read here from the chapters' question cells (their stored outputs), apart from the exporter.
- Negative controls: each check fails on a bank broken on purpose (a question, a choice, a
  right answer or a tolerance dropped, a file cut short).
- The website serves the files ``make book`` built from the chapters as they are now.
"""
import html
import re
import xml.etree.ElementTree as ET

import pytest

from tools.download import question_bank
from tools.toc import ROOT

from .test_questions import NUMBERED, question_cells, stored_spec

SITE = ROOT / "_build" / "html"


def expected_questions():
    """(chapter, spec, explanation) of every question, from the chapters' stored outputs."""
    found = []
    for name in NUMBERED:
        _, cells = question_cells(name)
        for _, cell, _ in cells:
            markup = cell.outputs[0]["data"]["text/html"]
            paragraphs = re.findall(r"<p>(.*?)</p>", markup.split('class="bcq-answer"')[1], re.S)
            explain = " ".join(html.unescape(re.sub(r"<[^>]+>", "", p)) for p in paragraphs[1:])
            found.append((name, stored_spec(cell), explain))
    return found


EXPECTED = expected_questions()


def plain(markup):
    """HTML as text: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup or "")).split()


def contains(markup, text):
    words, wanted = plain(markup), text.split()
    return any(words[k:k + len(wanted)] == wanted for k in range(len(words) - len(wanted) + 1))


# --- Moodle XML --------------------------------------------------------------------------------

def check_moodle(text):
    """Parse a Moodle XML bank and check it against EXPECTED; raise AssertionError if not."""
    quiz = ET.fromstring(text.encode("utf-8"))
    assert quiz.tag == "quiz"
    categories = [q for q in quiz if q.get("type") == "category"]
    assert len(categories) == len({name for name, _, _ in EXPECTED}), "a category per chapter"
    found = [q for q in quiz if q.get("type") != "category"]
    assert len(found) == len(EXPECTED), f"{len(found)} questions for {len(EXPECTED)}"
    for element, (name, spec, explain) in zip(found, EXPECTED):
        where = f"{name}: {spec['prompt'][:40]}"
        assert contains(element.findtext("questiontext/text"), spec["prompt"]), where
        if explain:
            assert contains(element.findtext("generalfeedback/text"), explain), where
        answers = element.findall("answer")
        if spec["kind"] == "choice":
            assert element.get("type") == "multichoice", where
            assert [" ".join(plain(a.findtext("text"))) for a in answers] == \
                [" ".join(c.split()) for c in spec["choices"]], where
            right = [k for k, a in enumerate(answers) if float(a.get("fraction")) == 100]
            assert right == [spec["answer"]], where
            assert all(float(a.get("fraction")) == 0 for k, a in enumerate(answers) if k not in right)
        else:
            assert element.get("type") == "numerical", where
            assert len(answers) == 1 and float(answers[0].get("fraction")) == 100, where
            assert float(answers[0].findtext("text")) == spec["answer"], where
            tolerance = answers[0].findtext("tolerance")
            assert tolerance is not None, f"{where}: a numeric answer without its tolerance"
            assert float(tolerance) == spec["tolerance"] > 0, where


# --- GIFT ----------------------------------------------------------------------------------------

ESCAPED = r"(?:\\.|[^\\{}])"
GIFT_QUESTION = re.compile(
    rf"::(?P<title>(?:\\.|[^\\:])+)::(?:\[html\])?(?P<text>{ESCAPED}*)\{{(?P<body>{ESCAPED}*)\}}\s*\Z",
    re.S)
NUMBER = r"[-+]?\d+(?:\.\d+)?"


def unescape(text):
    return re.sub(r"\\(.)", r"\1", text).strip()


def split_unescaped(text, marks):
    """``text`` cut before each unescaped character of ``marks``: [(mark, piece), ...]."""
    parts, current, mark, k = [], "", None, 0
    while k < len(text):
        if text[k] == "\\":
            current += text[k:k + 2]
            k += 2
            continue
        if text[k] in marks:
            if mark is not None or current.strip():
                parts.append((mark, current))
            mark, current = text[k], ""
        else:
            current += text[k]
        k += 1
    parts.append((mark, current))
    return parts


def parse_gift(text):
    """GIFT text as [{category, title, text, kind, choices, right, answer, tolerance, feedback}]."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    questions, category = [], None
    for block in re.split(r"\n\s*\n", "\n".join(lines)):
        block = block.strip()
        if not block:
            continue
        if block.startswith("$CATEGORY:"):
            category = block[len("$CATEGORY:"):].strip()
            continue
        match = GIFT_QUESTION.match(block)
        if match is None:
            raise AssertionError(f"not a GIFT question: {block[:80]!r}")
        body, feedback = (match["body"].split("####", 1) + [""])[:2]
        question = {"category": category, "title": unescape(match["title"]),
                    "text": unescape(match["text"]), "feedback": unescape(feedback)}
        if body.strip().startswith("#"):
            numeric = re.fullmatch(rf"\s*#\s*(?P<answer>{NUMBER})(?::(?P<tol>{NUMBER}))?\s*", body)
            if numeric is None:
                raise AssertionError(f"not a GIFT numeric answer: {body!r}")
            question.update(kind="number", answer=float(numeric["answer"]),
                            tolerance=None if numeric["tol"] is None else float(numeric["tol"]))
        else:
            parts = split_unescaped(body, "=~")
            if any(mark is None for mark, _ in parts):
                raise AssertionError(f"text before the first choice: {body!r}")
            question.update(kind="choice", choices=[unescape(piece) for _, piece in parts],
                            right=[k for k, (mark, _) in enumerate(parts) if mark == "="])
        questions.append(question)
    return questions


def check_gift(text):
    """Parse a GIFT bank and check it against EXPECTED; raise AssertionError if not."""
    found = parse_gift(text)
    assert len({q["category"] for q in found}) == len({name for name, _, _ in EXPECTED})
    assert len(found) == len(EXPECTED), f"{len(found)} questions for {len(EXPECTED)}"
    for question, (name, spec, explain) in zip(found, EXPECTED):
        where = f"{name}: {spec['prompt'][:40]}"
        assert question["category"] and name[:2] in question["category"], where
        assert contains(question["text"], spec["prompt"]), where
        if explain:
            assert contains(question["feedback"], explain), where
        assert question["kind"] == spec["kind"], where
        if spec["kind"] == "choice":
            assert [html.unescape(c) for c in question["choices"]] == spec["choices"], where
            assert question["right"] == [spec["answer"]], where
        else:
            assert question["answer"] == spec["answer"], where
            assert question["tolerance"] is not None, f"{where}: a numeric answer without its tolerance"
            assert question["tolerance"] == spec["tolerance"] > 0, where


# --- the bank as the exporter writes it, and broken on purpose --------------------------------

@pytest.fixture(scope="module")
def bank():
    questions = question_bank.all_questions()
    return {"moodle": question_bank.moodle_xml(questions), "gift": question_bank.gift(questions)}


CHECKS = {"moodle": check_moodle, "gift": check_gift}


def test_every_chapter_asks_and_the_bank_has_choices_and_numbers():
    assert {name for name, _, _ in EXPECTED} == set(NUMBERED)
    assert {spec["kind"] for _, spec, _ in EXPECTED} == {"choice", "number"}


@pytest.mark.parametrize("kind", CHECKS)
def test_the_bank_parses_and_holds_every_question_and_answer(bank, kind):
    CHECKS[kind](bank[kind])


BREAKS = {
    "moodle": {
        "cut short": lambda t: t[: len(t) // 2],
        "a question dropped": lambda t: re.sub(r'<question type="multichoice">.*?</question>\s*',
                                               "", t, count=1, flags=re.S),
        "a choice dropped": lambda t: re.sub(r'<answer fraction="0" format="html">.*?</answer>\s*',
                                             "", t, count=1, flags=re.S),
        "the right answer made wrong": lambda t: t.replace('fraction="100" format="html"',
                                                           'fraction="0" format="html"', 1),
        "a tolerance dropped": lambda t: re.sub(r"<tolerance>[^<]*</tolerance>", "", t, count=1),
        "a prompt changed": lambda t: t.replace("posterior", "prior", 1),
        "an explanation dropped": lambda t: re.sub(
            r"(<generalfeedback format=\"html\">\s*<text>)[^<]+", r"\1", t, count=1),
    },
    "gift": {
        "cut short": lambda t: t[: len(t) // 2],
        "a question dropped": lambda t: re.sub(r"// bcq-\w+\n::[^\n]*\{\n[^}]*\}\n\n", "", t, count=1),
        "a choice dropped": lambda t: re.sub(r"\n~[^\n]*", "", t, count=1),
        "the right answer made wrong": lambda t: re.sub(r"\n=", "\n~", t, count=1),
        "a tolerance dropped": lambda t: re.sub(rf"(#{NUMBER}):{NUMBER}", r"\1", t, count=1),
        "a prompt changed": lambda t: t.replace("posterior", "prior", 1),
        "a brace unescaped": lambda t: t.replace("::[html]", "::[html]{", 1),
        "an explanation dropped": lambda t: re.sub(r"\n####[^\n]*", "", t, count=1),
    },
}


@pytest.mark.parametrize("kind, name", [(k, n) for k in BREAKS for n in BREAKS[k]])
def test_each_check_fails_on_a_broken_bank(bank, kind, name):
    broken = BREAKS[kind][name](bank[kind])
    assert broken != bank[kind], f"the break {name!r} changed nothing"
    with pytest.raises((AssertionError, ET.ParseError)):
        CHECKS[kind](broken)


def test_gift_escapes_its_special_characters():
    text = "a: {b} = ~c #d \\ e"
    assert unescape(question_bank.gift_escape(text)) == text
    assert not re.search(r"(?<!\\)[{}=~#:]", question_bank.gift_escape(text))


def test_the_website_serves_the_bank_built_from_the_chapters(bank):
    if not (SITE / "index.html").exists():
        pytest.skip(f"no website in {SITE}: run `make book` first")
    served = {"moodle": SITE / question_bank.MOODLE_NAME, "gift": SITE / question_bank.GIFT_NAME}
    for kind, path in served.items():
        assert path.exists(), f"{path} is missing: `make book` builds it"
        assert path.read_text(encoding="utf-8") == bank[kind], f"{path} is stale: run `make book`"
