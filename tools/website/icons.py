"""Sphinx extension: the theme's icons as inline SVG, with no icon font in JavaScript.

The theme (pydata-sphinx-theme) marks its icons as ``<i class="fa-solid fa-download"></i>``
and loads Font Awesome's script (about 1.5 MB, every icon of the set) on every page, which
swaps each ``<i>`` for an ``<svg>`` once it has run. This extension does that swap once, when
the book is built: after the build it replaces every such ``<i>`` in the written pages with the
``<svg>`` the script would have made (the same classes, attributes and path, taken from the
theme's own copy of the script), and drops the script from the page. The pages use about twenty
icons, a few hundred bytes each. Their size and alignment come from the rules for
``.svg-inline--fa`` in ``tools/website/static/book.css``.

Nothing in the theme changes an icon at view time (the colour-mode button shows one of its three
icons by CSS, through their ``data-mode``), so a static swap keeps every button working. An icon
the script does not know stays an ``<i>`` and the build warns.

The theme's CSS draws a few more icons itself, from Font Awesome's webfont (the admonitions'
signs, the breadcrumbs' dividers): for those the font (156 kB) is replaced by the subset of its
glyphs the CSS names (a few kB, WOFF), and the theme's stylesheet loses the rules that gave
every one of the set's icons its glyph (86 kB), which nothing uses once the icons are SVG.

It runs on every page the build wrote, those it did not rewrite this time included; a page
already swapped has nothing left to swap, a stylesheet already trimmed nothing to trim.

Load it from ``_config.yml``: ``sphinx: local_extensions: {tools.website.icons: .}``.
"""
import html
import re
from pathlib import Path

from sphinx.util import logging

from . import built_pages

SCRIPT = Path("_static") / "scripts" / "fontawesome.js"
SCRIPT_TAG = re.compile(r'[ \t]*<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>'
                        r'</script>\n?')
ICON_TAG = re.compile(r'<(i|span)\s([^>]*\bclass="(?:[^"]*\s)?fa[srb]?-[^"]*"[^>]*)>\s*</\1>')
ATTRIBUTE = re.compile(r'([\w:-]+)="([^"]*)"')
# Font Awesome's icon table in its script: name: [width, height, [aliases], "unicode", "path"],
# one table per style, each followed by the call that registers it under its prefixes.
ENTRY = re.compile(r'(?:"([a-z0-9-]+)"|([a-z0-9]+)):\[(\d+),(\d+),\[([^\]]*)\],"[0-9a-f]+",'
                   r'"([^"]+)"\]')
REGISTER = re.compile(r'\(function\(\)\{\w+\("(fa[srb])",\w+\),\w+\("fa-(solid|regular|brands)"')
STYLES = {"fa-solid": "fas", "fas": "fas", "fa-regular": "far", "far": "far",
          "fa-brands": "fab", "fab": "fab"}
# The theme's stylesheet: the glyph of every icon class (for <i> icons drawn by the webfont),
# and the solid style's webfont, which its own rules (admonitions, breadcrumbs) still use.
THEME_CSS = Path("_static") / "styles" / "pydata-sphinx-theme.css"
OTHER_CSS = ("_static/styles/sphinx-book-theme.css", "_static/togglebutton.css",
             "_static/exercise.css")
ICON_RULE = re.compile(r'(?:\.fa-[a-z0-9-]+:before,?)+\{content:"[^"]*"\}')
FONTS = Path("_static") / "vendor" / "fontawesome" / "webfonts"
SOLID = "fa-solid-900"
SUBSET = f"{SOLID}-subset.woff"
SOLID_SRC = re.compile(rf'url\(\.\./vendor/fontawesome/webfonts/{SOLID}\.woff2\) format\("woff2"\),'
                       rf'url\(\.\./vendor/fontawesome/webfonts/{SOLID}\.ttf\) format\("truetype"\)')
# Font Awesome's glyphs sit in Unicode's private use area; CSS names them as the character or
# as an escape.
PRIVATE = re.compile(r'[\ue000-\uf8ff]|\\(f[0-9a-f]{3}|e[0-9a-f]{3})\b')

logger = logging.getLogger(__name__)


