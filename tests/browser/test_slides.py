"""Look at every lecture deck the way the audience does: full screen on a projector.

Each deck is opened in headless chromium at 1920 x 1080 with the network cut, where reveal.js
zooms its 1120 x 700 canvas up (the case in which the decks' former MathJax 2 drew formulas
twice). Its formulas were typeset when it was built (tools/slides/typeset_deck.cjs): the deck
loads no math script, and every formula is an SVG with its MathML beside it. Every slide is
checked after the presenter's keys reach it, and each slide with math again when the deck is
opened at that slide (a bookmark, a reload, the speaker view):

- every formula is drawn once: one drawing per formula; nothing else inside a formula paints
  (the slide as shown is pixel-identical to the slide with everything in its formulas but
  their drawings hidden: their MathML copies for screen readers); and the MathML text of a
  formula cannot be read in the rest of the slide's text;
- nothing leaves the canvas or is cut off by a box that clips (a code line too long);
- a figure alone on a slide is at least 480 px of the canvas wide, and every figure has alt text;
- in the deck's figures no two texts (ticks, labels, titles, legends) overlap or touch, no legend
  covers a plotted line or marker, and no text reaches into another panel (with a negative
  control drawn to break each of the three);
- no math or MyST source shows, on the slides or in the speaker notes, and each slide's notes
  are one block (the speaker view shows only the first).

Also: one slide per slide cell of the notebook, no failed or external request, no JavaScript
error; the speaker view shows a slide's notes with their formulas drawn; a PDF handout per deck
with one page per slide and, below each slide, its speaker notes (the lecturer's handout: the
notes fit their area, and each page's text holds its slide's notes, which a handout printed
without notes does not); a deck index linking decks and handouts and listing the presenter
keys. A negative control checks that the formula check fails on a deck whose formulas show
their MathML copies, and on a slide with a plain-text copy of a formula.

Screenshots of every slide go to ``_build/screenshots/slides/``.
"""
import html
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

import nbformat
import pytest

from bayescomp.book.widgets import FIGURE_NAMES as FIGURE
from tools import edition, toc
from tools.download.question_bank import chapter_questions
from tools.slides.build import (CANVAS, EDITION_CLASS, INDEX_KEYS, chapter_title, deck_file,
                                deck_title, handout_file, students_handout_file)
from tools.slides import lectures
from tools.slides.handouts import HANDOUTS, print_deck, print_query
from tools.toc import CHAPTERS, ROOT

from .offline import OfflinePage

DECKS = Path(os.environ.get("SLIDES_DIR", ROOT / "_build" / "slides_out" / "slides"))
SHOTS = ROOT / "_build" / "screenshots" / "slides"
PROJECTOR = {"width": 1920, "height": 1080}
HALL = {"width": 1280, "height": 720}   # a projector's resolution, where the sizes are checked
# The smallest text a back row can read, in px of the 1120 x 700 canvas (issue 20): body text,
# code and formulas; and the text of figures (ticks, labels, legends), live ones included.
TEXT_MIN, FIGURE_TEXT_MIN = 28.0, 20.0
FIGURE_MIN_WIDTH = 480     # a figure alone on a slide, in px of the canvas

# A typeset formula (MathJax 3's, typeset when the deck was built): its drawing is its <svg>,
# anything else in it is a copy (its MathML, for screen readers) that must never paint. Hiding
# classes go on <html>.
FORMULA = "mjx-container"
PROBE_CSS = """
html.hide-copies mjx-container > :not(svg), html.hide-copies mjx-container > :not(svg) * {
  visibility: hidden !important; }
html.hide-formulas mjx-container, html.hide-formulas mjx-container * { visibility: hidden !important; }
html.hide-pictures :is(img, canvas, video, svg:not(mjx-container svg)) { visibility: hidden !important; }
"""

