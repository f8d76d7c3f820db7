"""Live figures: the book's interactive widgets, their data, and their display in Jupyter.

The widgets are JavaScript (``code/widgets/``): a DOM-free engine that recomputes every method
in the browser, and drawing code apart from it. Everything they start from comes from here, so
nothing is typed twice: the widgets' names, the data set, the lecture's settings, the two-mode
target, the controls' ranges and presets, the thresholds that colour a readout good or bad, and
the figures' palette (:func:`widget_data`). The website and the decks load that dictionary as a
script written at build time (:func:`write_data_script`) beside the classic bundle
(:data:`BUNDLE`); in JupyterLab the same script, made an ES module by one added line
(:func:`anywidget_module`), is shown through ``anywidget`` (:func:`metropolis` and friends, one
class: ``BayesCompWidget``), with the dictionary passed straight from the kernel. The bundle is
package data: no Node.js is needed to use it.

Each figure's own facts (its name, the class that draws it, its controls, how far it runs
for a still image, the docstring of its Jupyter function) are typed once, in the manifest
``figures.json`` beside this module (:data:`FIGURES`). The functions that show the figures in
Jupyter are made from it: ``posterior-explorer`` is shown by :func:`posterior_explorer`
(:data:`WIDGETS` lists the names).

Neither matplotlib nor ``anywidget`` is imported here until a widget is displayed, so
``import bayescomp`` and :func:`widget_data` work without them.
"""
import base64
import json
import os
import re
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np

from ..diagnostics import ESS_THRESHOLD, RHAT_THRESHOLD
from ..gaussian import isotropic_mixture_target
from ..hierarchical import hierarchical_data, to_noncentred
from ..hierarchical_reference import exact_draws, hierarchical_reference
from ..hmc import RWM_OPTIMAL_SCALE
from ..psis import K_HAT_MAX
from .colors import CHAIN_COLORS, METHOD_COLORS, PALETTE
from .lecture import LectureSettings, lecture_problem
from .chapters import DIMENSION_PATH_LENGTH

BUNDLE_NAME = "bayescomp-widgets.js"
DATA_NAME = "bayescomp-widgets-data.js"
# The built front end travels inside the package (package data, in the wheel and the sdist), so
# readers need no Node.js: `make widgets` rebuilds it from code/widgets and a test fails when
# the committed copy is stale.
STATIC = Path(__file__).resolve().parent / "static"
BUNDLE = STATIC / BUNDLE_NAME   # classic script: the website, the decks and, as a module, JupyterLab
# What makes the classic script anywidget's ES module: run as a module, the script still sets
# globalThis.BayesCompWidgets, and this line exports the render() anywidget calls.
ANYWIDGET_EXPORT = ("export default { render: ({ model, el }) => "
                    "globalThis.BayesCompWidgets.mountAnywidget(el, model) };")
# Each live figure's still image, for a front end that cannot run Jupyter widgets (RISE), linked
# to the figure's live slide, is made by the build (`make slides`, tools/slides/stills.py), never
# found by the package in a checkout: the build tools name the folder that holds the stills and
# their links.json in this environment variable (`make lab` and the tests' JupyterLab set it).
STILLS_ENV = "BAYESCOMP_STILLS"
# The live figures' manifest (package data): every fact about a figure, typed once.
MANIFEST = Path(__file__).with_name("figures.json")
FIGURES = tuple(json.loads(MANIFEST.read_text(encoding="utf-8"))["figures"])
# The widgets, in the order the book teaches them: the one list of their names.
WIDGETS = tuple(figure["name"] for figure in FIGURES)
#: Each figure's name under the name of its Jupyter function, for code that means one figure:
#: ``FIGURE_NAMES.posterior_explorer == "posterior-explorer"``. Nothing outside the manifest
#: types a figure's name (tests/package/test_widgets.py fails if anything does).
FIGURE_NAMES = SimpleNamespace(**{name.replace("-", "_"): name for name in WIDGETS})
#: Where a chapter's Markdown shows a live figure, ``<div data-widget="metropolis">``: the
#: website, the decks, the stills and the PDF find the placeholders (group 1, the name) with it.
PLACEHOLDER = re.compile(r'data-widget="([\w-]+)"')


