""""Download the book": one zip that runs with Python alone.

It holds, under one folder (``bayescomp-book/``):

- ``chapters/``: the chapter notebooks as stored (with their outputs), and the Markdown pages
  they link to (notation, references), in the order of ``_toc.yml``;
- the ``bayescomp`` wheel (:mod:`tools.download.package`), live figures included;
- ``requirements.txt``: the reader lock (``requirements.txt`` of the checkout), with its one
  editable line ``-e ./code`` replaced by the wheel beside it, so every other pin is the lock's;
- ``README.md``: the few lines a reader types (``tools/download/README.md``), headed by the
  edition and its licences in one line (:func:`tools.edition.notice_markdown`);
- ``LICENSE`` (MIT, the code) and ``LICENSE-text`` (CC BY 4.0, the text, figures and slides).

The archive's name stays ``bayescomp-book.zip`` from edition to edition (the website's links and
a course's instructions keep working); its README and its wheel's name carry the version.

The zip's entries are sorted and dated 2026-01-01, so the same book gives the same bytes.
``make book`` writes it to ``_build/download/``, and the website serves it from its top folder
(``html_extra_path``), linked from the landing page and every chapter (``tools/website/downloads.py``).

Usage: python -m tools.download.archive [OUT_DIR]   (default _build/download)
"""
import sys
import tempfile
import zipfile
from pathlib import Path

from .. import edition, toc
from ..freshness import Stamps, files_hash
from ..toc import ROOT
from . import package

ARCHIVE_NAME = "bayescomp-book.zip"
FOLDER = "bayescomp-book"
README = Path(__file__).with_name("README.md")
READER_LOCK = ROOT / "requirements.txt"
# The key of what the archive was built from: with the package, the pages, the lock and these
# scripts unchanged, a second `make book` keeps the archive (its bytes would be the same).
STAMPS = Stamps(ROOT / "_build" / "archive-built-from.json")
EDITABLE = "-e ./code"
# Pages of the website that mean nothing in Jupyter: the execution-statistics table, the API
# reference (autodoc directives, which only Sphinx renders; in Jupyter, help() shows the same
# docstrings), and the errata and the accessibility statement, which the website keeps current
# for every edition (the README says where they are).
WEBSITE_ONLY = ("chapters/execution", "chapters/api", "chapters/errata", "chapters/accessibility")
DATE = (2026, 1, 1, 0, 0, 0)
# The licence files, at the archive's top beside the README.
LICENCE_FILES = [ROOT / licence["file"] for licence in edition.LICENCES.values()]


def readme():
    """The archive's README: tools/download/README.md with the edition line and the licences."""
    text = README.read_text(encoding="utf-8")
    licences = " ".join(f"`{licence['file']}` ({licence['name']}) covers {licence['covers']}."
                        for licence in edition.LICENCES.values())
    for field, value in (("{edition}", edition.notice_markdown()), ("{licences}", licences)):
        if text.count(field) != 1:
            raise ValueError(f"{README} must hold {field} exactly once")
        text = text.replace(field, value)
    return text


def reader_requirements(wheel_name, lock=READER_LOCK):
    """The reader lock with the editable package replaced by the archive's wheel."""
    lines = Path(lock).read_text(encoding="utf-8").splitlines()
    if lines.count(EDITABLE) != 1:
        raise ValueError(f"{lock} must hold the line {EDITABLE!r} exactly once; "
                         f"found it {lines.count(EDITABLE)} times")
    header = [f"# The book's reader lock ({Path(lock).name} of its repository); bayescomp comes",
              "# from the wheel beside this file. Install from this folder: "
              "pip install -r requirements.txt"]
    body = [f"./{wheel_name}" if line == EDITABLE else line for line in lines]
    return "\n".join(header + body) + "\n"


def book_files():
    """(path in the archive, file) for every page a reader opens in Jupyter, in reading order."""
    files = []
    for page in toc.PAGES:
        if page in WEBSITE_ONLY:
            continue
        for suffix in (".ipynb", ".md"):
            source = ROOT / f"{page}{suffix}"
            if source.exists():
                files.append((f"{page}{suffix}", source))
    files.append(("chapters/references.bib", ROOT / "chapters" / "references.bib"))
    return files


def _add(archive, name, data):
    info = zipfile.ZipInfo(f"{FOLDER}/{name}", date_time=DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def inputs_key():
    """A key for every file the archive is made from (the package's sources and data, the
    pages, the README, the reader lock, the build scripts)."""
    code = ROOT / "code"
    sources = sorted(p for p in (code / "bayescomp").rglob("*") if p.is_file()
                     and "__pycache__" not in p.parts)
    scripts = [Path(__file__), Path(package.__file__), Path(edition.__file__)]
    return files_hash([*sources, code / "pyproject.toml", code / "LICENSE", README, READER_LOCK,
                       *scripts, *LICENCE_FILES, ROOT / "_config.yml",
                       *(source for _, source in book_files())])


def build(out=ROOT / "_build" / "download"):
    """Write the archive into ``out``; return its path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / ARCHIVE_NAME
    key = inputs_key()
    if STAMPS.current(path, key):
        print(f"{path.name}: its sources are unchanged, not built again")
        return path
    with tempfile.TemporaryDirectory() as tmp:
        _, wheel = package.build(tmp)
        entries = [("README.md", readme().encode()),
                   *((path.name, path.read_bytes()) for path in LICENCE_FILES),
                   ("requirements.txt", reader_requirements(wheel.name).encode()),
                   (wheel.name, wheel.read_bytes())]
        entries += [(name, source.read_bytes()) for name, source in book_files()]
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in sorted(entries):
            _add(archive, name, data)
    STAMPS.record(path, key)
    return path


if __name__ == "__main__":
    print(build(*sys.argv[1:2]))
