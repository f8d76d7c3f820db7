"""The whole book as one PDF, as the website offers it (``make book`` builds it; see
``tools/pdf/build.py``), read back with poppler's ``pdftotext``, ``pdftohtml -xml`` and
``pdfinfo`` (Debian's poppler-utils, installed with chromium by ``install_chromium.sh``).

What is checked, against the sources (nothing here is typed twice):

- it is at most 20 MB and its page count is in the range ``PAGES`` below;
- a title page, with the edition and its licences in one line (each licence a link), then the
  contents, whose every entry links to the page where its title is;
- every chapter and section title of every page of ``_toc.yml`` is in the body, in order;
- no raw TeX, MyST or HTML source shows in the prose (text outside the monospaced code and
  outputs), and no directive, fence or tag in the code either;
- every figure is there: its caption (with its number), no broken image (whose alt text chromium
  would print instead), and a still image, with its caption, for every live figure;
- the exercises and, in the appendix, a solution for each of them.
"""
import html
import re
import shutil
import subprocess
import unicodedata
from functools import lru_cache

import nbformat
import pytest
from bayescomp.book.widgets import PLACEHOLDER

from tools import toc
from tools.pdf.build import PDF_NAME
from tools.toc import ROOT

PDF = ROOT / "_build" / "html" / PDF_NAME
MAX_BYTES = 20 * 1024 * 1024
# The book's length with its back matter (the API reference is about 45 pages), with room to
# grow (tests/README.md points here).
PAGES = range(140, 281)
PROSE_SOURCE = [
    (r"\$", "a dollar sign (TeX math delimiters)"),
    (r"\\[A-Za-z]+", "a TeX command"),
    (r"\{(eq|ref|numref|cite|cite:p|cite:t|doc|glue|glue:text|math|term)\}", "a MyST role"),
    (r"\{[a-z-]+\}`", "a MyST role"),
    (r":::|```", "a MyST fence"),
    (r"</?[a-z][a-z0-9]*(\s[^>]*)?/?>", "an HTML tag"),
    (r"&(amp|lt|gt|quot|nbsp);", "an HTML entity"),
    (r"^:\w+:", "a directive option"),
    (r"\([\w-]+\)=", "a MyST target"),
]
CODE_SOURCE = [(r":::\{|```\{|\{(exercise|solution)", "a MyST directive"),
               (r"</?(div|details|summary|span|p)\b", "an HTML tag")]


def normal(text):
    """NFKC (ligatures become letters), typographic quotes plain, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"(?<=\w)-\s+(?=\w)", "-", text)   # a compound word broken at the line end
    return re.sub(r"\s+", " ", text).strip()


def plain(markdown, limit=None):
    """Markdown as printed, as a regex: math (drawn, not text) matches anything short.
    With ``limit``, only the text parts up to about that many characters."""
    parts = re.split(r"\$[^$]+\$", markdown)
    parts = [normal(re.sub(r"[*_`]|\{[a-z:]+\}|\[([^\]]*)\]\([^)]*\)", r"\1", part)) for part in parts]
    kept, length = [], 0
    for part in filter(None, parts):
        if limit is not None and length >= limit:
            break
        kept.append(part)
        length += len(part)
    # pdftotext drops the hyphen of a compound word broken at a line's end ("over-dispersed"
    # prints as "overdispersed"), so a hyphen in the source may be missing from the text.
    return r".{0,40}?".join(re.escape(part).replace(r"\-", "-?") for part in kept)


@lru_cache
def pdf():
    if not PDF.exists():
        pytest.skip(f"{PDF} is missing: run `make book`")
    if not shutil.which("pdftotext"):
        pytest.fail("pdftotext is missing: run `bash tools/scripts/install_chromium.sh`")
    return PDF


@lru_cache
def page_texts():
    text = subprocess.run(["pdftotext", str(pdf()), "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = text.split("\f")[:-1]
    # Each page without its number at the foot (pdftotext may read it mid-page).
    return [normal("\n".join(line for line in page.splitlines() if line.strip() != str(number)))
            for number, page in enumerate(pages, start=1)]


@lru_cache
def runs():
    """(font family, text) of every text run (pdftohtml's XML view)."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", str(pdf())],
                         capture_output=True, text=True, check=True).stdout
    fonts = dict(re.findall(r'<fontspec id="(\d+)"[^>]*family="([^"]+)"', xml))
    return [(fonts[font], html.unescape(re.sub(r"<[^>]+>", "", inner)))
            for font, inner in re.findall(r'<text [^>]*font="(\d+)"[^>]*>(.*?)</text>', xml)]


@lru_cache
def contents_links():
    """(target page, text) of each link of the contents, and the contents' last page: they run
    from page 2 to the page before the one their first entry (the landing page) links to."""
    from tools.pdf.build import contents_pages
    last = contents_pages(pdf())[0] - 1
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "2", "-l", str(last),
                          str(pdf())], capture_output=True, text=True, check=True).stdout
    links = [(int(target), normal(html.unescape(re.sub(r"<[^>]+>", "", text))))
             for target, text in re.findall(r'<a href="[^"]*#(\d+)">(.*?)</a>', xml)]
    return links, last


def body():
    """The text after the contents, as one string."""
    _, last = contents_links()
    texts = page_texts()[last:]
    return " ".join(texts)


def markdown_cells(name):
    """The Markdown a reader of the website sees: every cell not removed from the website."""
    path = toc.notebook(name)
    if path.exists():
        notebook = nbformat.read(path, as_version=4)
        return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"
                and "remove-cell" not in cell.metadata.get("tags", [])]
    return [(ROOT / f"chapters/{name}.md").read_text(encoding="utf-8")]


