"""The chapters' questions (book.questions.ask): computed answers, placed on slides of their own.

- Every chapter asks two or three questions, each on a poll slide with teaching notes, its code
  hidden on the website and on the slide (it holds the answer), its stored output the question.
- No answer is typed: each ``answer`` is an expression over the chapter's variables or a call
  into the package, never a literal, and never a name that only a literal feeds (an AST check,
  with negative controls).
- A changed computation changes the answer shown: the chapter's own cells, run here up to a
  question with a different setting, show a different answer than the stored one.
"""
import ast
import builtins
import contextlib
import io
import json

import nbformat
import pytest

from bayescomp.book import questions
from tools import toc

MODULES = {"bc", "book", "np", "plt", "plotting", "math"}
# The numbered chapters ask questions; the landing page asks none.
NUMBERED = [name for name in toc.CHAPTERS if name[:1].isdigit()]


def chapter(name):
    return nbformat.read(toc.notebook(name), as_version=4)


def is_question(cell):
    return cell.cell_type == "code" and "book.questions.ask(" in cell.source


def ask_call(source):
    """The ``book.questions.ask(...)`` call of a question cell."""
    calls = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
             and ast.unparse(node.func) in ("book.questions.ask", "questions.ask", "ask")]
    assert len(calls) == 1, f"one ask() call per question cell, found {len(calls)}"
    return calls[0]


def answer_of(call):
    keyword = [k.value for k in call.keywords if k.arg == "answer"]
    return keyword[0] if keyword else call.args[1]


def defined_names(sources):
    """Names the chapter's earlier cells define (assignments, loops, functions), not modules."""
    names = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names - MODULES


def answer_sources(source, earlier):
    """What a question's answer is computed from: the chapter's variables it depends on (through
    the cell's own assignments) and whether it calls into the package. Raises AssertionError
    for a typed answer."""
    tree = ast.parse(source)
    assigned = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned[name.id] = node.value
    answer = answer_of(ask_call(source))
    assert not isinstance(answer, (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp)) or any(
        isinstance(n, ast.Name) for n in ast.walk(answer)), f"typed answer {ast.unparse(answer)}"
    chapter_vars, package_calls, seen, todo = set(), False, set(), [answer]
    while todo:
        expr = todo.pop()
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and ast.unparse(node.func).startswith(("bc.", "book.")):
                package_calls = True
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in seen:
                seen.add(node.id)
                if node.id in assigned:
                    todo.append(assigned[node.id])
                elif node.id in earlier:
                    chapter_vars.add(node.id)
    return chapter_vars, package_calls


def question_cells(name):
    """(index, cell, names defined before it) of each question of a chapter."""
    notebook, found, sources = chapter(name), [], []
    for k, cell in enumerate(notebook.cells):
        if is_question(cell):
            found.append((k, cell, defined_names(sources)))
        if cell.cell_type == "code":
            sources.append(cell.source)
    return notebook, found


@pytest.mark.parametrize("name", NUMBERED)
def test_two_or_three_questions_each_on_its_poll_slide(name):
    notebook, found = question_cells(name)
    assert 2 <= len(found) <= 3, f"{name} asks {len(found)} questions"
    for k, cell, _ in found:
        slide, notes = notebook.cells[k - 1], notebook.cells[k + 1]
        assert slide.metadata.get("slideshow", {}).get("slide_type") == "slide"
        assert "## Question" in slide.source and "remove-cell" in slide.metadata["tags"]
        tags = cell.metadata.get("tags", [])
        assert {"remove-input", "slides-hide-input"} <= set(tags), (name, k, tags)
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True
        assert "teaching-notes" in notes.metadata.get("tags", [])
        assert "→" in notes.source, "the notes say which key reveals the answer"
        outputs = [o for o in cell.outputs if questions.MIME in o.get("data", {})]
        assert len(outputs) == 1 and len(cell.outputs) == 1, (name, k, "stored output")
        assert 'class="bcq"' in outputs[0]["data"]["text/html"]


@pytest.mark.parametrize("name", NUMBERED)
def test_no_answer_is_typed(name):
    _, found = question_cells(name)
    for k, cell, earlier in found:
        chapter_vars, package_calls = answer_sources(cell.source, earlier)
        assert chapter_vars or package_calls, (
            f"{name}, cell {k}: the answer depends on no chapter variable and calls no "
            "package function")


EARLIER = {"ess_prior", "ess_laplace", "settings"}


@pytest.mark.parametrize("source", [
    'book.questions.ask("Q?", choices=["a", "b"], answer=1)',
    'book.questions.ask("Q?", 681.1, relative=0.1)',
    'book.questions.ask("Q?", -3.5, tolerance=0.1)',
    'right = 1\nbook.questions.ask("Q?", choices=["a", "b"], answer=right)',
    'book.questions.ask("Q?", choices=["a", "b"], answer="b")',
    'book.questions.ask("Q?", choices=["a", "b"], answer=int(3 > 2))',
])
def test_the_check_sees_a_typed_answer(source):
    """Negative controls: answers typed by hand, directly or through a name, are caught."""
    try:
        chapter_vars, package_calls = answer_sources(source, EARLIER)
    except AssertionError:
        return
    assert not (chapter_vars or package_calls), f"not caught: {source}"


def test_the_check_accepts_a_computed_answer():
    source = ('larger = int(ess_laplace > ess_prior)\n'
              'book.questions.ask("Q?", choices=["prior", "Laplace"], answer=larger)')
    assert answer_sources(source, EARLIER) == ({"ess_laplace", "ess_prior"}, False)


# --- a changed computation changes the answer shown ------------------------------------------

def run_until(name, last_question, change):
    """Run the chapter's code cells in this process, up to its question number
    ``last_question``, with ``change`` applied to ``settings`` right after the chapter defines
    it. Returns the questions shown, in order."""
    notebook, found = question_cells(name)
    stop = found[last_question][0]
    namespace, shown = {"__name__": "__chapter__"}, []
    for k, cell in enumerate(notebook.cells[:stop + 1]):
        if cell.cell_type != "code" or "skip-execution" in cell.metadata.get("tags", []):
            continue
        body = ast.parse(cell.source)
        last = body.body.pop() if body.body and isinstance(body.body[-1], ast.Expr) else None
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(body, f"cell {k}", "exec"), namespace)
            value = eval(compile(ast.Expression(last.value), f"cell {k}", "eval"),
                         namespace) if last else None
        if "settings" in namespace and not namespace.get("_changed"):
            namespace["settings"], namespace["_changed"] = change(namespace["settings"]), True
        if is_question(cell):
            shown.append(value)
    return found, shown


def stored_spec(cell):
    return json.loads(json.dumps(cell.outputs[0]["data"][questions.MIME]))


@pytest.mark.parametrize("name, question", [("04_deterministic", 0), ("03_mcmc", 1)])
def test_a_changed_computation_changes_the_answer_shown(name, question, monkeypatch):
    """With a different prior the chapter's own cells give a different number: the question
    shows the new one, in its JSON and in the answer its HTML reveals."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setattr(builtins, "display", lambda *a, **k: None, raising=False)
    found, shown = run_until(name, question, lambda s: s._replace(prior_var=0.25))
    stored, fresh = stored_spec(found[question][1]), shown[question].spec()
    assert fresh["prompt"] == stored["prompt"] and fresh["kind"] == "number"
    assert fresh["answer"] != stored["answer"], (stored, fresh)
    assert questions.show_number(fresh["answer"]) in shown[question].html()
    assert questions.show_number(stored["answer"]) not in shown[question].answer_text()
