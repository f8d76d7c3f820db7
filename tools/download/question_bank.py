"""The chapters' self-check questions as a question bank for an LMS quiz: Moodle XML and GIFT.

Each numbered chapter asks two or three questions (``book.questions.ask``, :mod:`bayescomp.book.questions`)
whose answers the chapter computes. This module reads them from their one source, the
chapters' stored outputs, and writes them for import into a learning management system:

- ``bayescomp-questions.moodle.xml``: Moodle XML (Question bank > Import > Moodle XML format),
  one category per chapter; a choice question is a ``multichoice`` with one right answer and its
  options lettered A, B, C in the book's order (not shuffled: several are ordered scales); a
  number is a ``numerical`` question with the chapter's tolerance;
- ``bayescomp-questions.gift.txt``: the same questions in GIFT (Moodle's text format, which other
  LMSs read too): ``{=right ~wrong ...}`` and ``{#answer:tolerance}``.

Each question's general feedback is the book's explanation of its answer. What a question
output holds (:data:`bayescomp.book.questions.MIME`): the prompt, the choices, the computed answer
and, for a number, its tolerance and unit, exactly as the reader is shown them; the explanation
comes from the same output's HTML (the paragraphs after the answer inside ``details.bcq-answer``).

Nothing is typed here: a chapter whose answer changes (re-executed with other settings) gives
a bank with the new answer. ``make book`` writes both files to ``_build/download/``, which the
website serves from its top folder; TEACHING.md links them.

Usage: python -m tools.download.question_bank [OUT_DIR]   (default _build/download)
"""
import html
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NamedTuple

import nbformat

from bayescomp.book.questions import MIME
from bayescomp.book.questions import show_number as number_text

from .. import toc
from ..slides.build import chapter_title
from ..toc import CHAPTERS, ROOT

MOODLE_NAME = "bayescomp-questions.moodle.xml"
GIFT_NAME = "bayescomp-questions.gift.txt"
CATEGORY = "Bayesian Computation"
ANSWER_PANEL = re.compile(r'<details class="bcq-answer"[^>]*>(?P<body>.*?)</details>', re.S)
PARAGRAPH = re.compile(r"<p>(?P<text>.*?)</p>", re.S)


class BankQuestion(NamedTuple):
    """One question of the bank, as the chapter's stored output has it."""
    chapter: str       # the chapter's name ("03_mcmc")
    chapter_title: str
    number: int        # 1, 2, 3 within the chapter
    id: str            # the question's element id in the book ("bcq-9aff792993")
    kind: str          # "choice" or "number"
    prompt: str
    choices: tuple     # the choices' texts (a choice question)
    answer: float      # the right choice's index, or the number
    tolerance: float   # a number's accepted distance from the answer (None for a choice)
    unit: str
    explain: str       # the book's explanation of the answer ("" when it has none)

    @property
    def name(self):
        """The question's name in the LMS: its chapter and number."""
        return f"{self.chapter[:2]} {self.chapter_title}: question {self.number}"


def explanation(markup):
    """The explanation in a question's HTML output: the paragraphs after the answer's."""
    panel = ANSWER_PANEL.search(markup)
    if panel is None:
        raise ValueError("a question output without its answer panel (details.bcq-answer)")
    paragraphs = [html.unescape(re.sub(r"<[^>]+>", "", p["text"]))
                  for p in PARAGRAPH.finditer(panel["body"])]
    return " ".join(paragraphs[1:])


def chapter_questions(name):
    """The questions of chapter ``name``, in order, from the stored outputs of its cells."""
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    title, found = chapter_title(notebook), []
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            spec = output.get("data", {}).get(MIME)
            if spec is None:
                continue
            markup = output["data"]["text/html"]
            qid = re.search(r'<div class="bcq" id="([\w-]+)"', markup)[1]
            found.append(BankQuestion(
                name, title, len(found) + 1, qid, spec["kind"], spec["prompt"],
                tuple(spec.get("choices", ())), spec["answer"], spec.get("tolerance"),
                spec.get("unit", ""), explanation(markup)))
    return found


def all_questions(chapters=CHAPTERS):
    """Every chapter's questions, in the book's order."""
    return [question for name in chapters for question in chapter_questions(name)]


def escape(text):
    """Text as HTML (the bank's texts are HTML, as a quiz shows them)."""
    return html.escape(text, quote=False)


