"""Live presenting: a chapter in JupyterLab's RISE view, from the same slide metadata.

``jupyterlab-rise`` (in the locked reader set) serves a notebook as a reveal.js slideshow at
``/rise/<path>``, with live cells the teacher can run in front of the class. This opens one
chapter there in headless chromium with the network cut and checks that the slideshow is
built from the notebook's own metadata: one slide per slide cell, starting on the chapter's
first slide, with its title. RISE's default theme loads its fonts from Google; the chapters
ask for reveal.js's ``white`` theme (notebook metadata ``rise``), whose fonts ship with RISE,
so the view must fetch nothing from outside. A screenshot goes to ``_build/screenshots/``.

Two more things a lecturer meets in RISE: a figure slide shows the figure, not the plotting code
(the cell's input is collapsed, ``jupyter.source_hidden``); and a live figure, which RISE cannot
run (it does not load Jupyter widgets), shows its still image with a link to its live slide in
the deck, once the chapter has been run in JupyterLab (Run All) and saved.
"""
import html
import re
import shutil

import nbformat
import pytest
from bayescomp.book.widgets import PLACEHOLDER

from tools import toc
from tools.slides.metadata import is_figure_cell, is_widget_cell
from tools.toc import ROOT

from .offline import OfflinePage

CHAPTER = "01_target"


def first_slide_title(name):
    """The heading of a chapter's first slide cell (HTML ``<h1>`` or a Markdown heading)."""
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    cells = [c for c in notebook.cells if c.metadata.get("slideshow", {}).get("slide_type") == "slide"]
    source = cells[0].source
    found = (re.search(r"<h([1-3])[^>]*>(?P<title>.*?)</h\1>", source, re.S)
             or re.search(r"^#{1,3}\s+(?P<title>.+)$", source, re.M))
    assert found, f"no heading on the first slide of {name}"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group("title"))).strip(), len(cells)


@pytest.fixture(scope="module")
def rise(browser, lab_url):
    """Chapter 1 in the RISE view, as a teacher opens it (toolbar: Open as Reveal Slideshow)."""
    view = OfflinePage(browser, lab_url)
    page = view.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{lab_url}/rise/chapters/{CHAPTER}.ipynb", wait_until="load")
    # RISE builds the slides from the notebook once JupyterLab has loaded it.
    page.wait_for_selector(".reveal .slides > section.present :is(h1, h2)", timeout=90_000)
    page.wait_for_timeout(1000)
    shown = page.evaluate("""() => {
        const present = document.querySelector('.reveal .slides > section.present');
        const heading = present.querySelector('h1, h2');
        return {heading: heading.textContent.replace('¶', '').trim(),
                slides: document.querySelectorAll('.reveal .slides > section').length,
                first: present === document.querySelector('.reveal .slides > section')}; }""")
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"rise-{CHAPTER}.png"))
    hidden = page.evaluate("""() => [...document.querySelectorAll('.reveal .slides .jp-CodeCell:not(.reveal-skip)')]
        .map(c => !!c.querySelector('.jp-InputPlaceholder')
                  && !c.querySelector('.jp-InputArea-editor .cm-content')
                  && [...c.querySelectorAll('.jp-InputPlaceholder .jp-PlaceholderText')].every(
                       t => getComputedStyle(t.closest('.jp-Placeholder-contentContainer')).display === 'none'))""")
    yield {**shown, "external": list(view.external), "inputs_hidden": hidden}
    view.close()


def test_rise_presents_the_chapter(rise):
    title, n_slides = first_slide_title(CHAPTER)
    assert rise["first"], "RISE did not open on the first slide"
    assert " ".join(rise["heading"].split()) == " ".join(title.split())
    assert rise["slides"] == n_slides


def test_rise_fetches_nothing(rise):
    assert rise["external"] == [], (
        f"the RISE view reached outside: {rise['external'][:3]} (RISE's default theme loads "
        'Google Fonts: set the notebook metadata "rise": {"theme": "white"})')


def test_rise_hides_the_code_of_figure_slides(rise):
    """Every code cell the chapter shows on a slide by its output only (a figure, a table, a
    live figure) has its input collapsed in RISE, with no line of its code in sight (the
    chapters' rise.css); the others show their code."""
    notebook = nbformat.read(toc.notebook(CHAPTER), as_version=4)
    shown = [c for c in notebook.cells if c.cell_type == "code"
             and c.metadata.get("slideshow", {}).get("slide_type") != "skip"]
    expected = [is_figure_cell(c) or is_widget_cell(c) for c in shown]
    assert any(expected), f"{CHAPTER} has no figure cell on a slide"
    assert rise["inputs_hidden"] == expected


def test_rise_shows_a_still_of_each_live_figure(browser, lab_url):
    """Run All in JupyterLab, save, present with RISE: the live figure's slide shows its still
    image, linked to the figure live on its slide of the deck (built by `make slides`)."""
    folder = ROOT / "_build" / "rise-lab"
    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / f"{CHAPTER}.ipynb"
    shutil.copy(toc.notebook(CHAPTER), notebook)
    view = OfflinePage(browser, lab_url)
    page = view.page
    try:
        page.goto(f"{lab_url}/lab/tree/_build/rise-lab/{CHAPTER}.ipynb?reset", wait_until="load")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        page.wait_for_function("() => /Idle/.test(document.body.innerText)", timeout=90_000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        page.wait_for_function("""() => [...document.querySelectorAll('.jp-OutputArea [data-widget]')]
            .some(e => e.querySelector('canvas'))""", timeout=180_000)
        page.keyboard.press("Control+s")
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)
        page.goto(f"{lab_url}/rise/_build/rise-lab/{CHAPTER}.ipynb", wait_until="load")
        page.wait_for_selector(".reveal .slides > section.present :is(h1, h2)", timeout=90_000)
        page.wait_for_timeout(2000)
        stills = page.evaluate("""() => [...document.querySelectorAll('.reveal .slides > section')]
            .map((s, i) => [...s.querySelectorAll('figure img')].map(img => ({slide: i,
                loaded: img.complete && img.naturalWidth > 0, alt: img.alt,
                link: img.closest('a') && img.closest('a').href}))).flat()""")
        assert len(stills) == 1, f"expected the still of the one live figure of {CHAPTER}: {stills}"
        still = stills[0]
        assert still["loaded"] and "still image" in still["alt"], still
        deck = OfflinePage(browser, lab_url)
        try:
            deck.page.goto(still["link"], wait_until="load")
            deck.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
            live = deck.page.evaluate("""() => { const el = Reveal.getCurrentSlide()
                .querySelector('[data-widget]'); return el && el.dataset.widget; }""")
        finally:
            deck.close()
        placeholder = PLACEHOLDER.search("".join(
            c.source for c in nbformat.read(toc.notebook(CHAPTER), as_version=4).cells))[1]
        assert live == placeholder, f"the link opens {still['link']}, not the live figure's slide"
        for _ in range(still["slide"]):
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(800)
        page.screenshot(path=str(ROOT / "_build" / "screenshots" / f"rise-{CHAPTER}-live-figure.png"))
    finally:
        view.close()
        shutil.rmtree(folder, ignore_errors=True)
    assert view.external == [], view.external