PROBE_JS = r"""
window.deckProbe = (() => {
  const FORMULA = '%s';
  const shown = el => !el.closest('aside.notes');
  // Math or MyST source as it would show unrendered: $..$, \(, a role, a directive fence.
  const SOURCE = /\$[^$\s][^$]*\$|\\\(|\{[\w:-]+\}`|^\s*(:::|```)\{/m;
  const norm = s => s.normalize('NFKC').replace(/[\s\u200b\u2061-\u2064]/g, '')
                     .replace(/\u2212/g, '-');
  const describe = el => {
    const text = (el.innerText || el.textContent || '').trim().replace(/\s+/g, ' ');
    return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${text.slice(0, 60)}"`;
  };

  // The slide's text outside the notes and the formulas: each text node, its element and the
  // boxes its lines take on the screen.
  function* slideText(slide) {
    const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent.trim() || !shown(parent) || parent.closest(FORMULA)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      yield {node, parent, rects: [...range.getClientRects()]};
    }
  }

  // A formula's MathML text (what a screen reader reads), from its copy beside the drawing.
  const mathml = box => (box.querySelector('mjx-assistive-mml') || {}).textContent || '';
  // Every formula on the slide, outside the notes, as its MathML text.
  const formulas = slide => [...slide.querySelectorAll('mjx-container')].filter(shown).map(mathml);

  function report() {
    const slide = Reveal.getCurrentSlide();
    const canvas = Reveal.getSlidesElement().getBoundingClientRect();
    const scale = canvas.width / Reveal.getConfig().width;
    const inSlide = [...slide.querySelectorAll('*')].filter(shown);
    const boxes = inSlide.filter(el => el.matches(FORMULA) && !el.parentElement.closest(FORMULA));
    // A formula's drawings: the outermost <svg> elements in it that take up room.
    const drawn = box => [...box.querySelectorAll('svg')].filter(svg => {
      const r = svg.getBoundingClientRect();
      return !svg.parentElement.closest('svg') && r.width > 0 && r.height > 0; }).length;
    const label = box => mathml(box) || box.textContent;
    const drawings = boxes.map(drawn).reduce((a, b) => a + b, 0);
    const twice = boxes.filter(box => drawn(box) > 1).map(box => `$${label(box)}$ drawn ${drawn(box)} times`);

    // Text the audience can read besides the drawings (formulas hidden while reading it).
    document.documentElement.classList.add('hide-formulas');
    const prose = [...slide.querySelectorAll('.jp-RenderedMarkdown')].filter(shown)
      .map(el => el.innerText).join('\n');
    document.documentElement.classList.remove('hide-formulas');
    const found = formulas(slide);
    const visible = norm(prose);
    const copies = [];
    for (const text of found.map(norm)) {
      // A bare letter or word (p, Z, ESS) may well be prose; anything with a symbol is not.
      if (text.length >= 2 && /[^\p{L}\p{N}]/u.test(text) && visible.includes(text)) {
        copies.push(`MathML copy of "${text}" in the text`);
      }
    }

    // Nothing painted outside the canvas or cut off by a box that clips (a code line too
    // long for its cell): every line of text and every picture is seen whole.
    const clips = new Map();
    const clipOf = el => {
      if (!el || el === slide.parentElement) {
        return {l: canvas.left, t: canvas.top, r: canvas.right, b: canvas.bottom};
      }
      if (!clips.has(el)) {
        const outer = clipOf(el.parentElement), s = getComputedStyle(el);
        const box = el.getBoundingClientRect(), clip = {...outer};
        if (s.overflowX !== 'visible') { clip.l = Math.max(clip.l, box.left); clip.r = Math.min(clip.r, box.right); }
        if (s.overflowY !== 'visible') { clip.t = Math.max(clip.t, box.top); clip.b = Math.min(clip.b, box.bottom); }
        clips.set(el, clip);
      }
      return clips.get(el);
    };
    const seenWhole = (r, c) => r.left >= c.l - 1 && r.right <= c.r + 1 && r.top >= c.t - 1 && r.bottom <= c.b + 1;
    const cut = [];
    for (const {parent, rects} of slideText(slide)) {
      const clip = clipOf(parent);
      if (rects.some(r => r.width > 0 && !seenWhole(r, clip))) {
        cut.push(describe(parent.closest('pre, p, li, h1, h2, h3, div') || parent));
      }
    }
    for (const el of inSlide.filter(el => el.matches('img, svg, canvas, video'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && !seenWhole(r, clipOf(el.parentElement))) cut.push(describe(el));
    }
    const images = inSlide.filter(el => el.tagName === 'IMG' && !el.matches('.bcw-still')).map(img => ({
      alt: img.alt, natural: img.naturalWidth,
      share: img.getBoundingClientRect().width / canvas.width}));
    // The speaker notes: one block per slide (the speaker view shows only the first), and
    // no source left in them.
    const notes = [...slide.querySelectorAll('aside.notes')].filter(a => a.closest('section') === slide);
    const notesSource = notes.map(a => a.textContent).join('\n').match(SOURCE);
    const heading = slide.querySelector('h1, h2, h3');
    const number = document.querySelector('.reveal .slide-number');
    return {
      number: number && getComputedStyle(number).display !== 'none' ? number.innerText.replace(/\s+/g, '') : '',
      title: heading ? heading.textContent.replace('¶', '').trim() : '',
      canvas: {x: canvas.left, y: canvas.top, width: canvas.width, height: canvas.height},
      scale, tall: slide.scrollHeight > Reveal.getConfig().height ? slide.scrollHeight : 0,
      formulas: found.length, boxes: boxes.length, drawings, twice,
      rawMath: /\$|\\\(|\\\[/.test(prose) ? prose : '', copies,
      mystSource: (prose.match(SOURCE) || [''])[0], notes: notes.length,
      notesSource: notesSource ? notesSource[0] : '',
      cut: [...new Set(cut)].slice(0, 5), images,
    };
  }
  const canvas = () => {
    const r = Reveal.getSlidesElement().getBoundingClientRect();
    return {x: r.left, y: r.top, width: r.width, height: r.height};
  };
  const hasFormula = () => [...Reveal.getCurrentSlide().querySelectorAll(FORMULA)].some(shown);

  // Text sizes on the current slide, in px of the 1120 x 700 canvas (computed styles are in
  // canvas px whatever reveal.js's scale): every text node and formula outside the figures,
  // every text of every figure as drawn at the size it is shown (a matplotlib SVG draws each
  // text as glyph outlines in a group scaled by fontsize / 100, in pt of its viewBox), and
  // the live figures' own text and the text they paint on their canvases.
  function sizes() {
    const slide = Reveal.getCurrentSlide();
    const scale = Reveal.getScale();
    const text = [], figures = [], widgets = [];
    const seen = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    for (const {node, parent, rects} of slideText(slide)) {
      if (!rects.some(r => r.width > 0 && r.height > 0)) continue;
      const style = getComputedStyle(parent);
      if (style.visibility === 'hidden' || parseFloat(style.opacity) === 0) continue;
      (parent.closest('.bcw') ? widgets : text).push(
        {px: parseFloat(style.fontSize), text: node.textContent.trim().slice(0, 40)});
    }
    for (const box of [...slide.querySelectorAll(FORMULA)].filter(shown)) {
      if (box.parentElement.closest(FORMULA) || !seen(box)) continue;
      text.push({px: parseFloat(getComputedStyle(box).fontSize), text: 'a formula'});
    }
    for (const img of [...slide.querySelectorAll('.jp-RenderedSVG img')].filter(shown)) {
      const svg = new DOMParser().parseFromString(
        atob(img.src.split(',')[1]), 'image/svg+xml').documentElement;
      const view = (svg.getAttribute('viewBox') || '').split(/[\s,]+/).map(Number);
      const perUnit = img.getBoundingClientRect().width / scale / view[2];
      const drawn = [];
      for (const group of svg.querySelectorAll('g[id^="text_"]')) {
        const glyphs = group.querySelector('g[transform*="scale("]');
        const found = glyphs && /scale\(\s*([-\d.e]+)/.exec(glyphs.getAttribute('transform'));
        const label = [...group.childNodes].find(n => n.nodeType === 8);
        if (found) drawn.push({px: 100 * Math.abs(parseFloat(found[1])) * perUnit,
                               text: label ? label.textContent.trim().slice(0, 40) : group.id});
      }
      for (const t of svg.querySelectorAll('text')) {   // svg.fonttype 'none'
        drawn.push({px: parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * perUnit,
                    text: t.textContent.trim().slice(0, 40)});
      }
      figures.push({alt: img.alt.slice(0, 40), texts: drawn.length,
                    smallest: drawn.sort((a, b) => a.px - b.px)[0] || null});
    }
    for (const el of slide.querySelectorAll('[data-widget]')) {
      const w = el.bcWidget && el.bcWidget.widget;
      for (const plot of (w ? w.plots : [])) {
        const shownWidth = plot.canvas.getBoundingClientRect().width / scale;
        if (shownWidth > 0) widgets.push({px: plot.fontPx * shownWidth / plot.width,
                                          text: `text painted on ${el.dataset.widget}'s canvas`});
      }
    }
    const least = list => list.sort((a, b) => a.px - b.px)[0] || null;
    return {text: least(text), texts: text.length, figures, widget: least(widgets),
            widgetTexts: widgets.length, scale};
  }
  return {report, canvas, hasFormula, sizes};
})();
""" % FORMULA


