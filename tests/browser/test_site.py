"""Open every page of the built website in headless chromium with the network cut.

Each page of ``_toc.yml`` must load without reaching outside the machine, with no failed
request, and with its math typeset when the book was built (SVG with MathML beside it, no math
script). Build the site first
(`make book`); a missing build skips these tests, and under `make test` and `make check` (which allow no silent
skip, see ``tests/skips.py``) fails them.

Every page the build wrote states, in its footer, the edition and its licences in one line,
with links to both licences and to the accessibility statement; the Errata page says how to
report an error.
"""
import html
import re

import pytest

from tools import edition
from tools.slides.build import deck_file
from tools.toc import CHAPTERS, PAGES, ROOT

from .built import TYPESET, site_pages

SITE = ROOT / "_build" / "html"


def require_site():
    if not (SITE / "chapters" / "index.html").exists():
        pytest.skip(f"no website in {SITE}: run `make book` first")


@pytest.fixture(scope="module")
def site_url(serve):
    require_site()
    return serve(SITE)


@pytest.mark.parametrize("page_path", [f"{page}.html" for page in PAGES])
def test_page_offline(page_path, site_url, offline_page):
    view = offline_page(site_url)
    page = view.page
    page.goto(f"{site_url}/{page_path}", wait_until="load")
    if page.evaluate("document.querySelectorAll('.math').length > 0"):
        assert page.evaluate(TYPESET), f"a formula on {page_path} was not typeset when built"
        assert page.evaluate("document.querySelectorAll('mjx-container').length") > 0
    # Each reference to an equation of this page shows its number, and leads to the equation:
    # its number (Sphinx's) beside its SVG.
    unnumbered = page.evaluate("""() => [...document.querySelectorAll('a:not(.headerlink)[href^="#equation-"]')]
        .map(a => [a.textContent, document.getElementById(a.getAttribute('href').slice(1))])
        .filter(([text, target]) => !/^\\(\\d+\\)$/.test(text) || !target
                || !target.querySelector('.eqno') || !target.querySelector('mjx-container svg'))
        .map(([text]) => text)""")
    assert unnumbered == [], f"references to equations that lead nowhere on {page_path}: {unnumbered}"
    figures = page.evaluate("""() => [...document.querySelectorAll('figure img, .cell_output img')]
        .map(e => ({width: e.naturalWidth, alt: e.alt}))""")
    assert all(f["width"] > 0 for f in figures), f"a figure on {page_path} did not load"
    assert all(f["alt"] for f in figures), f"a figure on {page_path} has no alt text"
    # Nothing is cut off at the page edge: no display equation or code block is wider than its
    # box or runs past the right edge of the main column.
    overflowing = page.evaluate("""() => {
        const main = document.querySelector('main').getBoundingClientRect();
        return [...document.querySelectorAll(
                'mjx-container[display="true"], div.cell_input pre, div.cell_output pre')]
            .filter(e => e.scrollWidth > e.clientWidth + 1
                         || e.getBoundingClientRect().right > main.right + 1)
            .map(e => e.textContent.slice(0, 60)); }""")
    assert overflowing == [], f"cut off at the page edge on {page_path}: {overflowing[:3]}"
    assert view.external == [], f"{page_path} tried to reach the network: {view.external[:3]}"
    assert view.failed == [], f"{page_path} had failed requests: {view.failed[:3]}"
    assert view.errors == [], f"{page_path} raised JavaScript errors: {view.errors[:3]}"


def test_chapter_pages_link_to_their_decks():
    require_site()
    for name in CHAPTERS:
        page = (SITE / "chapters" / f"{name}.html").read_text(encoding="utf-8")
        assert f"../slides/{deck_file(name)}" in page, name
    assert (SITE / "slides" / "index.html").exists()


FOOTER = re.compile(r'<footer class="bd-footer-content">(.*?)</footer>', re.S)
EDITION_LINE = re.compile(r'<p class="edition-footer">(.*?)</p>', re.S)


