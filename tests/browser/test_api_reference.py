"""The built API reference (chapters/api.md), the links to it from each shown source, and no
reStructuredText left where readers look: the website's pages and the book's PDF."""
import re
import shutil
import subprocess
import types

import pytest

import bayescomp as bc
from bayescomp import book

from .built import SITE, require, site_pages

PDF = SITE.parent / "download" / "bayescomp-book.pdf"
# reStructuredText that nothing renders: roles, directives, double-backquote literals.
REST = re.compile(r":(?:math|func|class|meth|attr|mod|data):`|\.\. (?:math|note|code-block)::|``\w")


def text_outside_code(html):
    """A page's main text: no code listings, scripts, styles or typeset formulas, no tags."""
    main = html[html.find("<main"):html.find("</main>")]
    main = re.sub(r"<(script|style|pre|code|mjx-container|svg)\b.*?</\1>", " ", main, flags=re.S)
    return re.sub(r"<[^>]+>", " ", main)


@pytest.fixture(scope="module")
def api_page():
    require(SITE, "website")
    return (SITE / "chapters" / "api.html").read_text(encoding="utf-8")


def test_every_public_name_has_an_entry(api_page):
    for module in (bc, book):
        for name in module.__all__:
            if not isinstance(getattr(module, name), types.ModuleType):
                assert f'id="{module.__name__}.{name}"' in api_page, f"{module.__name__}.{name}"


def test_each_shown_source_links_to_its_entry(api_page):
    linked = 0
    for page in site_pages():
        html = (SITE / page).read_text(encoding="utf-8")
        for name in re.findall(r"<summary>Docstring of <code>([\w.]+)</code>", html):
            target = f"bayescomp.{name}"
            if f'id="{target}"' in api_page:
                assert f'href="api.html#{target}"' in html, f"{page}: no link for {target}"
                linked += 1
    assert linked >= 10, f"only {linked} shown sources link to the API reference"


@pytest.mark.parametrize("page", [p for p in site_pages() if p.startswith("chapters/")])
def test_no_restructuredtext_on_the_page(page):
    left = REST.findall(text_outside_code((SITE / page).read_text(encoding="utf-8")))
    assert left == [], f"{page}: {left[:5]}"


def test_no_restructuredtext_in_the_pdf():
    if not PDF.exists():
        pytest.skip(f"no {PDF.name}: run `make book` first")
    pdftotext = shutil.which("pdftotext")
    assert pdftotext, "pdftotext (poppler-utils) is missing: the PDF's build installs it"
    text = subprocess.run([pdftotext, "-layout", str(PDF), "-"], capture_output=True, text=True,
                          check=True).stdout
    left = re.findall(r":(?:math|func|class|attr|data):`|\.\. math::", text)
    assert left == [], f"the PDF shows reStructuredText: {left[:5]}"
