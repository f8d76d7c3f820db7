"""The extensions that make the website's pages light (issue 32), on small pages written here:
the math typeset when the book is built, the icons inlined, and what a page does not use left
out. The built site itself is checked in tests/browser (test_site, test_pageweight)."""
import logging
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from bayescomp.book.widgets import FIGURE_NAMES as FIGURE
from tools.website import icons, lean, prerendered_math

PAGE = """<html><head>
<script>window.MathJax = {"options": {"processHtmlClass": "math"}}</script>
<script defer="defer" src="../_static/mathjax/tex-svg-full.js?v=1"></script>
</head><body class="x">
<p>Inline <span class="math notranslate nohighlight">\\(\\theta &lt; 1\\)</span>.</p>
<div class="math notranslate nohighlight" id="equation-eq-a">
<span class="eqno">(1)<a class="headerlink" href="#equation-eq-a">#</a></span>\\[\\sigma(z) = \\frac{1}{1 + e^{-z}}\\]</div>
<div class="math notranslate nohighlight">
\\begin{align}a &amp;= b\\\\ c &amp;= d\\end{align}</div>
<main><pre>\\(not math\\)</pre><p>See <a class="reference internal" href="#equation-eq-a">(1)</a>.</p></main>
</body></html>"""


def app_for(outdir):
    return SimpleNamespace(outdir=str(outdir), builder=SimpleNamespace(format="html"),
                           config=SimpleNamespace(mathjax3_config=None))


@pytest.fixture
def site(tmp_path):
    (tmp_path / "chapters").mkdir()
    (tmp_path / "_static").mkdir()
    return tmp_path


def needs_mathjax():
    if shutil.which("node") is None or not (prerendered_math.MATHJAX / "node-main.js").exists():
        pytest.fail("typesetting needs Node.js and MathJax: run `make npm`")


def test_every_formula_is_typeset_with_its_mathml_and_its_number(site):
    needs_mathjax()
    page = site / "chapters" / "a.html"
    page.write_text(PAGE, encoding="utf-8")
    prerendered_math.prerender(app_for(site), None)
    text = page.read_text(encoding="utf-8")
    assert text.count("<mjx-container") == 3 and text.count("<mjx-assistive-mml") == 3
    assert "\\(" not in text.replace("<pre>\\(not math\\)</pre>", "") and "\\begin{align}" not in text
    assert '<span class="eqno">(1)<a class="headerlink" href="#equation-eq-a">#</a></span>' \
           '<mjx-container' in text
    assert '<mo>&lt;</mo>' in text and "<mtable" in text            # the MathML, escaped TeX read
    assert "mathjax/tex-svg-full.js" not in text and "window.MathJax" not in text
    assert '<svg id="MJX-SVG-global-cache"' in text.split("<body", 1)[1][:200]
    assert 'href="../_static/mathjax-svg.css"' in text
    assert "mjx-assistive-mml" in (site / "_static" / "mathjax-svg.css").read_text()
    # Every glyph a formula uses is defined once in the page.
    import re
    used = set(re.findall(r'href="#(MJ[0-9a-z]+)"', text))
    assert used and used <= set(re.findall(r' id="(MJ[0-9a-z]+)"', text))
    prerendered_math.prerender(app_for(site), None)     # a second run finds nothing to do
    assert page.read_text(encoding="utf-8") == text


def test_a_formula_mathjax_cannot_typeset_is_a_warning_naming_its_page(site, caplog):
    needs_mathjax()
    (site / "bad.html").write_text('<html><head></head><body><span class="math notranslate '
                                   'nohighlight">\\(\\frac{1}{x\\)</span> <span class="math '
                                   'notranslate nohighlight">\\(\\nosuchmacro\\)</span></body></html>')
    with caplog.at_level(logging.WARNING):
        prerendered_math.prerender(app_for(site), None)
    messages = [r.getMessage() for r in caplog.records]
    assert any("bad.html" in m and "brace" in m.lower() for m in messages), messages
    assert any("bad.html" in m and "nosuchmacro" in m for m in messages), messages


