"""Accessibility of the built decks, in headless chromium with the network cut: axe-core's
WCAG 2.0 and 2.1 A and AA rules (``test_accessibility.py``, which checks the website's pages the
same way) find no violation on any slide of any deck, nor on a live figure mounted and run on its
slide, nor in the deck's frame. In ``make check``; ``make test``, the fast loop, leaves the decks
out.

It needs the built book (`make book`); without it, it skips, and under `make check` fails
(``tests/skips.py``).
"""
import pytest

from .built import decks, decks_url, run_widgets  # noqa: F401
from .test_accessibility import axe_violations


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