def slide_cells(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    return [c for c in notebook.cells
            if c.metadata.get("slideshow", {}).get("slide_type") == "slide"]


def notebook_figures(name):
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    return sum("image/svg+xml" in o.get("data", {}) for c in notebook.cells
               if c.cell_type == "code"
               and c.metadata.get("slideshow", {}).get("slide_type") != "skip"
               for o in c.outputs)


# Two paintings of the same large formula may differ in their anti-aliasing by up to a quarter
# of the grey scale (seen: at most 58 of 255, on a 28 px formula at 1920 x 1080); a copy of a
# formula's text painted on white differs by far more.
PAINTED = 96


def pixel_change(before, after):
    """Bounding box (x, y, w, h) of what differs between two PNG screenshots by more than
    anti-aliasing does (a grey level above PAINTED), or None."""
    from PIL import Image, ImageChops
    a, b = (Image.open(io.BytesIO(x)).convert("L") for x in (before, after))
    box = ImageChops.difference(a, b).point(lambda v: 255 if v > PAINTED else 0).getbbox()
    return None if box is None else (box[0], box[1], box[2] - box[0], box[3] - box[1])


class Deck:
    """A deck open in chromium on a projector-sized screen, with the probe loaded."""

    def __init__(self, browser, url, extra_css=""):
        self.url, self.css = url, PROBE_CSS + extra_css
        self.view = OfflinePage(browser, url.rsplit("/", 1)[0])
        self.page = self.view.page
        self.page.set_viewport_size(PROJECTOR)
        # The probe is in the page from the start: adding a style sheet once the deck is shown
        # would make chromium repaint, and hide the very defect the check looks for.
        self.page.add_init_script(PROBE_JS + """
            document.addEventListener('DOMContentLoaded', () => {
              const style = document.createElement('style');
              style.textContent = %s;
              document.head.appendChild(style); });""" % json.dumps(self.css))
        self.load()

    def load(self, slide=0):
        """Open the deck at a slide, as a bookmark, a reload or the speaker view does."""
        page = self.page
        page.goto("about:blank")
        page.goto(f"{self.url}#/{slide}", wait_until="load")
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
        assert page.evaluate("typeof window.MathJax === 'undefined'"), "the deck loads MathJax"

    def show(self, slide):
        """Go to a slide the way the presenter's keys do."""
        self.page.evaluate(f"Reveal.slide({slide}, 0)")
        self.page.wait_for_timeout(50)

    def look(self):
        """The probe's report on the current slide, plus the pixel test of its formulas.

        Inside a formula only its drawing may paint: the slide as it is shown must look
        exactly as with everything in the formulas but their drawings hidden. The slide is
        captured first, before anything on the page is touched.
        """
        page, painted = self.page, None
        if page.evaluate("deckProbe.hasFormula()"):
            clip = page.evaluate("deckProbe.canvas()")
            # Pictures are not formulas, and chromium may raster an image again at any time
            # (a finer decode after load): leave them out of both screenshots.
            page.evaluate("document.documentElement.classList.add('hide-pictures')")
            shown = steady_screenshot(page, clip)
            page.evaluate("document.documentElement.classList.add('hide-copies')")
            drawings_only = page.screenshot(clip=clip)
            page.evaluate("document.documentElement.classList.remove('hide-copies', 'hide-pictures')")
            painted = pixel_change(shown, drawings_only)
        info = page.evaluate("deckProbe.report()")
        info["painted_copy"] = painted
        return info

    def close(self):
        self.view.close()


def steady_screenshot(page, clip, tries=20):
    """A screenshot once two in a row agree: on a loaded machine a figure or a formula can
    still be painting when the slide is first shown, which must not read as a second copy."""
    shown = page.screenshot(clip=clip)
    for _ in range(tries):
        page.wait_for_timeout(100)
        again = page.screenshot(clip=clip)
        if again == shown:
            return shown
        shown = again
    return shown


def inspect_slides(deck, name, shots=None):
    """Every slide, reached with the presenter's keys; then every slide with math again,
    opened directly at its own address (a bookmark, a reload, the speaker view's preview)."""
    slides = []
    for index in range(deck.page.evaluate("Reveal.getTotalSlides()")):
        deck.show(index)
        info = deck.look()
        info["index"] = index
        if shots is not None:
            deck.page.screenshot(path=str(shots / f"{name}-{index:02d}.png"))
        slides.append(info)
    for info in slides:
        if info["boxes"]:
            deck.load(info["index"])
            direct = deck.look()
            info["copies"] += [f"{c} (opened at the slide)" for c in direct["copies"] + direct["twice"]]
            info["painted_direct"] = direct["painted_copy"]
            info["drawings_direct"] = direct["drawings"]
    return slides


def measure_sizes(deck, name, shots=None):
    """Every slide at a projector's 1280 x 720, reached with the presenter's keys: the text
    sizes deckProbe.sizes() finds on it (a screenshot of each goes to ``shots``)."""
    deck.page.set_viewport_size(HALL)
    deck.load()
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    found = []
    for index in range(deck.page.evaluate("Reveal.getTotalSlides()")):
        deck.show(index)
        if deck.page.query_selector(".reveal .slides section.present [data-widget]"):
            deck.page.wait_for_function("""() => [...Reveal.getCurrentSlide()
                .querySelectorAll('[data-widget]')].every(el => el.bcWidget)""", timeout=30_000)
            deck.page.wait_for_timeout(200)
        found.append({**deck.page.evaluate("deckProbe.sizes()"), "index": index,
                      "title": deck.page.evaluate("deckProbe.report()")["title"]})
        if shots is not None:
            deck.page.screenshot(path=str(shots / f"{name}-{index:02d}.png"))
    deck.page.set_viewport_size(PROJECTOR)
    return found


def too_small(sizes):
    """(slide, title, what, px, text) of everything below the back-row sizes."""
    bad = []
    for s in sizes:
        if s["text"] and s["text"]["px"] < TEXT_MIN - 0.01:
            bad.append((s["index"], s["title"], "text", round(s["text"]["px"], 1), s["text"]["text"]))
        for f in s["figures"]:
            if not f["texts"]:
                bad.append((s["index"], s["title"], "figure with no text found", 0, f["alt"]))
            elif f["smallest"]["px"] < FIGURE_TEXT_MIN - 0.01:
                bad.append((s["index"], s["title"], "figure", round(f["smallest"]["px"], 1),
                            f["smallest"]["text"]))
        if s["widget"] and s["widget"]["px"] < FIGURE_TEXT_MIN - 0.01:
            bad.append((s["index"], s["title"], "live figure", round(s["widget"]["px"], 1),
                        s["widget"]["text"]))
    return bad


def smallest_sizes(sizes):
    """The smallest text, figure text and live-figure text of a deck (canvas px)."""
    least = lambda values: round(min(values), 1) if values else None
    return {"text": least([s["text"]["px"] for s in sizes if s["text"]]),
            "figure": least([f["smallest"]["px"] for s in sizes for f in s["figures"] if f["texts"]]),
            "live figure": least([s["widget"]["px"] for s in sizes if s["widget"]])}


def doubled(slides):
    """Slides on which some formula can be seen twice, with the evidence."""
    found = []
    for s in slides:
        evidence = s["copies"] + s["twice"]
        if s["painted_copy"]:
            evidence.append(f"a copy paints beside the formulas at {s['painted_copy']}")
        if s.get("painted_direct"):
            evidence.append(f"opened at the slide, a copy paints at {s['painted_direct']}")
        direct = s.get("drawings_direct", s["formulas"])
        if s["drawings"] != s["formulas"] or direct != s["formulas"]:
            evidence.append(f"{s['formulas']} formulas, {s['drawings']} drawings "
                            f"({direct} when opened at the slide)")
        if evidence:
            found.append((s["index"], s["title"], evidence))
    return found


@pytest.fixture(scope="module")
def decks_url(serve):
    if not (DECKS / "index.html").exists():
        pytest.fail(f"no decks in {DECKS}: run `make slides` first")
    return serve(DECKS)


@pytest.fixture(scope="module", params=CHAPTERS)
def deck(request, browser, decks_url):
    """One deck, opened once, every slide inspected; screenshots saved."""
    name = request.param
    SHOTS.mkdir(parents=True, exist_ok=True)
    view = Deck(browser, f"{decks_url}/{deck_file(name)}")
    try:
        total = view.page.evaluate("Reveal.getTotalSlides()")
        slides = inspect_slides(view, name, SHOTS)
        figures = view.page.evaluate("""() => [...document.querySelectorAll('.jp-RenderedSVG img')]
            .map(e => ({width: e.naturalWidth, alt: e.alt}))""")
        sizes = measure_sizes(view, name, SHOTS / "1280x720")
        yield {"name": name, "total": total, "slides": slides, "figures": figures, "sizes": sizes,
               "external": list(view.view.external), "failed": list(view.view.failed),
               "errors": list(view.view.errors)}
    finally:
        view.close()


def test_every_chapter_has_a_deck():
    missing = [deck_file(name) for name in CHAPTERS if not (DECKS / deck_file(name)).exists()]
    assert missing == [], f"no deck in {DECKS} for: {missing}"


def test_deck_runs_offline(deck):
    name = deck["name"]
    assert deck["total"] == len(slide_cells(name))
    assert deck["external"] == [], f"{name} tried to reach the network: {deck['external'][:3]}"
    assert deck["failed"] == [], f"{name} had failed requests: {deck['failed'][:3]}"
    assert deck["errors"] == [], f"{name} raised JavaScript errors: {json.dumps(deck['errors'][:3])}"


def test_no_source_shows(deck):
    """Math is typeset and no MyST source is left, on the slides and in the speaker notes."""
    raw = [(s["index"], s["rawMath"][:80]) for s in deck["slides"] if s["rawMath"]]
    assert raw == [], f"untypeset math in {deck['name']}: {raw[:2]}"
    if any("$" in c.source for c in slide_cells(deck["name"])):
        assert sum(s["formulas"] for s in deck["slides"]) > 0
    source = [(s["index"], s["mystSource"] or s["notesSource"]) for s in deck["slides"]
              if s["mystSource"] or s["notesSource"]]
    assert source == [], f"source text on slides or in notes of {deck['name']}: {source[:3]}"


def test_every_slide_shows_its_number(deck):
    wrong = [(s["index"], s["number"]) for s in deck["slides"]
             if s["number"] != f"{s['index'] + 1}/{deck['total']}"]
    assert wrong == [], f"slide numbers missing or wrong in {deck['name']} (slide, shown): {wrong[:4]}"


def test_text_is_readable_from_the_back(deck):
    """At 1280 x 720, every text on every slide is at least 28 px of the canvas (figures' text
    20 px as shown), measured in the browser: computed sizes of the text nodes, the scale of
    each figure's text as drawn at its size on the slide, the live figures' canvases."""
    sizes = deck["sizes"]
    print(f"{deck['name']}: smallest sizes (canvas px) {smallest_sizes(sizes)}")
    assert len(sizes) == deck["total"] and all(s["scale"] >= 1 for s in sizes), \
        "at 1280 x 720 the canvas must be shown at least at its own size"
    assert sum(s["texts"] for s in sizes) > 2 * deck["total"], "found almost no text to measure"
    bad = too_small(sizes)
    assert bad == [], (f"text too small for the back of a hall in {deck['name']} "
                       f"(slide, title, kind, px, text): {bad[:6]}")


def test_size_check_sees_small_text(browser, decks_url):
    """Negative control: the size check must report body text at 27 px, a figure shown at
    two thirds of its size, and a live figure's canvas text at 16 px."""
    deck = Deck(browser, f"{decks_url}/{deck_file('02_importance_sampling')}",
                ".reveal .jp-RenderedMarkdown li { font-size: 27px !important; }")
    try:
        sizes = measure_sizes(deck, "control")
        index = next(s["index"] for s in sizes if s["figures"])
        deck.show(index)
        deck.page.evaluate("""() => { const img = Reveal.getCurrentSlide()
            .querySelector('.jp-RenderedSVG img'); img.style.height = 'auto';
            img.style.width = (img.naturalWidth * 2 / 3) + 'px'; }""")
        shrunk = deck.page.evaluate("deckProbe.sizes()")
        widget = next(s["index"] for s in sizes if s["widgetTexts"])
        deck.show(widget)
        deck.page.evaluate("""() => Reveal.getCurrentSlide().querySelector('[data-widget]')
            .bcWidget.widget.plots.forEach(p => { p.fontPx = 16; })""")
        painted = deck.page.evaluate("deckProbe.sizes()")
    finally:
        deck.close()
    kinds = {kind for _, _, kind, _, _ in too_small(sizes)}
    assert "text" in kinds, "missed 27 px body text"
    assert [k for *_, k, _, _ in too_small([{**shrunk, "index": index, "title": ""}])
            if k == "figure"], "missed a figure shown at two thirds of its size"
    assert [k for *_, k, _, _ in too_small([{**painted, "index": widget, "title": ""}])
            if k == "live figure"], "missed 16 px text on a live figure's canvas"


def test_speaker_notes_are_whole(deck):
    """Every notes cell of a slide is in its one notes block, the one the speaker view shows."""
    split = [(s["index"], s["notes"]) for s in deck["slides"] if s["notes"] > 1]
    assert split == [], f"slides whose notes the speaker view would cut in {deck['name']}: {split}"


def test_every_formula_is_drawn_once(deck):
    found = doubled(deck["slides"])
    assert found == [], (f"formulas drawn twice in {deck['name']} (slide, title, evidence): "
                         f"{found[:4]}; see {SHOTS}")


def test_every_slide_fits_the_canvas(deck):
    bad = [(s["index"], s["title"], s["tall"] or None, s["cut"][:3])
           for s in deck["slides"] if s["tall"] or s["cut"]]
    assert bad == [], f"slides not fitting the 1120 x 700 canvas in {deck['name']}: {bad}"


def test_figures(deck):
    name, figures = deck["name"], deck["figures"]
    assert len(figures) == notebook_figures(name)
    assert all(f["width"] > 0 for f in figures), f"a figure in {name} did not render"
    assert all(len(f["alt"]) > 20 for f in figures), f"a figure in {name} has no alt text"
    # At least 480 px of the canvas wide: half the decks' first canvas, 960 x 700. On the wider
    # 16:10 canvas a tall figure is limited by the slide's height, as before, not its width.
    small = [(s["index"], s["title"], round(s["images"][0]["share"] * CANVAS[0]))
             for s in deck["slides"] if len(s["images"]) == 1 and s["images"][0]["share"] * CANVAS[0] < FIGURE_MIN_WIDTH]
    assert small == [], f"a figure alone on a slide is under {FIGURE_MIN_WIDTH} px wide: {small}"


def test_speaker_view_shows_the_notes(browser, decks_url):
    """Press S on a slide whose notes have math: the speaker view shows all of the notes, with
    every formula drawn (the notes are copied into another window, so the drawings must not
    depend on glyphs defined elsewhere in the deck)."""
    deck = Deck(browser, f"{decks_url}/{deck_file('03_mcmc')}")
    try:
        page = deck.page
        index, formulas, words = page.evaluate("""() => {
            const slides = Reveal.getSlides();
            const i = slides.findIndex(s => s.querySelector('aside.notes mjx-container'));
            const notes = slides[i].querySelector('aside.notes');
            return [i, notes.querySelectorAll('mjx-container').length,
                    notes.textContent.split(/\\s+/).filter(w => /^[a-z]{6,}$/.test(w))]; }""")
        view = open_speaker_view(deck, index, (1600, 1000))
        shown = view.evaluate("""() => {
            const n = document.querySelector('.speaker-controls-notes .value');
            return {text: n.innerText, copies: n.querySelectorAll('math, mjx-assistive-mml').length,
                    formulas: [...n.querySelectorAll('mjx-container')].map(m => {
                const r = m.querySelector('svg').getBoundingClientRect();
                const glyphs = [...m.querySelectorAll('use')].filter(u => !document.querySelector(
                    u.getAttribute('xlink:href') || u.getAttribute('href')));
                return r.width > 0 && r.height > 0 && glyphs.length === 0; })}; }""")
        view.screenshot(path=str(SHOTS / "speaker-view-03_mcmc.png"))
    finally:
        deck.close()
    assert len(shown["formulas"]) == formulas and all(shown["formulas"]), "formulas not drawn"
    assert shown["copies"] == 0, "the speaker view shows MathML copies of the formulas"
    missing = [w for w in words if w not in shown["text"]]
    assert missing == [], f"notes missing from the speaker view: {missing[:5]}"
    assert "$" not in shown["text"]


def open_speaker_view(deck, index, size=(1100, 700)):
    """Press S on slide ``index``: the speaker view's window, once it shows the notes."""
    deck.show(index)
    with deck.page.expect_popup() as popup:
        deck.page.keyboard.press("s")
    view = popup.value
    view.set_viewport_size({"width": size[0], "height": size[1]})
    view.wait_for_function("""() => {
        const n = document.querySelector('.speaker-controls-notes .value');
        return n && n.textContent.trim().length > 0; }""", timeout=30_000)
    view.wait_for_timeout(300)
    return view


NOTES_OVERFLOW = """() => { const n = document.querySelector('.speaker-controls-notes');
    return {text: n.querySelector('.value').textContent.replace(/\\s+/g, ' ').trim().slice(0, 60),
            over: n.scrollHeight - n.clientHeight}; }"""


def test_speaker_view_shows_each_whole_note_at_1280x720(browser, decks_url):
    """On a laptop's 1280 x 720 screen the speaker view shows every slide's whole note without
    scrolling: its notes box never overflows, on any slide of any deck. Negative control: a
    note made longer than the box is caught."""
    overflow = []
    for name in CHAPTERS:
        deck = Deck(browser, f"{decks_url}/{deck_file(name)}")
        try:
            view = open_speaker_view(deck, 0, (1280, 720))
            for index in range(deck.page.evaluate("Reveal.getTotalSlides()")):
                deck.show(index)
                wanted = deck.page.evaluate("""() => { const a = Reveal.getCurrentSlide()
                    .querySelector('aside.notes'); return a ? a.textContent.replace(/\\s+/g, ' ')
                    .trim().slice(0, 60) : ''; }""")
                if not wanted:
                    continue
                view.wait_for_function(f"() => ({NOTES_OVERFLOW})().text === {json.dumps(wanted)}",
                                       timeout=30_000)
                view.wait_for_timeout(100)
                seen = view.evaluate(NOTES_OVERFLOW)
                if seen["over"] > 1:
                    overflow.append((name, index + 1, seen["over"]))
            if name == CHAPTERS[-1]:
                view.screenshot(path=str(SHOTS / "speaker-view-1280x720.png"))
                view.evaluate("""() => { const v = document.querySelector('.speaker-controls-notes .value');
                    for (let k = 0; k < 40; k++) v.insertAdjacentHTML('beforeend', '<p>One more point.</p>'); }""")
                assert view.evaluate(NOTES_OVERFLOW)["over"] > 1, "the check missed notes too long for the box"
        finally:
            deck.close()
    assert overflow == [], f"notes the speaker view cuts at 1280 x 720 (deck, slide, px hidden): {overflow}"


def test_speaker_view_keeps_the_timer_in_sight(browser, decks_url):
    """Long notes scroll in their own box: the clock and the timer stay in the window, at the
    speaker view's own size (1100 x 700), whatever is scrolled and however long the notes."""
    deck = Deck(browser, f"{decks_url}/{deck_file('02_importance_sampling')}")
    try:
        # Long notes on a slide with notes (the plugin reads them when the view opens).
        index = deck.page.evaluate("""() => {
            const i = Reveal.getSlides().findIndex(s => s.querySelector('aside.notes'));
            const notes = Reveal.getSlides()[i].querySelector('aside.notes');
            for (let k = 0; k < 60; k++) {
              const p = document.createElement('p');
              p.textContent = `Point ${k}: what to say, what to point at, a question to ask.`;
              notes.appendChild(p);
            }
            return i; }""")
        view = open_speaker_view(deck, index)
        view.mouse.move(900, 600)
        for _ in range(10):
            view.mouse.wheel(0, 2000)
        view.evaluate("""() => { document.querySelector('#speaker-controls').scrollTop = 1e6;
            document.querySelector('.speaker-controls-notes').scrollTop = 1e6; }""")
        view.wait_for_timeout(200)
        seen = view.evaluate("""() => {
            const box = el => el.getBoundingClientRect();
            const inWindow = r => r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
            const notes = document.querySelector('.speaker-controls-notes');
            return {timer: inWindow(box(document.querySelector('.speaker-controls-time .timer'))),
                    clock: inWindow(box(document.querySelector('.speaker-controls-time .clock'))),
                    scrolled: notes.scrollTop, overflow: notes.scrollHeight - notes.clientHeight,
                    notesEnd: box(notes).bottom, height: innerHeight}; }""")
        view.screenshot(path=str(SHOTS / "speaker-view-long-notes.png"))
    finally:
        deck.close()
    assert seen["overflow"] > 0 and seen["scrolled"] > 0, f"the notes did not scroll in their box: {seen}"
    assert seen["timer"] and seen["clock"], f"long notes pushed the timer out of sight: {seen}"
    assert seen["notesEnd"] <= seen["height"] + 1, seen


def test_formula_check_sees_a_visible_copy(browser, decks_url):
    """Negative control: the formula check must report a deck whose formulas show their
    MathML copy, and a slide with a plain-text copy of a formula beside it."""
    url = f"{decks_url}/{deck_file('03_mcmc')}"
    unhide = ("mjx-assistive-mml, .MJX_Assistive_MathML { clip: auto !important; "
              "position: static !important; width: auto !important; height: auto !important; }")
    deck = Deck(browser, url, unhide)
    try:
        assert doubled(inspect_slides(deck, "control")) != [], "missed visible MathML copies"
    finally:
        deck.close()
    deck = Deck(browser, url)
    try:
        index = deck.page.evaluate("""() => {
            const plain = m => m.querySelector('mjx-assistive-mml').textContent;
            // The first formula on a slide with a symbol in it (a bare letter may be prose).
            const math = [...document.querySelectorAll('.reveal .slides mjx-container')]
              .find(m => !m.closest('aside.notes') && /[^\\p{L}\\p{N}\\s]/u.test(plain(m)));
            const copy = document.createElement('span');
            copy.textContent = plain(math);
            math.after(copy);
            return Reveal.getIndices(math.closest('section')).h; }""")
        deck.show(index)
        assert doubled([{**deck.look(), "index": index}]) != [], "missed a plain-text copy"
    finally:
        deck.close()


@pytest.mark.parametrize("kind", HANDOUTS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_handout_has_one_page_per_slide(name, kind):
    pdf = DECKS / HANDOUTS[kind](name)
    assert pdf.exists(), f"no handout {pdf}: run `make slides`"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))
    assert pages == len(slide_cells(name)), f"{pdf.name}: {pages} pages"