def category(question):
    """The question's category path in the LMS: the book, then its chapter (a "/" in a name
    doubled, as Moodle reads it)."""
    chapter = f"{question.chapter[:2]} {question.chapter_title}".replace("/", "//")
    return f"$course$/top/{CATEGORY}/{chapter}"


def prompt_html(question):
    """The question's text for the LMS: the prompt, and a number's unit."""
    text = f"<p>{escape(question.prompt)}</p>"
    if question.kind == "number" and question.unit:
        text += f"<p>Answer in {escape(question.unit)}.</p>"
    return text


def text_element(parent, tag, text, **attributes):
    element = ET.SubElement(parent, tag, attributes)
    ET.SubElement(element, "text").text = text
    return element


def moodle_question(quiz, question):
    """One question as Moodle XML (multichoice or numerical) under ``quiz``."""
    kind = "multichoice" if question.kind == "choice" else "numerical"
    element = ET.SubElement(quiz, "question", type=kind)
    text_element(element, "name", question.name)
    text_element(element, "questiontext", prompt_html(question), format="html")
    text_element(element, "generalfeedback", f"<p>{escape(question.explain)}</p>"
                 if question.explain else "", format="html")
    ET.SubElement(element, "defaultgrade").text = "1"
    ET.SubElement(element, "penalty").text = "0"
    ET.SubElement(element, "hidden").text = "0"
    ET.SubElement(element, "idnumber").text = question.id
    if question.kind == "choice":
        ET.SubElement(element, "single").text = "true"
        ET.SubElement(element, "shuffleanswers").text = "0"
        ET.SubElement(element, "answernumbering").text = "ABCD"
        for k, choice in enumerate(question.choices):
            answer = text_element(element, "answer", escape(choice),
                                  fraction="100" if k == question.answer else "0", format="html")
            text_element(answer, "feedback", "", format="html")
    else:
        answer = text_element(element, "answer", number_text(question.answer), fraction="100",
                              format="moodle_auto_format")
        ET.SubElement(answer, "tolerance").text = number_text(question.tolerance)
        text_element(answer, "feedback", "", format="html")
        # Units are named in the question's text, not graded.
        ET.SubElement(element, "unitgradingtype").text = "0"
        ET.SubElement(element, "unitpenalty").text = "0"
        ET.SubElement(element, "showunits").text = "3"
        ET.SubElement(element, "unitsleft").text = "0"


def moodle_xml(questions):
    """The bank as Moodle XML: a category per chapter, then its questions."""
    quiz, chapter = ET.Element("quiz"), None
    for question in questions:
        if question.chapter != chapter:
            chapter = question.chapter
            text_element(ET.SubElement(quiz, "question", type="category"), "category",
                         category(question))
        moodle_question(quiz, question)
    ET.indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="unicode") + "\n"


GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")


def gift_escape(text):
    """Text with GIFT's special characters (~ = # { } : and the backslash) escaped."""
    return GIFT_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def gift_question(question):
    """One question in GIFT: ``::name::[html]text{answers####feedback}``."""
    head = f"::{gift_escape(question.name)}::[html]{gift_escape(prompt_html(question))}"
    if question.kind == "choice":
        answers = "\n".join(("=" if k == question.answer else "~") + gift_escape(escape(choice))
                            for k, choice in enumerate(question.choices))
    else:
        answers = f"#{number_text(question.answer)}:{number_text(question.tolerance)}"
    feedback = f"\n####{gift_escape(escape(question.explain))}" if question.explain else ""
    return f"// {question.id}\n{head} {{\n{answers}{feedback}\n}}\n"


def gift(questions):
    """The bank as GIFT: a ``$CATEGORY:`` line per chapter, then its questions."""
    parts, chapter = [], None
    for question in questions:
        if question.chapter != chapter:
            chapter = question.chapter
            parts.append(f"$CATEGORY: {category(question)}\n")
        parts.append(gift_question(question))
    return "\n".join(parts)


def build(out=ROOT / "_build" / "download"):
    """Write both files of the bank into ``out``; return their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    questions = all_questions()
    if not questions:
        raise RuntimeError("no chapter holds a stored question output: execute the chapters")
    (out / MOODLE_NAME).write_text(moodle_xml(questions), encoding="utf-8")
    (out / GIFT_NAME).write_text(gift(questions), encoding="utf-8")
    return out / MOODLE_NAME, out / GIFT_NAME


if __name__ == "__main__":
    for path in build(*sys.argv[1:2]):
        print(path)