class TwoModeSettings(NamedTuple):
    """The two-mode target of chapters 2 and 4, in two dimensions.

    An equal mixture of two isotropic Gaussians at :math:`(\\pm 2, 0)` with sd 0.6: its first
    coordinate is exactly the chapters' one-dimensional mixture, its second is N(0, 0.6^2).
    """

    weights: tuple = (0.5, 0.5)
    means: tuple = ((-2.0, 0.0), (2.0, 0.0))
    sds: tuple = (0.6, 0.6)
    bounds: tuple = ((-5.0, 5.0), (-3.0, 3.0))
    fallback_sd: float = 3.0       # the fallback N(0, 3^2 I) of a defensive mixture on this target


class WidgetSettings(NamedTuple):
    """Ranges, defaults and presets of the widgets' controls, and the thresholds of their readouts.

    The thresholds colour a readout good or bad, in the widgets and in their tests alike:

    - ``k_hat_max``: the cap, 0.7, of the PSIS rule: k-hat below min(1 - 1/log10 S, 0.7) for S
      draws, the weights' tail is light enough to trust the estimate (Vehtari et al., 2024;
      :func:`~bayescomp.psis.k_hat_threshold`, which the widget's engine repeats as
      ``kHatThreshold``);
    - ``rhat_max``: rank-normalized split R-hat below 1.01, the chains agree, and ``ess_min``:
      bulk and tail ESS (of all chains together) above 400 (Vehtari et al., 2021; the package's
      :data:`~bayescomp.diagnostics.RHAT_THRESHOLD` and
      :data:`~bayescomp.diagnostics.ESS_THRESHOLD`);
    - ``error_mcse_max``: an estimate within 4 MCSE of the grid's answer is consistent with it.
      If the MCSE is right, the error over the MCSE is about N(0, 1): beyond 3 with probability
      0.27%, beyond 4 with 0.006%. The widgets look often: a Metropolis run of 12,000 steps at
      the default speed refreshes its diagnostics about 50 times, about 100 looks over the two
      parameters, and early on the MCSE itself is uncertain (its ESS comes from few draws). At 3
      a healthy run could warn in up to a quarter of runs (fewer, as successive looks are
      correlated); at 4, in under 1%, while the failures the widgets show (a proposal that
      never sees a mode) stand tens of MCSE off.
    """

    prior_sd_range: tuple = (0.25, 10.0)
    n_obs_range: tuple = (5, 80)
    grid_margin_sd: float = 5.0        # the grid box covers the MAP +- this many Laplace sds
    grid_snap: float = 0.5             # box edges beyond the lecture's box snap outward to this
    grid_edge_tolerance: float = 1e-3  # ... and widen where the density at an edge exceeds this x peak
    grid_max_widenings: int = 4        # ... at most this many times
    drag_resolution: int = 81          # grid points per axis while a control is dragged
    curve_blocks: int = 60             # the drawn predictive pools the grid into about 60 x 60 blocks
    newton_max_steps: int = 60         # the explorer's MAP: Newton until it stops moving
    x_star: float = 1.0
    is_draws: int = 2_000
    is_draws_range: tuple = (100, 20_000)
    is_scale_range: tuple = (0.05, 5.0)
    t_df: int = 4                      # Student-t proposal degrees of freedom
    is_narrow_centre: tuple = (-2.0, 0.0)   # chapter 2's narrow proposal N(-2, 0.7^2) ...
    is_narrow_scale: tuple = (0.7, 0.7)
    is_covering_scale: tuple = (3.0, 3.0)   # ... and its covering one N(0, 3^2)
    fallback_weight: float = 0.2       # the fallback's (the prior's) weight in a defensive mixture
    mcmc_scale_range: tuple = (0.05, 10.0)
    mcmc_speed: int = 20               # steps per chain per animation frame
    mcmc_speed_range: tuple = (1, 200)
    mcmc_max_chains: int = 4
    mcmc_tiny_scale: float = 0.05
    mcmc_huge_scale: float = 10.0
    mcmc_two_mode_starts: tuple = ((-2.5, 0.8), (-1.5, -0.8), (-2.2, -0.2), (1.8, 0.5))
    vi_lr_range: tuple = (0.001, 0.3)
    vi_samples_range: tuple = (1, 512)
    vi_steps_per_frame: int = 5
    vi_start: tuple = (0.8, 0.4)
    vi_two_mode_start: tuple = (1.0, 0.5)
    vi_two_mode_init_sd: float = 0.5
    k_hat_max: float = K_HAT_MAX
    rhat_max: float = RHAT_THRESHOLD
    ess_min: int = ESS_THRESHOLD
    error_mcse_max: float = 4.0
    high_ess_fraction: float = 0.1     # an ESS above this share of the draws looks healthy


