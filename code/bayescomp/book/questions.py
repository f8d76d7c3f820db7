"""Questions that ask before they tell: a self-check placed before the result it asks about.

A chapter asks with one call, in a code cell before the cell that shows the result::

    book.questions.ask(
        "Which proposal will give the larger weight ESS?",
        choices=["the prior, with 20,000 draws", "the Laplace Gaussian, with 5,000"],
        answer=int(laplace_ess > prior_ess),
        explain=f"The Laplace proposal keeps {laplace_ess:.0f} of 5,000 draws ...",
    )

The answer is an expression over the chapter's own variables, never a typed literal, so a
change in the package cannot leave a stale answer (``tests/book/test_questions.py`` checks the
chapters' calls).

What the cell shows is one output bundle (:meth:`Question._repr_mimebundle_`):

- ``text/html``: the question as a labelled group of radio buttons or a number field, a
  line for a view that runs no script, and the answer with its explanation inside a closed
  ``<details>``, followed by
  the questions' script (:data:`SCRIPT`, built from ``code/widgets/ui/question.js``), inlined so
  the question works with no network and no other file: on the website, on its slide of the
  deck (where the presenter's next key reveals the answer) and in JupyterLab once the cell has
  run (JupyterLab runs the scripts of outputs it trusts: those of cells run in the session).
  The script adds the Check and "Show the answer" buttons; where no script runs (a stored
  output in an untrusted notebook) the question shows without them, says to run the cell, and
  the ``<details>`` hides the answer until it is opened. An attempt stays in the page; nothing is sent anywhere.
- :data:`MIME` (JSON): the prompt, the choices, the computed answer and its tolerance, for tests
  and tools. It has a vendor type, so no front end shows it (JupyterLab would show plain
  ``application/json`` as a tree, answer and all).
- ``text/plain``: the prompt and the choices, without the answer.

Numbers are shown rounded to ``digits`` significant digits, and the answer is checked against
the rounded value, so the stored outputs are the same text on every machine.
"""
import hashlib
import html
import json
import math
import numbers
from pathlib import Path

MIME = "application/vnd.bayescomp.question+json"
SCRIPT = Path(__file__).resolve().parent / "static" / "bayescomp-question.js"

STYLE = """<style>
.bcq { border: 2px solid currentColor; border-radius: 0.4em; padding: 0.6em 0.9em;
       margin: 0.6em 0; max-width: 46em; }
.bcq fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
.bcq legend { padding: 0; font-weight: 600; }
.bcq-tag { text-transform: uppercase; letter-spacing: 0.05em; margin-right: 0.4em; }
.bcq-choices label, .bcq-number-row { display: block; margin: 0.3em 0; }
.bcq input { font: inherit; accent-color: currentColor; }
.bcq input[type=radio] { width: 1em; height: 1em; margin: 0 0.3em 0 0; vertical-align: -0.1em; }
.bcq input.bcq-number { width: 9em; padding: 0.1em 0.3em; color: inherit; background: transparent;
                        border: 1px solid currentColor; border-radius: 0.2em; }
.bcq button { font: inherit; color: inherit; background: transparent; cursor: pointer;
              border: 1px solid currentColor; border-radius: 0.3em; padding: 0.1em 0.7em;
              margin: 0.3em 0.4em 0.3em 0; }
.bcq button:focus-visible, .bcq input:focus-visible, .bcq:focus-visible
  { outline: 3px solid currentColor; outline-offset: 2px; }
.bcq-feedback { margin: 0.2em 0; font-weight: 600; min-height: 1.2em; }
.bcq-answer { border-top: 1px solid currentColor; padding-top: 0.3em; margin-top: 0.3em; }
.bcq-answer p, .bcq p { margin: 0.2em 0; }
.bcq-keys { font-style: italic; margin: 0 0 0.2em; }
.bcq-engaged { outline: 3px dashed currentColor; outline-offset: 3px; }
.reveal .bcq { padding: 0.2em 0.5em; margin: 0.2em 0; line-height: 1.25; }
.reveal .bcq-choices label { margin: 0.1em 0; }
.reveal .bcq-buttons, .reveal .bcq-feedback { display: inline-block; vertical-align: middle; }
.reveal .bcq-feedback { min-height: 0; margin-left: 0.3em; }
.reveal .bcq-answer { padding-top: 0.1em; margin-top: 0.1em; }
</style>"""


def significant(value, digits):
    """``value`` rounded to ``digits`` significant digits, as a float."""
    if value == 0 or not math.isfinite(value):
        return float(value)
    return float(round(value, digits - 1 - math.floor(math.log10(abs(value)))))


