"""Plot helpers. Each takes a matplotlib ``Axes``, draws on it, and returns it.

Nothing here touches global matplotlib state at import time. Chapters call :func:`setup_figures`
once, which sets inline SVG output, deterministic SVG ids, a white background and the
Okabe-Ito colour-blind-safe palette; and, when the lecture decks re-run a chapter, the decks'
own figure style (:data:`DECK_ENV`). Font sizes in the helpers and the chapters' figure cells
are relative (``"small"``, never a number of points), so both styles scale them.
"""
import io
import os
import re
import warnings

import numpy as np
from matplotlib.patches import Ellipse
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import FuncFormatter, MaxNLocator

# The colours live in bayescomp.book.colors (no matplotlib there, for the widgets' data); chapters
# reach them as plotting.PALETTE and plotting.METHOD_COLORS.
from .._checks import positive_int
from ..hierarchical_reference import log_tau_theta_density
from .colors import CHAIN_COLORS, CYCLE, METHOD_COLORS, PALETTE

#: With ``BAYESCOMP_FIGURES=deck`` in the environment (the deck builder sets it when it re-runs
#: a chapter for its slides), :func:`setup_figures` draws figures for a projector.
DECK_ENV = "BAYESCOMP_FIGURES"
#: The largest figure (width, height in inches) a slide shows at its natural size: 864 x 442 px
#: of the 1120 x 700 canvas (96 px per 72 pt), below a title and a few lines. Deck figures are
#: resized into it when shown.
DECK_BOX = (9.0, 4.6)
#: The least height of a deck figure (inches): a wide, short figure grows to it.
DECK_MIN_HEIGHT = 3.8
#: The decks' style: 19 pt text, so that "small" (legends, notes in plots: 15.8 pt) is 21 px
#: and tick labels 25 px at the natural size; heavier lines and markers to match.
DECK_STYLE = {
    "font.size": 19.0,
    "axes.titlesize": "medium",
    "axes.linewidth": 1.2,
    "lines.linewidth": 2.2,
    "lines.markersize": 8.0,
    "xtick.major.width": 1.2,
    "ytick.major.width": 1.2,
    "xtick.major.size": 5.0,
    "ytick.major.size": 5.0,
    "legend.handlelength": 1.6,
    "legend.borderaxespad": 0.3,
}


#: Decimals kept in an SVG figure's coordinates, in points (1/72 inch): matplotlib writes six, and
#: a hundredth of a point is far finer than any screen or printer shows (``lean_svg``).
SVG_DECIMALS = 2
_LONG_NUMBER = re.compile(r"-?\d+\.\d{3,}")
# Attributes that hold only coordinates or lengths (never a transform's scale factors).
_COORDINATES = re.compile(r'(\s(?:d|x|y|width|height)=")([^"]*)(")')


def lean_svg(svg, decimals=SVG_DECIMALS):
    """An SVG as matplotlib wrote it, with its coordinates rounded to ``decimals``.

    Only path data and the ``x``, ``y``, ``width`` and ``height`` attributes change, and only
    numbers with more decimals than that; a figure's paths are most of its bytes, and six
    decimals of a point each make about a third of them.
    """
    def rounded(number):
        text = f"{float(number.group(0)):.{decimals}f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text

    return _COORDINATES.sub(
        lambda m: m.group(1) + _LONG_NUMBER.sub(rounded, m.group(2)) + m.group(3), svg)


def book_svg(fig):
    """A figure as the chapters show it: IPython's inline SVG, with no date, made lean
    (``lean_svg``)."""
    from IPython.core.pylabtools import print_figure
    svg = print_figure(fig, "svg", metadata={"Date": None})
    return None if svg is None else lean_svg(svg)


def deck_figures():
    """Whether figures are being drawn for the lecture decks (see :data:`DECK_ENV`)."""
    return os.environ.get(DECK_ENV, "") == "deck"


