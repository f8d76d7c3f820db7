"""The questions (book.questions.ask) in headless chromium, with the network cut.

On each of the three places a reader meets them, a question is asked, answered wrongly,
answered rightly, and revealed:

- a page built by myst-nb with the book's theme (what the website does with the output), and
  every chapter page of the built website;
- a deck made with the book's exporter and template, and every question slide of the built
  decks: the presenter's → reveals the answer (a fragment), a clicker's keys move the deck
  whatever in the question has the focus, and Enter hands the keys to the question;
- JupyterLab, on a notebook whose question cells are run there (JupyterLab runs the script of
  an output made in the session); and a chapter as stored, where no script runs and the
  answer stays inside a closed <details>.

axe-core (pinned in tools/npm) finds no violation on the pages and slides that hold them.
"""
import json
import subprocess
import sys
import textwrap
import time

import nbformat
import pytest
from nbclient import NotebookClient

from bayescomp.book import questions
from tools import toc
from tools.slides import build as deck_builder
from tools.toc import ROOT

AXE = ROOT / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
SITE = ROOT / "_build" / "html"
DECKS = SITE / "slides"

CELLS = [
    "from bayescomp import book\nimport numpy as np\nvalues = np.array([3.0, 7.5])",
    'book.questions.ask("Which of the two values is larger?", choices=["the first", "the second"],\n'
    '                 answer=int(np.argmax(values)), explain=f"{values.max():g} is larger.")',
    'book.questions.ask("What is their sum?", values.sum(), tolerance=0.5, unit="units",\n'
    '                 explain="Add them.")',
]


def question_notebook(execute=True):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    if execute:
        NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    return notebook


def specs(notebook):
    return [json.loads(json.dumps(o["data"][questions.MIME])) for cell in notebook.cells
            for o in cell.get("outputs", []) if questions.MIME in o.get("data", {})]


@pytest.fixture(scope="session")
def executed():
    return question_notebook()


@pytest.fixture(scope="session")
def mini_site(executed, tmp_path_factory, serve):
    """One page built by myst-nb (stored outputs, as the book renders them) with the book's theme."""
    src = tmp_path_factory.mktemp("questions-src")
    (src / "conf.py").write_text(textwrap.dedent("""
        extensions = ["myst_nb"]
        html_theme = "sphinx_book_theme"
        nb_execution_mode = "off"
        suppress_warnings = ["mystnb.unknown_mime_type"]
        """))
    (src / "index.md").write_text("# Questions\n\n```{toctree}\nasked\n```\n")
    notebook = nbformat.from_dict(json.loads(json.dumps(executed)))
    notebook.cells.insert(0, nbformat.v4.new_markdown_cell("# Asked before told\n\nSome prose."))
    nbformat.write(notebook, src / "asked.ipynb")
    out = tmp_path_factory.mktemp("questions-site") / "html"
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(out)],
                   check=True, capture_output=True)
    return serve(out)


@pytest.fixture(scope="session")
def mini_deck(executed, tmp_path_factory, serve):
    """A deck from the book's exporter and template: a title slide, then a slide per question."""
    out = tmp_path_factory.mktemp("questions-deck")
    deck_builder.copy_assets(out)
    notebook = nbformat.from_dict(json.loads(json.dumps(executed)))
    notebook.cells[0].metadata["slideshow"] = {"slide_type": "skip"}
    title = nbformat.v4.new_markdown_cell("# Questions")
    title.metadata["slideshow"] = {"slide_type": "slide"}
    cells = [title, notebook.cells[0]]
    for k, cell in enumerate(notebook.cells[1:]):
        slide = nbformat.v4.new_markdown_cell(f"## Question {k + 1}")
        slide.metadata["slideshow"] = {"slide_type": "slide"}
        cell.metadata.update(slideshow={"slide_type": "-"}, tags=["slides-hide-input"])
        cells += [slide, cell]
    after = nbformat.v4.new_markdown_cell("## After the questions")
    after.metadata["slideshow"] = {"slide_type": "slide"}
    notebook.cells = cells + [after]
    body, _ = deck_builder.exporter().from_notebook_node(notebook)
    (out / "deck.html").write_text(body, encoding="utf-8")
    return serve(out)


# --- driving a question -----------------------------------------------------------------------

