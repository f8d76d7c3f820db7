"""Build one reveal.js deck per chapter from the chapter notebooks, for offline viewing.

Decks come from the same notebooks as the website (no second source): cells marked
``slide`` start a slide, ``skip`` cells stay out, and the speaker notes are the cells tagged
``teaching-notes`` (slide type ``notes``), each right after the content of its slide (the
conventions are in :mod:`tools.slides.metadata`; chapters not yet written that way still use
their prose as notes, see :func:`speaker_notes`). The
reveal.js, RequireJS and jQuery files are copied from ``tools/npm/node_modules`` (pinned in
``tools/npm/package.json``) next to the decks, so nothing is fetched at view time, and every
formula is typeset when the deck is built, by the same lock's MathJax in Node
(``typeset_deck.cjs``): a deck loads no math script.
The chapters come from ``_toc.yml`` (:mod:`tools.toc`); the nbconvert template is
``deck_template/`` beside this file.

Usage: python -m tools.slides.build --out _build/slides_out/slides [--chapters 03_mcmc ...]
"""
import argparse
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from nbconvert import SlidesExporter
from traitlets.config import Config

from .. import edition, toc
from ..freshness import Stamps, files_hash, tree_files
from ..toc import CHAPTERS, ROOT
from . import lectures, metadata
from .figures import deck_figures, use_deck_figures
from .metadata import has_teaching_notes, is_teaching_notes, slide_type

