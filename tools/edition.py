"""The edition: its version, licences and citation, each read from its one source.

Where each fact is written, once:

- the version: ``code/pyproject.toml`` (``[project] version``);
- the title, the authors, the copyright year and the address of the book's public repository:
  ``_config.yml`` (``title``, ``author``, ``copyright``, ``repository.url``; the address is
  empty until the repository is published);
- the date of a release: its heading in ``CHANGELOG.md`` (``## [1.0.0] - 2026-12-01``);
- which licence covers what: :data:`LICENCES` below; their texts are ``LICENSE`` (MIT) and
  ``LICENSE-text`` (CC BY 4.0) at the top of the checkout.

Everything else is derived here: the one-line licence and edition notice (HTML for the
website's footer, the decks' title slides and the PDF's title page; Markdown for the archive's
README), ``CITATION.cff`` and the BibTeX entry of the landing page's "Cite this book" cell.
Those two are committed copies: ``python -m tools.edition`` writes them, and
``tests/book/test_edition.py`` fails while either differs from what this module derives.
The copies that cannot be derived (``code/LICENSE``, the package's ``license`` field, the
nbgitpuller and Binder links of TEACHING.md) are tested against their sources there too.

Usage: python -m tools.edition   (rewrites CITATION.cff and the landing page's citation cell)
"""
import html
import json
import re
import tomllib
from functools import lru_cache

import yaml

from .toc import ROOT, notebook

PYPROJECT = ROOT / "code" / "pyproject.toml"
CONFIG = ROOT / "_config.yml"
CHANGELOG = ROOT / "CHANGELOG.md"
CITATION = ROOT / "CITATION.cff"
# The landing page's "Cite this book" cell, found by its id.
CITE_CELL = "cindex-cite"

LICENCES = {
    "text": {"name": "CC BY 4.0", "spdx": "CC-BY-4.0", "file": "LICENSE-text",
             "url": "https://creativecommons.org/licenses/by/4.0/",
             "covers": "the prose, figures, lecture decks, handouts and PDF"},
    "code": {"name": "MIT", "spdx": "MIT", "file": "LICENSE",
             "url": "https://opensource.org/license/mit",
             "covers": "the bayescomp package, the live figures' JavaScript, the tooling and "
                       "the chapters' code cells"},
}


@lru_cache
def version():
    """The edition's version, from ``code/pyproject.toml``."""
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]


@lru_cache
def config():
    """``_config.yml``'s title, author, copyright year, repository address and branch."""
    settings = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    return {"title": settings["title"], "author": settings["author"],
            "copyright": str(settings["copyright"]),
            "repository": (settings.get("repository") or {}).get("url") or "",
            "branch": (settings.get("repository") or {}).get("branch") or "main"}


def released(of=None):
    """The release date (``YYYY-MM-DD``) of version ``of`` (this one by default): its heading
    in CHANGELOG.md."""
    of = of or version()
    found = re.search(rf"^## \[{re.escape(of)}\] - (\d{{4}}-\d{{2}}-\d{{2}})\s*$",
                      CHANGELOG.read_text(encoding="utf-8"), re.M)
    if not found:
        raise ValueError(f"{CHANGELOG.name} has no heading '## [{of}] - YYYY-MM-DD' for the "
                         f"version in {PYPROJECT.relative_to(ROOT)}")
    return found[1]


def notice(link):
    """The licence and edition in one line; ``link(text, url)`` writes a link (HTML or
    Markdown)."""
    text, code = LICENCES["text"], LICENCES["code"]
    return (f"Edition {version()}. Text, figures and slides: "
            f"{link(text['name'], text['url'])}; code: {link(code['name'], code['url'])}.")


def notice_html():
    return notice(lambda text, url: f'<a href="{html.escape(url)}" rel="license">'
                                    f'{html.escape(text)}</a>')


def notice_markdown():
    return notice(lambda text, url: f"[{text}]({url})")


def open_an_issue():
    """How to report an error or a barrier (Markdown): a link to the repository's issues once its address
    is set, the words alone until then."""
    words = "open an issue in the book's repository"
    address = config()["repository"]
    return f"[{words}]({address.rstrip('/')}/issues)" if address else words


