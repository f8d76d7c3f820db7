"""Accessibility of the built website, in headless chromium with the network cut.

- **axe-core** (pinned in ``tools/npm``), WCAG 2.0 and 2.1 A and AA rules, finds no violation on any built
  page of the website, with every live figure mounted and run (so the readouts and tables a run
  fills in are checked too).
- The decks: ``test_deck_accessibility.py`` (in ``make check``, not the fast loop); reflow on
  phones: ``test_reflow.py``.

It needs the built book (`make book`); without it they skip, and under `make test` or `make check`
fail
(``tests/skips.py``). Each page's violations are listed by rule, with the elements they hit.
"""
import pytest

from tools.toc import ROOT

from .built import run_widgets, site_pages, site_url, wait_for_math  # noqa: F401

AXE = ROOT / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]   # WCAG 2.0 and 2.1, levels A and AA


def axe_violations(page, context="document"):
    """axe-core's WCAG 2.0 and 2.1 A/AA violations in ``context`` (a JS expression), one line each."""
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