def show_number(value):
    """A rounded number as a reader types it: no exponent, no trailing zeros."""
    text = f"{value:.12f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Question:
    """One question: a prompt, choices or a number, and the answer computed by the chapter.

    Make one with :func:`ask`; Jupyter shows it through :meth:`_repr_mimebundle_`.
    """

    def __init__(self, prompt, kind, answer, choices=(), tolerance=None, unit="", explain=""):
        self.prompt, self.kind, self.answer = prompt, kind, answer
        self.choices, self.tolerance, self.unit, self.explain = tuple(choices), tolerance, unit, explain
        self.id = "bcq-" + hashlib.sha1(prompt.encode("utf-8")).hexdigest()[:10]

    def spec(self):
        """The JSON-ready description: what :data:`MIME` carries and the script reads."""
        spec = {"kind": self.kind, "prompt": self.prompt, "answer": self.answer}
        if self.kind == "choice":
            spec["choices"] = list(self.choices)
        else:
            spec.update(tolerance=self.tolerance, unit=self.unit)
        return spec

    def answer_text(self):
        """The answer as the reader is shown it once revealed."""
        if self.kind == "choice":
            return self.choices[self.answer]
        unit = f" {self.unit}" if self.unit else ""
        return f"{show_number(self.answer)}{unit} (within ±{show_number(self.tolerance)})"

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.text(), "text/html": self.html(), MIME: self.spec()}

    def text(self):
        lines = [f"Question: {self.prompt}"]
        lines += [f"  {chr(65 + k)}. {choice}" for k, choice in enumerate(self.choices)]
        if self.kind == "number":
            lines.append(f"  (a number{', in ' + self.unit if self.unit else ''})")
        lines.append("  The answer is hidden: the HTML view of this output checks an attempt.")
        return "\n".join(lines)

    def html(self):
        esc, qid = html.escape, self.id
        if self.kind == "choice":
            field = "".join(
                f'<label><input type="radio" name="{qid}" value="{k}"> {esc(choice)}</label>'
                for k, choice in enumerate(self.choices))
            field = f'<div class="bcq-choices">{field}</div>'
        else:
            unit = f" <span>{esc(self.unit)}</span>" if self.unit else ""
            field = (f'<div class="bcq-number-row"><label for="{qid}-value">Your answer</label> '
                     f'<input type="text" inputmode="decimal" autocomplete="off" class="bcq-number" '
                     f'id="{qid}-value">{unit}</div>')
        explain = f"<p>{esc(self.explain)}</p>" if self.explain else ""
        script = SCRIPT.read_text(encoding="utf-8").strip()
        spec = esc(json.dumps(self.spec(), ensure_ascii=False, separators=(",", ":")))
        return (
            f'<div class="bcq" id="{qid}" role="group" aria-labelledby="{qid}-prompt" '
            f'data-question="{spec}">{STYLE}'
            f'<div class="bcq-body"><fieldset><legend id="{qid}-prompt"><span class="bcq-tag">'
            f'Question</span> {esc(self.prompt)}</legend>{field}</fieldset>'
            '<p class="bcq-noscript">Run this cell to check an answer here, or open the '
            'answer below.</p><p class="bcq-feedback" role="status" aria-live="polite"></p></div>'
            f'<details class="bcq-answer" id="{qid}-answer"><summary>Answer</summary>'
            f"<p><strong>Answer:</strong> {esc(self.answer_text())}</p>{explain}</details></div>"
            f"<script>{script}\nBayesCompQuestion.mount(document.currentScript.previousElementSibling);"
            "</script>")


def ask(prompt, answer, *, choices=None, tolerance=None, relative=None, digits=3, unit="",
        explain=""):
    """A question that asks before it tells; its answer is computed, never typed.

    Parameters
    ----------
    prompt : str
        The question, in one or two sentences of plain text (no math markup).
    answer : int, str or float
        With ``choices``: the index of the right choice, or its text. Without: the number,
        computed from the chapter's variables; it is shown and checked rounded to ``digits``
        significant digits.
    choices : sequence of str, optional
        Two or more choices (a multiple-choice question); without them the reader types a number.
    tolerance, relative : float, optional
        For a number, exactly one of them: the accepted distance from the answer, absolute or
        as a fraction of the answer.
    digits : int
        Significant digits of the shown answer (and of the tolerance, which is shown too).
    unit : str
        A unit shown after the number field and the answer.
    explain : str
        A short explanation shown with the answer (compute any number in it, e.g. an f-string).

    Returns
    -------
    Question
        Displayed by Jupyter as the interactive question (see the module's docstring).
    """
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError(f"prompt must be a non-empty string; got {prompt!r}")
    if choices is not None:
        choices = [str(choice) for choice in choices]
        if len(choices) < 2 or len(set(choices)) < len(choices):
            raise ValueError(f"choices must be two or more different texts; got {choices!r}")
        if tolerance is not None or relative is not None:
            raise ValueError("tolerance and relative apply to a number, not to choices")
        if isinstance(answer, str):
            if answer not in choices:
                raise ValueError(f"answer {answer!r} is not one of the choices {choices!r}")
            answer = choices.index(answer)
        elif isinstance(answer, (bool, np_bool())) or not isinstance(answer, numbers.Integral):
            raise TypeError("with choices, answer must be a choice's index (an int) or its text; "
                            f"got {answer!r} of type {type(answer).__name__}")
        if not 0 <= int(answer) < len(choices):
            raise ValueError(f"answer index {answer} is outside the {len(choices)} choices")
        return Question(prompt, "choice", int(answer), choices, explain=explain)
    if isinstance(answer, (bool, np_bool())) or not isinstance(answer, numbers.Real):
        raise TypeError(f"without choices, answer must be a number; got {answer!r}")
    if not math.isfinite(answer):
        raise ValueError(f"answer must be finite; got {answer!r}")
    if (tolerance is None) == (relative is None):
        raise ValueError("a number needs exactly one of tolerance (absolute) or relative")
    width = tolerance if tolerance is not None else relative * abs(float(answer))
    if not width > 0:
        raise ValueError(f"the tolerance must be positive; got tolerance={tolerance}, "
                         f"relative={relative}, answer={answer}")
    return Question(prompt, "number", significant(float(answer), digits),
                    tolerance=significant(float(width), 2), unit=unit, explain=explain)


def np_bool():
    """NumPy's bool type when NumPy is loaded (a comparison of arrays gives one)."""
    import numpy as np

    return np.bool_
