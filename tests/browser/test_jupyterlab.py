"""The reader's path: every chapter opened in JupyterLab, as the README says, in headless chromium.

A JupyterLab server runs on the chapters (the extensions come from the locked reader set:
``jupyterlab-myst`` renders MyST, ``jupyterlab-rise`` presents slides). For each chapter the
rendered Markdown (jupyterlab-myst's ``.myst`` blocks) must show no MyST source: no role or
directive text, no label lines, and no bare key of an unresolved reference (a label, a citation
key or a glue name), which is how an unresolved role shows in JupyterLab.
"""
import json
import re

import pytest

from tools import toc
from tools.toc import CHAPTERS, ROOT

# What a reader would see if MyST were not rendered: roles, directive fences, labels, targets.
MYST_SOURCE = re.compile(r"\{(cite|numref|eq|glue:text|glue|ref|doc)\}`|:::\{|```\{|^:label:"
                         r"|^\([\w-]+\)=|\{solution-(start|end)\}", re.MULTILINE)
BIB_KEY = re.compile(r"^@\w+\{([^,]+),", re.MULTILINE)


def reference_keys():
    """Every label, citation key and glue name defined anywhere in the book."""
    keys = set(BIB_KEY.findall((ROOT / "chapters" / "references.bib").read_text()))
    for path in map(toc.notebook, CHAPTERS):
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r":label: ([\w-]+)", source))
        keys |= set(re.findall(r"\(([\w-]+)\)=", source))
        keys |= set(re.findall(r'"name": "([\w-]+)"', source))
        keys |= set(re.findall(r"\$\$ \(([\w-]+)\)", source))
        keys |= set(re.findall(r"glue\(\s*[\"']([\w-]+)", source))
    keys.discard("python3")  # the kernel name, not a reference
    return {k for k in keys if "-" in k or "_" in k or re.search(r"\d", k)}


def open_notebook(offline_page, lab_url, name):
    view = offline_page(lab_url)
    page = view.page
    page.goto(f"{lab_url}/lab/tree/chapters/{name}.ipynb?reset", wait_until="load")
    page.wait_for_selector(".jp-Notebook .jp-MarkdownCell .myst", timeout=60_000)
    return view, page


def rendered_markdown(page):
    """Text of every rendered Markdown cell, after the MyST renderer has settled."""
    previous = None
    for _ in range(40):
        texts = page.evaluate("""() => [...document.querySelectorAll(
            '.jp-Notebook .jp-MarkdownCell .myst')].map(e => e.textContent)""")
        if texts == previous:
            return texts
        previous = texts
        page.wait_for_timeout(500)
    return previous


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_renders_without_myst_source(name, lab_url, offline_page):
    view, page = open_notebook(offline_page, lab_url, name)
    notebook = json.loads(toc.notebook(name).read_text())
    n_markdown = sum(c["cell_type"] == "markdown" for c in notebook["cells"])
    # JupyterLab renders a long notebook's cells progressively ("defer" windowing), when the page
    # is idle; on a loaded two-core machine the longest chapters need more than 30 s for it.
    page.wait_for_function(
        f"() => document.querySelectorAll('.jp-Notebook .jp-MarkdownCell').length >= {n_markdown}",
        timeout=120_000)
    texts = rendered_markdown(page)
    leftovers = [m.group(0) for t in texts for m in [MYST_SOURCE.search(t)] if m]
    keys = reference_keys()
    leftovers += [k for t in texts for k in keys if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", t)]
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"jupyterlab-{name}.png"))
    assert leftovers == [], f"raw MyST in {name} as JupyterLab shows it: {leftovers[:5]}"
    assert view.external == [], f"JupyterLab reached outside: {view.external[:3]}"