class FunnelSettings(NamedTuple):
    """The funnel widget: chapter 7's eight schools under HMC and random-walk Metropolis.

    The defaults are the chapter's runs: four chains from exact draws (``start_seed``, rounded
    to 4 decimals), seeds ``first_seed + c``, a diagonal mass matrix (HMC) or proposal (the
    random walk) from the exact posterior sds of the form sampled, rounded to 3 decimals; HMC
    with step 0.2 and 10 leapfrog steps, 2,000 iterations of which 500 warm-up; the random
    walk with scale 2.38/sqrt(10) times those sds, 20,000 steps of which 2,000 warm-up.
    """

    start_seed: int = 70
    n_chains: int = 4
    first_seed: int = 90
    hmc_step: float = 0.2
    hmc_step_range: tuple = (0.01, 2.0)
    hmc_leapfrog: int = 10
    hmc_leapfrog_range: tuple = (1, 50)
    hmc_iterations: int = 2_000
    hmc_warmup: int = 500
    hmc_speed: int = 4                 # iterations per chain per animation frame
    rwm_scale: float = 1.0             # times rwm_base_scale/sqrt(d) x the exact posterior sd
    rwm_base_scale: float = RWM_OPTIMAL_SCALE   # 2.38
    rwm_scale_range: tuple = (0.05, 5.0)
    rwm_iterations: int = 20_000
    rwm_warmup: int = 2_000
    rwm_speed: int = 40
    big_step: float = 1.2              # the "step too large" preset: non-centred, h = 1.2, L = 2
    big_step_leapfrog: int = 2
    theta_range: tuple = (-30.0, 45.0)   # the plot's theta_1 and log tau axes (the chapter's)
    log_tau_range: tuple = (-6.0, 4.0)
    display_every: int = 10            # every 10th node of the reference (spacing 0.05)


class DimensionSettings(NamedTuple):
    """The dimension widget: chapter 6's standard Gaussian N(0, I_d) under both samplers.

    Each sampler is tuned by the chapter's rule (:func:`bayescomp.book.dimension_tuning`, with
    these constants) and runs four chains from exact draws, so no warm-up is needed. Both get
    the same budget: per animation frame ``hmc_speed`` HMC iterations of L gradient
    evaluations each, and as many random-walk steps (one log-density evaluation each) as
    HMC spends gradients.
    """

    d: int = 10
    # The d slider's stops, about evenly spaced on a log scale from 1 to 100 (a slider on
    # log(d) with even steps would round several steps to the same d, so arrow keys would stick).
    d_values: tuple = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)
    n_chains: int = 4
    first_seed: int = 600
    hmc_speed: int = 8                 # HMC iterations per chain per frame
    iterations: int = 2_000            # HMC iterations per chain in a run (the walk: L times more)
    path_length: float = DIMENSION_PATH_LENGTH
    rwm_base_scale: float = RWM_OPTIMAL_SCALE
    preset_dims: tuple = (1, 10, 100)
    histogram_bins: int = 40



def anywidget_module():
    """The ES module anywidget loads in JupyterLab: the classic bundle and :data:`ANYWIDGET_EXPORT`."""
    return BUNDLE.read_text(encoding="utf-8") + "\n" + ANYWIDGET_EXPORT + "\n"