def pdf_title(data):
    """The /Title of a PDF's information dictionary (chromium writes it in UTF-16 hex)."""
    found = re.search(rb"/Title\s*(?:<([0-9A-Fa-f]+)>|\(([^)]*)\))", data)
    assert found, "the PDF has no /Title"
    if found[1]:
        return bytes.fromhex(found[1].decode()).decode("utf-16")
    return found[2].decode("latin-1")


@pytest.mark.parametrize("name", CHAPTERS)
def test_deck_and_handout_have_the_chapters_title(name):
    title = deck_title(name, chapter_title(nbformat.read(toc.notebook(name), as_version=4)))
    deck = (DECKS / deck_file(name)).read_text(encoding="utf-8")
    shown = re.search(r"<title>(.*?)</title>", deck, re.S)[1]
    assert html.unescape(shown) == title and "Notebook" not in title
    assert pdf_title((DECKS / handout_file(name)).read_bytes()) == title


@pytest.mark.parametrize("name", CHAPTERS)
def test_title_slide_and_handout_state_the_licences_and_the_edition(name):
    """The deck's first slide ends with the edition and its licences, with their links, as
    every page's footer has them; the handout's first page prints that line."""
    deck = (DECKS / deck_file(name)).read_text(encoding="utf-8")
    title_slide = deck.split('<div class="slides">', 1)[1].split("</section>", 1)[0]
    line = f'<p class="{EDITION_CLASS}">{edition.notice_html()}</p>'
    assert line in title_slide, f"{deck_file(name)}: its title slide has no edition line"
    assert deck.count(line) == 1
    first_page = pdf_pages_text(DECKS / handout_file(name))[0]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", edition.notice_html())).split())
    assert text in first_page, f"{handout_file(name)}: page 1 does not print {text!r}"


