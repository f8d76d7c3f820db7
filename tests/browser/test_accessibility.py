"""Accessibility of the built website and decks, in headless chromium with the network cut.

- **axe-core** (pinned in ``tools/npm``), WCAG 2 A and AA rules, finds no violation on any built
  page of the website or any slide of any deck, with every live figure mounted and run (so the
  readouts and tables a run fills in are checked too).
- **Reflow on phones** (WCAG 1.4.10): at 320 and 390 px wide, with every live figure run, no
  page of the website is wider than the screen; a table too wide for a phone scrolls inside its
  own box, the page does not scroll sideways.

Both need the built book (`make book`); without it they skip, and under `make test` fail
(``tests/skips.py``). Each page's violations are listed by rule, with the elements they hit.
"""
import os
from pathlib import Path

import pytest

from tools.toc import ROOT

SITE = ROOT / "_build" / "html"
DECKS = Path(os.environ.get("SLIDES_DIR", ROOT / "_build" / "slides_out" / "slides"))
AXE = ROOT / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa"]           # WCAG 2.0 level A and AA
PHONE_WIDTHS = (320, 390)

# How each live figure is run before a check: every readout and table filled in. The Metropolis
# figure runs the book's 12,000 steps per chain (its diagnostics table is the widest thing on a
# page); importance sampling draws a fresh set; VI takes 300 Adam steps.
RUNS = {
    "posterior-explorer": "",
    "importance-sampling": "el.bcWidget.run(1);",
    "metropolis": "el.bcWidget.run(12000); el.bcWidget.widget.refreshDiagnostics();",
    "laplace-vi": "el.bcWidget.run(300);",
}


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
        page.evaluate(f"""() => {{ const el = document.querySelector('{selector}');
                                  {RUNS[name]} }}""")
    # The readouts are written on the next frames; let them land.
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return names


def axe_violations(page, context="document"):
    """axe-core's WCAG 2 A/AA violations in ``context`` (a JS expression), one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate(f"""async () => {{
        const result = await axe.run({context}, {{
            runOnly: {{type: 'tag', values: {WCAG_TAGS!r}}}, resultTypes: ['violations']}});
        return result.violations.map(v => `${{v.id}} (${{v.impact}}): ${{v.help}}; ` +
            v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary
                                             .replace(/\\s+/g, ' ').slice(0, 160)).join(' | '));
    }}""")
    return found


def wait_for_math(page):
    if page.evaluate("document.querySelectorAll('.math').length > 0"):
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                               timeout=20_000)
        page.evaluate("MathJax.startup.promise")


@pytest.mark.parametrize("path", site_pages() or ["index.html"])
def test_site_page_has_no_axe_violation(path, site_url, offline_page):
    view = offline_page(site_url)
    page = view.page
    page.goto(f"{site_url}/{path}", wait_until="load")
    wait_for_math(page)
    run_widgets(page)
    violations = axe_violations(page)
    assert violations == [], f"axe on {path}:\n" + "\n".join(violations)
    assert view.errors == [], view.errors


def deck_slides(page):
    """(h, v) of every slide of the open deck."""
    return page.evaluate("""() => Reveal.getSlides().map(s => {
        const i = Reveal.getIndices(s); return [i.h, i.v || 0]; })""")


@pytest.mark.parametrize("deck", decks() or ["index.html"])
def test_deck_has_no_axe_violation(deck, decks_url, offline_page):
    """Every slide as the audience sees it (reveal.js hides the others from axe, as from a
    screen reader), its live figure mounted and run; then the deck's frame (controls,
    progress bar, slide number) once."""
    view = offline_page(decks_url)
    page = view.page
    page.goto(f"{decks_url}/{deck}", wait_until="load")
    if deck == "index.html":
        violations = axe_violations(page)
    else:
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
        violations = []
        for h, v in deck_slides(page):
            page.evaluate(f"Reveal.slide({h}, {v})")
            if page.evaluate("!!document.querySelector('section.present [data-widget]')"):
                run_widgets(page, "section.present ")
            violations += [f"slide {h}/{v}: {line}" for line in
                           axe_violations(page, "document.querySelectorAll('section.present')")]
        violations += [f"frame: {line}" for line in axe_violations(
            page, "{exclude: [['.slides']]}")]
    assert violations == [], f"axe on {deck}:\n" + "\n".join(violations)
    assert view.errors == [], view.errors


def sideways(page):
    """How far the page scrolls sideways, and the widest elements that make it do so."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const over = document.documentElement.scrollWidth - width;
        const culprits = over <= 0 ? [] : [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > width + 1 && e.getClientRects().length)
            .filter(e => { for (let p = e.parentElement; p; p = p.parentElement) {
                               const s = getComputedStyle(p).overflowX;
                               if (s === 'auto' || s === 'scroll' || s === 'hidden') return false; }
                           return true; })
            .slice(-3).map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ` +
                                `right=${Math.round(e.getBoundingClientRect().right)}`);
        return {over, culprits}; }""")


@pytest.mark.parametrize("width", PHONE_WIDTHS)
def test_no_page_scrolls_sideways_on_a_phone(width, site_url, browser):
    """WCAG 1.4.10: every page at a phone's width, every live figure run, fits the screen."""
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        (site_url, "data:", "blob:")) else route.abort())
    page = context.new_page()
    wide = []
    try:
        for path in site_pages():
            page.goto(f"{site_url}/{path}", wait_until="load")
            wait_for_math(page)
            run_widgets(page)
            result = sideways(page)
            if result["over"] > 0:
                wide.append(f"{path}: {result['over']} px too wide, from {result['culprits']}")
    finally:
        context.close()
    assert wide == [], f"at {width} px the page scrolls sideways:\n" + "\n".join(wide)