def funnel_data(settings=FunnelSettings(), data=None):
    """What the funnel widget starts from: the data, the starts and scales of both forms, and
    the exact reference it audits against (the marginal of log tau, E[log tau], P(tau < 1),
    and the conditional moments of theta_1 that draw the exact funnel)."""
    data = hierarchical_data() if data is None else data
    reference = hierarchical_reference(data)
    starts = np.round(exact_draws(data, reference, settings.n_chains,
                                  np.random.default_rng(settings.start_seed)), 4)
    low, high = settings.log_tau_range
    nodes = np.flatnonzero((reference.log_tau_grid >= low - 1e-9)
                           & (reference.log_tau_grid <= high + 1e-9))[::settings.display_every]
    moments = reference.conditional
    return {
        "settings": _plain(settings),
        "data": {"y": data.y.tolist(), "sigma": data.sigma.tolist(),
                 "mu_prior_sd": float(data.mu_prior_sd),
                 "tau_prior_scale": float(data.tau_prior_scale)},
        "starts": {"centred": starts.tolist(),
                   "non-centred": np.round(to_noncentred(starts), 4).tolist()},
        "sd": {"centred": np.round(reference.sd, 3).tolist(),
               "non-centred": np.round(reference.noncentred_sd, 3).tolist()},
        "reference": {
            "mean_log_tau": float(reference.mean[1]), "sd_log_tau": float(reference.sd[1]),
            "mean_theta1": float(reference.mean[2]), "sd_theta1": float(reference.sd[2]),
            "prob_tau_below_1": float(reference.prob_tau_below_1),
            "log_tau": reference.log_tau_grid[nodes].tolist(),
            "density": reference.log_tau_density[nodes].tolist(),
            "theta1_mean": moments.theta_mean[nodes, 0].tolist(),
            "theta1_var": moments.theta_var[nodes, 0].tolist(),
        },
    }


def dimension_data(settings=DimensionSettings()):
    """What the dimension widget starts from: its settings (the widget applies chapter 6's
    tuning rule, :func:`bayescomp.book.dimension_tuning`, to every d with these constants)."""
    return {"settings": _plain(settings)}


def two_mode_target(settings=TwoModeSettings()):
    """The widgets' two-mode target (:class:`TwoModeSettings`) as a :class:`Target`."""
    return isotropic_mixture_target(settings.weights, settings.means, settings.sds)