def test_handout_pages_carry_their_numbers(browser, decks_url):
    """The print layout the handouts are made from: every page shows its number, k/n."""
    name = "03_mcmc"
    view = OfflinePage(browser, decks_url)
    try:
        view.page.goto(f"{decks_url}/{deck_file(name)}?print-pdf", wait_until="load")
        view.page.wait_for_function("() => window.Reveal && Reveal.isReady() && "
                                    "document.querySelectorAll('.pdf-page').length > 0",
                                    timeout=30_000)
        view.page.wait_for_timeout(500)
        numbers = view.page.evaluate("""() => [...document.querySelectorAll('.pdf-page')].map(p => {
            const n = p.querySelector('.slide-number-pdf');
            return n && getComputedStyle(n).display !== 'none' ? n.innerText.replace(/\\s+/g, '') : ''; })""")
        view.page.set_viewport_size({"width": 1120, "height": 700})
        view.page.screenshot(path=str(SHOTS / f"handout-{name}-page1.png"))
    finally:
        view.close()
    total = len(slide_cells(name))
    assert numbers == [f"{k}/{total}" for k in range(1, total + 1)]


def plain_start(notes, words=6):
    """The first ``words`` words of a slide's notes that are plain text (no math, markup or
    quotes), as any text extraction of the printed notes reads them; None if there are none."""
    for line in notes.splitlines():
        text = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", "", line)
        run = re.split(r"[$*`\"\\]", text)[0].split()
        if len(run) >= words:
            return " ".join(run[:words])
    return None


