"""Open every page of the built website in headless chromium with the network cut.

Each page must load without reaching outside the machine, with no failed request, and with its
math typeset by the site's own MathJax copy. Build the site first (`make book`); with
REQUIRE_SITE=1 (as in CI) a missing build is a failure rather than a skip.
"""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
PAGES = ["chapters/index.html", "chapters/01_target.html", "chapters/02_importance_sampling.html",
         "chapters/03_mcmc.html", "chapters/04_deterministic.html", "chapters/05_comparison.html",
         "chapters/06_scaling.html", "chapters/07_hierarchical.html",
         "chapters/references.html", "chapters/execution.html"]


@pytest.fixture(scope="module")
def site_url(serve):
    if not (SITE / "chapters" / "index.html").exists():
        if os.environ.get("REQUIRE_SITE"):
            pytest.fail(f"no website in {SITE}: run `make book` first")
        pytest.skip("website not built; run `make book` first")
    return serve(SITE)


@pytest.mark.parametrize("page_path", PAGES)
def test_page_offline(page_path, site_url, offline_page):
    view = offline_page(site_url)
    page = view.page
    page.goto(f"{site_url}/{page_path}", wait_until="load")
    has_math = page.evaluate("document.querySelectorAll('.math').length > 0")
    if has_math:
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                               timeout=20_000)
        page.evaluate("MathJax.startup.promise")
        assert page.evaluate("document.querySelectorAll('mjx-container').length") > 0
    figures = page.evaluate("""() => [...document.querySelectorAll('figure img, .cell_output img')]
        .map(e => ({width: e.naturalWidth, alt: e.alt}))""")
    assert all(f["width"] > 0 for f in figures), f"a figure on {page_path} did not load"
    assert all(f["alt"] for f in figures), f"a figure on {page_path} has no alt text"
    # Nothing is cut off at the page edge: no display equation or code block is wider than its
    # box or runs past the right edge of the main column.
    overflowing = page.evaluate("""() => {
        const main = document.querySelector('main').getBoundingClientRect();
        return [...document.querySelectorAll(
                'mjx-container[display="true"], div.cell_input pre, div.cell_output pre')]
            .filter(e => e.scrollWidth > e.clientWidth + 1
                         || e.getBoundingClientRect().right > main.right + 1)
            .map(e => e.textContent.slice(0, 60)); }""")
    assert overflowing == [], f"cut off at the page edge on {page_path}: {overflowing[:3]}"
    assert view.external == [], f"{page_path} tried to reach the network: {view.external[:3]}"
    assert view.failed == [], f"{page_path} had failed requests: {view.failed[:3]}"
    assert view.errors == [], f"{page_path} raised JavaScript errors: {view.errors[:3]}"


def test_chapter_pages_link_to_their_decks():
    if not (SITE / "chapters" / "index.html").exists():
        pytest.skip("website not built")
    for page_path in PAGES[:7]:
        assert "slides/" in (SITE / page_path).read_text(encoding="utf-8"), page_path
    assert (SITE / "slides" / "index.html").exists()