def headings(source):
    """Level-1 and level-2 headings, outside fenced blocks."""
    found, fence = [], None
    for line in source.splitlines():
        marker = re.match(r"^(`{3,}|:{3,})", line)
        if marker:
            fence = None if fence and line.startswith(fence) else (fence or marker.group(1))
            continue
        heading = re.match(r"^(#{1,2}) (.+?)\s*$", line)
        if heading and not fence:
            found.append(heading.group(2))
    return found


def printed_pages():
    """The pages of ``_toc.yml`` that the PDF prints (the execution table is website-only)."""
    from tools.pdf.sphinx import WEBSITE_ONLY_PAGES
    return [page.split("/")[-1] for page in toc.PAGES if page not in WEBSITE_ONLY_PAGES]


def test_size_and_page_count():
    size = pdf().stat().st_size
    assert size <= MAX_BYTES, f"{PDF_NAME} is {size / 1e6:.1f} MB (at most 20 MB)"
    info = subprocess.run(["pdfinfo", str(pdf())], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert pages in PAGES, f"{pages} pages, outside {PAGES.start}-{PAGES.stop - 1}"


def test_title_page_and_contents():
    import yaml
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert normal(config["title"]) in page_texts()[0]
    links, last = contents_links()
    assert "Contents" in page_texts()[1]
    assert len(links) > 50
    targets = [page for page, _ in links]
    assert targets == sorted(targets), "the contents are not in page order"
    for page, title in links:
        words = re.sub(r"^[\d.]+ ", "", title).split(" ")[:4]  # math is drawn, not text
        assert normal(" ".join(words)) in page_texts()[page - 1], (
            f"the contents send '{title}' to page {page}, which does not hold it")
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "2", "-l", str(last),
                          str(pdf())], capture_output=True, text=True, check=True).stdout
    height = int(re.search(r'<page [^>]*height="(\d+)"', xml).group(1))
    printed = [int(n) for top, n in re.findall(r'<text top="(\d+)"[^>]*>(?:<b>)?(\d+)(?:</b>)?</text>', xml)
               if int(top) < 0.92 * height]   # not the folio at the foot
    assert printed[:len(targets)] == targets, "the contents' page numbers are not their links' pages"


def test_title_page_states_the_licences_and_the_edition():
    from tools import edition
    line = normal(html.unescape(re.sub(r"<[^>]+>", "", edition.notice_html())))
    assert line in page_texts()[0], f"the title page does not print {line!r}"
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "1", "-l", "1",
                          str(pdf())], capture_output=True, text=True, check=True).stdout
    links = set(re.findall(r'<a href="(https?://[^"]+)"', xml))
    assert {licence["url"] for licence in edition.LICENCES.values()} <= links, links


def test_every_chapter_and_section_title_in_order():
    text, at, missing = body(), 0, []
    for name in printed_pages():
        for source in markdown_cells(name):
            for heading in headings(source):
                found = re.compile(plain(heading)).search(text, at)
                if found:
                    at = found.end()
                else:
                    missing.append(f"{name}: {heading}")
    assert missing == [], f"titles not found in the PDF's body, in order: {missing}"


def test_no_source_shows():
    shown = []
    for family, text in runs():
        code = "Mono" in family or "Courier" in family
        for pattern, what in CODE_SOURCE if code else PROSE_SOURCE:
            if re.search(pattern, text):
                shown.append(f"{what}: {text[:80]!r}")
    assert shown == [], f"{len(shown)} pieces of source in the PDF, e.g. {shown[:5]}"


def test_every_figure_is_there():
    text = body()
    figures = []
    for name in printed_pages():
        path = toc.notebook(name)
        if not path.exists():
            continue
        for cell in nbformat.read(path, as_version=4).cells:
            spec = cell.metadata.get("mystnb", {})
            if "figure" in spec:
                figures.append((name, spec["figure"]["caption"], spec.get("image", {}).get("alt")))
    assert figures, "no figures found in the notebooks"
    missing = [caption for _, caption, _ in figures
               if not re.search(r"Fig\. [\d.]+ ?" + plain(caption, limit=60), text)]
    assert missing == [], f"figure captions missing from the PDF: {missing}"
    broken = [alt for _, _, alt in figures if alt and normal(alt)[:60] in text]
    assert broken == [], f"figures printed as their alt text (the image did not load): {broken}"


def test_every_live_figure_has_a_still():
    placeholders = [found for name in toc.CHAPTERS for source in markdown_cells(name)
                    for found in PLACEHOLDER.findall(source)]
    captions = re.findall(r"A still of the live figure", body())
    assert len(captions) == len(placeholders) > 0
    for name in placeholders:
        assert f"book.widgets.{name.replace('-', '_')}()" in body(), name
    images = subprocess.run(["pdfimages", "-list", str(pdf())], capture_output=True, text=True,
                            check=True).stdout.splitlines()[2:]
    rgb = [line for line in images if line.split()[5] in ("rgb", "icc")]
    assert len(rgb) >= len(placeholders), "fewer raster images than live figures"


def test_exercises_and_their_solutions():
    text = body()
    exercises = re.findall(r"Exercise (\d+\.\d+) \(", text)
    solutions = re.findall(r"Solution to ?Exercise (\d+\.\d+)", text)
    assert exercises and sorted(set(exercises)) == sorted(set(solutions)), (exercises, solutions)
    appendix = text.index("Solutions to the exercises Chapter")
    assert all(found.start() > appendix for found in re.finditer(r"Solution to ?Exercise", text)), \
        "a solution is printed outside the appendix"