def test_every_footer_states_the_licences_and_the_edition():
    require_site()
    pages, wrong = site_pages(), []
    for path in pages:
        footer = FOOTER.search((SITE / path).read_text(encoding="utf-8"))
        line = footer and EDITION_LINE.search(footer[1])
        if not line:
            wrong.append(f"{path}: no edition line in the footer")
            continue
        text = html.unescape(re.sub(r"<[^>]+>", "", line[1]))
        links = re.findall(r'href="([^"]+)"', line[1])
        licences = [licence["url"] for licence in edition.LICENCES.values()]
        target = links[-1].split("#")[0] if links else None   # "#" on the statement itself
        statement = (SITE / path).parent / target if target else SITE / path
        if (f"Edition {edition.version()}." not in text or links[:2] != licences
                or statement.resolve() != SITE / "chapters" / "accessibility.html"):
            wrong.append(f"{path}: {text!r} {links}")
    assert len(pages) >= len(PAGES) and wrong == [], wrong[:5]


def test_errata_page_says_how_to_report_an_error():
    require_site()
    source = (SITE / "chapters" / "errata.html").read_text(encoding="utf-8")
    page = html.unescape(re.sub(r"<[^>]+>", "", source))
    page = " ".join(page.replace("\u2019", "'").split())   # Sphinx's typographic apostrophe
    assert f"This is edition {edition.version()}." in page
    assert "open an issue in the book's repository. Say which edition" in page
    address = edition.config()["repository"]
    assert not address or f'href="{address.rstrip("/")}/issues"' in source


# The header's buttons, with their icons inline (tools/website/icons.py) and no icon script.
VISIBLE_ICONS = """sel => [...document.querySelectorAll(sel)]
    .filter(e => e.getBoundingClientRect().width > 0 && getComputedStyle(e).display !== 'none')"""


def test_the_header_buttons_work_and_show_their_icons(site_url, offline_page):
    view = offline_page(site_url)
    page = view.page
    page.goto(f"{site_url}/chapters/01_target.html", wait_until="load")
    # Colour mode: each click moves light -> dark -> auto, and shows that mode's icon alone.
    button = page.locator(".theme-switch-button:visible").first
    seen = []
    for _ in range(3):
        button.click()
        mode = page.evaluate("document.documentElement.dataset.mode")
        shown = page.evaluate(f"({VISIBLE_ICONS})('.theme-switch-button svg.theme-switch')"
                              ".map(e => e.dataset.mode)")
        assert shown == [mode], (mode, shown)
        seen.append(mode)
    assert sorted(seen) == ["auto", "dark", "light"]
    # Download: the menu opens on the notebook and the PDF, each with its icon.
    page.locator(".dropdown-download-buttons button.dropdown-toggle").click()
    links = page.evaluate(f"({VISIBLE_ICONS})('.dropdown-download-buttons .dropdown-item')"
                          ".map(e => [e.textContent.trim(), !!e.querySelector('svg.svg-inline--fa')])")
    assert [name for name, _ in links] == [".ipynb", ".pdf"] and all(icon for _, icon in links)
    # Full screen and search each have their icon and their action.
    assert page.evaluate("!!document.querySelector('.btn-fullscreen-button svg.fa-expand')"
                         " && typeof toggleFullScreen === 'function'")
    assert page.evaluate("[...document.querySelectorAll('i[class*=\"fa-\"], span[class*=\"fa-\"]')]"
                         ".length") == 0
    assert view.errors == [] and view.failed == [] and view.external == []


def test_a_search_from_a_page_finds_the_book(site_url, offline_page):
    """A page loads no search index (tools/website/lean.py): its search field sends the query to
    the search page, which loads the index and lists the pages."""
    view = offline_page(site_url)
    page = view.page
    page.goto(f"{site_url}/chapters/01_target.html", wait_until="load")
    page.keyboard.press("Control+k")
    field = page.locator("#pst-search-dialog input[name=q]")
    field.fill("Metropolis")
    field.press("Enter")
    page.wait_for_url("**/search.html?q=Metropolis*")
    page.wait_for_selector("#search-results ul.search li a", timeout=20_000)
    assert page.locator("#search-results ul.search li").count() >= 3
    assert view.errors == [] and view.failed == [] and view.external == []