HERE = Path(__file__).resolve().parent
MODULES = ROOT / "tools" / "npm" / "node_modules"
# The slide canvas, 16:10: reveal.js scales it to fit the screen, so on a 16:9 or a 16:10
# projector the canvas's 700 px fill the height and text is as large as it can be there, with
# the width a live figure's tables need (a 4:3 canvas left a fifth of a 16:9 screen blank).
CANVAS = (1120, 700)
# Sizes on that canvas, for the back of a hall: body text and code 28 px (4 % of the
# height), titles and the kicker line in proportion; no text smaller than that (a <small> is
# set apart by its colour). Figures are drawn for the slides (tools/slides/figures.py) and
# shown at least at their natural size, where their text is 20 px or more. The reveal.js
# margin leaves 1 % at the edges, so a 1280 x 720 screen shows the canvas at scale 1.008.
DECK_CSS = """
.reveal { --jp-content-font-size1: 28px; --jp-code-font-size: 28px; --jp-content-line-height: 1.3;
          --jp-code-line-height: 1.2; }
.reveal .jp-RenderedHTMLCommon { font-size: 28px; line-height: 1.3; padding-right: 0; }
.reveal .jp-RenderedHTMLCommon p { margin: 0 0 0.4em; }
.reveal .jp-RenderedHTMLCommon ul, .reveal .jp-RenderedHTMLCommon ol { margin: 0.2em 0 0.4em; padding-left: 1.2em; }
.reveal .jp-RenderedHTMLCommon li { margin: 0 0 0.2em; }
.reveal .jp-RenderedHTMLCommon li > p { margin: 0; }
.reveal .kicker { font-size: 28px; line-height: 1.2; letter-spacing: 0.06em; text-transform: uppercase;
                  font-weight: 600; color: #0072B2; margin: 0 0 4px 0 !important; }
.reveal .jp-RenderedHTMLCommon h1 { font-size: 64px; line-height: 1.1; margin: 0 0 16px; }
.reveal .jp-RenderedHTMLCommon h2 { font-size: 44px; line-height: 1.1; margin: 0 0 14px; }
/* A title with no kicker above it starts a slide: its glyphs (taller than its 1.1 line) stay
   inside the canvas. */
.reveal .jp-RenderedHTMLCommon h2:first-child { padding-top: 0.2em; }
.reveal .jp-RenderedHTMLCommon h3 { font-size: 34px; line-height: 1.15; margin: 0 0 10px; }
.reveal .jp-RenderedHTMLCommon table { font-size: 28px; margin: 0.2em 0; }
.reveal .jp-RenderedHTMLCommon td, .reveal .jp-RenderedHTMLCommon th { padding: 0.1em 0.4em; }
.reveal .slides small { font-size: inherit; line-height: inherit; vertical-align: baseline; color: #5f6368; }
.reveal .jp-InputArea pre, .reveal .jp-OutputArea pre, .reveal .jp-RenderedText pre {
  font-size: 28px !important; line-height: 1.2; }
.reveal .jp-Cell { padding: 0; }
.reveal .jp-RenderedSVG img { max-width: 100%; height: auto; display: block; margin: 6px auto 0; }
/* On paper (the handouts, ?print-pdf, or a browser's print) a live figure is its still image
   (tools/slides/stills.py), drawn in the state a lecture shows. */
/* A live figure fills its slide to the corners: reveal.js's arrows go to the top right there,
   above the figure, rather than over the numbers of its bottom right. */
.reveal-viewport.live-figure .reveal .controls { top: 80px; bottom: auto; } /* its arrows: 12-48 px */
.reveal .bcw-still { display: none; max-width: 100%; height: auto; margin: 0 auto; }
html.print-pdf .reveal .bcw-still { display: block; }
html.print-pdf .reveal [data-widget] { display: none !important; }
@media print {
  .reveal .bcw-still { display: block; }
  .reveal [data-widget] { display: none !important; }
}
/* A question as a poll for a hall (the deck template's pollForHall): each choice's letter. */
.reveal .bcq .bcq-letter { display: inline-block; min-width: 1.1em; margin-right: 0.3em; }
/* On paper a question keeps its prompt and answer; its buttons and key hints do nothing there. */
html.print-pdf .reveal .bcq .bcq-buttons, html.print-pdf .reveal .bcq .bcq-keys,
html.print-pdf .reveal .bcq .bcq-feedback { display: none; }
@media print { .reveal .bcq .bcq-buttons, .reveal .bcq .bcq-keys, .reveal .bcq .bcq-feedback { display: none; } }
/* The edition and its licences, the title slide's last line (with_edition): body-text size,
   in the grey of <small> (6.2:1 on white); its links underlined, since their blue is not
   distinguishable from that grey by colour alone (WCAG 1.4.1, axe link-in-text-block). */
.reveal .jp-RenderedHTMLCommon p.deck-edition { color: #5f6368; margin-top: 1.2em; }
.reveal .jp-RenderedHTMLCommon p.deck-edition a { text-decoration: underline; }
/* A slide the lecturer may skip (with_optional_marks) says so in its kicker line, boxed, so the
   hall sees why the lecturer moves on. */
.reveal .kicker .deck-optional { border: 2px solid currentColor; border-radius: 6px;
                                 padding: 0 0.3em; margin-left: 0.5em; }
/* The slide number: reveal.js's white on 40 % black shows as #999 on a white slide, 2.8:1; on
   75 % black it is 10:1 (WCAG AA asks 4.5:1 for its 12 px text). */
.reveal .slide-number { background-color: rgba(0, 0, 0, 0.75); }
/* Handouts (?print-pdf): no blank page after the last slide (fixed in later reveal.js). */
html.print-pdf .reveal .slides .pdf-page:last-of-type { page-break-after: avoid; }
/* The lecturer's handout (?print-pdf&showNotes=true, tools/slides/handouts.py): the slide's
   speaker notes in the area the template adds below it (notesBelowSlides), as on paper. */
html.print-pdf .reveal .speaker-notes-pdf { box-sizing: border-box; padding: 12px 40px 0;
  border: 0; border-top: 1px solid #9aa0a6; background: #fff; color: #202124; overflow: hidden;
  font-family: "Source Sans Pro", Helvetica, sans-serif; }
html.print-pdf .reveal .speaker-notes-pdf .jp-RenderedHTMLCommon { font-size: 18px; line-height: 1.35; }
html.print-pdf .reveal .speaker-notes-pdf .jp-RenderedHTMLCommon p { margin: 0 0 0.45em; }
html.print-pdf .reveal .speaker-notes-pdf .jp-RenderedHTMLCommon ul {
  display: block; margin: 0; padding-left: 1.2em; }
html.print-pdf .reveal .speaker-notes-pdf .jp-RenderedHTMLCommon li { margin: 0 0 0.35em; }
/* The students' handout (?print-pdf&students): the deck template takes the notes and the
   questions' answers out of the page; this hides them too, should a script put one back. */
html.students-handout .reveal .bcq-answer, html.students-handout .reveal aside.notes { display: none !important; }
"""
# The presenter keys of the static decks (reveal.js 4), listed on the deck index.
INDEX_KEYS = [
    ("<kbd>→</kbd> <kbd>PgDn</kbd> <kbd>Space</kbd> / <kbd>←</kbd> <kbd>PgUp</kbd>",
     "next / previous slide (a clicker's keys), whatever was clicked last"),
    ("<kbd>Esc</kbd> or <kbd>O</kbd>", "overview of all slides"),
    ("<kbd>S</kbd>", "speaker view: notes, next slide, timer (allow pop-ups)"),
    ("<kbd>F</kbd>", "full screen (<kbd>Esc</kbd> leaves it)"),
    ("<kbd>B</kbd> or <kbd>.</kbd>", "blank the screen, and back"),
    ("<kbd>?</kbd>", "all keys"),
    ("<kbd>Enter</kbd> / <kbd>Esc</kbd>", "on a live figure (Tab to it): its keys work it / back to the slides"),
]


