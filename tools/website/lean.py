"""Sphinx extension: each page loads only the scripts and styles it uses.

Jupyter Book and its theme link the same files from every page. After the build this drops,
from each page the build wrote:

- **thebe** (its script, its stylesheet and its inline configuration): the book has no live
  code cells (``launch_buttons.thebe: false``), so nothing ever starts it;
- **sphinx-design** (its stylesheet, 54 kB, and its tabs' script) from every page with no
  sphinx-design element (no ``sd-`` class);
- **Sphinx's search index and search code** (``searchindex.js``, ``searchtools.js``,
  ``language_data.js``) from every page but the search page: with ``search_as_you_type`` off
  (the theme's default, and this book's), the search field of every page only sends the query
  to the search page, which loads them itself.

- **CSS rules no page can match**, from the stylesheets every page loads (the theme's, with
  Bootstrap inside it, 0.3 MB, and MyST-NB's, Sphinx's and the book theme's): a rule is kept when
  one of its selectors names only classes that some page has or that some script of the site
  could add (every word of every script the site serves, and of the pages' inline scripts, with
  Bootstrap's composed ``bs-`` classes and its tooltips kept whole); classes inside ``:not()``,
  ``:is()``, ``:where()`` and ``:has()`` do not count, and selectors with no class always match.
  Font faces, keyframes and every other at-rule stay.

- **highlighting that draws nothing**: in the code blocks, the spans of Pygments' token classes
  that its stylesheet colours exactly as the block's own text in both themes, with no other
  property (names, punctuation, whitespace in this book's style), hold their text alone; a
  chapter's code is a third of its page, and those spans were a third of the code's bytes.

- **a request for each small file**: a stylesheet or a plain script (no ``defer``, ``async`` or
  other attribute) of at most :data:`SMALL` bytes is written into the page where it was linked,
  so the order of styles and scripts stays as it was (the stylesheet's own links made relative
  to the page, and a stylesheet it imports written in its place). On a phone's slow network
  each request costs a round trip, and ``python -m http.server`` opens a connection for each.

It runs on every page the build wrote, those it did not rewrite this time included; a page
already trimmed has nothing left to drop, a stylesheet nothing left to purge.

Load it from ``_config.yml``: ``sphinx: local_extensions: {tools.website.lean: .}``.
"""
import html
import os
import re
from pathlib import Path

from . import built_pages



def tag(src):
    """A <script src> or <link href> line of a page's head that loads ``src`` (a regex)."""
    return (rf'[ \t]*<(?:script|link)\b[^>]*\b(?:src|href)="[^"]*{src}[^"]*"[^>]*>'
            rf'(?:</script>)?\n?')


ALWAYS = re.compile("|".join([tag(r"sphinx-thebe\.(?:js|css)"),
                              r'[ \t]*<script>const THEBE_JS_URL = .*?</script>\n?']))
DESIGN = re.compile("|".join([tag(r"sphinx-design\.min\.css"), tag(r"design-tabs\.js")]))
SEARCH = re.compile("|".join([tag(r"searchtools\.js"), tag(r"language_data\.js"),
                              tag(r"searchindex\.js")]))
USES_DESIGN = re.compile(r'class="(?:[^"]*\s)?sd-')


def trim(text, search_page):
    """A page without what it does not use (every tag dropped is in its head)."""
    end = text.find("</head>")
    head, body = text[:end], text[end:]
    head = ALWAYS.sub("", head)
    if not USES_DESIGN.search(body):
        head = DESIGN.sub("", head)
    if not search_page and "search_as_you_type = false" in head:
        head = SEARCH.sub("", head)
    return head + body


def rewrite_pages(app, exception, change):
    """Write ``change(text, path, outdir)`` over every page the build wrote, where it differs."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for path in built_pages(outdir):
        text = path.read_text(encoding="utf-8")
        new = change(text, path, outdir)
        if new != text:
            path.write_text(new, encoding="utf-8")


def trim_pages(app, exception):
    rewrite_pages(app, exception, lambda text, path, outdir: trim(
        text, search_page=path.relative_to(outdir).as_posix() == "search.html"))


# Pygments' stylesheet: a rule per theme for the block (``.highlight``) and for each token class.
PYGMENTS_CSS = "_static/pygments.css"
PYGMENTS_RULE = re.compile(r'html\[data-theme="(light|dark)"\] \.highlight(?: \.([\w-]+))? \{([^}]*)\}')
HIGHLIGHT_BLOCK = re.compile(r'<div class="highlight[^"]*"><pre>.*?</pre></div>', re.S)


def plain_token_classes(css):
    """The token classes that ``css`` (Pygments' stylesheet) draws exactly as the block's text:
    only a colour, the block's own, in both themes."""
    block, tokens = {}, {}
    for theme, token, body in PYGMENTS_RULE.findall(css):
        declarations = dict(part.split(":", 1) for part in body.split(";") if ":" in part)
        declarations = {key.strip(): value.strip() for key, value in declarations.items()}
        if token:
            tokens.setdefault(token, {})[theme] = declarations
        else:
            block[theme] = declarations.get("color")
    return {token for token, themes in tokens.items()
            if set(themes) == {"light", "dark"}
            and all(set(d) == {"color"} and d["color"] == block.get(theme)
                    for theme, d in themes.items())}


def unwrap_plain_tokens(text, classes):
    """``text`` with the spans of ``classes`` in its code blocks replaced by their text."""
    if not classes:
        return text
    span = re.compile(r'<span class="(?:%s)">([^<]*)</span>' % "|".join(map(re.escape, sorted(classes))))
    return HIGHLIGHT_BLOCK.sub(lambda block: span.sub(r"\1", block.group(0)), text)


def plain_tokens(app, exception):
    css = Path(app.outdir) / PYGMENTS_CSS
    if exception is not None or not css.exists():
        return
    classes = plain_token_classes(css.read_text(encoding="utf-8"))
    rewrite_pages(app, exception, lambda text, path, outdir: unwrap_plain_tokens(text, classes))


# The stylesheets every page loads whose rules are purged (the book's own book.css is not).
PURGED = ("_static/styles/pydata-sphinx-theme.css", "_static/styles/sphinx-book-theme.css",
          "_static/basic.css", "_static/mystnb.*.css")
CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
FUNCTIONAL = re.compile(r":(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)")
# Classes scripts compose at run time (Bootstrap: `bs-${name}-auto`, its tooltips' parts).
COMPOSED = re.compile(r"^(?:bs-|tooltip|popover)")
WORD = re.compile(r"[A-Za-z_][\w-]*")
INLINE_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S)


