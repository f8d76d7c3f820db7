"""Reflow on phones (WCAG 1.4.10), in headless chromium with the network cut.

At 320 and 390 px wide (a small and a common phone), with every live figure mounted and run
(the Metropolis figure's diagnostics table is the widest thing a run fills in), no page of the
built website is wider than the screen: a table too wide for a phone scrolls inside its own
box, the page does not scroll sideways. Needs the built book (`make book`); without it the test
skips, and under `make test` or `make check` fails (``tests/skips.py``).
"""
import pytest

from .built import run_widgets, site_pages, site_url, wait_for_math  # noqa: F401

PHONE_WIDTHS = (320, 390)


def sideways(page):
    """How far the page scrolls sideways, and the widest elements that make it do so."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const over = document.documentElement.scrollWidth - width;
        // Boxes past the right edge, and boxes whose own content (a long word) spills out.
        const culprits = over <= 0 ? [] : [...document.querySelectorAll('body *')]
            .filter(e => !e.closest('svg') && e.getClientRects().length
                         && (e.getBoundingClientRect().right > width + 1
                             || (e.scrollWidth > e.clientWidth + 1
                                 && getComputedStyle(e).overflowX === 'visible')))
            .filter(e => { for (let p = e.parentElement; p; p = p.parentElement) {
                               const s = getComputedStyle(p).overflowX;
                               if (s === 'auto' || s === 'scroll' || s === 'hidden') return false; }
                           return true; })
            .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
            .slice(0, 4).map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ` +
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