def deck_file(chapter):
    """File name of a chapter's deck; the landing page's deck must not shadow the deck list."""
    return "00_introduction.html" if chapter == "index" else f"{chapter}.html"


def handout_file(chapter):
    """File name of a chapter's lecturer's PDF handout (each slide with its speaker notes),
    printed from its deck by :mod:`tools.slides.handouts`."""
    return deck_file(chapter).replace(".html", ".pdf")


def students_handout_file(chapter):
    """File name of a chapter's students' PDF handout (the slides without the speaker notes and
    without the questions' answers), printed from its deck by :mod:`tools.slides.handouts`."""
    return deck_file(chapter).replace(".html", "-students.pdf")


# The speaker view (reveal.js's notes plugin writes its page from a string in notes.js): the
# clock and timer stay in sight however long the notes are, which scroll in their own box. Its
# default layout gives the notes the room: the current slide above the next one on the left
# (45 % of the width, where a 16:10 slide fills it), the timer and the notes on the right, the
# whole height, so a slide's whole note shows without scrolling on a 1280 x 720 laptop screen.
SPEAKER_VIEW_CSS = (
    # (no quotes in the selectors: the page is a double-quoted string in notes.js)
    "body[data-speaker-layout=default] #current-slide { width: 45%; height: 50%; } "
    "body[data-speaker-layout=default] #upcoming-slide { top: 50%; left: 0; width: 45%; height: 50%; } "
    "body[data-speaker-layout=default] #speaker-controls { top: 0; left: 45%; width: 55%; "
    "height: 100%; padding-top: 40px; } "
    ".speaker-controls-time { padding-bottom: 10px; } "
    "#speaker-controls { display: flex; flex-direction: column; overflow: hidden; } "
    ".speaker-controls-time, .speaker-controls-pace { flex: none; } "
    ".speaker-controls-notes { flex: 1 1 auto; min-height: 0; overflow-y: auto; } "
    ".speaker-controls-notes .value p, .speaker-controls-notes .value li { margin: 0 0 0.5em; } ")
SPEAKER_VIEW_END = "</style>\\n\\t</head>"  # as the string literal in notes.js spells it


