"""Sphinx extension: every formula of the website typeset when the book is built.

Sphinx writes each formula as TeX for MathJax to typeset in the reader's browser, and before
this extension every page with math loaded MathJax (2.3 MB) to do it. After the build this
extension typesets every formula of every page the build wrote with the same MathJax (the npm
lock's ``mathjax`` 3, TeX in, SVG out) in Node (:file:`prerender_math.cjs`), writes the SVG into
the page and drops MathJax's scripts from it, so a page shows its math with no script at all,
offline, and as soon as its HTML has arrived.

What stays as it was:

- **Numbers and references.** Sphinx numbers the equations (``math_numfig``) and writes each
  number beside its equation and into every reference to it; only the TeX is replaced.
- **Accessibility.** Each formula keeps its MathML beside the SVG, hidden from sight, for
  screen readers (MathJax's assistive-mml extension, which the browser's MathJax also ran); the
  SVG is hidden from them. The styles MathJax added at view time are written to
  ``_static/mathjax-svg.css``, which every page with math links.
- **Math in computed outputs.** A chapter's printed Markdown and glued values are parsed by
  MyST when the page is built (``nb_render_markdown_format: myst``), so their formulas are in
  the page like any other and are typeset with it.

A formula MathJax cannot typeset (an unknown macro, a missing brace) fails the build (a warning,
an error under ``-W``), naming its page. TeX the browser's MathJax would have found elsewhere in
a page (in an output area, outside Sphinx's math elements) is reported the same way, since no
script is left to typeset it.

It runs on every page the build wrote, those it did not rewrite this time included; a page
already typeset has no TeX left in it. Needs Node.js and ``make npm`` (the build does).

Load it from ``_config.yml``: ``sphinx: local_extensions: {tools.website.prerendered_math: .}``.
"""
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from sphinx.util import logging

from ..toc import ROOT
from . import built_pages

MATHJAX = ROOT / "tools" / "npm" / "node_modules" / "mathjax" / "es5"
RENDERER = Path(__file__).with_name("prerender_math.cjs")
CSS = "mathjax-svg.css"
# Sphinx's math elements: inline \(...\), display \[...\] (after the equation's number, if it
# has one), or an amsmath environment written as it is (``nowrap``).
MATH = re.compile(r'(<(span|div) class="math notranslate nohighlight"[^>]*>)(.*?)(</\2>)', re.S)
EQNO = re.compile(r'^\s*(<span class="eqno">.*?</span>)', re.S)
DELIMITED = re.compile(r'^\s*(?:\\\((?P<inline>.*)\\\)|\\\[(?P<display>.*)\\\]'
                       r'|(?P<env>\\begin\{(?P<name>[a-zA-Z*]+)\}.*\\end\{(?P=name)\}))\s*$', re.S)
# MathJax's scripts and its configuration, as Sphinx writes them into a page's head.
SCRIPTS = re.compile(r'[ \t]*<script[^>]*>\s*window\.MathJax = .*?</script>\n?'
                     r'|[ \t]*<script[^>]*src="[^"]*mathjax[^"]*"[^>]*></script>\n?', re.S | re.I)
# TeX that MathJax would typeset outside Sphinx's math elements (it looked in output areas too).
STRAY = re.compile(r'\\\(|\\\[|\\begin\{(?:equation|align|gather|multline)')

logger = logging.getLogger(__name__)


def find_math(text):
    """Each math element of a page: (match, TeX, display?), the TeX unescaped."""
    found = []
    for match in MATH.finditer(text):
        body = match.group(3)
        number = EQNO.match(body)
        tex = DELIMITED.match(body[number.end():] if number else body)
        if tex is None:
            continue   # typeset already (an SVG), or not TeX at all
        source = tex.group("inline") if tex.group("inline") is not None else (
            tex.group("display") if tex.group("display") is not None else tex.group("env"))
        found.append((match, html.unescape(source), tex.group("inline") is None))
    return found


def typeset(pages, tex_config):
    """Run MathJax in Node on every page's formulas at once."""
    node = shutil.which("node")
    if node is None or not (MATHJAX / "node-main.js").exists():
        raise RuntimeError("typesetting the math needs Node.js and MathJax: run `make npm`")
    request = {"tex": tex_config,
               "pages": [[{"tex": tex, "display": display} for _, tex, display in formulas]
                         for formulas in pages]}
    done = subprocess.run([node, str(RENDERER), str(MATHJAX)], input=json.dumps(request),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"MathJax failed in Node: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def rewrite(text, formulas, rendered, css_href):
    """The page with each formula's TeX replaced by its SVG, the glyphs' definitions after
    ``<body>``, MathJax's scripts dropped and the math styles linked."""
    out, at = [], 0
    for (match, _, _), svg in zip(formulas, rendered["math"]):
        number = EQNO.match(match.group(3))
        out += [text[at:match.start()], match.group(1), number.group(1) if number else "",
                svg, match.group(4)]
        at = match.end()
    text = "".join(out) + text[at:]
    text = SCRIPTS.sub("", text)
    text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + rendered["cache"], text, count=1)
    link = f'<link rel="stylesheet" type="text/css" href="{css_href}" />\n'
    return text.replace("</head>", link + "</head>", 1)



def tex_config(app):
    """The TeX part of the site's MathJax configuration (macros, say), if it has one."""
    config = getattr(app.config, "mathjax3_config", None) or {}
    return config.get("tex", {}) if isinstance(config, dict) else {}


def prerender(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    todo = []
    for path in built_pages(outdir):
        text = path.read_text(encoding="utf-8")
        formulas = find_math(text)
        if formulas:
            todo.append((path, text, formulas))
        else:
            stray_math(path, text)
    if not todo:
        return
    answer = typeset([formulas for _, _, formulas in todo], tex_config(app))
    (outdir / "_static" / CSS).write_text(answer["css"], encoding="utf-8")
    for (path, text, formulas), rendered in zip(todo, answer["pages"]):
        name = path.relative_to(outdir).as_posix()
        for error in rendered["errors"]:
            logger.warning("%s: MathJax cannot typeset a formula: %s", name, error)
        css_href = "../" * (len(path.relative_to(outdir).parts) - 1) + f"_static/{CSS}"
        text = rewrite(text, formulas, rendered, css_href)
        stray_math(path, text)
        path.write_text(text, encoding="utf-8")


def stray_math(path, text):
    """Warn about TeX left in a page outside Sphinx's math elements: nothing typesets it now."""
    body = text[text.find("<main"):text.find("</main>")] if "<main" in text else ""
    body = re.sub(r"<(script|style|pre|code)\b.*?</\1>", "", body, flags=re.S)
    body = re.sub(r"<mjx-container.*?</mjx-container>", "", body, flags=re.S)
    stray = STRAY.search(body)
    if stray:
        logger.warning("%s: TeX outside a math element, left as text: %r", path.name,
                       body[max(0, stray.start() - 40):stray.end() + 40])


def setup(app):
    # Before the icons are inlined (tools.website.icons, at the default priority 500): both
    # rewrite the same files.
    app.connect("build-finished", prerender, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
