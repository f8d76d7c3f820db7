"""The edition as the repository states it: its version, licences, citation and errata.

Each fact has one source (``tools/edition.py`` lists them); a file that must hold a copy is
either derived from the sources and compared with what ``tools.edition`` derives now (the
committed copy is stale otherwise: ``python -m tools.edition`` rewrites it), or compared with
its source here:

- CITATION.cff and the landing page's "Cite this book" cell are derived; CITATION.cff validates
  under ``cffconvert --validate`` (in a venv of its own, ``_build/cffconvert``: cffconvert 2.0
  needs jsonschema < 4) and names the package's version;
- CHANGELOG.md opens with this edition, dated;
- ``code/LICENSE`` equals ``LICENSE`` (``license-files`` cannot reach outside ``code/``), and
  the licence files and the package's ``license`` agree with ``_config.yml`` and
  ``tools.edition.LICENCES``;
- the Errata page follows References in the table of contents, and it and the accessibility
  statement take the edition and the way to report from ``tools.edition``;
- TEACHING.md's nbgitpuller and Binder links use the repository address of ``_config.yml``.

The built pages, decks, handouts, PDF, wheel and archive are checked where their other checks
are: ``tests/browser/test_site.py``, ``test_slides.py``, ``test_download.py``,
``tests/book/test_pdf.py`` and ``tests/package/test_distribution.py``.
"""
import re
import subprocess
import tomllib

import nbformat
import pytest
import yaml

from tools import edition, toc
from tools.scripts.locked_venv import locked_venv
from tools.toc import ROOT

CFF_LOCK = ROOT / "tools" / "requirements" / "cff.txt"
CFF_VENV = ROOT / "_build" / "cffconvert"


def pyproject():
    return tomllib.loads(edition.PYPROJECT.read_text(encoding="utf-8"))["project"]


@pytest.fixture(scope="module")
def cffconvert():
    venv = locked_venv(CFF_VENV, CFF_LOCK, ".bayescomp-cff.lock")
    return venv / "bin" / "cffconvert"


def validate(cffconvert, path):
    return subprocess.run([str(cffconvert), "--validate", "-i", str(path)], capture_output=True,
                          text=True, timeout=120)


def test_citation_cff_is_current():
    assert edition.CITATION.read_text(encoding="utf-8") == edition.citation_cff(), (
        "CITATION.cff is stale: run `python -m tools.edition`")


def test_citation_cff_validates(cffconvert, tmp_path):
    run = validate(cffconvert, edition.CITATION)
    assert run.returncode == 0, f"cffconvert --validate: {run.stdout}{run.stderr}"
    # Negative control: the same file without its authors does not validate.
    broken = tmp_path / "CITATION.cff"
    broken.write_text(re.sub(r"authors:\n(  - .*\n)+", "", edition.citation_cff()))
    assert validate(cffconvert, broken).returncode != 0


def test_citation_names_the_package_version_and_the_repository():
    cff = yaml.safe_load(edition.CITATION.read_text(encoding="utf-8"))
    assert cff["version"] == pyproject()["version"]
    config = yaml.safe_load(edition.CONFIG.read_text(encoding="utf-8"))
    assert (cff["title"], [a["name"] for a in cff["authors"]]) == (config["title"], [config["author"]])
    assert cff.get("repository-code", "") == config["repository"]["url"]


def test_cite_cell_is_current_and_on_the_website():
    landing = nbformat.read(toc.notebook("index"), as_version=4)
    [cell] = [cell for cell in landing.cells if cell.get("id") == edition.CITE_CELL]
    assert cell.source == edition.cite_cell_source(), (
        "the landing page's citation cell is stale: run `python -m tools.edition`")
    assert edition.bibtex() in cell.source and f"edition = {{{pyproject()['version']}}}" in cell.source
    assert "remove-cell" not in cell.metadata.get("tags", [])


def test_changelog_opens_with_this_edition():
    headings = re.findall(r"^## \[([^\]]+)\] - (\S+)$", edition.CHANGELOG.read_text(encoding="utf-8"),
                          re.M)
    assert headings and headings[0][0] == pyproject()["version"], headings[:2]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", headings[0][1])
    assert edition.released() == headings[0][1]


def test_licence_files_and_the_package_licence_agree():
    config = yaml.safe_load(edition.CONFIG.read_text(encoding="utf-8"))
    code, text = edition.LICENCES["code"], edition.LICENCES["text"]
    licence = (ROOT / code["file"]).read_text(encoding="utf-8")
    assert (ROOT / "code" / "LICENSE").read_bytes() == (ROOT / code["file"]).read_bytes(), (
        "code/LICENSE must be a copy of LICENSE")
    assert licence.startswith("MIT License\n")
    assert f"Copyright (c) {config['copyright']} {config['author']}\n" in licence
    notice = (ROOT / text["file"]).read_text(encoding="utf-8")
    assert (f'"{config["title"]}" © {config["copyright"]} by {config["author"]} is licensed under'
            in notice and text["url"] in notice)
    assert "Attribution 4.0 International Public License" in notice   # the legal code
    assert (pyproject()["license"], pyproject()["license-files"]) == (code["spdx"], [code["file"]])


def test_errata_and_accessibility_pages():
    pages = list(toc.PAGES)
    at = pages.index("chapters/references")
    assert pages[at + 1] == "chapters/errata", pages
    assert "chapters/accessibility" in pages
    for name in ("errata", "accessibility"):
        source = (ROOT / "chapters" / f"{name}.md").read_text(encoding="utf-8")
        assert "{{ edition }}" in source and "{{ open_an_issue }}" in source, name
        assert pyproject()["version"] not in source, f"{name}.md types the version"
    if not edition.config()["repository"]:
        assert edition.open_an_issue() == "open an issue in the book's repository"
    else:
        assert edition.open_an_issue().startswith("[open an issue in the book's repository](")


def test_teaching_links_use_the_repository_address():
    teaching = (ROOT / "TEACHING.md").read_text(encoding="utf-8")
    missing = [link for link in edition.teaching_links() if link not in teaching]
    assert missing == [], ("TEACHING.md's links do not use _config.yml's repository address; "
                           f"they should read: {missing}")