def read_icons(script):
    """``{prefix: {name: (width, height, path)}}`` from Font Awesome's script (aliases too)."""
    text = Path(script).read_text(encoding="utf-8")
    ends = [(m.start(), m.group(1)) for m in REGISTER.finditer(text)]
    icons = {prefix: {} for _, prefix in ends}
    for match in ENTRY.finditer(text):
        prefix = next((p for end, p in ends if end > match.start()), None)
        if prefix is None:
            continue
        name = match.group(1) or match.group(2)
        entry = (int(match.group(3)), int(match.group(4)), match.group(6))
        aliases = re.findall(r'"([a-z0-9-]+)"', match.group(5))
        for key in (name, *aliases):
            icons[prefix].setdefault(key, entry)
    return icons


def svg_for(attributes, icons):
    """The ``<svg>`` for one ``<i>``'s attributes, or None when its icon is unknown."""
    attrs = dict(ATTRIBUTE.findall(attributes))
    classes = attrs.pop("class").split()
    prefix = next((STYLES[c] for c in classes if c in STYLES), "fas")
    names = [c[3:] for c in classes if c.startswith("fa-") and c[3:] in icons.get(prefix, {})]
    if not names:
        return None
    name = names[-1]
    width, height, path = icons[prefix][name]
    rest = [c for c in classes if c not in STYLES and c != f"fa-{name}"]
    attrs.setdefault("aria-hidden", "true")
    extra = "".join(f' {key}="{value}"' for key, value in attrs.items())
    return (f'<svg class="{" ".join(["svg-inline--fa", f"fa-{name}", *rest])}"{extra} '
            f'focusable="false" data-prefix="{prefix}" data-icon="{name}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">'
            f'<path fill="currentColor" d="{html.escape(path)}"></path></svg>')


def inline_icons(text, icons):
    """A page with its icons inline and no icon script; the names of icons left unknown."""
    unknown = []

    def swap(match):
        svg = svg_for(match.group(2), icons)
        if svg is None:
            unknown.append(match.group(0))
            return match.group(0)
        return svg

    return SCRIPT_TAG.sub("", ICON_TAG.sub(swap, text)), unknown



def swap_icons(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    script = Path(app.outdir) / SCRIPT
    if not script.exists():
        logger.warning("%s is missing: the theme's icons cannot be inlined", script)
        return
    icons = read_icons(script)
    for path in built_pages(app.outdir):
        text = path.read_text(encoding="utf-8")
        new, unknown = inline_icons(text, icons)
        for tag in unknown:
            logger.warning("%s: an icon Font Awesome does not have: %s", path.name, tag)
        if new != text:
            path.write_text(new, encoding="utf-8")


def css_glyphs(texts):
    """The private-use code points the stylesheets name (as characters or escapes)."""
    points = set()
    for text in texts:
        for match in PRIVATE.finditer(text):
            points.add(int(match.group(1), 16) if match.group(1) else ord(match.group(0)))
    return sorted(points)


def subset_font(source, target, points):
    """Write the glyphs ``points`` of the font ``source`` to ``target`` as WOFF."""
    from fontTools import subset
    options = subset.Options()
    options.flavor = "woff"
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    subset.save_font(font, str(target), options)


def trim_theme_css(outdir):
    """Drop the icon classes' glyph rules from the theme's stylesheet, and give its solid
    webfont's glyphs that the stylesheets still use as a subset of the font."""
    css_path = Path(outdir) / THEME_CSS
    if not css_path.exists():
        logger.warning("%s is missing: the theme's stylesheet is not trimmed", css_path)
        return
    css = ICON_RULE.sub("", css_path.read_text(encoding="utf-8"))
    others = [p.read_text(encoding="utf-8") for p in map(Path(outdir).joinpath, OTHER_CSS)
              if p.exists()]
    source = Path(outdir) / FONTS / f"{SOLID}.ttf"
    if source.exists():
        subset_font(source, Path(outdir) / FONTS / SUBSET, css_glyphs([css, *others]))
        css = SOLID_SRC.sub(f'url(../vendor/fontawesome/webfonts/{SUBSET}) format("woff")', css)
    css_path.write_text(css, encoding="utf-8")


def setup(app):
    app.connect("build-finished", swap_icons)
    app.connect("build-finished", lambda app, exception: exception is None
                and app.builder.format == "html" and trim_theme_css(app.outdir))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