def theme_script():
    import pydata_sphinx_theme
    return (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
            / "scripts" / "fontawesome.js")


def test_icons_become_the_svg_font_awesome_makes_and_its_script_goes():
    table = icons.read_icons(theme_script())
    assert {"fas", "far", "fab"} <= set(table) and table["fas"]["download"][:2] == (512, 512)
    page = ('<script defer src="../_static/scripts/fontawesome.js?digest=1"></script>\n'
            '<i class="theme-switch fa-solid fa-sun  fa-lg" data-mode="light" aria-hidden="true"></i>'
            '<span class="fa-solid fa-bars"></span><i class="fas fa-no-such-icon"></i>')
    text, unknown = icons.inline_icons(page, table)
    assert "fontawesome.js" not in text and unknown == ['<i class="fas fa-no-such-icon"></i>']
    assert ('<svg class="svg-inline--fa fa-sun theme-switch fa-lg" data-mode="light" '
            'aria-hidden="true" focusable="false" data-prefix="fas" data-icon="sun"') in text
    assert 'data-icon="bars"' in text and 'viewBox="0 0 448 512"' in text


def test_the_theme_css_keeps_only_the_glyphs_its_own_rules_draw(site):
    fonts = site / icons.FONTS
    fonts.mkdir(parents=True)
    shutil.copy(theme_script().parent.parent / "vendor" / "fontawesome" / "webfonts"
                / "fa-solid-900.ttf", fonts)
    (site / "_static" / "styles").mkdir()
    css = ('.fa-download:before,.fa-dl:before{content:"\\f019"}.a:after{content:"\\f105";'
           'font:var(--fa-font-solid)}@font-face{font-family:Font Awesome\\ 6 Free;src:url('
           '../vendor/fontawesome/webfonts/fa-solid-900.woff2) format("woff2"),url(../vendor/'
           'fontawesome/webfonts/fa-solid-900.ttf) format("truetype")}')
    (site / icons.THEME_CSS).write_text(css)
    icons.trim_theme_css(site)
    trimmed = (site / icons.THEME_CSS).read_text()
    assert ".fa-download" not in trimmed and ".a:after" in trimmed
    assert f"url(../vendor/fontawesome/webfonts/{icons.SUBSET})" in trimmed
    from fontTools.ttLib import TTFont
    subset = TTFont(fonts / icons.SUBSET)
    assert set(subset.getBestCmap()) == {0xF105}


def test_a_page_keeps_only_the_scripts_it_uses():
    head = ('<link rel="stylesheet" type="text/css" href="_static/sphinx-thebe.css?v=1" />\n'
            '<link rel="stylesheet" type="text/css" href="_static/sphinx-design.min.css?v=1" />\n'
            '<script>const THEBE_JS_URL = "x"; const thebe_selector = ".thebe"</script>\n'
            '<script data-sd-tabs-storage-prefix="p" src="_static/design-tabs.js?v=1"></script>\n'
            '<script>DOCUMENTATION_OPTIONS.search_as_you_type = false;</script>\n'
            '<script src="_static/searchtools.js"></script>\n<script src="searchindex.js"></script>\n')
    plain = lean.trim(f"<html><head>{head}</head><body><p>text</p></body></html>", False)
    assert "thebe" not in plain.lower() and "design" not in plain and "search" not in \
           plain.replace("search_as_you_type", "")
    design = lean.trim(f'<html><head>{head}</head><body><div class="sd-card"></div></body></html>',
                       True)
    assert "sphinx-design.min.css" in design and "searchindex.js" in design
    assert "thebe" not in design.lower()


def test_css_rules_no_page_can_match_go_and_the_rest_stay():
    import tinycss2
    css = ('.used{a:1}.unused{b:2}.used .unused,.used:not(.gone){c:3}div{d:4}'
           '@media (min-width:1px){.unused{e:5}.used{f:6}}@font-face{font-family:x}'
           '.bs-tooltip-auto{g:7}')
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    kept = lean.purge_rules(rules, {"used"})
    for piece in ("a:1", "c:3", "d:4", "f:6", "@font-face", "g:7"):
        assert piece in kept, piece
    assert "b:2" not in kept and "e:5" not in kept


