"""Open every page of the built website in headless chromium with the network cut.

Each page of ``_toc.yml`` must load without reaching outside the machine, with no failed
request, and with its math typeset by the site's own MathJax copy. Build the site first
(`make book`); a missing build skips these tests, and under `make test` and `make check` (which allow no silent
skip, see ``tests/skips.py``) fails them.
"""
import pytest

from tools.slides.build import deck_file
from tools.toc import CHAPTERS, PAGES, ROOT

SITE = ROOT / "_build" / "html"


def require_site():
    if not (SITE / "chapters" / "index.html").exists():
        pytest.skip(f"no website in {SITE}: run `make book` first")


@pytest.fixture(scope="module")
def site_url(serve):
    require_site()
    return serve(SITE)


@pytest.mark.parametrize("page_path", [f"{page}.html" for page in PAGES])
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
    require_site()
    for name in CHAPTERS:
        page = (SITE / "chapters" / f"{name}.html").read_text(encoding="utf-8")
        assert f"../slides/{deck_file(name)}" in page, name
    assert (SITE / "slides" / "index.html").exists()