def setup_figures():
    """Configure matplotlib for the book: call once at the top of a chapter.

    Sets inline figures to SVG with no date stamp and a fixed hash salt (so re-running a
    chapter gives the same bytes) and coordinates to a hundredth of a point (``lean_svg``),
    a white background (readable in dark mode) and the Okabe-Ito colour cycle. For the decks
    (``deck_figures``) also the larger :data:`DECK_STYLE`, and every figure is shown
    resized into :data:`DECK_BOX` (``deck_svg``).
    """
    import matplotlib as mpl
    from cycler import cycler

    mpl.rcParams.update({
        "svg.hashsalt": "bayescomp",
        "figure.facecolor": "white",
        "savefig.facecolor": "white",
        "axes.facecolor": "white",
        "axes.prop_cycle": cycler(color=[PALETTE[k] for k in CYCLE]),
        "figure.figsize": (6.4, 4.0),
        "axes.spines.top": False,
        "axes.spines.right": False,
    })
    if deck_figures():
        mpl.rcParams.update(DECK_STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # plain Python, no IPython: nothing inline to configure
        return
    set_matplotlib_formats("svg", metadata={"Date": None})
    from IPython import get_ipython
    from matplotlib.figure import Figure
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["image/svg+xml"].for_type(
            Figure, deck_svg if deck_figures() else book_svg)


def deck_svg(fig):
    """A figure as an SVG for a slide, drawn to fill :data:`DECK_BOX` at its natural size.

    Text keeps its size in points (on the slide it is as large as the style says), so the
    figure itself is resized: scaled into the box, at least :data:`DECK_MIN_HEIGHT` tall
    (text takes the same height in a short figure, and would leave its plots no room), and
    widened, up to the box, by what a legend or labels beside the plots take from them.
    """
    width, height = fig.get_size_inches()
    grow = min(DECK_BOX[0] / width, DECK_BOX[1] / height)
    plots = [ax for ax in fig.axes if ax.get_visible()]
    wanted = min((ax.get_position().width * width * grow for ax in plots), default=0.0)
    width, height = width * grow, max(height * grow, DECK_MIN_HEIGHT)
    for _ in range(4):
        fig.set_size_inches(width, height)
        if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
            fig.draw_without_rendering()      # lays out again, legends outside the plots included
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # layouts tight_layout cannot handle keep their own
                fig.tight_layout()
        shown = min((ax.get_position().width * width for ax in plots), default=wanted)
        if shown >= 0.95 * wanted or width >= DECK_BOX[0]:
            break
        columns = len({round(ax.get_position().x0, 2) for ax in plots})
        width = min(DECK_BOX[0], width + (wanted - shown) * columns)
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    return lean_svg(out.getvalue())


def plot_grid_contours(ax, grid, n_sd=(1, 2, 3), color=None, **kwargs):
    r"""Contours of a 2-D grid posterior at the density levels of 1, 2, 3... Gaussian sd.

    The level for ``k`` is :math:`\max p \cdot e^{-k^2/2}`, where a Gaussian's
    ``k``-sd ellipse would lie.
    """
    levels = sorted(grid.weights.max() * np.exp(-0.5 * np.asarray(n_sd, dtype=float) ** 2))
    ax.contour(grid.axes[0], grid.axes[1], grid.weights.T, levels=levels,
               colors=color or METHOD_COLORS["grid"], linewidths=1.0, **kwargs)
    ax.set_xlabel(r"intercept $\theta_0$")
    ax.set_ylabel(r"slope $\theta_1$")
    return ax


def plot_covariance_ellipse(ax, mean, cov, n_sd=2.0, **kwargs):
    """Draw the ``n_sd`` standard-deviation ellipse of a 2-D Gaussian."""
    eigenvalues, eigenvectors = np.linalg.eigh(np.asarray(cov, dtype=float))
    angle = np.degrees(np.arctan2(eigenvectors[1, -1], eigenvectors[0, -1]))
    width, height = 2 * n_sd * np.sqrt(eigenvalues[::-1])
    kwargs.setdefault("fill", False)
    ax.add_patch(Ellipse(mean, width, height, angle=angle, **kwargs))
    return ax


def chain_color(chain):
    """The colour of chain ``chain`` (counted from 0) in every chain plot, figures and widgets.

    There are four (:data:`bayescomp.book.colors.CHAIN_COLORS`), as many as the book runs chains: a
    fifth chain would have to repeat one, and two chains in one colour read as one, so it is
    an error rather than a silent repeat.
    """
    if isinstance(chain, bool) or not isinstance(chain, (int, np.integer)) \
            or not 0 <= chain < len(CHAIN_COLORS):
        raise ValueError(f"chain must be an integer from 0 to {len(CHAIN_COLORS) - 1} (one of "
                         f"the {len(CHAIN_COLORS)} chain colours), got {chain!r}")
    return CHAIN_COLORS[chain]


def plot_traces(ax, draws, param, label=None):
    """Trace of one parameter for every chain; ``draws`` has shape (chain, draw, param)."""
    for chain, series in enumerate(np.asarray(draws)[:, :, param]):
        ax.plot(series, linewidth=0.8, alpha=0.9, label=f"chain {chain + 1}", color=chain_color(chain))
    ax.set_xlabel("iteration (after warm-up)")
    ax.set_ylabel(label or f"parameter {param}")
    return ax


def plot_autocorrelation(ax, rho, max_lag=60, labels=None):
    """Autocorrelation against lag; ``rho`` has shape (lag, param).

    The parameters are told apart by shades of grey and line style, not by colour, so that
    they cannot be mistaken for the chains of a trace plot beside them.
    """
    lags = np.arange(max_lag + 1)
    styles = [("black", "-", "o"), ("0.5", "--", "s"), ("0.3", ":", "^")]
    for p in range(rho.shape[1]):
        color, linestyle, marker = styles[p % len(styles)]
        ax.plot(lags, rho[: max_lag + 1, p], color=color, linestyle=linestyle, marker=marker,
                markersize=2.5, label=labels[p] if labels else f"parameter {p}")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("lag")
    ax.set_ylabel("autocorrelation")
    return ax


def plot_weighted_draws(ax, draws, weights, color=None, label=None):
    """Importance weights as stems at their 1-D draw locations."""
    draws, weights = np.asarray(draws, dtype=float).ravel(), np.asarray(weights, dtype=float).ravel()
    color = color or METHOD_COLORS["importance"]
    # Every stem in one line with a break (NaN) between stems: in an SVG one path, not one
    # element per stem (what ``ax.stem`` writes), so the figure is a fraction of the size.
    gap = np.full_like(draws, np.nan)
    ax.plot(np.column_stack([draws, draws, gap]).ravel(),
            np.column_stack([np.zeros_like(weights), weights, gap]).ravel(),
            color=color, linewidth=0.5)
    ax.plot(draws, weights, "o", color=color, markersize=2, label=label)
    ax.set_xlabel(r"$\theta$")
    ax.set_ylabel("normalized weight")
    return ax


def plot_density_curve(ax, theta, log_density, label=None, **kwargs):
    """Plot ``exp(log_density)`` over a 1-D ``theta`` grid."""
    ax.plot(theta, np.exp(log_density), label=label, **kwargs)
    ax.set_xlabel(r"$\theta$")
    ax.set_ylabel("density")
    return ax


def plot_walk(ax, start, chain, color=None, label="chain path"):
    """A short Metropolis walk: accepted moves as a path, rejected proposals as crosses.

    ``chain`` is a :class:`~bayescomp.metropolis.MetropolisResult` run with
    ``record_proposals=True``; ``label`` names the path in a legend (beside another
    sampler's path, say which sampler it is).
    """
    color = color or METHOD_COLORS["mcmc"]
    path = np.vstack([start, chain.draws])
    ax.plot(path[:, 0], path[:, 1], "-o", color=color, markersize=3, linewidth=1,
            label=label)
    rejected = chain.proposals[~chain.accepted]
    ax.plot(rejected[:, 0], rejected[:, 1], "x", color=PALETTE["vermillion"], markersize=6,
            label="rejected proposal")
    ax.plot(*start, "s", color=PALETTE["black"], markersize=6, label="start")
    return ax


def plot_slice_fit(ax, offsets, log_density, quadratic, label=r"$\theta_1$"):
    """The log density along a slice through the mode, with its quadratic (Laplace) fit."""
    ax.plot(offsets, log_density, color=METHOD_COLORS["grid"], label=r"$\log\tilde p$")
    ax.plot(offsets, quadratic, "--", color=METHOD_COLORS["laplace"], label="quadratic at MAP")
    ax.set_xlabel(label)
    ax.set_ylabel("log density (max = 0)")
    return ax


def plot_predictive_curves(ax, x, plug_in, averaged, band, level=0.9):
    """P(y = 1 | x): the plug-in curve, the posterior predictive and a band of plausible curves."""
    ax.fill_between(x, band.lower, band.upper, color=METHOD_COLORS["grid"], alpha=0.15,
                    linewidth=0, label=f"{level:.0%} of posterior curves")
    ax.plot(x, averaged, color=METHOD_COLORS["grid"], label="posterior predictive (average)")
    ax.plot(x, plug_in, "--", color=METHOD_COLORS["map"], label="plug-in at the MAP")
    ax.set_xlabel("feature $x$")
    ax.set_ylabel(r"$P(y = 1 \mid x)$")
    return ax


def plot_predictive_tail(ax, x, plug_in, averaged, band, level=0.9):
    """P(y = 0 | x) = 1 - P(y = 1 | x) on a log scale: the same curves and band as
    :func:`plot_predictive_curves` (same styles and labels), where they approach 1.

    On the probability scale the curves lie on top of each other once they near 0 or 1, and the
    band closes; on a log scale of the small probability left, the band's spread and the gap
    between the average and the plug-in show. Call it for ``x`` on the side where P(y = 1)
    nears 1 (for the other side, plot the curves themselves on a log scale).
    """
    ax.fill_between(x, 1 - np.asarray(band.upper), 1 - np.asarray(band.lower),
                    color=METHOD_COLORS["grid"], alpha=0.15, linewidth=0,
                    label=f"{level:.0%} of posterior curves")
    ax.plot(x, 1 - np.asarray(averaged), color=METHOD_COLORS["grid"],
            label="posterior predictive (average)")
    ax.plot(x, 1 - np.asarray(plug_in), "--", color=METHOD_COLORS["map"], label="plug-in at the MAP")
    ax.set_yscale("log")
    ax.set_xlabel("feature $x$")
    ax.set_ylabel(r"$P(y = 0 \mid x)$")
    return ax


def plot_rank_histograms(ax, draws, param, n_bins=20, label=None):
    """Rank plot (Vehtari et al., 2021): one histogram of pooled ranks per chain, for one param.

    Rank all draws of ``param`` together; if the chains sample the same distribution, each
    chain's ranks are uniform and every histogram is flat, up to noise.
    """
    values = np.asarray(draws)[..., param]
    ranks = values.ravel().argsort().argsort().reshape(values.shape)
    edges = np.linspace(0, values.size, n_bins + 1)
    expected = values.shape[1] / n_bins
    for chain, chain_ranks in enumerate(ranks):
        counts, _ = np.histogram(chain_ranks, bins=edges)
        # stairs draws every bin, the last one included, from its left edge to its right edge;
        # with no baseline, no vertical stroke down to zero at either end.
        ax.stairs(counts, edges, baseline=None, linewidth=1.0, label=f"chain {chain + 1}",
                  color=chain_color(chain))
    ax.axhline(expected, color=METHOD_COLORS["grid"], linewidth=0.8, linestyle=":",
               label="uniform")
    ax.set_xlabel(f"rank of {label}" if label else "rank among all draws")
    ax.set_ylabel("draws per bin")
    return ax


def plot_funnel(ax, reference, group=0, theta_range=(-30.0, 45.0), log_tau_range=(-6.0, 4.0),
                n_levels=6, relative_to_mu=False, n_rows=301):
    r"""Contours of the exact joint density of :math:`(\theta_j, \log\tau)` (the funnel), or of
    :math:`(\theta_j - \mu, \log\tau)` with ``relative_to_mu``.

    Levels are spaced evenly on the log scale, from the peak down to :math:`e^{-8}` of it, so
    the narrow neck at small :math:`\tau` shows as well as the wide mouth. The contours are
    drawn from at most ``n_rows`` of the reference's :math:`\log\tau` nodes in the range,
    evenly thinned (its grid is far finer than a figure shows, and every node is a vertex of
    each contour in the SVG), on 301 values of :math:`\theta_j`.
    """
    theta = np.linspace(*theta_range, 301)
    rows = np.flatnonzero((reference.log_tau_grid >= log_tau_range[0])
                          & (reference.log_tau_grid <= log_tau_range[1]))
    rows = rows[::-(-rows.size // positive_int(n_rows, "n_rows", minimum=3))]
    density = log_tau_theta_density(reference, group, theta, relative_to_mu)[rows]
    levels = density.max() * np.exp(-np.linspace(8.0, 0.5, n_levels))
    ax.contour(theta, reference.log_tau_grid[rows], density, levels=levels,
               colors=METHOD_COLORS["grid"], linewidths=0.8)
    ax.set_xlim(theta_range)
    ax.set_ylim(log_tau_range)
    ax.set_xlabel(rf"$\theta_{{{group + 1}}} - \mu$" if relative_to_mu else rf"$\theta_{{{group + 1}}}$")
    ax.set_ylabel(r"$\log\tau$")
    return ax


def plot_log_tau_marginal(ax, reference, samples=(), labels=(), colors=(),
                          log_tau_range=(-6.0, 4.0), orientation="horizontal"):
    r"""The exact density of :math:`\log\tau` and, for comparison, histograms of draws.

    With ``orientation="vertical"`` the density runs along the y axis, to sit beside
    :func:`plot_funnel` with a shared :math:`\log\tau` axis.
    """
    bins = np.linspace(*log_tau_range, 41)
    vertical = orientation == "vertical"
    for values, label, color in zip(samples, labels, colors):
        ax.hist(np.ravel(values), bins=bins, density=True, histtype="step", color=color,
                label=label, orientation="horizontal" if vertical else "vertical", linewidth=1.2)
    keep = (reference.log_tau_grid >= log_tau_range[0]) & (reference.log_tau_grid <= log_tau_range[1])
    grid, density = reference.log_tau_grid[keep], reference.log_tau_density[keep]
    ax.plot(*((density, grid) if vertical else (grid, density)), color=METHOD_COLORS["grid"],
            linewidth=1.5, label="exact")
    if vertical:
        # A narrow panel beside the funnel: the shared axis already says log tau.
        ax.set_xlabel("density")
        ax.xaxis.set_major_locator(MaxNLocator(2))
        # "0" rather than "0.00": on a narrow panel two padded labels ran into each other.
        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        ax.set_ylim(log_tau_range)
    else:
        ax.set_xlabel(r"$\log\tau$")
        ax.set_ylabel("density")
        ax.set_xlim(log_tau_range)
    return ax


def plot_k_hat_by_draws(ax, sizes, k_hats, label=None, **kwargs):
    """Median Pareto k-hat over seeds against the number of draws, with the range shaded.

    ``k_hats`` has shape (seed, size); the x axis is logarithmic.
    """
    k_hats = np.asarray(k_hats, dtype=float)
    line, = ax.plot(sizes, np.median(k_hats, axis=0), marker="o", markersize=3, label=label,
                    **kwargs)
    ax.fill_between(sizes, k_hats.min(axis=0), k_hats.max(axis=0), color=line.get_color(),
                    alpha=0.15, linewidth=0)
    ax.set_xscale("log")
    ax.set_xlabel("draws $S$")
    ax.set_ylabel(r"Pareto $\hat k$")
    return ax


def plot_weight_tail(ax, log_weights, label=None, n_points=300, **kwargs):
    """The upper tail of importance weights: the share of draws with at least each weight.

    Weights are scaled to mean 1 and plotted on log-log axes, where a Pareto tail of shape
    ``k`` is a straight line of slope ``-1/k``. Only the upper half is drawn, at ``n_points``
    shares spaced evenly on the log scale, so the figure stays small for any number of draws.
    """
    log_weights = np.asarray(log_weights, dtype=float)
    scaled = np.exp(log_weights - log_weights.max())
    ordered = np.sort(scaled / scaled.mean())[::-1]   # largest first
    # A share k / S of the draws have a weight at least as large as the k-th largest.
    ranks = np.unique(np.geomspace(1, ordered.size / 2, n_points).astype(int))
    ax.loglog(ordered[ranks - 1], ranks / ordered.size, label=label, **kwargs)
    ax.set_xlabel("weight / mean weight")
    ax.set_ylabel("share of draws with at least this weight")
    return ax


#: What one replicate run can be, in the order :func:`plot_run_outcomes` draws them: its
#: label, colour and hatch. "Caught" and "false alarm" mean that some diagnostic fired.
RUN_OUTCOMES = (
    ("misleading, all silent", PALETTE["vermillion"], None),
    ("misleading, caught", PALETTE["blue"], None),
    ("imprecise: a miss within 0.1 + 2 MCSE", "0.6", "//"),
    ("fine, false alarm", PALETTE["yellow"], None),
    ("fine, all silent", "0.85", None),
)


def plot_run_outcomes(ax, labels, shares, silent=None):
    """One horizontal bar per row of replicate runs, split by what the runs turned out to be.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    labels : sequence of str
        One per row, drawn top to bottom.
    shares : array_like, shape (row, 5)
        The share of each row's runs in each outcome of :data:`RUN_OUTCOMES`; each row sums to 1.
    silent : sequence of (value, low, high) or None, optional
        Per row, the share of runs that were misleading with every diagnostic silent and its
        interval, written at the right of the bar; None (or a zero share) writes nothing.
    """
    shares = np.asarray(shares, dtype=float)
    if shares.shape != (len(labels), len(RUN_OUTCOMES)):
        raise ValueError(f"shares must have shape (row, {len(RUN_OUTCOMES)}) with one row per "
                         f"label ({len(labels)}); got {shares.shape}")
    if not np.allclose(shares.sum(axis=1), 1.0):
        raise ValueError(f"each row of shares must sum to 1; got sums {shares.sum(axis=1)}")
    rows, lefts = np.arange(len(labels)), np.cumsum(shares, axis=1) - shares
    for (label, color, hatch), share, left in zip(RUN_OUTCOMES, shares.T, lefts.T):
        # A hatched part takes a dark edge, which is the hatch's colour; the others a thin white
        # edge that separates neighbouring parts of one colour.
        ax.barh(rows, share, left=left, height=0.75, color=color, hatch=hatch, label=label,
                edgecolor="0.3" if hatch else "white", linewidth=0 if hatch else 0.5)
    if silent is not None:
        # The shares as tick labels of a right-hand axis, so that layouts make room for them.
        shown = [(row, interval) for row, interval in zip(rows, silent)
                 if interval is not None and interval[0] > 0]
        right = ax.secondary_yaxis("right")
        right.set_yticks([row for row, _ in shown],
                         [f"{100 * v:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})" for _, (v, lo, hi) in shown])
        right.tick_params(length=0, labelcolor=PALETTE["vermillion"])
        right.spines["right"].set_visible(False)
    ax.set_yticks(rows, labels)   # at the tick labels' own size: they name the rows, on a slide too
    ax.set_ylim(len(labels) - 0.5, -0.5)   # the first row on top
    ax.set_xlim(0, 1)
    # Short labels at the ends: side by side, one panel's 1 and the next one's 0 do not meet.
    ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])
    ax.set_xlabel("share of the runs")
    return ax