def state(page, root):
    return page.evaluate("(el) => el.bcQuestion.state()", root.element_handle())


def feedback(root):
    return root.locator(".bcq-feedback").inner_text()


def choice_label(root, index):
    return root.locator(".bcq-choices label").nth(index)


def answer_visible(root):
    panel = root.locator(".bcq-answer")
    return panel.is_visible() and panel.evaluate("(e) => getComputedStyle(e).opacity") != "0"


def answer_shown(root, expected, seconds=5.0):
    """Whether the answer is visible, once it has had up to `seconds` to become `expected`.

    A fragment fades in and out (a CSS transition), so a fixed wait after a key races the fade
    on a loaded machine; polling for the expected state does not, and still fails when the
    state never comes."""
    deadline = time.monotonic() + seconds
    while (shown := answer_visible(root)) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return shown


def drive_choice(page, root, spec):
    """Ask, answer wrongly, answer rightly: by the mouse."""
    assert root.locator("legend").inner_text().endswith(spec["prompt"])
    assert not answer_visible(root), "the answer shows before an attempt"
    root.locator(".bcq-check").click()
    assert "Choose" in feedback(root) and state(page, root)["attempts"] == 0
    wrong = 1 - spec["answer"] if len(spec["choices"]) == 2 else (spec["answer"] + 1) % len(spec["choices"])
    choice_label(root, wrong).click()
    root.locator(".bcq-check").click()
    assert feedback(root).startswith("✗") and not answer_visible(root)
    assert root.locator(".bcq-reveal").is_visible(), "after a wrong attempt the reveal is offered"
    choice_label(root, spec["answer"]).click()
    assert feedback(root) == "", "the verdict on the previous choice outlives the change"
    root.locator(".bcq-check").click()
    assert feedback(root).startswith("✓ Right")
    assert answer_shown(root, True)
    shown = root.locator(".bcq-answer").inner_text()
    assert spec["choices"][spec["answer"]] in shown
    assert state(page, root) | {"deck": False, "engaged": False} == {
        "attempts": 2, "correct": True, "revealed": True, "deck": False, "engaged": False}


def drive_number(page, root, spec):
    """Ask, answer wrongly, answer rightly: by the keyboard (Enter in the field checks)."""
    field = root.locator("input.bcq-number")
    assert root.locator(f'label[for="{field.get_attribute("id")}"]').count() == 1
    assert not answer_shown(root, False)
    field.focus()
    page.keyboard.type(str(spec["answer"] + 3 * spec["tolerance"]))
    page.keyboard.press("Enter")
    assert feedback(root).startswith("✗") and not answer_visible(root)
    field.press("End")                           # on a slide Enter let the field go: focus it
    page.keyboard.press("Backspace")
    assert feedback(root) == "", "the verdict on the previous number outlives the edit"
    field.fill("")
    page.keyboard.type("1..2")                   # number characters only: on a slide letters are the deck's
    page.keyboard.press("Enter")
    assert "not a number" in feedback(root) and state(page, root)["attempts"] == 1
    field.fill("")
    page.keyboard.type(str(spec["answer"] + 0.5 * spec["tolerance"]))
    page.keyboard.press("Enter")
    assert feedback(root).startswith("✓ Right") and answer_shown(root, True)
    assert questions.show_number(spec["answer"]) in root.locator(".bcq-answer").inner_text()


def reveal_by_keyboard(page, root):
    """On a fresh question: a wrong attempt, then Tab to "Show the answer" and press Enter."""
    root.locator(".bcq-choices input").first.focus()
    page.keyboard.press("Space")                 # the first choice
    page.keyboard.press("Tab")                   # to Check (arrows would move the choice)
    page.keyboard.press("Enter")
    assert state(page, root)["attempts"] == 1
    if state(page, root)["correct"]:
        return                                   # the first choice was right: shown already
    page.keyboard.press("Tab")                   # to Show the answer
    page.keyboard.press("Enter")
    assert answer_shown(root, True) and state(page, root)["revealed"]


