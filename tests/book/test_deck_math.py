"""The decks' math, typeset when they are built (tools/slides/typeset_deck.cjs), on small pages.

The built decks themselves are checked in a browser (tests/browser/test_slides.py: every
formula drawn once, no source showing, the speaker view's formulas drawn, no MathJax loaded).
"""
import re
import shutil

import pytest

from tools.slides import build

# A deck as nbconvert's template writes it, with the delimiters and escapes the decks use, a
# speaker note with math, and text that is not math.
DECK = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>t</title>
<script>
window.MathJax = {tex: {inlineMath: [["$", "$"]]}};
</script>
<script src="vendor/mathjax/tex-svg-full.js"></script>
<script>var price = "$5 and $6";</script>
</head><body><div class="reveal"><div class="slides"><section>
<p>inline $\hat R < 1.01$ and \(x^2\), a price of \$3</p>
<p>$$\sigma(u) = \frac{1}{1 + e^{-u}}$$</p>
<pre><code>print("$not math$")</code></pre>
<aside class="notes"><p>the notes: $\sqrt{d}$</p></aside>
</section></div></div></body></html>
"""


def typeset(tmp_path, page):
    if shutil.which("node") is None or not (build.MATHJAX / "node-main.js").exists():
        pytest.fail("typesetting the decks needs Node.js and MathJax: run `make npm`")
    deck = tmp_path / "deck.html"
    deck.write_text(page, encoding="utf-8")
    build.typeset_math([deck])
    return deck.read_text(encoding="utf-8")


def test_every_formula_is_typeset_and_no_math_script_is_left(tmp_path):
    text = typeset(tmp_path, DECK)
    assert text.count("<mjx-container") == 4 and text.count("<mjx-assistive-mml") == 4
    assert len(re.findall(r'<mjx-container[^>]* display="true"', text)) == 1   # the $$ .. $$
    assert not re.search(r"<script[^>]*mathjax", text, re.I) and "window.MathJax" not in text
    # The escaped dollar is a dollar; code and scripts are left alone.
    assert "a price of <span>$</span>3" in text and 'print("$not math$")' in text
    assert 'var price = "$5 and $6";' in text
    assert "<mo>&lt;</mo>" in text                            # the MathML of \hat R < 1.01
    # One set of glyphs for the page, every glyph a formula uses defined in it.
    used = set(re.findall(r'href="#(MJX-[^"]+)"', text))
    assert used and used <= set(re.findall(r' id="(MJX-[^"]+)"', text))
    assert text.count('id="MJX-SVG-global-cache"') == 1
    assert 'id="MJX-SVG-styles"' in text and "mjx-assistive-mml" in text.split("</head>")[0]


def test_a_formula_mathjax_cannot_typeset_fails_the_build_naming_it(tmp_path, capfd):
    bad = DECK.replace(r"\(x^2\)", r"\(\nosuchmacro\) and $\frac{1}{x}}$")
    with pytest.raises(SystemExit, match="typesetting the decks' math failed"):
        typeset(tmp_path, bad)
    err = capfd.readouterr().err
    assert "deck.html" in err and "nosuchmacro" in err and "close brace" in err.lower(), err
    assert "window.MathJax" in (tmp_path / "deck.html").read_text(), "a failed deck was rewritten"
