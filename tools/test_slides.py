"""Drive every lecture deck in headless chromium with the network cut.

For each deck: reveal.js reports ready; the slide count equals the notebook's slide cells;
math is typeset (no raw ``$`` in rendered text); every figure has a size and alt text; every
slide fits the canvas; no request fails or leaves the machine. One screenshot per deck is saved next to the decks.
"""
import json
import os
from pathlib import Path

import nbformat
import pytest
from build_slides import CHAPTERS, deck_file

ROOT = Path(__file__).resolve().parents[1]
DECKS = Path(os.environ.get("SLIDES_DIR", ROOT / "_build" / "slides_out" / "slides"))


def slide_cells(name):
    notebook = nbformat.read(ROOT / "chapters" / f"{name}.ipynb", as_version=4)
    return [c for c in notebook.cells
            if c.metadata.get("slideshow", {}).get("slide_type") == "slide"]


@pytest.fixture(scope="module")
def decks_url(serve):
    if not (DECKS / "index.html").exists():
        pytest.fail(f"no decks in {DECKS}: run `make slides` first")
    return serve(DECKS)


def test_every_chapter_has_a_deck():
    assert sorted(CHAPTERS) == sorted(p.stem for p in (ROOT / "chapters").glob("*.ipynb"))


@pytest.mark.parametrize("name", CHAPTERS)
def test_deck(name, decks_url, offline_page):
    view = offline_page(decks_url)
    page = view.page
    page.goto(f"{decks_url}/{deck_file(name)}", wait_until="load")
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
    # MathJax 2 signals the end of typesetting through its queue.
    page.wait_for_function(
        "() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0 "
        "&& MathJax.Hub.queue.running === 0", timeout=30_000)

    expected = slide_cells(name)
    assert page.evaluate("Reveal.getTotalSlides()") == len(expected)

    raw_math = page.evaluate("""() => [...document.querySelectorAll('.jp-RenderedMarkdown')]
        .map(e => e.innerText).filter(t => t.includes('$'))""")
    assert raw_math == [], f"untypeset math in {name}: {raw_math[:2]}"
    if any("$" in c.source for c in expected):
        assert page.evaluate("document.querySelectorAll('.MathJax_SVG').length") > 0

    figures = page.evaluate("""() => [...document.querySelectorAll('.jp-RenderedSVG img')]
        .map(e => ({width: e.naturalWidth, alt: e.alt}))""")
    n_figures = sum("image/svg+xml" in o.get("data", {}) for c in nbformat.read(
        ROOT / "chapters" / f"{name}.ipynb", as_version=4).cells if c.cell_type == "code"
        and c.metadata.get("slideshow", {}).get("slide_type") != "skip" for o in c.outputs)
    assert len(figures) == n_figures
    assert all(f["width"] > 0 for f in figures), f"a figure in {name} did not render"
    assert all(len(f["alt"]) > 20 for f in figures), f"a figure in {name} has no alt text"

    # Every slide fits the presentation canvas, so nothing scrolls or is cut off in class.
    overflowing = page.evaluate("""() => {
        const height = Reveal.getConfig().height, tall = [];
        for (let i = 0; i < Reveal.getTotalSlides(); i++) {
            Reveal.slide(i, 0);
            const slide = Reveal.getCurrentSlide();
            if (slide.scrollHeight > height) tall.push([i, slide.scrollHeight]);
        }
        return tall; }""")
    assert overflowing == [], f"slides taller than the canvas in {name}: {overflowing}"

    # Show a content slide with a figure if there is one, and keep a screenshot of it.
    figure_slide = page.evaluate("""() => {
        const slides = [...document.querySelectorAll('.reveal .slides > section')];
        const i = slides.findIndex(s => s.querySelector('.jp-RenderedSVG img'));
        return i < 0 ? 1 : i; }""")
    page.evaluate(f"Reveal.slide({figure_slide}, 0)")
    page.wait_for_timeout(300)
    (DECKS / "screenshots").mkdir(exist_ok=True)
    page.screenshot(path=str(DECKS / "screenshots" / f"{name}.png"))

    assert view.external == [], f"{name} tried to reach the network: {view.external[:3]}"
    assert view.failed == [], f"{name} had failed requests: {view.failed[:3]}"
    assert view.errors == [], f"{name} raised JavaScript errors: {json.dumps(view.errors[:3])}"