def reveal_after_a_wrong_attempt(page, root, spec):
    """On a fresh question of either kind: a wrong attempt, then "Show the answer" by the mouse."""
    assert not answer_visible(root) and not root.locator(".bcq-reveal").is_visible()
    if spec["kind"] == "choice":
        choice_label(root, (spec["answer"] + 1) % len(spec["choices"])).click()
        root.locator(".bcq-check").click()
    else:
        root.locator("input.bcq-number").fill(str(spec["answer"] + 3 * spec["tolerance"]))
        root.locator(".bcq-check").click()
    assert feedback(root).startswith("✗") and not answer_visible(root)
    root.locator(".bcq-reveal").click()
    assert answer_shown(root, True) and state(page, root)["revealed"]
    assert not state(page, root)["correct"]


def contrast(colour, background):
    """WCAG 2 contrast ratio of two opaque CSS rgb() colours."""
    def luminance(css):
        channels = [int(v) / 255 for v in css[css.index("(") + 1:-1].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    lighter, darker = sorted((luminance(colour), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def axe_violations(page, context="document"):
    page.add_script_tag(path=str(AXE))
    return page.evaluate(f"""async () => (await axe.run({context})).violations.map(
        v => ({{id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}}))""")


def open_page(offline_page, base, path):
    view = offline_page(base)
    view.page.goto(f"{base}/{path}", wait_until="load")
    view.page.wait_for_function("() => [...document.querySelectorAll('.bcq')].every(e => e.bcQuestion)"
                                " && document.querySelector('.bcq')")
    return view, view.page


# --- the website --------------------------------------------------------------------------------

def test_questions_on_a_page(mini_site, offline_page, executed):
    view, page = open_page(offline_page, mini_site, "asked.html")
    choice, number = specs(executed)
    roots = page.locator(".bcq")
    assert roots.count() == 2
    assert not roots.nth(0).locator(".bcq-reveal").is_visible(), "no reveal before an attempt"
    drive_choice(page, roots.nth(0), choice)
    drive_number(page, roots.nth(1), number)
    page.reload(wait_until="load")               # the state lives in the page only
    page.wait_for_function("() => document.querySelector('.bcq').bcQuestion")
    assert state(page, page.locator(".bcq").first)["attempts"] == 0
    reveal_by_keyboard(page, page.locator(".bcq").first)
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.locator(".bcq").first.screenshot(path=str(shots / "page-question.png"))
    assert view.external == [] and view.failed == [] and view.errors == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_axe_violation_on_a_page(theme, mini_site, offline_page):
    """axe on the questions, in the theme's light and dark mode (the theme's own violations
    elsewhere on the page, a search button whose label differs from its text and a sidebar
    outside a landmark, are not the questions'). A question draws in its output's text colour
    (currentColor); in dark mode the theme sets HTML outputs on a light panel with dark text,
    and the question follows it, at least 4.5:1 against the background it sits on."""
    view, page = open_page(offline_page, mini_site, "asked.html")
    page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
    page.wait_for_timeout(300)                   # the theme's colour transition
    text, border, background = page.evaluate("""() => { const q = document.querySelector('.bcq');
        let e = q, bg = 'rgba(0, 0, 0, 0)';
        while (e && (bg = getComputedStyle(e).backgroundColor) === 'rgba(0, 0, 0, 0)') e = e.parentElement;
        const style = getComputedStyle(q);
        return [style.color, style.borderTopColor, bg]; }""")
    assert text == border, (text, border)
    assert contrast(text, background) >= 4.5, (theme, text, background)
    assert axe_violations(page, "'.bcq'") == []
    root = page.locator(".bcq").first
    choice_label(root, 0).click()
    root.locator(".bcq-check").click()           # with feedback and the reveal button shown
    root.locator(".bcq-reveal").click()
    assert axe_violations(page, "'.bcq'") == []


def require_built(path):
    if not path.exists():
        pytest.skip(f"{path} is not built: run `make book` first")


WITH_QUESTIONS = [name for name in toc.CHAPTERS
                  if "book.questions.ask(" in toc.notebook(name).read_text(encoding="utf-8")]


@pytest.mark.parametrize("name", WITH_QUESTIONS)
def test_questions_on_the_chapter_pages(name, serve, offline_page):
    require_built(SITE / "chapters" / f"{name}.html")
    view, page = open_page(offline_page, serve(SITE), f"chapters/{name}.html")
    stored = specs(nbformat.read(toc.notebook(name), as_version=4))
    roots = page.locator(".bcq")
    assert roots.count() == len(stored)
    for k, spec in enumerate(stored):
        root = roots.nth(k)
        assert not answer_visible(root)
        assert page.evaluate("(el) => JSON.parse(el.dataset.question)",
                             root.element_handle()) == spec
        if spec["kind"] == "choice":
            drive_choice(page, root, spec)
        else:
            drive_number(page, root, spec)
    assert axe_violations(page, "'.bcq'") == []
    assert view.external == [] and view.failed == [] and view.errors == []


# --- the decks ----------------------------------------------------------------------------------

def open_deck(offline_page, base, path):
    view = offline_page(base)
    view.page.set_viewport_size({"width": 1280, "height": 720})
    view.page.goto(f"{base}/{path}", wait_until="load")
    view.page.wait_for_function("() => window.Reveal && Reveal.isReady()")
    return view, view.page


def slide_index(page):
    return page.evaluate("Reveal.getIndices().h")


def test_a_question_on_a_slide(mini_deck, offline_page, executed):
    view, page = open_deck(offline_page, mini_deck, "deck.html#/1")
    choice, number = specs(executed)
    root = page.locator(".present .bcq")
    # asked: the answer is a fragment, hidden; the presenter's → reveals it, the next → moves on
    assert not answer_visible(root) and "Keys move the slides" in root.inner_text()
    # the explanation goes to the presenter: the speaker notes, not the slide
    assert "7.5 is larger." in page.evaluate("Reveal.getSlideNotes()")
    assert "7.5 is larger." not in root.inner_text()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert slide_index(page) == 1 and answer_shown(root, True) and state(page, root)["revealed"]
    page.keyboard.press("ArrowLeft")             # back: the answer hides again
    page.wait_for_timeout(300)
    assert slide_index(page) == 1 and not answer_shown(root, False)
    # answered wrongly, then rightly, by the mouse; the clicker still moves the deck
    choice_label(root, 1 - choice["answer"]).click()
    root.locator(".bcq-check").click()
    assert feedback(root).startswith("✗") and not answer_visible(root)
    picked = page.evaluate("(el) => el.querySelector('input:checked').value", root.element_handle())
    root.locator("input:checked").focus()        # the focus on a choice, a form field
    page.keyboard.press("PageDown")              # a clicker's key
    page.wait_for_timeout(300)
    assert answer_shown(root, True) and slide_index(page) == 1, "the clicker reveals first"
    assert page.evaluate("(el) => el.querySelector('input:checked').value",
                         root.element_handle()) == picked, "the clicker changed the choice"
    page.keyboard.press("PageUp")
    assert not answer_shown(root, False), "PageUp hides the answer again"
    choice_label(root, choice["answer"]).click()
    root.locator(".bcq-check").click()
    assert feedback(root).startswith("✓ Right") and answer_shown(root, True)
    assert slide_index(page) == 1
    # Enter on a chosen answer checks it and lets go: the clicker then moves on, as before
    attempts = state(page, root)["attempts"]
    root.locator(".bcq-choices input").first.focus()
    page.keyboard.press("Enter")
    assert state(page, root)["attempts"] == attempts + 1 and not state(page, root)["engaged"]
    assert not page.evaluate("(el) => el.contains(document.activeElement)", root.element_handle())
    # Enter on a button presses it, and hands nothing over
    root.locator(".bcq-check").focus()
    page.keyboard.press("Enter")
    assert state(page, root)["attempts"] == attempts + 2 and not state(page, root)["engaged"]
    # Enter on the question's own box hands the keys to it: the arrows then move between choices
    root.focus()
    page.keyboard.press("Enter")
    assert state(page, root)["engaged"] and "Esc" in root.inner_text()
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert slide_index(page) == 1
    assert page.evaluate("(el) => el.querySelector('input:checked').value", root.element_handle()) == "1"
    page.keyboard.press("Escape")
    assert not state(page, root)["engaged"]
    # Enter on the question's box (Tab's stop): the focus goes to the chosen answer
    root.focus()
    page.keyboard.press("Enter")
    assert state(page, root)["engaged"]
    assert page.evaluate("(el) => el.querySelector('input:checked') === document.activeElement",
                         root.element_handle()), "engaged, but no choice has the focus"
    page.keyboard.press("Escape")
    # engaged again: a clicker has no Esc, and its Page Down leaves the question and moves on
    root.focus()
    page.keyboard.press("Enter")
    assert state(page, root)["engaged"]
    page.keyboard.press("PageDown")
    page.wait_for_timeout(300)
    assert not state(page, root)["engaged"] and slide_index(page) == 2
    # the numeric question, typed: the field keeps its keys, Enter checks; a clicker's keys
    # (Page Down/Up) still go to the slides from inside the field, and type nothing
    root = page.locator(".present .bcq")
    field = root.locator("input.bcq-number")
    field.focus()
    page.keyboard.type("12")
    page.keyboard.press("PageDown")
    assert answer_shown(root, True) and slide_index(page) == 2, "Page Down from the field reveals"
    assert field.input_value() == "12" and state(page, root)["attempts"] == 0
    page.keyboard.press("PageUp")
    assert not answer_shown(root, False) and slide_index(page) == 2, "Page Up hides it again"
    # typing done, the caret at the end: a clicker's → reveals too; mid-text → moves the caret
    field.focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert not answer_visible(root) and field.input_value() == "12", "mid-text → left the field"
    page.keyboard.press("ArrowRight")
    assert answer_shown(root, True) and slide_index(page) == 2, "→ at the end of the text reveals"
    page.keyboard.press("PageUp")
    assert not answer_shown(root, False) and slide_index(page) == 2
    field.fill("")
    drive_number(page, root, number)
    assert slide_index(page) == 2
    # Enter checked the typed answer, and the field let go: ← (a clicker) moves the deck again
    typed = field.element_handle()               # the locator follows the present slide
    assert not page.evaluate("(el) => el === document.activeElement", typed)
    for _ in range(2):                           # the first may hide the answer (a fragment)
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(300)
    assert slide_index(page) == 1, "after Enter in the field, ← goes to the slides"
    assert page.evaluate("(el) => el.value", typed) != "", "← typed into the field"
    page.evaluate("Reveal.slide(2)")
    page.wait_for_timeout(300)
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "deck-question.png"))
    assert axe_violations(page, "'.present .bcq'") == []
    assert view.external == [] and view.failed == [] and view.errors == []


def test_question_text_is_readable_from_the_back(mini_deck, offline_page):
    """Every text of a question on a slide is at least 28 px of the 1120 x 700 canvas."""
    view, page = open_deck(offline_page, mini_deck, "deck.html#/1")
    page.keyboard.press("ArrowRight")
    sizes = page.evaluate("""() => [...document.querySelectorAll('.present .bcq *')]
        .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .filter(e => e.getClientRects().length)
        .map(e => [parseFloat(getComputedStyle(e).fontSize), e.textContent.trim().slice(0, 30)])""")
    assert sizes and min(px for px, _ in sizes) >= 28, sizes


@pytest.fixture(scope="session")
def book_questions_deck(tmp_path_factory, serve):
    """Every question of the book, as stored, on its poll slide (title and kicker from the
    chapter), in one deck made with the book's exporter and template."""
    out = tmp_path_factory.mktemp("questions-book-deck")
    deck_builder.copy_assets(out)
    title = nbformat.v4.new_markdown_cell("# The book's questions")
    title.metadata["slideshow"] = {"slide_type": "slide"}
    cells = [title]
    for name in WITH_QUESTIONS:
        notebook = nbformat.read(toc.notebook(name), as_version=4)
        for k, cell in enumerate(notebook.cells):
            if "question" in cell.metadata.get("tags", []):
                cells += [notebook.cells[k - 1], cell, notebook.cells[k + 1]]
    notebook = nbformat.v4.new_notebook(cells=cells)
    body, _ = deck_builder.exporter().from_notebook_node(notebook)
    (out / "deck.html").write_text(body, encoding="utf-8")
    return serve(out), len(cells) // 3


def test_every_question_fits_its_slide(book_questions_deck, offline_page):
    """Each of the book's questions on its slide, its answer shown: nothing taller than the
    700 px canvas, every text at least 28 px, no axe violation, the clicker's → reveals, the
    answer and its explanation in the speaker notes."""
    base, count = book_questions_deck
    view, page = open_deck(offline_page, base, "deck.html")
    problems = []
    for index in range(1, count + 1):
        page.evaluate(f"Reveal.slide({index})")
        page.wait_for_timeout(150)
        root = page.locator(".present .bcq")
        prompt = root.locator("legend").inner_text()[:50]
        hidden = not answer_visible(root)
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(250)
        if not (hidden and answer_shown(root, True) and slide_index(page) == index):
            problems.append((index, prompt, "→ did not reveal the answer"))
        if "Answer:" not in (page.evaluate("Reveal.getSlideNotes()") or ""):
            problems.append((index, prompt, "no answer in the speaker notes"))
        height = page.evaluate("document.querySelector('.present').scrollHeight")
        if height > 700:
            problems.append((index, prompt, f"{height} px tall"))
        small = page.evaluate("""() => [...document.querySelectorAll('.present .bcq *')]
            .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .map(e => parseFloat(getComputedStyle(e).fontSize)).filter(px => px < 28)""")
        if small:
            problems.append((index, prompt, f"text at {min(small)} px"))
        violations = axe_violations(page, "'.present .bcq'")
        if violations:
            problems.append((index, prompt, violations))
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "deck-last-question.png"))
    assert problems == [], "\n".join(map(str, problems))
    assert view.external == [] and view.errors == []