def style_speaker_view(notes_js):
    """Add SPEAKER_VIEW_CSS to the speaker view's page inside reveal.js's notes plugin."""
    source = notes_js.read_text(encoding="utf-8")
    if source.count(SPEAKER_VIEW_END) != 1:
        raise RuntimeError(f"{notes_js}: the speaker view's </style></head> is not where "
                           "reveal.js 4.0.2 has it; update style_speaker_view()")
    notes_js.write_text(source.replace(SPEAKER_VIEW_END, SPEAKER_VIEW_CSS + SPEAKER_VIEW_END),
                        encoding="utf-8")


def chapter_title(notebook):
    """The chapter's title: its first ``# `` heading outside the slide-only and notes cells."""
    for cell in notebook.cells:
        if cell.cell_type != "markdown" or is_teaching_notes(cell) or \
                "slide-only" in cell.metadata.get("tags", []):
            continue
        found = re.search(r"^#\s+(.+?)\s*$", cell.source, re.M)
        if found:
            return found[1]
    raise ValueError("a chapter needs a '# Title' heading")


def deck_title(chapter, title):
    """The title of a chapter's deck and of its PDF handout (chromium prints it as /Title)."""
    number = deck_file(chapter)[:2]
    return f"{number} · {title} · Bayesian Computation lecture"


def copy_assets(out):
    """Copy the pinned front-end files next to the decks."""
    vendor = out / "vendor"
    for part in ("dist", "plugin"):
        shutil.copytree(MODULES / "reveal.js" / part, out / "reveal.js" / part, dirs_exist_ok=True)
    style_speaker_view(out / "reveal.js" / "plugin" / "notes" / "notes.js")
    vendor.mkdir(parents=True, exist_ok=True)
    shutil.copy(MODULES / "requirejs" / "require.js", vendor / "require.js")
    shutil.copy(MODULES / "jquery" / "dist" / "jquery.min.js", vendor / "jquery.min.js")
    (vendor / "deck.css").write_text(DECK_CSS)
    # The live figures: the bundle (package data of bayescomp, rebuilt by `make widgets`) and the
    # package's data script, loaded by the decks whose slides hold a <div data-widget> placeholder.
    from bayescomp.book.widgets import BUNDLE, BUNDLE_NAME, write_data_script
    shutil.copy(BUNDLE, vendor / BUNDLE_NAME)
    write_data_script(vendor)


MATHJAX = MODULES / "mathjax" / "es5"
TYPESETTER = HERE / "typeset_deck.cjs"


def typeset_math(decks):
    """Typeset every formula of the written ``decks`` in place (MathJax 3 in Node, with the TeX
    settings the decks' browser MathJax had); a formula it cannot typeset fails the build."""
    node = shutil.which("node")
    if node is None or not (MATHJAX / "node-main.js").exists():
        sys.exit("the decks' math is typeset with Node.js and MathJax: install Node.js, then "
                 "run `make npm`")
    done = subprocess.run([node, str(TYPESETTER), str(MATHJAX), *map(str, decks)])
    if done.returncode:
        sys.exit(f"typesetting the decks' math failed (exit {done.returncode}; see above)")


def exporter():
    config = Config()
    config.SlidesExporter.reveal_url_prefix = "reveal.js"
    config.SlidesExporter.reveal_theme = "white"
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.reveal_number = "c/t"  # "5/17" on every slide and handout page
    config.SlidesExporter.reveal_width, config.SlidesExporter.reveal_height = map(str, CANVAS)
    config.SlidesExporter.require_js_url = "vendor/require.js"
    config.SlidesExporter.jquery_url = "vendor/jquery.min.js"
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    # Figure cells carry this tag: on a slide the figure is the content, the code stays online.
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"slides-hide-input"}
    return SlidesExporter(config=config, template_name="deck_template",
                          extra_template_basedirs=[str(HERE)])