def test_small_files_are_written_into_the_page_in_their_place(site):
    static = site / "_static"
    (static / "styles").mkdir()
    (static / "basic.css").write_text(".b{background:url(file.png)}")
    (static / "file.png").write_bytes(b"png")
    (static / "styles" / "theme.css").write_text('@import "../basic.css";')
    (static / "big.css").write_text("." + "x" * lean.SMALL + "{}")
    (static / "small.js").write_text("var small = 1;")
    page = site / "chapters" / "a.html"
    text = ('<html><head><link href="../_static/styles/theme.css?digest=1" rel="stylesheet" />'
            '<link rel="stylesheet" type="text/css" href="../_static/big.css?v=1" />'
            '<script src="../_static/small.js?v=1"></script>'
            '<script defer src="../_static/small.js"></script></head><body></body></html>')
    out = lean.inline_small_files(text, page, site)
    assert '<style>\n.b{background:url("../_static/file.png")}\n</style>' in out
    assert 'href="../_static/big.css?v=1"' in out
    assert "<script>var small = 1;</script>" in out and '<script defer src="../_static/small.js">' in out
    assert lean.inline_small_files(out, page, site) == out


def test_the_live_figures_scripts_load_late_and_only_where_a_placeholder_is():
    from tools.website import widgets
    added = []
    app = SimpleNamespace(add_js_file=lambda name, **kw: added.append((name, kw)))
    pathto = lambda name, resource=False: f"../{name}"   # noqa: E731 (Sphinx's, for a chapter)
    widgets.add_scripts(app, "chapters/a", "page.html", {"body": "<p>no figure</p>",
                                                          "pathto": pathto}, None)
    assert added == []
    widgets.add_scripts(app, "chapters/a", "page.html",
                        {"body": f'<div data-widget="{FIGURE.metropolis}"></div>', "pathto": pathto}, None)
    ((name, kw),) = added
    body = kw["body"]
    assert name is None and "addEventListener('load', load)" in body
    data, bundle = (body.find(f'"../_static/{s}"') for s in widgets.SCRIPTS)
    assert 0 < data < bundle and "script.async = false" in body


def test_spans_drawn_as_plain_text_are_unwrapped_in_code_blocks_only():
    from tools.website.lean import plain_token_classes, unwrap_plain_tokens
    css = "\n".join([
        'html[data-theme="light"] .highlight { background: #fff; color: #080808 }',
        'html[data-theme="light"] .highlight .n { color: #080808 }',
        'html[data-theme="light"] .highlight .k { color: #0000ff; font-weight: bold }',
        'html[data-theme="light"] .highlight .p { color: #080808 }',
        'html[data-theme="light"] .highlight .o { color: #00622F }',
        'html[data-theme="dark"] .highlight { background: #2b2b2b; color: #F8F8F2 }',
        'html[data-theme="dark"] .highlight .n { color: #F8F8F2 }',
        'html[data-theme="dark"] .highlight .k { color: #F8F8F2 }',
        'html[data-theme="dark"] .highlight .p { color: #aaaaaa }',
        'html[data-theme="dark"] .highlight .o { color: #ABE338 }',
    ])
    # Only n is the block's colour in both themes and nothing else.
    assert plain_token_classes(css) == {"n"}
    page = ('<p><span class="n">prose</span></p>'
            '<div class="highlight-python notranslate"><div class="highlight"><pre>'
            '<span class="n">x</span><span class="o">=</span><span class="n">a&lt;b</span></pre></div></div>')
    assert unwrap_plain_tokens(page, {"n"}) == (
        '<p><span class="n">prose</span></p>'
        '<div class="highlight-python notranslate"><div class="highlight"><pre>'
        'x<span class="o">=</span>a&lt;b</pre></div></div>')