def _plain(value):
    """NamedTuples, tuples and arrays as JSON-ready dicts, lists and floats."""
    if hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list, np.ndarray)):
        return [_plain(item) for item in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def widget_data(settings=LectureSettings(), widgets=WidgetSettings(), two_modes=TwoModeSettings(),
                funnel=FunnelSettings(), dimension=DimensionSettings()):
    """Everything the widgets start from, as a JSON-ready dictionary.

    Parameters
    ----------
    settings : LectureSettings
        The data set is simulated from these, and every default follows them.
    widgets : WidgetSettings
    two_modes : TwoModeSettings
    funnel : FunnelSettings
    dimension : DimensionSettings

    Returns
    -------
    dict
        ``names`` (the widgets, :data:`WIDGETS`), ``data`` (features ``x``, labels ``y``),
        ``lecture`` (the settings), ``widgets`` (:class:`WidgetSettings`), ``two_modes``,
        ``funnel_data`` and ``dimension_data`` (the two figures' data, from those functions), ``palette`` /
        ``method_colors`` / ``chain_colors`` (the figures' Okabe-Ito colours,
        :mod:`bayescomp.book.colors`), and ``figures``: the manifest (:data:`FIGURES`), each entry
        with ``still_steps``, the number its ``still`` setting holds (0 for none).
    """
    data, _ = lecture_problem(settings)
    shown = {
        "version": 1,
        "names": list(WIDGETS),
        "data": {"x": data.x.tolist(), "y": data.y.tolist()},
        "lecture": _plain(settings),
        "widgets": _plain(widgets),
        "two_modes": _plain(two_modes),
        "funnel_data": funnel_data(funnel),
        "dimension_data": dimension_data(dimension),
        "palette": dict(PALETTE),
        "method_colors": dict(METHOD_COLORS),
        "chain_colors": list(CHAIN_COLORS),
    }
    shown["figures"] = [{**figure, "still_steps": _setting(shown, figure["still"])}
                        for figure in FIGURES]
    return shown


def _setting(shown, path):
    """The number at the dotted ``path`` of the widget data ``shown`` (0 for no path)."""
    if path is None:
        return 0
    value = shown
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            raise ValueError(f"figures.json: still {path!r} is not a setting of widget_data()")
        value = value[key]
    if not isinstance(value, int) or value < 1:
        raise ValueError(f"figures.json: still {path!r} must be a positive integer; got {value!r}")
    return value


def write_data_script(directory, **kwargs):
    """Write :func:`widget_data` as a classic script that sets ``window.BayesCompWidgetData``.

    A script, not a JSON file: pages opened from ``file://`` may not ``fetch``.
    Returns the path written.
    """
    path = Path(directory) / DATA_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(widget_data(**kwargs), separators=(",", ":"))
    path.write_text(f"window.BayesCompWidgetData = {text};\n", encoding="utf-8")
    return path


# --- Display in Jupyter -------------------------------------------------------------------------

def _widget(name, start):
    """An anywidget showing the widget ``name``, from ``start``."""
    if name not in WIDGETS:
        raise ValueError(f"name must be one of {WIDGETS}; got {name!r}")
    try:
        from ._anywidget import BayesCompWidget
    except ImportError as error:
        raise ImportError("the live widgets need `anywidget` in Jupyter: "
                          "pip install anywidget (it is in requirements.txt)") from error
    return BayesCompWidget(widget=name, data=widget_data(), params=dict(start))


def still_html(name, here=None, stills=None):
    """What a front end that cannot run a Jupyter widget shows in its place: the figure's still
    image, linked to the live figure on its slide in the lecture deck.

    JupyterLab's RISE slides cannot load Jupyter widgets, so this is what a live figure's slide
    shows there. The stills, and ``links.json`` (for each widget its still's file, the deck's
    path and the slide's id), are made by the build (``make slides``, ``tools/slides/stills.py``)
    into the folder ``stills``, by default the one the environment variable :data:`STILLS_ENV`
    names. The image is embedded as data, so a notebook saved with this output shows it
    wherever it is opened (on a course's hub, in a copy), and the link to the deck is relative
    to ``here``, the notebook's folder (the kernel's working folder by default). With no stills
    (the variable unset, or the build not run) the HTML says how to get them and references no
    file.
    """
    title = name.replace("-", " ")
    folder = stills if stills is not None else os.environ.get(STILLS_ENV)
    links = Path(folder) / "links.json" if folder else None
    if links is None or not links.exists() or name not in json.loads(links.read_text(encoding="utf-8")):
        return (f"<p><b>Live figure: {title}.</b> This view cannot run Jupyter widgets "
                "(RISE cannot); JupyterLab's notebook view can. For a lecture, <code>make "
                "slides</code> builds the decks, where the figure is live on its slide, and a "
                "still image of it for this place.</p>")
    link = json.loads(links.read_text(encoding="utf-8"))[name]
    png = base64.b64encode((links.parent / link["still"]).read_bytes()).decode("ascii")
    deck = Path(os.path.relpath(link["deck"], here or Path.cwd())).as_posix()
    deck = f"{deck}#/{link['slide']}"
    return (f'<figure style="margin: 0"><a href="{deck}" target="_blank">'
            f'<img src="data:image/png;base64,{png}" alt="A still image of the live figure: {title}" '
            'style="max-width: 100%"></a>'
            f'<figcaption>A still image: this view cannot run Jupyter widgets (RISE cannot). '
            f'<a href="{deck}" target="_blank">Open the figure live on its slide of the '
            "deck</a>, or run this cell in JupyterLab's notebook view.</figcaption></figure>")


def _display_function(figure):
    """The Jupyter function that shows ``figure`` (a manifest entry): its name with underscores,
    its docstring the manifest's summary."""
    def show(**params):
        return _widget(figure["name"], params)

    show.__name__ = show.__qualname__ = figure["name"].replace("-", "_")
    show.__module__ = __name__
    show.__doc__ = (f"{figure['summary']}\n\nKeyword arguments set the starting state; the "
                    "widget's ``readout`` trait holds what it shows.")
    return show


# posterior_explorer(), importance_sampling(), metropolis(), ...: one per figure of the manifest.
for _figure in FIGURES:
    globals()[_figure["name"].replace("-", "_")] = _display_function(_figure)
del _figure


if __name__ == "__main__":
    # python -m bayescomp.book.widgets OUT_DIR: write the data script there (`make widgets` does).
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: python -m bayescomp.book.widgets OUT_DIR (the folder to write "
                 f"{DATA_NAME} into)")
    print(write_data_script(sys.argv[1]))