# MyST the speaker notes would otherwise show as source (the website renders it, nbconvert not).
LABELLED_MATH = re.compile(r"\$\$(?P<body>.+?)\$\$[ \t]*\((?P<label>[\w-]+)\)", re.S)
ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<text>[^`]*)`")
DIRECTIVE = re.compile(r"^(?P<fence>:{3,}|`{3,})\{(?P<name>[\w-]+)\}[ \t]*(?P<title>[^\n]*)\n"
                       r"(?P<options>(?::[\w-]+:[^\n]*\n)*)(?P<body>.*?)^(?P=fence)[ \t]*$",
                       re.M | re.S)


def plain_notes(notebook):
    """Speaker notes as the website shows them: numbered equations ``$$ .. $$ (label)`` and
    ``{eq}`label``` references, a directive block as its title in bold and its body, any
    other role as its text. Equations are numbered in page order, as Sphinx numbers them."""
    numbers = {}
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for match in LABELLED_MATH.finditer(cell.source):
                numbers.setdefault(match["label"], len(numbers) + 1)

    def role(match):
        if match["role"] == "eq":
            return f"({numbers.get(match['text'], match['text'])})"
        return re.sub(r"\s*<[^>]*>$", "", match["text"])  # "text <target>" shows as text

    for cell in notebook.cells:
        if cell.cell_type != "markdown" or cell.metadata.get("slideshow", {}).get(
                "slide_type") != "notes":
            continue
        source = LABELLED_MATH.sub(
            lambda m: f"$${m['body']}\\tag{{{numbers[m['label']]}}}$$", cell.source)
        source = DIRECTIVE.sub(
            lambda m: f"**{m['title'] or m['name'].capitalize()}**\n\n{m['body']}", source)
        cell.source = ROLE.sub(role, source)
    return notebook


EDITION_CLASS = "deck-edition"


def with_edition(notebook):
    """The title slide (the deck's first slide cell) ends with the edition and its licences in
    one line, as every page's footer and the PDF's title page state them, so each deck and
    the first page of its handout say what a teacher may do with them."""
    first = next(cell for cell in notebook.cells if slide_type(cell) == "slide")
    first.source = (f'{first.source.rstrip()}\n\n'
                    f'<p class="{EDITION_CLASS}">{edition.notice_html()}</p>')
    return notebook


OPTIONAL_CLASS = "deck-optional"
KICKER_END = re.compile(r'(<p class="kicker">.*?)(</p>)', re.S)


def with_optional_marks(notebook):
    """A slide whose notes open ``(N min, optional: skip if short of time)`` (the convention of
    :mod:`tools.slides.lectures`) is marked "optional" on the slide itself, at the end of its
    kicker line (or in a kicker line of its own), so students see which slides a short lecture
    leaves out and the handouts say so too."""
    mark = f'<span class="{OPTIONAL_CLASS}">optional</span>'
    for cells, slide in zip(lectures.deck_slides(notebook), lectures.timed_slides(notebook)):
        if not slide["optional"]:
            continue
        first = next(c for c in cells if c.cell_type == "markdown" and not is_teaching_notes(c))
        marked, found = KICKER_END.subn(lambda m: f"{m[1]} {mark}{m[2]}", first.source, count=1)
        first.source = marked if found else f'<p class="kicker">{mark}</p>\n\n{first.source}'
    return notebook


def without_widget_cells(notebook):
    """The static decks show each live figure itself: the Jupyter-only cell that displays it
    in JupyterLab and RISE (:func:`tools.slides.metadata.is_widget_cell`) stays off them."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and metadata.is_widget_cell(cell):
            cell.metadata.setdefault("slideshow", {})["slide_type"] = "skip"
    return notebook


def speaker_notes(notebook):
    """Choose the cells the speaker view shows, and attach them to their slides.

    A chapter with ``teaching-notes`` cells (:mod:`tools.slides.metadata`) has its notes
    written for the slides: each such cell sits right after the content of its slide, where
    nbconvert puts it into that slide. Any other ``notes`` cell of such a chapter is prose
    left over from before the convention and stays off the deck.

    A chapter without them (the transition: its prose cells are still its notes) keeps the
    former rule, :func:`notes_after_their_slide`. Once every chapter has teaching notes, that
    rule and this branch go.
    """
    if not has_teaching_notes(notebook):
        return notes_after_their_slide(notebook)
    for cell in notebook.cells:
        if slide_type(cell) == "notes" and not is_teaching_notes(cell):
            cell.metadata.slideshow["slide_type"] = "skip"
    return notebook


def notes_after_their_slide(notebook):
    """Attach a section's prose to the slide that summarizes it (chapters without teaching
    notes only, during the transition; see :func:`speaker_notes`).

    In the chapters a section's ``##`` heading and prose (speaker notes) come first and its
    slide-only summary cell after them, so the notes would show one slide early. A slide cell
    moves up to just before the nearest ``##`` heading above it, when that heading is a notes
    cell and only notes and skipped cells lie between. A chapter's ``#`` introduction stays
    with the title slide; notes without a heading, and sections that have no slide (the
    nearest heading is then a skipped one, as before the exercises), stay where they are.
    """
    cells = notebook.cells
    kind = lambda c: c.metadata.get("slideshow", {}).get("slide_type")
    moved = {}  # where a slide cell goes: index of the cell it now precedes
    for at, cell in enumerate(cells):
        if kind(cell) != "slide":
            continue
        for i in range(at - 1, -1, -1):
            if kind(cells[i]) not in ("notes", "skip"):
                break
            if cells[i].cell_type == "markdown" and re.match(r"##\s", cells[i].source):
                if kind(cells[i]) == "notes":
                    moved[at] = i
                break
    order = []
    for i in range(len(cells)):
        order += [at for at, before in moved.items() if before == i]
        if i not in moved:
            order.append(i)
    notebook.cells = [cells[i] for i in order]
    return notebook


def check_metadata():
    """Stop when a chapter breaks the slide metadata conventions (with the command that fixes it)."""
    found = metadata.check_chapters([toc.notebook(name) for name in CHAPTERS])
    if found:
        sys.exit("The chapters' slide metadata is incomplete:\n  " + "\n  ".join(found)
                 + "\nRun `python -m tools.slides.metadata` to add it (see tools/AUTHORING.md).")


def _deck_figures_of(name):
    return deck_figures(nbformat.read(toc.notebook(name), as_version=4), name)


def prefetch_deck_figures(chapters, workers=2):
    """Draw the deck figures of ``chapters`` two chapters at a time (each in its own kernel),
    so that the build below finds them in the cache: the machines this book targets have two
    cores, and a chapter's kernel mostly keeps one of them busy."""
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_deck_figures_of, chapters))