def pdf_pages_text(pdf):
    """Each page's text (poppler's pdftotext), whitespace and ligatures normalized."""
    if not shutil.which("pdftotext"):
        pytest.fail("pdftotext is missing: run `bash tools/scripts/install_chromium.sh`")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return [" ".join(unicodedata.normalize("NFKC", page).split()) for page in text.split("\f")]


def notes_starts(name):
    """(page, plain start of the notes) of every slide of a chapter's deck whose notes have one."""
    found = [(k + 1, plain_start(lectures.slide_notes(cells)))
             for k, cells in enumerate(lectures.chapter_slides(name))]
    return [(page, start) for page, start in found if start]


@pytest.mark.parametrize("name", CHAPTERS)
def test_handout_prints_each_slides_notes(name):
    """The lecturer's handout (the default): each page holds its slide's speaker notes, read
    back from the PDF, so the printed notes are there as text, on the right page."""
    pdf = DECKS / handout_file(name)
    assert pdf.exists(), f"no handout {pdf}: run `make slides`"
    pages, starts = pdf_pages_text(pdf), notes_starts(name)
    assert len(starts) >= len(lectures.chapter_slides(name)) // 2, f"{name}: too few plain notes to look for"
    missing = [(page, start) for page, start in starts if start not in pages[page - 1]]
    assert missing == [], f"{pdf.name}: notes not on their slide's page (page, words): {missing[:4]}"


@pytest.mark.parametrize("name", CHAPTERS)
def test_handout_prints_no_buttons_or_key_hints(name):
    """On paper a question is its prompt and answer: Check, Show the answer and the presenter's
    key line do nothing there."""
    text = " ".join(pdf_pages_text(DECKS / handout_file(name)))
    assert [words for words in ("Show the answer", "Keys move the slides", "Enter: keys to the")
            if words in text] == []


def test_handout_without_notes_has_none(tmp_path):
    """Negative control: the same deck printed without its notes (``?print-pdf``) holds the
    slides' text but none of the notes the lecturer's handout holds."""
    name = "03_mcmc"
    with tempfile.TemporaryDirectory(prefix="handout-test-chromium-") as profile:
        print_deck(DECKS / deck_file(name), tmp_path / "plain.pdf", profile, kind="slides")
    plain = " ".join(pdf_pages_text(tmp_path / "plain.pdf"))
    lecturer = " ".join(pdf_pages_text(DECKS / handout_file(name)))
    starts = [start for _, start in notes_starts(name)]
    assert "MCMC" in plain and all(start in lecturer for start in starts)
    assert [start for start in starts if start in plain] == [], "a print without notes holds notes"
    # The slides as shown print the questions' answers: the students' handout is what leaves them out.
    assert answers_printed(name, plain) != []


ANSWER_LABEL = "Answer:"   # how a question's revealed answer starts (bayescomp.book.questions)


def answers_printed(name, text):
    """What of a chapter's questions' answers a handout's text holds: the answer line's label,
    a number's answer with its tolerance, the first plain words of each explanation."""
    found = [ANSWER_LABEL] if ANSWER_LABEL in text else []
    for question in chapter_questions(name):
        if question.kind == "number" and "(within ±" in text:
            found.append(f"{question.id}: a number's answer and tolerance")
        start = plain_start(question.explain, words=5)
        if start and start in text:
            found.append(f"{question.id}: explanation {start!r}")
    return found


@pytest.mark.parametrize("name", CHAPTERS)
def test_students_handout_has_the_questions_but_no_answers_or_notes(name):
    """The students' handout (pdftotext): every slide, each question's prompt and lettered
    choices, and none of the speaker notes or the questions' answers; the lecturer's handout of
    the same deck holds both (so the check can see them)."""
    pdf = DECKS / students_handout_file(name)
    assert pdf.exists(), f"no students' handout {pdf}: run `make slides`"
    students = " ".join(pdf_pages_text(pdf))
    lecturer = " ".join(pdf_pages_text(DECKS / handout_file(name)))
    questions, starts = chapter_questions(name), [start for _, start in notes_starts(name)]
    for question in questions:
        start = plain_start(question.prompt, words=5)
        assert start and start in students, f"{pdf.name}: the question {start!r} is missing"
    assert answers_printed(name, students) == [], f"{pdf.name} prints answers"
    assert [start for start in starts if start in students] == [], f"{pdf.name} prints notes"
    # Negative controls: the lecturer's handout prints them all.
    assert all(start in lecturer for start in starts)
    if questions:
        assert len(answers_printed(name, lecturer)) == 1 + len(questions) + sum(
            q.kind == "number" for q in questions) - sum(not q.explain for q in questions)


# Where each page of a lecturer's handout puts its slide and notes (print layout).
HANDOUT_PAGES = """() => [...document.querySelectorAll('.pdf-page')].map(p => {
                const notes = p.querySelector('.speaker-notes-pdf');
                if (!notes) return null;
                const page = p.getBoundingClientRect(), box = notes.getBoundingClientRect();
                const slide = p.querySelector('section').getBoundingClientRect();
                const last = [...notes.querySelectorAll('li, p')].pop();
                return {top: box.top - page.top, slide: slide.bottom - page.top,
                        end: last ? last.getBoundingClientRect().bottom : box.top, bottom: box.bottom,
                        inPage: box.bottom <= page.bottom + 1, size: last ? parseFloat(getComputedStyle(last).fontSize) : 0,
                        words: notes.textContent.split(/\\s+/).length}; })"""