def used_classes(outdir, pages):
    """Every class a page has, and every word a script of the site could add as one."""
    words = set()
    for text in pages:
        for classes in re.findall(r'class="([^"]*)"', text):
            words.update(classes.split())
        for script in INLINE_SCRIPT.findall(text):
            words.update(WORD.findall(script))
    for script in Path(outdir, "_static").rglob("*.js"):
        if "fontawesome" not in script.name and "mathjax" not in script.parts:
            words.update(WORD.findall(script.read_text(encoding="utf-8", errors="replace")))
    return words


def selector_can_match(selector, used):
    classes = CLASS.findall(FUNCTIONAL.sub("", selector))
    return all(c in used or COMPOSED.match(c) for c in classes)


def purge_rules(rules, used):
    """The CSS of ``rules`` (tinycss2 nodes) without the rules no page can match."""
    import tinycss2
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = tinycss2.serialize(rule.prelude).split(",")
            if any(selector_can_match(s, used) for s in selectors):
                kept.append(tinycss2.serialize([rule]))
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") \
                and rule.content is not None:
            inner = purge_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                         skip_whitespace=True), used)
            if inner:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{inner}}}")
        elif rule.type != "error":
            kept.append(tinycss2.serialize([rule]))
    return "".join(kept)


def purge_css(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    import tinycss2
    outdir = Path(app.outdir)
    used = used_classes(outdir, [p.read_text(encoding="utf-8") for p in built_pages(outdir)])
    for pattern in PURGED:
        for path in outdir.glob(pattern):
            rules = tinycss2.parse_stylesheet(path.read_text(encoding="utf-8"),
                                              skip_comments=True, skip_whitespace=True)
            path.write_text(purge_rules(rules, used), encoding="utf-8")


SMALL = 5_000
STYLESHEET = re.compile(r'<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"[^>]*>')
PLAIN_SCRIPT = re.compile(r'<script src="([^"]+)"></script>')
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
CSS_IMPORT = re.compile(r"""@import\s+(?:url\()?\s*['"]([^'"]+)['"]\s*\)?\s*;""")


def local_file(base, href, outdir):
    """The file ``href`` names relative to the folder ``base``, if it is one of the site's."""
    if re.match(r"^(?:[a-z]+:|/|#)", href):
        return None
    path = (base / href.split("?")[0].split("#")[0]).resolve()
    return path if path.is_file() and path.is_relative_to(outdir.resolve()) else None


def inlined_css(css_file, page_dir, outdir):
    """A stylesheet's text as it reads from ``page_dir``: its links made relative to the page,
    and every stylesheet it imports written in its place."""
    text = css_file.read_text(encoding="utf-8")

    def imported(match):
        target = local_file(css_file.parent, match.group(1), outdir)
        return inlined_css(target, page_dir, outdir) if target else match.group(0)

    def relinked(match):
        target = local_file(css_file.parent, match.group(2), outdir)
        if target is None:
            return match.group(0)
        return f'url("{Path(os.path.relpath(target, page_dir)).as_posix()}")'

    return CSS_URL.sub(relinked, CSS_IMPORT.sub(imported, text))


def inline_small_files(text, page, outdir):
    """A page with its small stylesheets and plain scripts written into it."""
    def style(match):
        css = local_file(page.parent, html.unescape(match.group(1)), outdir)
        if css is None or css.stat().st_size > SMALL:
            return match.group(0)
        content = inlined_css(css, page.parent.resolve(), outdir)
        return match.group(0) if "</style" in content.lower() else f"<style>\n{content}\n</style>"

    def script(match):
        js = local_file(page.parent, html.unescape(match.group(1)), outdir)
        if js is None or js.stat().st_size > SMALL:
            return match.group(0)
        content = js.read_text(encoding="utf-8")
        return match.group(0) if "</script" in content.lower() else f"<script>{content}</script>"

    end = text.find("</head>")
    head = STYLESHEET.sub(style, text[:end])
    return PLAIN_SCRIPT.sub(script, head) + text[end:]


def inline_pages(app, exception):
    rewrite_pages(app, exception, inline_small_files)


def setup(app):
    app.connect("build-finished", trim_pages)
    # After the theme writes its light and dark Pygments rules into pygments.css (at
    # build-finished, priority 500), before the purge reads the pages' classes.
    app.connect("build-finished", plain_tokens, priority=800)
    # After the purge: what is written into the pages is the purged stylesheet.
    app.connect("build-finished", inline_pages, priority=950)
    # Last, once the other extensions have written the pages' final classes (icons, math).
    app.connect("build-finished", purge_css, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
