"""The built website and decks, for the checks that walk them all (accessibility, reflow):
their pages, a server for each, and the live figures on a page mounted and run."""
import os
from pathlib import Path

import pytest

from tools.toc import ROOT

SITE = ROOT / "_build" / "html"
DECKS = Path(os.environ.get("SLIDES_DIR", ROOT / "_build" / "slides_out" / "slides"))

def site_pages():
    """Every page the website build wrote (the toc's pages, search, the general index), not the
    decks, and not the top folder's redirect to the landing page (a meta refresh, no content)."""
    if not SITE.exists():
        return []
    skip = {"_static", "_sources", "_images", "slides", "download"}
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html")
                  if not skip & set(p.relative_to(SITE).parts)
                  and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:2000])


def decks():
    return sorted(p.name for p in DECKS.glob("*.html")) if DECKS.exists() else []


def require(folder, what):
    if not (folder / "index.html").exists():
        pytest.skip(f"no {what} in {folder}: run `make book` first")


@pytest.fixture(scope="module")
def site_url(serve):
    require(SITE, "website")
    return serve(SITE)


@pytest.fixture(scope="module")
def decks_url(serve):
    require(DECKS, "decks")
    return serve(DECKS)


def run_widgets(page, scope="", timeout=30_000):
    """Mount (scroll to) and run every live figure on the page (under the CSS ``scope``);
    return their names."""
    names = page.evaluate(f"[...document.querySelectorAll('{scope}[data-widget]')]"
                          ".map(e => e.dataset.widget)")
    for name in names:
        selector = f'{scope}[data-widget="{name}"]'
        if not scope:
            page.locator(selector).first.scroll_into_view_if_needed()
        page.wait_for_function(
            f"() => {{ const el = document.querySelector('{selector}');"
            " return el.bcWidget && Object.keys(el.bcWidget.readout()).length > 0; }",
            timeout=timeout)
        # Each runs as far as for its still (bayescomp/book/figures.json): every readout and table
        # filled in (the Metropolis figure's diagnostics table is the widest thing on a page).
        page.evaluate(f"document.querySelector('{selector}').bcWidget.widget.still()")
    # The readouts are written on the next frames; let them land.
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return names


def wait_for_math(page):
    """The website's math is typeset when the book is built (tools/website/prerendered_math.py):
    check that a page with math has it as SVG, and that no math script is left to wait for."""
    if page.evaluate("document.querySelectorAll('.math').length > 0"):
        assert page.evaluate(TYPESET), f"{page.url}: a formula was not typeset when built"


# Every math element holds its SVG and its MathML, every glyph it uses is defined in the page,
# and no math script runs.
TYPESET = """() => typeof window.MathJax === 'undefined'
    && [...document.querySelectorAll('.math')].every(e =>
        e.querySelector(':scope > mjx-container > svg')
        && e.querySelector(':scope > mjx-container > mjx-assistive-mml > math'))
    && [...document.querySelectorAll('mjx-container use')].every(u =>
        document.getElementById(u.getAttribute('href').slice(1)))"""