def test_lecturers_handout_fits_the_notes_below_each_slide(browser, decks_url):
    """The print layout of the lecturer's handout: on every page of every deck the notes sit
    below the slide's canvas, in the page, their last line inside their area, at 18 px."""
    bad = []
    for name in CHAPTERS:
        view = OfflinePage(browser, decks_url)
        try:
            view.page.goto(f"{decks_url}/{deck_file(name)}{print_query()}", wait_until="load")
            view.page.wait_for_function(
                "() => document.documentElement.classList.contains('lecturer-handout')",
                timeout=30_000)
            # The stills load after the layout: measure once every image is in and two
            # measurements a moment apart agree (a loaded machine lays the pages out late).
            view.page.wait_for_function("() => [...document.images].every(i => i.complete)",
                                        timeout=30_000)
            pages, previous = None, False
            for _ in range(10):
                view.page.wait_for_timeout(300)
                previous, pages = pages, view.page.evaluate(HANDOUT_PAGES)
                if pages == previous:
                    break
        finally:
            view.close()
        if len(pages) != len(slide_cells(name)) or None in pages:
            bad.append((name, "pages without notes", [k for k, p in enumerate(pages) if p is None]))
            continue
        bad += [(name, k + 1, page) for k, page in enumerate(pages)
                if page["top"] < page["slide"] - 1 or page["top"] < 700 or page["end"] > page["bottom"]
                or not page["inPage"] or page["size"] < 18 or page["words"] < 10]
    assert bad == [], f"lecturer's handout pages whose notes do not fit (deck, page, layout): {bad[:4]}"


def test_handouts_show_a_still_of_each_live_figure(browser, decks_url):
    """On paper a live figure is its still image (the book's run drawn once by chromium): in
    the print layout the handouts are made from, each live-figure slide shows the still, loaded,
    and not the live figure (whose animation paper cannot show); on screen, the reverse."""
    found = []
    for name in CHAPTERS:
        deck = (DECKS / deck_file(name)).read_text(encoding="utf-8")
        if "data-widget=" not in deck:
            continue
        for mode in ("?print-pdf", ""):
            view = OfflinePage(browser, decks_url)
            try:
                view.page.goto(f"{decks_url}/{deck_file(name)}{mode}", wait_until="load")
                view.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
                view.page.wait_for_timeout(500)
                shown = view.page.evaluate("""() => [...document.querySelectorAll('[data-widget]')]
                    .map(el => { const still = el.parentNode.querySelector('.bcw-still');
                      return {still: !!still && still.naturalWidth > 0 && getComputedStyle(still).display !== 'none',
                              live: getComputedStyle(el).display !== 'none'}; })""")
            finally:
                view.close()
            found += [(name, mode or "screen", s["still"], s["live"]) for s in shown]
    assert len(found) >= 8, f"live figures found in the decks: {found}"
    wrong = [f for f in found if (f[1] == "screen") != (f[3] and not f[2])]
    assert wrong == [], f"(deck, mode, still shown, live figure shown): {wrong}"


# Each plot of the live figures on the current page: how many of its pixels inside its axes (4 px
# in from them, so the frame and a zero line along it do not count) differ from its ground.
PANEL_INK = """() => [...document.querySelectorAll('.reveal [data-widget]')].flatMap(el => {
  const widget = el.bcWidget && el.bcWidget.widget;
  return (widget ? widget.plots : []).map((plot, k) => {
    const {left, top, right, bottom} = plot.inner, ratio = plot.ratio || 1, pad = 4;
    const x = Math.round((left + pad) * ratio), y = Math.round((top + pad) * ratio);
    const w = Math.round((right - left - 2 * pad) * ratio), h = Math.round((bottom - top - 2 * pad) * ratio);
    const found = {figure: el.dataset.widget, plot: k, playing: widget.playing, inked: 0};
    if (!plot.width || w <= 0 || h <= 0) return found;
    const ctx = plot.canvas.getContext('2d');
    const ground = ctx.getImageData(0, 0, 1, 1).data, pixels = ctx.getImageData(x, y, w, h).data;
    for (let i = 0; i < pixels.length; i += 4) {
      const off = Math.abs(pixels[i] - ground[0]) + Math.abs(pixels[i + 1] - ground[1])
                + Math.abs(pixels[i + 2] - ground[2]);
      if (off > 60) found.inked += 1;
    }
    return found;
  });
})"""
INKED_MIN = 50   # pixels: a curve, a set of draws or a trace, not a stray tick


def blank_panels(page):
    """The plots of the live figures on the page that show nothing inside their axes."""
    return [p for p in page.evaluate(PANEL_INK) if p["inked"] < INKED_MIN]


def test_live_figures_start_drawn(browser, decks_url):
    """Each live figure's slide, opened at its address and before Play, shows the figure drawn:
    no plot of it is empty inside its axes (the dimension figure's trace and histograms were,
    until its chains moved). Negative control: Restart empties the dimension figure again, and
    the check sees it."""
    bad, seen = [], []
    for name in CHAPTERS:
        if "data-widget=" not in (DECKS / deck_file(name)).read_text(encoding="utf-8"):
            continue
        view = OfflinePage(browser, decks_url)
        try:
            page = view.page
            page.set_viewport_size(HALL)
            page.goto(f"{decks_url}/{deck_file(name)}", wait_until="load")
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
            slides = page.evaluate("""() => [...document.querySelectorAll('.reveal [data-widget]')]
                .map(el => Reveal.getIndices(el.closest('section')).h)""")
            for index in slides:
                page.goto("about:blank")
                page.goto(f"{decks_url}/{deck_file(name)}#/{index}", wait_until="load")
                page.wait_for_function("""() => window.Reveal && Reveal.isReady() && [...Reveal
                    .getCurrentSlide().querySelectorAll('[data-widget]')].every(el => el.bcWidget
                    && el.bcWidget.widget.plots.every(p => p.width > 0))""", timeout=30_000)
                page.wait_for_timeout(500)
                panels = [p for p in page.evaluate(PANEL_INK)
                          if p["figure"] in page.evaluate("""() => [...Reveal.getCurrentSlide()
                              .querySelectorAll('[data-widget]')].map(el => el.dataset.widget)""")]
                seen += [(name, index, p["figure"]) for p in panels]
                bad += [(name, index + 1, p) for p in panels if p["inked"] < INKED_MIN or p["playing"]]
                if any(p["figure"] == FIGURE.dimension for p in panels):
                    page.evaluate(f"document.querySelector('[data-widget={FIGURE.dimension}]').bcWidget.set({{}})")
                    page.wait_for_timeout(200)
                    assert blank_panels(page) != [], "the check missed the emptied dimension figure"
        finally:
            view.close()
    assert len({figure for _, _, figure in seen}) >= 6, f"live figures found: {sorted(set(seen))}"
    assert bad == [], f"live figures blank (or playing) before Play (deck, slide, plot): {bad}"


def test_index_lists_decks_handouts_and_keys():
    index = (DECKS / "index.html").read_text(encoding="utf-8")
    for name in CHAPTERS:
        assert f'href="{deck_file(name)}"' in index
        assert f'href="{handout_file(name)}"' in index
        assert f'href="{students_handout_file(name)}"' in index
    for _key, action in INDEX_KEYS:
        assert action in index
    assert edition.notice_html() in index


# ---------------------------------------------------------------------------------------------
# In the built decks, no slide reaches the speaker view without notes (the notebooks' own
# lecture checks, teaching notes, parts and Asks, are tests/book/test_teaching_notes.py).

def test_every_slide_of_the_deck_has_notes(deck):
    """In the built deck, as the speaker view reads it: one notes block on every slide."""
    bare = [(s["index"], s["title"]) for s in deck["slides"] if s["notes"] < 1]
    assert bare == [], f"slides of {deck['name']} with no speaker notes: {bare}"


