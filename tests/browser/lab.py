"""Driving a chapter in JupyterLab from Playwright, for every check that runs one there: the
reader's archive (``test_download.py``), the course's hub (``tests/hub``) and the hub's capacity
measurement (``tools/benchmarks/hub_capacity.py``).

JupyterLab must run with :data:`EXPOSE_APP` (``window.jupyterapp``).
"""
import json
import re

import nbformat

from tools import toc
from tools.toc import CHAPTERS, ROOT

from tools.slides.metadata import is_widget_cell

# JupyterLab fetches nothing from outside (no news, no update check), and shows the app on
# window (window.jupyterapp) for the checks to drive: every JupyterLab the tests start has these.
LAB_OFFLINE_FLAGS = ["--LabApp.news_url=None",
                     "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
EXPOSE_APP = "--LabApp.expose_app_in_browser=True"

# The one thing a fresh install may print on stderr: matplotlib, once, on its first import.
FONT_CACHE = re.compile(r"Matplotlib is building the font cache; this may take a moment\.\s*")

# A boolean: returning the notebook widget itself makes Playwright serialize its whole object
# graph. On the hub, with the chapter open, current and focused (the page said so), this check
# kept coming back falsy (an error or an empty value from that serialization, presumably), and
# the students waited for a chapter that was open.
NOTEBOOK_OPEN = ("() => !!(window.jupyterapp && jupyterapp.shell.currentWidget"
                 " && jupyterapp.shell.currentWidget.content)")

# Run All Cells in the open notebook, after its kernel is ready, its stored outputs and execution
# counts cleared first (so a cell that did not run has no count); resolves to every code cell
# with its execution count and outputs, whether Run All completed (``ok``), the seconds it took
# and the seconds until the first figure (an SVG or PNG output) reached the page.
RUN_ALL = """async () => {
  const app = window.jupyterapp;
  await app.restored;
  const panel = app.shell.currentWidget;
  await panel.context.ready;
  await panel.revealed;
  await panel.sessionContext.ready;
  await app.commands.execute('notebook:clear-all-cell-outputs');
  if (window.bcRun) window.bcRun.cleared = true;
  const list = panel.content.model.cells;
  const t0 = performance.now();
  let firstFigure = null;
  const onOutput = (_, change) => {
    if (firstFigure === null && change.type === 'add' && change.newValues.some(
        o => o.data && ('image/svg+xml' in o.data || 'image/png' in o.data))) {
      firstFigure = (performance.now() - t0) / 1000;
    }
  };
  for (let i = 0; i < list.length; i += 1) {
    const cell = list.get(i);
    if (cell.type === 'code') cell.outputs.changed.connect(onOutput);
  }
  const ok = await app.commands.execute('notebook:run-all-cells');
  const seconds = (performance.now() - t0) / 1000;
  const cells = [];
  for (let i = 0; i < list.length; i += 1) {
    const cell = list.get(i);
    if (cell.type !== 'code') continue;
    cell.outputs.changed.disconnect(onOutput);
    cells.push({ index: i, count: cell.executionCount, source: cell.sharedModel.getSource(),
                 outputs: cell.outputs.toJSON() });
  }
  return { ok, cells, seconds, firstFigure };
}"""

# RUN_ALL without waiting for it: the result lands in window.bcRun (for many pages at once).
START_RUN_ALL = f"""() => {{
  window.bcRun = {{}};
  ({RUN_ALL})().then(r => {{ window.bcRun.result = r; }},
                     e => {{ window.bcRun.error = String(e && e.stack || e); }});
}}"""
RUN_STATE = "() => window.bcRun || null"
# How many code cells have run since START_RUN_ALL cleared the counts (0 until it has).
CELLS_RUN = """() => { if (!(window.bcRun && window.bcRun.cleared)) return 0;
  const list = jupyterapp.shell.currentWidget.content.model.cells; let n = 0;
  for (let i = 0; i < list.length; i += 1) {
    const cell = list.get(i);
    if (cell.type === 'code' && cell.executionCount !== null) n += 1;
  }
  return n; }"""


def failures(result):
    """(cell index, error name or stderr) for every error output and unexpected stderr."""
    return [(c["index"], o.get("ename") or o.get("text", "")[:300]) for c in result["cells"]
            for o in c["outputs"]
            if o["output_type"] == "error"
            or (o.get("name") == "stderr" and not FONT_CACHE.fullmatch(o.get("text", "")))]


def not_run(result):
    """Indices of the code cells with source that have no execution count."""
    return [c["index"] for c in result["cells"] if c["source"].strip() and c["count"] is None]


def widget_cells(name):
    """(cell index, widget name) of the Jupyter-only live-figure cells of chapter ``name``."""
    notebook = nbformat.read(toc.notebook(name), as_version=4)
    return [(i, re.search(r"bc\.widgets\.(\w+)\(", cell.source).group(1).replace("_", "-"))
            for i, cell in enumerate(notebook.cells) if cell.cell_type == "code" and is_widget_cell(cell)]


def live_figure_selector(widget):
    """The CSS selector of live figure ``widget``'s element in a JupyterLab output area (its
    ``bcWidget`` property is the figure's test hook: ``readout()``, ``run(steps)``)."""
    return f'.jp-OutputArea [data-widget="{widget}"]'


def live_figure_call(page, widget, call):
    """Evaluate ``call`` (say ``"run(100)"``) on live figure ``widget``'s test hook in ``page``."""
    return page.evaluate(f"document.querySelector('{live_figure_selector(widget)}').bcWidget.{call}")


def live_figure_colours(page, index, widget, timeout=60_000):
    """Scroll to the live figure's cell, wait until its canvas is laid out, and count the
    colours on each of its canvases (a drawn figure has more than a few)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout   # conftest: importorskip
    page.bring_to_front()         # JupyterLab's current widget follows the page's focus
    page.evaluate(f"() => jupyterapp.shell.currentWidget.content.scrollToItem({index})")
    try:
        page.wait_for_function(
            f"""() => {{ const el = document.querySelector('{live_figure_selector(widget)}');
                 return el && el.bcWidget && el.querySelector('canvas').width > 200; }}""",
            timeout=timeout)
    except PlaywrightTimeout as timed_out:
        shown = page.evaluate(f"""() => {{ const cell = jupyterapp.shell.currentWidget.content.widgets[{index}];
            return cell ? cell.node.innerText.slice(-400) : 'no cell'; }}""")
        raise AssertionError(f"the live figure {widget} did not appear; its cell shows: {shown!r}") from timed_out
    return page.evaluate(f"""() => [...document.querySelectorAll(
        '{live_figure_selector(widget)} canvas')].map(c => {{
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          const seen = new Set();
          for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] << 16 | d[i+1] << 8 | d[i+2]);
          return seen.size; }})""")


# --- MyST as JupyterLab renders it (jupyterlab-myst's ``.myst`` blocks) -------------------------

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


def rendered_markdown(page, name):
    """Text of every rendered Markdown cell of chapter ``name``, open in ``page``, once
    jupyterlab-myst has rendered them all and the text has settled."""
    notebook = json.loads(toc.notebook(name).read_text())
    n_markdown = sum(c["cell_type"] == "markdown" for c in notebook["cells"])
    # JupyterLab renders a long notebook's cells progressively ("defer" windowing), when the page
    # is idle; on a loaded two-core machine the longest chapters need more than 30 s for it.
    page.wait_for_function(
        f"() => document.querySelectorAll('.jp-Notebook .jp-MarkdownCell').length >= {n_markdown}",
        timeout=120_000)
    previous = None
    for _ in range(40):
        texts = page.evaluate("""() => [...document.querySelectorAll(
            '.jp-Notebook .jp-MarkdownCell .myst')].map(e => e.textContent)""")
        if texts == previous:
            return texts
        previous = texts
        page.wait_for_timeout(500)
    return previous


def myst_source_shown(texts):
    """What of MyST's source shows in rendered Markdown ``texts``: roles, directives, labels,
    or the bare key of an unresolved reference (a label, a citation key or a glue name), which
    is how an unresolved role shows in JupyterLab."""
    leftovers = [m.group(0) for t in texts for m in [MYST_SOURCE.search(t)] if m]
    keys = reference_keys()
    return leftovers + [k for t in texts for k in keys
                        if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", t)]