def question_slides(name):
    """The indices (h) of a built deck's question slides, from the notebook's slide cells."""
    slides = [cell for cell in nbformat.read(toc.notebook(name), as_version=4).cells
              if cell.metadata.get("slideshow", {}).get("slide_type") in ("slide", "subslide")]
    return [k for k, cell in enumerate(slides) if "## Question" in cell.source]


def poll_for_hall(spec):
    """What a question slide shows a hall: the letters before the choices and the question's
    tag (a show of hands, or a number each one writes down)."""
    letters = [chr(65 + k) for k in range(len(spec.get("choices", [])))]
    if not letters:
        return {"letters": [], "tag": "Write down a number:"}
    return {"letters": letters, "tag": f"Hands up: {', '.join(letters[:-1])} or {letters[-1]}?"}


POLL_SHOWN = """(el) => ({
    letters: [...el.querySelectorAll('.bcq-choices label')].map(label => {
      const letter = label.querySelector('.bcq-letter');
      return letter && letter.getBoundingClientRect().width > 0 ? letter.textContent : null; }),
    tag: el.querySelector('.bcq-tag').textContent})"""


def test_the_poll_check_sees_a_question_without_letters():
    """Negative control: a question slide as the package writes it (no letters, the tag
    "Question") is not a poll for a hall."""
    spec = {"kind": "choice", "choices": ["a", "b", "c"]}
    assert {"letters": [None] * 3, "tag": "Question"} != poll_for_hall(spec)
    assert poll_for_hall(spec) == {"letters": ["A", "B", "C"], "tag": "Hands up: A, B or C?"}


