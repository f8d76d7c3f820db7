"""What a page of the built website costs a student's phone, in bytes (issue: a chapter at
most 1 MB).

Each page of the built site (not the decks) is opened in headless chromium at 390 x 844 from an
empty cache and scrolled to its end, so what loads late (the live figures' bundle, images) is
counted, and weighed as ``tools/benchmarks/pageweight.py`` weighs it: every response as
transferred, with no compression (``python -m http.server``, as the README serves the site,
does not compress). Then:

- no page loads a math typesetter or an icon font in JavaScript (the math is typeset when the
  book is built, the icons are inline SVG);
- each page transfers at most :data:`PAGE_BUDGET` bytes, in at most :data:`MAX_REQUESTS`
  requests, and the median page at most :data:`MEDIAN_BUDGET` (the issue's targets);
- no image a page loads is over the figure budget of ``tests/book/test_figure_sizes.py``,
  unless that file names its figure with the reason.

The decks (``_build/slides_out/slides``, as the site serves them under ``slides/``) are weighed
the same way: no math script (their formulas are typeset when they are built,
``tools/slides/typeset_deck.cjs``), no failed request, and at most :data:`DECK_BUDGET` bytes each
(a guard against the 2.3 MB MathJax or the like coming back: a deck is shown on a projector, the
phone targets are the book's pages').

Bytes do not depend on the machine, so these hold anywhere; times do, and only the benchmark
(``make pageweight``) reports them.
"""
import re
import statistics

import pytest

from tools.benchmarks.pageweight import summary, weigh

from ..book.test_figure_sizes import FIGURE_BUDGET, HEAVY_FIGURES
from .built import SITE, decks, decks_url, site_pages, site_url  # noqa: F401

PAGE_BUDGET = 1_500_000
MEDIAN_BUDGET = 1_000_000
MAX_REQUESTS = 20
DECK_BUDGET = 2_500_000
FIGURE = re.compile(r'<figure[^>]*\bid="([^"]+)"[^>]*>.*?</figure>', re.S)
IMAGE = re.compile(r'<img[^>]*\bsrc="([^"]+)"')


def figure_names(path):
    """Each image file of a built page (as a site path) and the name of its figure, if any."""
    page = (SITE / path).read_text(encoding="utf-8")
    names = {}
    for figure in FIGURE.finditer(page):
        for src in IMAGE.findall(figure.group(0)):
            names[((SITE / path).parent / src).resolve().relative_to(SITE).as_posix()] = figure[1]
    return names


@pytest.fixture(scope="module")
def weighed(site_url, browser):
    """Every page's responses, each page loaded once."""
    return {path: weigh(browser, f"{site_url}/{path}") for path in site_pages()}


def test_the_median_page_fits_a_phone(weighed, site_url):
    median = statistics.median(summary(r, site_url)["bytes"] for r in weighed.values())
    assert median <= MEDIAN_BUDGET, f"the median page is {median / 1e6:.2f} MB"


@pytest.mark.parametrize("path", site_pages() or ["index.html"])
def test_page_fits_a_phone(path, site_url, weighed):
    responses = weighed[path]
    weight = summary(responses, site_url)
    assert not weight["math_script"], f"{path} loads a math script"
    assert not weight["icon_script"], f"{path} loads an icon-font script"
    assert weight["failed"] == [], f"{path}: failed requests {weight['failed']}"
    assert weight["bytes"] <= PAGE_BUDGET, (
        f"{path} transfers {weight['bytes'] / 1e6:.2f} MB (budget {PAGE_BUDGET / 1e6} MB); "
        f"biggest: {weight['biggest']}")
    assert weight["requests"] <= MAX_REQUESTS, f"{path}: {weight['requests']} requests"
    names = figure_names(path)
    heavy = []
    for response in responses:
        if response["kind"] != "image" or response.get("bytes", 0) <= FIGURE_BUDGET:
            continue
        file = response["url"].removeprefix(site_url + "/").split("?")[0]
        if names.get(file) not in HEAVY_FIGURES:
            heavy.append(f"{file} (figure {names.get(file)}, {response['bytes'] // 1000} kB)")
    assert heavy == [], f"{path}: images over {FIGURE_BUDGET // 1000} kB: {heavy}"


@pytest.mark.parametrize("name", [d for d in decks() if d != "index.html"] or ["00.html"])
def test_deck_loads_no_math_script(name, decks_url, browser):
    weight = summary(weigh(browser, f"{decks_url}/{name}"), decks_url)
    assert not weight["math_script"], f"{name} loads a math script"
    assert weight["failed"] == [], f"{name}: failed requests {weight['failed']}"
    assert weight["bytes"] <= DECK_BUDGET, (
        f"{name} transfers {weight['bytes'] / 1e6:.2f} MB (budget {DECK_BUDGET / 1e6} MB); "
        f"biggest: {weight['biggest']}")