def build(out, chapters=CHAPTERS):
    """Write the decks of ``chapters`` (every chapter by default) and the deck index into
    ``out``; the index always lists every chapter's deck and handout."""
    check_metadata()
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    prefetch_deck_figures(chapters)
    slides = exporter()
    links, written = [], []
    for name in CHAPTERS:
        chapter = nbformat.read(toc.notebook(name), as_version=4)
        title = chapter_title(chapter)
        links.append(f'<li><a href="{deck_file(name)}">{html.escape(title)}</a> '
                     f'(PDF handouts: <a href="{handout_file(name)}">the lecturer\'s</a>, '
                     f'<a href="{students_handout_file(name)}">the students\'</a>)</li>')
        if name not in chapters:
            continue
        chapter = with_edition(with_optional_marks(
            without_widget_cells(use_deck_figures(chapter, name))))
        body, _ = slides.from_notebook_node(speaker_notes(plain_notes(chapter)))
        body, titled = re.subn(r"<title>.*?</title>",
                               f"<title>{html.escape(deck_title(name, title))}</title>", body,
                               count=1, flags=re.S)
        assert titled, "nbconvert's deck has no <title>"
        (out / deck_file(name)).write_text(body, encoding="utf-8")
        written.append(out / deck_file(name))
    typeset_math(written)
    keys = "\n".join(f"<tr><td>{key}</td><td>{action}</td></tr>" for key, action in INDEX_KEYS)
    from ..download.question_bank import GIFT_NAME, MOODLE_NAME
    (out / "index.html").write_text(INDEX.format(links="\n".join(links), keys=keys,
                                                 moodle=MOODLE_NAME, gift=GIFT_NAME,
                                                 edition=edition.notice_html()),
                                    encoding="utf-8")


INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Bayesian Computation: lecture decks</title>
<style>
body {{ font-family: sans-serif; max-width: 42em; margin: 3em auto; line-height: 1.5; }}
kbd {{ border: 1px solid #bbb; border-radius: 3px; padding: 0 0.3em; background: #f6f6f6; }}
td {{ padding: 0.15em 1em 0.15em 0; vertical-align: top; }}
</style>
</head><body>
<h1>Bayesian Computation: lecture decks</h1>
<p>One deck per chapter, built from the chapter notebooks, and two PDF handouts of each, one
slide per page: the lecturer's, with the slide's speaker notes below it and the questions'
answers; and the students', to give a class, with neither notes nor answers.</p>
<ol start="0">
{links}
</ol>
<h2>Presenter keys</h2>
<table>
{keys}
</table>
<p>For a quiz in a learning management system, every chapter's questions with their answers:
<a href="../{moodle}">Moodle XML</a> or <a href="../{gift}">GIFT</a> (on the book's website).</p>
<p>To run the code live in front of the class, open the chapter notebook in JupyterLab and
present it with RISE (<kbd>Alt</kbd>+<kbd>R</kbd>); the book's TEACHING.md says how.</p>
<p><a href="../chapters/index.html">Back to the book</a></p>
<p>{edition}</p>
</body></html>
"""

# What the decks are made from: the chapters, the package (its live figures' bundles and the
# deck figures' code), this builder, its template and helpers, the pinned front-end files and
# the build lock (nbconvert's version), and the edition line of the title slides. While their key
# holds, the decks would come out the same.
DECK_SOURCES = ("chapters", "code/bayescomp", "tools/slides", "tools/website/mathjax_svg.cjs",
                "tools/toc.py", "_toc.yml",
                "tools/npm/package-lock.json", "tools/requirements/build.txt")
STAMPS = Stamps(ROOT / "_build" / "slides-built-from.json")


def sources_key():
    return files_hash(tree_files(DECK_SOURCES), edition.notice_html())


def build_if_changed(out):
    """:func:`build`, unless the decks in ``out`` were built from these very sources (a second
    `make slides`, `make book`, `make test` or `make check` with nothing changed)."""
    key = sources_key()
    if STAMPS.current(out, key, out / "index.html", *(out / deck_file(name) for name in CHAPTERS)):
        print(f"decks in {out}: their sources are unchanged, not built again")
        return
    build(out)
    STAMPS.record(out, key)


def build_some(out, chapters):
    """:func:`build` for some chapters only (while editing them); the decks in ``out`` no
    longer count as built from the current sources, so the next full build makes them all."""
    unknown = sorted(set(chapters) - set(CHAPTERS))
    if unknown:
        sys.exit(f"not chapters of _toc.yml: {unknown} (chapters: {', '.join(CHAPTERS)})")
    build(out, chapters)
    STAMPS.forget(out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "slides_out" / "slides")
    parser.add_argument("--chapters", nargs="+", metavar="NAME",
                        help="build only these chapters' decks (e.g. 03_mcmc); default: every "
                             "chapter, unless the decks are current")
    args = parser.parse_args()
    if args.chapters:
        build_some(args.out.resolve(), args.chapters)
    else:
        build_if_changed(args.out.resolve())
