"""Accessibility of the built website and decks, in headless chromium with the network cut.

- **axe-core** (pinned in ``tools/npm``), WCAG 2.0 and 2.1 A and AA rules, finds no violation on any built
  page of the website or any slide of any deck, with every live figure mounted and run (so the
  readouts and tables a run fills in are checked too).
- Reflow on phones is checked in ``test_reflow.py``.

It needs the built book (`make book`); without it they skip, and under `make test` or `make check`
fail
(``tests/skips.py``). Each page's violations are listed by rule, with the elements they hit.
"""
import pytest

from tools.toc import ROOT

from .built import decks, decks_url, run_widgets, site_pages, site_url, wait_for_math  # noqa: F401

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


@pytest.mark.parametrize("deck", decks() or ["index.html"])
def test_deck_has_no_axe_violation(deck, decks_url, offline_page):
    """Every slide, as the handouts lay them out (``?print-pdf``: all slides on one page, each
    with its number; a live figure shows its still there); then, in the live deck, each live
    figure's slide with the figure mounted and run, and the deck's frame (controls, progress
    bar, slide number)."""
    violations = []
    if deck != "index.html":
        view = offline_page(decks_url)
        page = view.page
        page.goto(f"{decks_url}/{deck}?print-pdf", wait_until="load")
        page.wait_for_function("() => window.Reveal && Reveal.isReady()"
                               " && document.querySelector('.pdf-page')", timeout=30_000)
        # reveal.js lays every slide out for paper but leaves on them the attributes that hide
        # all but the current slide of the live deck (hidden, aria-hidden): drop those, so that
        # axe reads every slide as the audience and a screen reader get it, one at a time.
        page.evaluate("""document.querySelectorAll('.slides section').forEach(s => {
            s.removeAttribute('hidden'); s.removeAttribute('aria-hidden'); })""")
        violations += [f"slides: {line}" for line in axe_violations(page)]
        assert view.errors == [], view.errors
    view = offline_page(decks_url)
    page = view.page
    page.goto(f"{decks_url}/{deck}", wait_until="load")
    if deck != "index.html":
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
        live = page.evaluate("""() => [...document.querySelectorAll('.slides section [data-widget]')]
            .map(e => { const i = Reveal.getIndices(e.closest('section'));
                        return [i.h, i.v || 0]; })""")
        for h, v in live:
            page.evaluate(f"Reveal.slide({h}, {v})")
            run_widgets(page, "section.present ")
            violations += [f"live figure on slide {h}/{v}: {line}" for line in
                           axe_violations(page, "document.querySelectorAll('section.present')")]
        violations += [f"frame: {line}" for line in axe_violations(
            page, "{exclude: [['.slides']]}")]
    else:
        violations += axe_violations(page)
    assert violations == [], f"axe on {deck}:\n" + "\n".join(violations)
    assert view.errors == [], view.errors
