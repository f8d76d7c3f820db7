"""No figure stored in a chapter is heavier than a phone can afford.

Each SVG or PNG figure in the chapters' stored outputs (what the website, JupyterLab and the
reader's archive all show) is at most :data:`FIGURE_BUDGET` bytes, unless
:data:`HEAVY_FIGURES` names it (by its ``mystnb.figure.name``) with the reason. A named figure
must still exist and still be over the budget, so the list cannot go stale. The website's own
check of each page's bytes is ``tests/browser/test_pageweight.py``; what each figure is made of
is measured by ``python -m tools.benchmarks.figure_sizes``.
"""
from tools.benchmarks.figure_sizes import stored_figures

FIGURE_BUDGET = 200_000
# None: drawn by the package as it is now (plotting.lean_svg, the funnel's thinned rows, the stems
# as one path), the largest figure is chapter 5's overlay, about 190 kB.
HEAVY_FIGURES = {}


def test_every_stored_figure_is_within_the_budget():
    over = [f"{chapter}: {name} ({parts['bytes'] // 1000} kB)"
            for chapter, name, _, parts in stored_figures()
            if parts["bytes"] > FIGURE_BUDGET and name not in HEAVY_FIGURES]
    assert over == [], f"figures over {FIGURE_BUDGET // 1000} kB: {over}"


def test_every_named_heavy_figure_is_still_heavy():
    sizes = {}
    for _, name, _, parts in stored_figures():
        sizes[name] = max(sizes.get(name, 0), parts["bytes"])
    stale = [name for name in HEAVY_FIGURES if sizes.get(name, 0) <= FIGURE_BUDGET]
    assert stale == [], f"named as heavy but missing or within the budget now: {stale}"