def teaching_links(chapter="03_mcmc"):
    """TEACHING.md's two example links to ``chapter``, an nbgitpuller link and a Binder link,
    for the repository address of ``_config.yml``; while it is empty, the placeholders a
    teacher fills in."""
    from urllib.parse import quote, urlparse
    from .hub.local import chapter_path, pull_link
    address, branch = config()["repository"], config()["branch"]
    notebook_path = quote(f"lab/tree/chapters/{chapter}.ipynb", safe="")
    if not address:
        return (f"https://<your hub>/hub/user-redirect/git-pull?repo=<the book's repository URL, "
                f"URL-encoded>&branch={branch}&urlpath=lab%2Ftree%2F<the repository's name>"
                f"%2Fchapters%2F{chapter}.ipynb",
                f"https://mybinder.org/v2/gh/<owner>/<the repository's name>/{branch}"
                f"?urlpath={notebook_path}")
    parts = urlparse(address)
    name = parts.path.rstrip("/").split("/")[-1].removesuffix(".git")
    pull = "https://<your hub>" + pull_link(address, chapter_path(chapter, name), branch)
    if parts.netloc == "github.com":
        binder = f"https://mybinder.org/v2/gh{parts.path.removesuffix('.git').rstrip('/')}/{branch}"
    else:
        binder = f"https://mybinder.org/v2/git/{quote(address, safe='')}/{branch}"
    return pull, f"{binder}?urlpath={notebook_path}"


def citation_cff():
    """CITATION.cff (Citation File Format 1.2.0), from the sources above."""
    data = config()
    lines = ["# Written by `python -m tools.edition` from code/pyproject.toml (version),",
             "# _config.yml (title, authors, repository) and CHANGELOG.md (date). Do not edit.",
             "cff-version: 1.2.0",
             'message: "If you use this book, please cite it as below."',
             f"title: {json.dumps(data['title'])}",
             "authors:",
             f"  - name: {json.dumps(data['author'])}",
             f"version: {json.dumps(version())}",
             f"date-released: {json.dumps(released())}",
             "license:",
             *(f"  - {licence['spdx']}" for licence in LICENCES.values())]
    if data["repository"]:
        lines.append(f"repository-code: {json.dumps(data['repository'])}")
    return "\n".join(lines) + "\n"


def bibtex():
    """A BibTeX entry for this edition, from the same fields as CITATION.cff."""
    data = config()
    fields = [("title", data["title"]), ("author", "{" + data["author"] + "}"),
              ("year", released()[:4]), ("edition", version()),
              ("note", "Text, figures and slides: " + LICENCES["text"]["name"]
               + "; code: " + LICENCES["code"]["name"])]
    if data["repository"]:
        fields.append(("url", data["repository"]))
    key = f"bayescomp-{version()}"
    body = ",\n".join(f"  {name:<7} = {{{value}}}" for name, value in fields)
    return f"@book{{{key},\n{body}\n}}"


def cite_cell_source():
    """The landing page's "Cite this book" cell."""
    licences = ", and ".join(f"{licence['covers']} are under [{licence['name']}]({licence['url']})"
                             for licence in LICENCES.values())
    return (f"## Cite this book\n\nThis is edition {version()}, released on {released()}. To "
            f"cite it, use the entry below (the book's repository holds the same fields in "
            f"`CITATION.cff`).\n\n```bibtex\n{bibtex()}\n```\n\n{licences[0].upper()}"
            f"{licences[1:]}: you may reuse and adapt them, with credit to the book.")


def write():
    """Write CITATION.cff and the landing page's citation cell from the sources."""
    import nbformat
    CITATION.write_text(citation_cff(), encoding="utf-8")
    path = notebook("index")
    landing = nbformat.read(path, as_version=4)
    cells = [cell for cell in landing.cells if cell.get("id") == CITE_CELL]
    if len(cells) != 1:
        raise ValueError(f"{path.name} must hold one cell with the id {CITE_CELL!r}, the "
                         f"citation cell; found {len(cells)}")
    if cells[0].source != cite_cell_source():
        cells[0].source = cite_cell_source()
        nbformat.write(landing, path)


if __name__ == "__main__":
    write()
    print(f"{CITATION.relative_to(ROOT)} and the citation cell of chapters/index.ipynb: "
          f"edition {version()}")
