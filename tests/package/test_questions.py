"""bayescomp.book.questions: what a question shows is what the chapter computed, never a typed value.

The chapters' calls are checked in tests/book/test_questions.py; the questions in a browser in
tests/browser/test_questions_browser.py.
"""
import html
import json
import re

import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.book import questions


def shown(question):
    """What each view of a question carries: the JSON's answer, the HTML's answer and spec."""
    bundle = question._repr_mimebundle_()
    page = bundle["text/html"]
    spec = json.loads(html.unescape(re.search(r'data-question="([^"]*)"', page)[1]))
    answer = re.search(r"<strong>Answer:</strong> (.*?)</p>", page)[1]
    return bundle[questions.MIME], spec, html.unescape(answer), bundle["text/plain"]


def ess_question(settings):
    """A chapter-2 style question, its answer computed from the settings' importance sampling."""
    data, target = book.lecture_problem(settings)
    run = bc.importance_sample(target, np.zeros(2), settings.prior_var * np.eye(2),
                               settings.is_prior_draws, np.random.default_rng(settings.is_prior_seed))
    return book.questions.ask("What weight ESS will the prior's draws give?", run.ess, relative=0.3,
                            explain=f"The ESS is {run.ess:.0f}.")


def test_a_changed_computation_changes_every_view_of_the_answer():
    settings = book.LectureSettings(is_prior_draws=4_000)
    before = shown(ess_question(settings))
    after = shown(ess_question(settings._replace(prior_var=0.25)))
    assert before[0]["answer"] != after[0]["answer"]
    assert before[1] == before[0] and after[1] == after[0]   # the script reads the same spec
    assert before[2] != after[2]                              # the revealed text
    # the text view never gives the answer away
    assert str(before[0]["answer"]) not in before[3] and str(after[0]["answer"]) not in after[3]


def test_a_choice_follows_the_comparison_it_is_given():
    ask = lambda a, b: book.questions.ask("Which is larger?", choices=["a", "b"],
                                        answer=int(b > a))
    assert shown(ask(1.0, 2.0))[0]["answer"] == 1
    assert shown(ask(2.0, 1.0))[0]["answer"] == 0
    assert shown(ask(2.0, 1.0))[2] == "a"


def test_numbers_are_rounded_as_shown():
    q = book.questions.ask("How many?", 4287.3141592653589, relative=0.25)
    spec = q.spec()
    assert spec["answer"] == 4290.0 and spec["tolerance"] == 1100.0
    assert "4290 (within ±1100)" in q.html()
    assert questions.show_number(questions.significant(0.000123456, 3)) == "0.000123"


def test_the_answer_is_hidden_until_revealed():
    page = book.questions.ask("Which?", choices=["x", "y"], answer="y", explain="Because.").html()
    # the answer sits in a closed <details> (no "open"), after the form; the page's script
    # hides it; the prompt and every choice are labelled
    assert re.search(r'<details class="bcq-answer" id="[^"]+"><summary>', page)
    assert page.index("<details") > page.index("bcq-feedback")
    assert page.count("<label>") == 2 and 'aria-labelledby="' in page
    assert questions.SCRIPT.read_text(encoding="utf-8").strip() in page


def test_ids_are_stable_and_distinct():
    a = book.questions.ask("First?", choices=["x", "y"], answer=0)
    b = book.questions.ask("Second?", choices=["x", "y"], answer=0)
    assert a.id == book.questions.ask("First?", choices=["x", "y"], answer=1).id != b.id


@pytest.mark.parametrize("kwargs, error", [
    (dict(answer=2, choices=["a", "b"]), ValueError),
    (dict(answer="c", choices=["a", "b"]), ValueError),
    (dict(answer=True, choices=["a", "b"]), TypeError),
    (dict(answer=np.bool_(True), choices=["a", "b"]), TypeError),
    (dict(answer=0.5, choices=["a", "b"]), TypeError),
    (dict(answer=1, choices=["a"]), ValueError),
    (dict(answer=1.0), ValueError),                          # no tolerance
    (dict(answer=1.0, tolerance=0.1, relative=0.1), ValueError),
    (dict(answer=float("nan"), tolerance=0.1), ValueError),
    (dict(answer=0.0, relative=0.1), ValueError),            # a zero-width tolerance
    (dict(answer="3", tolerance=0.1), TypeError),
])
def test_bad_questions_say_what_is_wrong(kwargs, error):
    with pytest.raises(error):
        book.questions.ask("Q?", **kwargs)
