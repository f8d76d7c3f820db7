"""Benchmark (not a test): how many bytes the book's SVG figures take, and what shrinks them.

Two parts, written to ``_build/reports/figure_sizes.md``:

1. every figure stored in the chapters' outputs, by its name (``mystnb.figure.name``), largest
   first, with the share of it that is path data, embedded raster images and glyph definitions;
2. figures drawn here, with the book's style (``plotting.setup_figures``), each two ways:
   - chapter 7's exact funnel (``plot_funnel``) from every node of the reference's log-tau grid
     in the plotted range against the thinned rows it draws now (``n_rows``);
   - chapter 2's weight stems as ``ax.stem`` draws them (one SVG element per stem and per
     marker) against ``plot_weighted_draws`` (every stem in one path);
   - coordinates with matplotlib's six decimals against two (``plotting.lean_svg``, what the
     chapters store);
   - a dense scatter (chapter 5's 1,000 Metropolis draws) as vector markers and rasterized;
   - the funnel figure with matplotlib's ``svg.fonttype`` "path" (glyphs embedded once per
     figure, the default) and "none" (text left to the reader's fonts), and with
     ``path.simplify`` off and on (the default).

Sizes are bytes, the same on every machine for the same library versions.
Usage: python -m tools.benchmarks.figure_sizes [OUT.md]
"""
import io
import re
import sys
from pathlib import Path

import nbformat
import numpy as np

from ..toc import CHAPTERS, ROOT, notebook

OUT = ROOT / "_build" / "reports" / "figure_sizes.md"


def svg_parts(svg):
    """Bytes of an SVG, and of its path data, embedded images and glyph definitions."""
    paths = sum(len(d) for d in re.findall(r'<path (?![^>]*\bid=)[^>]*?\bd="([^"]*)"', svg))
    images = sum(len(i) for i in re.findall(r"<image [^>]*>", svg))
    glyphs = sum(len(g) for g in re.findall(r'<path id="[^"]*"[^>]*/>', svg))
    return {"bytes": len(svg.encode()), "paths": paths, "images": images, "glyphs": glyphs}


def stored_figures():
    """Every SVG or PNG figure in the chapters' stored outputs: (chapter, name, bytes, parts)."""
    rows = []
    for chapter in CHAPTERS:
        nb = nbformat.read(notebook(chapter), as_version=4)
        for index, cell in enumerate(nb.cells):
            name = cell.metadata.get("mystnb", {}).get("figure", {}).get("name", f"cell {index}")
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if "image/svg+xml" in data:
                    rows.append((chapter, name, "svg", svg_parts(data["image/svg+xml"])))
                elif "image/png" in data:
                    rows.append((chapter, name, "png", {"bytes": len(data["image/png"]) * 3 // 4}))
    return sorted(rows, key=lambda row: -row[3]["bytes"])


def svg_of(fig, **rc):
    import matplotlib
    with matplotlib.rc_context(rc):
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def funnel_figure(reference, n_rows):
    import matplotlib.pyplot as plt

    from bayescomp.book import plotting
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.8), sharey=True,
                             gridspec_kw={"width_ratios": [3, 3, 1.4]})
    plotting.plot_funnel(axes[0], reference, n_rows=n_rows)
    plotting.plot_funnel(axes[1], reference, theta_range=(-20.0, 25.0), relative_to_mu=True,
                         n_rows=n_rows)
    plotting.plot_log_tau_marginal(axes[2], reference, orientation="vertical")
    fig.tight_layout()
    return fig


def stems_figure(as_stems):
    """Two panels of 400 weighted draws each, as chapter 2's coverage figure has."""
    import matplotlib.pyplot as plt

    from bayescomp.book import plotting
    rng = np.random.default_rng(0)
    fig, axes = plt.subplots(1, 2, figsize=(9, 2.0), sharex=True)
    for ax, centre in zip(axes, (-2.0, 0.0)):
        draws = rng.normal(centre, 1.0, 400)
        weights = rng.random(400)
        weights /= weights.sum()
        if as_stems:   # what plot_weighted_draws drew before
            markerline, stemlines, _ = ax.stem(draws, weights, basefmt=" ")
            markerline.set(color=plotting.METHOD_COLORS["importance"], markersize=2)
            stemlines.set(color=plotting.METHOD_COLORS["importance"], linewidth=0.5)
        else:
            plotting.plot_weighted_draws(ax, draws, weights)
    fig.tight_layout()
    return fig


def scatter_figure(rasterized):
    import matplotlib.pyplot as plt

    from bayescomp.book import plotting
    rng = np.random.default_rng(0)
    draws = rng.multivariate_normal([-0.33, 1.48], [[0.11, -0.02], [-0.02, 0.08]], 1000)
    fig, ax = plt.subplots(figsize=(6, 4.6))
    ax.plot(draws[:, 0], draws[:, 1], ".", markersize=2, alpha=0.5,
            color=plotting.METHOD_COLORS["mcmc"], rasterized=rasterized)
    return fig


def drawn_figures():
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    import bayescomp as bc
    from bayescomp.book import plotting
    plotting.setup_figures()
    reference = bc.hierarchical_reference(bc.hierarchical_data())
    funnel = funnel_figure(reference, n_rows=301)
    lean = plotting.lean_svg
    rows = [
        ("chapter 7's funnel, every log-tau node", svg_of(funnel_figure(reference, 10**9))),
        ("chapter 7's funnel, 301 rows", svg_of(funnel)),
        ("chapter 7's funnel, 301 rows, 2 decimals (now)", lean(svg_of(funnel))),
        ("400 + 400 weight stems, ax.stem", svg_of(stems_figure(True))),
        ("400 + 400 weight stems, plot_weighted_draws", svg_of(stems_figure(False))),
        ("400 + 400 weight stems, plot_weighted_draws, 2 decimals (now)",
         lean(svg_of(stems_figure(False)))),
        ("1,000 draws as vector markers", svg_of(scatter_figure(False))),
        ("1,000 draws as vector markers, 2 decimals (now)", lean(svg_of(scatter_figure(False)))),
        ("1,000 draws rasterized", svg_of(scatter_figure(True))),
        ("funnel, 301 rows, svg.fonttype none", svg_of(funnel, **{"svg.fonttype": "none"})),
        ("funnel, 301 rows, path.simplify off", svg_of(funnel, **{"path.simplify": False})),
    ]
    plt.close("all")
    return [(label, svg_parts(svg)) for label, svg in rows]


def kb(n):
    return f"{n / 1000:.0f}"


def report():
    lines = ["# Figure sizes", "", "## Stored in the chapters (largest first)", "",
             "| chapter | figure | format | kB | path data kB | images kB | glyphs kB |",
             "|---|---|---|---|---|---|---|"]
    for chapter, name, kind, parts in stored_figures()[:15]:
        lines.append(f"| {chapter} | {name} | {kind} | {kb(parts['bytes'])} | "
                     f"{kb(parts.get('paths', 0))} | {kb(parts.get('images', 0))} | "
                     f"{kb(parts.get('glyphs', 0))} |")
    lines += ["", "## Drawn here with the book's style", "",
              "| figure | kB | path data kB | images kB | glyphs kB |", "|---|---|---|---|---|"]
    for label, parts in drawn_figures():
        lines.append(f"| {label} | {kb(parts['bytes'])} | {kb(parts['paths'])} | "
                     f"{kb(parts['images'])} | {kb(parts['glyphs'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    text = report()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)
    print(f"Wrote {out}")
