"""Live presenting: a chapter in JupyterLab's RISE view, from the same slide metadata.

``jupyterlab-rise`` (in the locked reader set) serves a notebook as a reveal.js slideshow at
``/rise/<path>``, with live cells the teacher can run in front of the class. This opens one
chapter there in headless chromium with the network cut and checks that the slideshow is
built from the notebook's own metadata: one slide per slide cell, starting on the chapter's
first slide, with its title. RISE's default theme loads its fonts from Google; the chapters
ask for reveal.js's ``white`` theme (notebook metadata ``rise``), whose fonts ship with RISE,
so the view must fetch nothing from outside. A screenshot goes to ``_build/screenshots/``.
"""
import html
import re

import nbformat
import pytest

from tools import toc
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
    yield {**shown, "external": list(view.external)}
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