@pytest.mark.parametrize("name", WITH_QUESTIONS)
def test_question_slides_of_the_decks(name, serve, offline_page):
    """Every question slide of the built decks is a poll for a hall (lettered choices for a
    show of hands, or a number to write down), its answer hidden until the presenter's next key."""
    deck = DECKS / deck_builder.deck_file(name)
    require_built(deck)
    view, page = open_deck(offline_page, serve(DECKS), deck.name)
    asked = specs(nbformat.read(toc.notebook(name), as_version=4))
    assert len(asked) == len(question_slides(name))
    for index, spec in zip(question_slides(name), asked):
        page.evaluate(f"Reveal.slide({index})")
        page.wait_for_timeout(200)
        root = page.locator(".present .bcq")
        assert root.count() == 1, (name, index)
        assert page.evaluate(POLL_SHOWN, root.element_handle()) == poll_for_hall(spec), (name, index)
        assert not answer_visible(root)
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
        assert slide_index(page) == index and answer_shown(root, True), (name, index)
        assert axe_violations(page, "'.present .bcq'") == [], (name, index)
    assert view.external == [] and view.errors == []


# --- JupyterLab -----------------------------------------------------------------------------------

def test_questions_in_jupyterlab(lab_url, offline_page):
    """Run in JupyterLab, a question's output is trusted and its script runs: the same checks."""
    folder = ROOT / "_build" / "questions-lab"
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(question_notebook(execute=False), folder / "questions.ipynb")
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/_build/questions-lab/questions.ipynb?reset", wait_until="load")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
    page.locator(".jp-Notebook .jp-CodeCell").first.click()
    page.wait_for_timeout(3000)                  # the kernel starts
    for _ in CELLS:
        page.keyboard.press("Shift+Enter")
    page.wait_for_function("() => { const q = document.querySelectorAll('.jp-OutputArea .bcq');"
                           " return q.length === 2 && [...q].every(e => e.bcQuestion); }",
                           timeout=90_000)
    executed = question_notebook()
    choice, number = specs(executed)
    roots = page.locator(".jp-OutputArea .bcq")
    drive_choice(page, roots.nth(0), choice)
    drive_number(page, roots.nth(1), number)
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "jupyterlab-questions.png"))
    assert view.external == [], view.external