# ---------------------------------------------------------------------------------------------
# No overlapping text in a deck's figures (the lecturer's review: legends over curves, tick
# labels run together as "10³10⁵", a y-label crossing the next panel). Each figure of a built
# deck is laid out in chromium at its natural size, and the boxes of what matplotlib drew are
# measured there (its SVG draws each text as a group of glyph outlines, id "text_N", with the
# text in a comment; svg.fonttype stays 'path', so getBoundingClientRect gives the glyphs'
# box): no two texts overlap (tick labels, axis labels, titles, annotations), no legend
# overlaps a text or covers a point of a plotted line or marker of its axes, and no text of
# one panel reaches into another panel's plotting area.
FIGURE_OVERLAPS_JS = r"""
(svgText) => {
  const host = document.createElement('div');
  host.innerHTML = svgText.slice(svgText.indexOf('<svg'));
  document.body.appendChild(host);
  const svg = host.querySelector('svg');
  const perPt = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const tol = 1.0 * perPt;    // one point: less is anti-aliasing, not an overlap
  const rect = el => el.getBoundingClientRect();
  const meet = (a, b, t = tol) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > t &&
                                  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > t;
  const inside = (p, r) => p.x > r.left + tol && p.x < r.right - tol && p.y > r.top + tol && p.y < r.bottom - tol;
  const name = g => {
    const c = [...g.childNodes].find(n => n.nodeType === 8);
    return c ? `"${c.textContent.trim().slice(0, 30)}"` : g.id;
  };
  const axesOf = el => el.closest('g[id^="axes_"]');
  const panel = axes => { const p = axes && axes.querySelector(':scope > g[id^="patch_"]'); return p ? rect(p) : null; };
  const legends = [...svg.querySelectorAll('g[id^="legend_"]')];
  const frame = legend => { const p = legend.querySelector(':scope > g[id^="patch_"]'); return rect(p || legend); };
  const texts = [...svg.querySelectorAll('g[id^="text_"]')]
    .filter(g => !g.parentElement.closest('g[id^="text_"], g[id^="legend_"]'))
    .map(g => ({what: name(g), r: rect(g), axes: axesOf(g)})).filter(t => t.r.width > 0 && t.r.height > 0);
  const found = [];
  const boxes = texts.concat(legends.map(l => ({what: `legend (${[...l.querySelectorAll('g[id^="text_"]')].map(name).join(', ').slice(0, 50)})`,
                                                r: frame(l), axes: axesOf(l), legend: l})));
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      // Texts closer than half a point run together ("10³10⁵"): that counts too.
      if (meet(boxes[i].r, boxes[j].r, -0.5 * perPt)) found.push(`${boxes[i].what} overlaps ${boxes[j].what}`);
  // A text of one panel inside another panel's plotting area (insets and twins excepted).
  const panels = [...svg.querySelectorAll('g[id^="axes_"]')].map(a => ({a, r: panel(a)})).filter(p => p.r);
  const nested = (a, b) => a.left >= b.left - tol && a.right <= b.right + tol && a.top >= b.top - tol && a.bottom <= b.bottom + tol;
  for (const t of texts) {
    if (!t.axes) continue;
    const own = panel(t.axes);
    for (const p of panels) {
      if (p.a === t.axes || (own && (nested(own, p.r) || nested(p.r, own)))) continue;
      if (meet(t.r, p.r)) found.push(`${t.what} reaches into another panel`);
    }
  }
  // A legend over a plotted line or marker of its axes (inside the plotting area, where it shows).
  for (const l of legends) {
    const axes = axesOf(l), box = frame(l), area = panel(axes);
    const scope = axes || svg;
    const lines = [...scope.querySelectorAll('g[id^="line2d_"], g[id^="PathCollection_"]')]
      .filter(g => !g.closest('g[id^="legend_"], g[id^="xtick_"], g[id^="ytick_"]'));
    for (const g of lines) {
      let covered = 0;
      for (const path of g.querySelectorAll(':scope > path')) {
        const total = path.getTotalLength(), m = path.getScreenCTM();
        const steps = Math.min(2000, Math.max(20, Math.ceil(total)));
        for (let k = 0; k <= steps; k++) {
          const q = path.getPointAtLength(total * k / steps).matrixTransform(m);
          if (inside(q, box) && (!area || inside(q, area))) covered += 1;
        }
      }
      for (const use of g.querySelectorAll('use')) {
        const r = rect(use), q = {x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2};
        if (inside(q, box) && (!area || inside(q, area))) covered += 1;
      }
      if (covered) found.push(`legend (${[...l.querySelectorAll('g[id^="text_"]')].map(name).join(', ').slice(0, 50)}) covers ${covered} points of ${g.id}`);
    }
  }
  host.remove();
  return [...new Set(found)];
}
"""


def deck_svgs(name):
    """The SVG figures of a built deck, in order (from the data URIs of its figure images)."""
    import base64
    deck = (DECKS / deck_file(name)).read_text(encoding="utf-8")
    return [base64.b64decode(html.unescape(data)).decode("utf-8")
            for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', deck)]


def figure_overlaps(page, svgs):
    """(figure number, what overlaps) for each overlap in the figures ``svgs``."""
    return [(k + 1, problem) for k, svg in enumerate(svgs)
            for problem in page.evaluate(FIGURE_OVERLAPS_JS, svg)]


@pytest.fixture(scope="module")
def blank_page(browser):
    page = browser.new_page()
    page.set_content("<!DOCTYPE html><html><body style='margin:0'></body></html>")
    yield page
    page.close()


@pytest.mark.parametrize("name", CHAPTERS)
def test_figure_text_does_not_overlap(name, blank_page):
    svgs = deck_svgs(name)
    assert len(svgs) == notebook_figures(name)
    found = figure_overlaps(blank_page, svgs)
    assert found == [], f"overlapping text in the figures of {deck_file(name)} (figure, what): {found}"


def test_the_overlap_check_sees_overlaps(blank_page):
    """Negative control: a figure drawn with the decks' style whose legend covers its curve,
    whose tick labels run together and whose y-label reaches into the next panel fails; the
    same data laid out with room pass."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from bayescomp.book.plotting import DECK_STYLE

    def draw(crowded):
        with matplotlib.rc_context({**DECK_STYLE, "svg.hashsalt": "control"}):
            fig, (left, right) = plt.subplots(1, 2, figsize=(6, 3.5) if crowded else (11, 4))
            x = np.linspace(0, 1, 50)
            left.plot(x, 0.5 + 0 * x, label="a flat curve")
            left.legend(loc="center" if crowded else "lower center")
            if not crowded:
                left.set_ylim(0.3, 1.2)
            right.semilogx([1e3, 1e5], [1, 2])
            right.set_xticks([1e3, 1.5e3, 1e5] if crowded else [1e3, 1e5])
            right.set_ylabel("a long label of the right panel", labelpad=80 if crowded else 4)
            if not crowded:
                fig.tight_layout()
            out = io.StringIO()
            fig.savefig(out, format="svg")
            plt.close(fig)
            return out.getvalue()

    crowded = " | ".join(problem for _, problem in figure_overlaps(blank_page, [draw(True)]))
    assert "covers" in crowded, crowded
    assert "reaches into another panel" in crowded, crowded
    assert any("10^{3}" in p and "overlaps" in p and "legend" not in p for p in crowded.split(" | ")), crowded
    assert figure_overlaps(blank_page, [draw(False)]) == []