def rendered_in_jupyterlab(page, root, text, timeout=60_000):
    """Scroll the question ``root`` into view and wait until the browser has rendered it with
    ``text`` in it. JupyterLab lays out only the cells near the viewport and may scroll again
    while a notebook opens (a loaded machine saw the first question's text still empty after
    scrolling to it); until its cell is rendered, an element's ``innerText`` is empty."""
    root.scroll_into_view_if_needed()
    page.wait_for_function("([el, text]) => el.innerText.includes(text)",
                           arg=[root.element_handle(), text], timeout=timeout)


def test_a_stored_question_in_jupyterlab_hides_its_answer(lab_url, offline_page):
    """A chapter as stored (untrusted): no script runs, the answer stays in a closed <details>.
    (`make lab` trusts the chapters; this server has a trust database of its own.)"""
    name = WITH_QUESTIONS[0]
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/chapters/{name}.ipynb?reset", wait_until="load")
    page.wait_for_selector(".jp-OutputArea .bcq", timeout=60_000)
    root = page.locator(".jp-OutputArea .bcq").first
    spec = specs(nbformat.read(toc.notebook(name), as_version=4))[0]
    rendered_in_jupyterlab(page, root, spec["prompt"])
    assert page.evaluate("(el) => el.bcQuestion === undefined", root.element_handle())
    assert "Run this cell" in root.inner_text() and root.locator("button").count() == 0
    details = root.locator("details")
    assert details.count() == 1 and details.get_attribute("open") is None
    assert not root.locator("details p").first.is_visible()
    details.locator("summary").click()
    assert root.locator("details p").first.is_visible()
    assert view.external == [], view.external


def test_a_trusted_stored_chapter_checks_answers_in_jupyterlab(lab_url, lab_env, offline_page):
    """A chapter as stored, trusted as `make lab` trusts it (`jupyter trust`): JupyterLab runs
    its outputs' scripts, so a question checks an attempt before the chapter has run, and
    shows its answer on request after a wrong one."""
    name = WITH_QUESTIONS[0]
    folder = ROOT / "_build" / "trusted-lab"
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f"{name}.ipynb"
    copy.write_bytes(toc.notebook(name).read_bytes())
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(copy)], env=lab_env, check=True,
                   capture_output=True)
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/_build/trusted-lab/{name}.ipynb?reset", wait_until="load")
    page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea .bcq')]"
                           ".some(e => e.bcQuestion)", timeout=60_000)
    root = page.locator(".jp-OutputArea .bcq").first
    first, second = specs(nbformat.read(copy, as_version=4))[:2]
    rendered_in_jupyterlab(page, root, first["prompt"])
    assert "Run this cell" not in root.inner_text()
    if first["kind"] == "choice":
        drive_choice(page, root, first)
    else:
        drive_number(page, root, first)
    # The chapter's next question: a wrong attempt, then the reveal.
    page.wait_for_function("() => { const q = document.querySelectorAll('.jp-OutputArea .bcq');"
                           " return q.length > 1 && q[1].bcQuestion; }", timeout=60_000)
    root = page.locator(".jp-OutputArea .bcq").nth(1)
    rendered_in_jupyterlab(page, root, second["prompt"])
    reveal_after_a_wrong_attempt(page, root, second)
    assert view.external == [], view.external
