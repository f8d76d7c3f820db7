r"""Grading answers that are random: a Monte Carlo estimate against an exact reference.

A fixed tolerance either fails a correct Monte Carlo estimate or passes a biased one. The
yardstick is the Monte Carlo standard error (MCSE) that an honest run of the student's length
has: an estimate passes when

.. math::

    |z_k| = \frac{|\hat\mu_k - \mu_k|}{\mathrm{MCSE}_k} \le z^* \quad\text{for every component } k,

with :math:`\mu` the exact value (the grid for the logistic posterior, the 1-D quadrature for
eight schools) and :math:`\mathrm{MCSE}_k` the error *expected* at the student's run length,
computed by the grader. By the central limit theorem an honest :math:`z_k` is close to
:math:`N(0, 1)`, so with :math:`K` components and
:math:`z^* = \Phi^{-1}(1 - \alpha / 2K)` an honest answer fails with probability at most
:math:`\alpha` (Bonferroni), whatever the correlation between the components. The student's
own MCSE is graded too: it must lie within a factor (2 by default) of the expected one, which
an honest estimate misses far less often than :math:`\alpha`, and which an MCSE off by a
factor of 3 always misses.

Each student gets a variant (a data seed, and with it a data set and an exact answer of their
own), derived from their hub user name by a stable hash, so that the grader can re-derive it and
notice an edited one, and a neighbour's numbers miss the exact answer of another data set.
"""
import getpass
import hashlib
import math
import os
from typing import NamedTuple, Optional

import numpy as np

from .._checks import as_finite_array, positive_float, positive_int, unit_interval_float
from .._special import normal_quantile
from ..diagnostics import ess_mean
from ..grid import GridResult, grid_posterior
from ..hierarchical import EIGHT_SCHOOLS_SIGMA, EIGHT_SCHOOLS_Y, HierarchicalData, hierarchical_data
from ..hierarchical_reference import hierarchical_reference
from ..laplace import LaplaceResult, laplace_approximation
from ..metropolis import run_metropolis_chains
from ..problem import Target
from .lecture import LectureSettings, lecture_problem

# An honest answer fails the bound at most this often (all its components together) where its
# z-scores are normal; half of the 1 % the course allows, so that an estimate from a short run, a
# little heavier-tailed than the normal, stays within 1 % (measured: `make grading-report`).
FALSE_FAIL_RATE = 0.005
# A reported MCSE passes within this factor of the expected one.
MCSE_FACTOR = 2.0
# Environment variables that name the student, most specific first: the grader sets the first
# (to the owner of the submission it grades), a JupyterHub single-user server sets the second.
USER_VARIABLES = ("BAYESCOMP_STUDENT", "JUPYTERHUB_USER")


class GradingError(AssertionError):
    """An answer that fails a check; the message says what is wrong (an nbgrader test fails)."""


class MonteCarloGrade(NamedTuple):
    """The verdict on a Monte Carlo estimate.

    Attributes
    ----------
    passed : bool
        Every component within the bound, and the reported MCSE (if any) plausible.
    z : ndarray, shape (K,)
        (estimate - exact) / expected MCSE, per component.
    bound : float
        :math:`z^*`, from :func:`z_bound`.
    false_fail_rate : float
        The chance that an honest estimate fails the bound (:math:`\\alpha`).
    expected_mcse : ndarray, shape (K,)
        The MCSE of an honest run of the student's length.
    mcse_ratio : ndarray, shape (K,) or None
        Reported MCSE / expected MCSE, when an MCSE was reported.
    problems : tuple of str
        What is wrong, one line per failed check, worded so as not to give the exact value away.
    """

    passed: bool
    z: np.ndarray
    bound: float
    false_fail_rate: float
    expected_mcse: np.ndarray
    mcse_ratio: Optional[np.ndarray]
    problems: tuple


def z_bound(false_fail_rate=FALSE_FAIL_RATE, n_components=1):
    r"""The z-score bound with a given false-fail rate over ``n_components`` components.

    Parameters
    ----------
    false_fail_rate : float
        :math:`\alpha` in (0, 1): how often an honest estimate may fail.
    n_components : int
        The number of components :math:`K` graded together.

    Returns
    -------
    float

    Notes
    -----
    :math:`z^* = \Phi^{-1}(1 - \alpha/2K)`. For one component,
    :math:`P(|Z| > z^*) = \alpha`; for :math:`K` the union bound gives at most :math:`\alpha`.
    With :math:`\alpha = 0.005`, :math:`z^* = 2.807` for one component and 3.023 for two.
    """
    rate = unit_interval_float(false_fail_rate, "false_fail_rate")
    n_components = positive_int(n_components, "n_components")
    return float(normal_quantile(1.0 - rate / (2 * n_components)))


def normal_false_fail_rate(bound, n_components=1):
    r"""The false-fail rate that the bound ``bound`` has: :math:`\min(1, 2K(1 - \Phi(z^*)))`.

    The inverse of :func:`z_bound`: ``normal_false_fail_rate(z_bound(a, k), k) == a``.
    """
    bound = positive_float(bound, "bound")
    n_components = positive_int(n_components, "n_components")
    return min(1.0, n_components * math.erfc(bound / math.sqrt(2.0)))


def _components(value, name, size=None):
    array = as_finite_array(np.atleast_1d(np.asarray(value, dtype=float)), name, ndim=1)
    if size is not None and array.shape != (size,):
        raise ValueError(f"{name} must have {size} component(s) to match the estimate; "
                         f"got shape {array.shape}")
    return array


def _positive_components(value, name, size):
    array = _components(value, name, size)
    if np.any(array <= 0):
        raise ValueError(f"{name} must be > 0 in every component; got {array.tolist()}")
    return array


def grade_estimate(estimate, exact, expected_mcse, reported_mcse=None,
                   false_fail_rate=FALSE_FAIL_RATE, mcse_factor=MCSE_FACTOR, names=None):
    r"""Grade a Monte Carlo estimate against the exact value, in units of the expected MCSE.

    Parameters
    ----------
    estimate : float or array_like, shape (K,)
        The student's estimate.
    exact : float or array_like, shape (K,)
        The exact value, from the package's reference (never typed by hand).
    expected_mcse : float or array_like, shape (K,)
        The MCSE of an honest run of the student's length (:func:`importance_expected_mcse`,
        :func:`chain_expected_mcse`).
    reported_mcse : float or array_like, shape (K,), optional
        The student's own MCSE, graded for plausibility.
    false_fail_rate : float
        :math:`\alpha`: an honest estimate fails the bound at most this often.
    mcse_factor : float
        A reported MCSE passes when it lies within this factor (> 1) of the expected one.
    names : sequence of str, optional
        A name per component for the messages (default ``estimate[0]``, ...).

    Returns
    -------
    MonteCarloGrade

    Notes
    -----
    The estimate passes when :math:`|\hat\mu_k - \mu_k| \le z^*\,\mathrm{MCSE}_k` for every
    :math:`k`, with :math:`z^*` from :func:`z_bound`. The expected MCSE, not the reported one,
    sets the scale, so a student cannot widen the bound by inflating their error bar; the
    reported one passes when :math:`1/f \le \mathrm{reported}/\mathrm{expected} \le f`.
    """
    estimate = _components(estimate, "estimate")
    size = estimate.size
    exact = _components(exact, "exact", size)
    expected = _positive_components(expected_mcse, "expected_mcse", size)
    factor = positive_float(mcse_factor, "mcse_factor")
    if factor <= 1:
        raise ValueError(f"mcse_factor must be > 1; got {mcse_factor!r}")
    names = [f"estimate[{k}]" for k in range(size)] if names is None else [str(n) for n in names]
    if len(names) != size:
        raise ValueError(f"names must have one name per component ({size}); got {len(names)}")
    bound = z_bound(false_fail_rate, size)
    z = (estimate - exact) / expected
    problems = [f"{name}: farther from the exact value than {bound:.2f} expected MCSEs "
                f"(an honest run of your length fails this less than {false_fail_rate:.0%} "
                f"of the time): look for a bias"
                for name, value in zip(names, z) if abs(value) > bound]
    ratio = None
    if reported_mcse is not None:
        ratio = _positive_components(reported_mcse, "reported_mcse", size) / expected
        problems += [f"{name}: your MCSE is {'more' if r > 1 else 'less'} than {factor:g} times "
                     f"{'larger' if r > 1 else 'smaller'} than the MCSE expected at your run "
                     f"length" for name, r in zip(names, ratio) if not 1 / factor <= r <= factor]
    return MonteCarloGrade(not problems, z, bound, float(false_fail_rate), expected, ratio,
                           tuple(problems))


def require(grade):
    """Raise :class:`GradingError` listing the problems unless ``grade.passed`` (for tests)."""
    if not grade.passed:
        raise GradingError("\n".join(grade.problems))
    return grade


def importance_expected_mcse(grid, proposal_log_density, n_draws, function=None):
    r"""The MCSE of a self-normalized importance-sampling mean with ``n_draws`` draws, exactly.

    Parameters
    ----------
    grid : GridResult
        The target on a grid wide and fine enough for its moments (and for ``p^2/q``).
    proposal_log_density : callable
        ``theta (..., d) -> (...)``, the proposal's normalized log density.
    n_draws : int
        The student's number of draws.
    function : callable, optional
        ``theta (m, d) -> (m, K)``; by default the mean of each parameter.

    Returns
    -------
    ndarray, shape (K,)

    Notes
    -----
    The delta method gives the asymptotic variance of
    :math:`\hat\mu = \sum_s \bar w_s f(\theta_s)` as
    :math:`\sigma^2/n` with :math:`\sigma^2 = \int p^2 (f - \mu)^2 / q` (Owen, 2013, equation
    9.8). With grid weights :math:`w_j \approx p(\theta_j)\,\Delta` on cells of area
    :math:`\Delta`, :math:`\sigma^2 \approx \sum_j w_j\,\frac{w_j}{\Delta\,q(\theta_j)}\,
    (f(\theta_j) - \mu)^2`. It is finite only when :math:`p^2/q` is integrable: for a proposal
    with lighter tails than the target the grid gives a number that a longer box would change.
    """
    if not isinstance(grid, GridResult):
        raise ValueError(f"grid must be a GridResult from grid_posterior; got {type(grid).__name__}")
    n_draws = positive_int(n_draws, "n_draws")
    dim = len(grid.axes)
    points, weights = grid.points.reshape(-1, dim), grid.weights.reshape(-1)
    values = points if function is None else np.asarray(function(points), dtype=float)
    values = values.reshape(len(points), -1)
    cell = np.prod([axis[1] - axis[0] for axis in grid.axes])
    mean = weights @ values
    # p / q at each grid point; points of zero weight add nothing.
    live = weights > 0
    ratio = np.zeros_like(weights)
    ratio[live] = np.exp(np.log(weights[live] / cell) - proposal_log_density(points[live]))
    variance = (weights * ratio) @ (values - mean) ** 2
    return np.sqrt(variance / n_draws)


def chain_expected_mcse(reference_draws, exact_sd, n_draws):
    r"""The MCSE of a chain mean with ``n_draws`` draws, from a long run of the same sampler.

    Parameters
    ----------
    reference_draws : array_like, shape (chain, draw, K)
        A long, stationary run of the sampler the student was asked to use (started from exact
        draws, so no warm-up is needed).
    exact_sd : array_like, shape (K,)
        The exact posterior standard deviations.
    n_draws : int
        The student's number of kept draws, all chains together.

    Returns
    -------
    ndarray, shape (K,)

    Notes
    -----
    :math:`\mathrm{MCSE} = \sigma\sqrt{\tau/n}`, with :math:`\sigma` exact and the integrated
    autocorrelation time :math:`\tau = MN/\mathrm{ESS}` of the reference run
    (:func:`bayescomp.ess_mean`). A reference run of :math:`MN` draws estimates :math:`\tau` to
    a relative error of about :math:`\sqrt{2\cdot 2W/MN}` for a window of :math:`W` lags, under
    2 % for the runs the grader makes.
    """
    draws = np.asarray(reference_draws, dtype=float)
    if draws.ndim != 3:
        raise ValueError(f"reference_draws must have shape (chain, draw, param); got shape "
                         f"{draws.shape}")
    exact_sd = _positive_components(exact_sd, "exact_sd", draws.shape[2])
    n_draws = positive_int(n_draws, "n_draws")
    tau = draws.shape[0] * draws.shape[1] / np.asarray(ess_mean(draws))
    return exact_sd * np.sqrt(tau / n_draws)


# ---------------------------------------------------------------------------------------------
# One variant per student.

class Variant(NamedTuple):
    """A student's variant of an assignment.

    Attributes
    ----------
    user : str
        The hub user name it was derived from.
    assignment : str
        The assignment's name (each assignment has its own variants).
    seed : int
        The data seed, at least 1000 (so never the book's own seed).
    """

    user: str
    assignment: str
    seed: int


def _name(value, name):
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string; got {value!r}")
    return value.strip()


def student_variant(user, assignment):
    """The variant of ``assignment`` for hub user ``user``: a stable hash, the same everywhere.

    Notes
    -----
    The seed is the first 8 bytes of SHA-256 of ``"bayescomp:<assignment>:<user>"``, reduced to
    ``[1000, 2**31)``. Python's own ``hash`` of a string changes between processes, so it would
    not do.
    """
    user, assignment = _name(user, "user"), _name(assignment, "assignment")
    digest = hashlib.sha256(f"bayescomp:{assignment}:{user}".encode()).digest()
    return Variant(user, assignment, 1000 + int.from_bytes(digest[:8], "big") % (2**31 - 1000))


def current_user(environ=None):
    """The student's name: ``BAYESCOMP_STUDENT`` (set by the grader), else ``JUPYTERHUB_USER``
    (set by the hub), else the login name."""
    environ = os.environ if environ is None else environ
    for variable in USER_VARIABLES:
        if environ.get(variable, "").strip():
            return environ[variable].strip()
    return getpass.getuser()


def check_variant(recorded, user=None):
    """Raise :class:`GradingError` unless ``recorded`` is the variant of ``user`` (default:
    :func:`current_user`); return the variant re-derived from the name."""
    if not isinstance(recorded, Variant):
        raise GradingError(f"the recorded variant must be a bayescomp.book.grading.Variant, as the "
                           f"first cell makes it; got {type(recorded).__name__}")
    user = current_user() if user is None else _name(user, "user")
    expected = student_variant(user, recorded.assignment)
    if recorded != expected:
        raise GradingError(f"the variant recorded in this notebook is not the one of user "
                           f"{user!r}: run the first cell again, unchanged, and then every cell")
    return expected


# ---------------------------------------------------------------------------------------------
# Exact references for a variant.

class LogisticReference(NamedTuple):
    """The exact answer key of a logistic-regression variant.

    Attributes
    ----------
    settings : LectureSettings
    target : Target
    laplace : LaplaceResult
    grid : GridResult
        On a box of ``half_width`` Laplace sds around the mode: wide enough that its moments
        do not change (to 1e-6) with a wider or finer grid.
    """

    settings: LectureSettings
    target: Target
    laplace: LaplaceResult
    grid: GridResult


def logistic_settings(variant):
    """The book's settings with the variant's data: its seed, and a true coefficient vector drawn
    from it (intercept in [-1, 1], slope in [0.5, 2], to two decimals)."""
    if not isinstance(variant, Variant):
        raise ValueError(f"variant must be a Variant from student_variant; got "
                         f"{type(variant).__name__}")
    rng = np.random.default_rng(variant.seed)
    theta_true = (round(float(rng.uniform(-1.0, 1.0)), 2), round(float(rng.uniform(0.5, 2.0)), 2))
    return LectureSettings()._replace(data_seed=variant.seed, theta_true=theta_true)


def logistic_reference(settings, resolution=241, half_width=10.0):
    """The grid reference of the logistic posterior for ``settings`` (a LectureSettings)."""
    if not isinstance(settings, LectureSettings):
        raise ValueError(f"settings must be a LectureSettings; got {type(settings).__name__}")
    half_width = positive_float(half_width, "half_width")
    _, target = lecture_problem(settings)
    laplace = laplace_approximation(target, np.zeros(target.dim), settings.newton_steps)
    bounds = np.column_stack([laplace.mean - half_width * laplace.sd,
                              laplace.mean + half_width * laplace.sd])
    return LogisticReference(settings, target, laplace,
                             grid_posterior(target.log_density, bounds, resolution))


def metropolis_expected_mcse(target, starts, proposal_chol, exact_sd, n_draws, rng,
                             n_steps=20_000, function=None):
    """The MCSE of a Metropolis mean with ``n_draws`` kept draws, by :func:`chain_expected_mcse`
    on a long run of the same sampler started from exact draws ``starts`` (one chain per row).

    ``function`` maps the draws ``(chain, draw, d)`` to the graded values ``(chain, draw, K)``
    (default: the draws themselves), whose exact sds are ``exact_sd``.
    """
    run = run_metropolis_chains(target, starts, proposal_chol, n_steps, rng)
    values = run.draws if function is None else np.asarray(function(run.draws), dtype=float)
    return chain_expected_mcse(values, exact_sd, n_draws)


def grid_draws(grid, n_draws, rng):
    """``n_draws`` grid points drawn by their weights: approximate exact draws, to start chains
    in the stationary distribution."""
    n_draws = positive_int(n_draws, "n_draws")
    flat = grid.points.reshape(-1, len(grid.axes))
    return flat[rng.choice(len(flat), n_draws, p=grid.weights.reshape(-1))]


def eight_schools_data(variant):
    """The eight schools, another year: the variant's estimates are the book's, spread by a
    factor in [0.6, 1.4] around their average and shifted by up to 6 points (to 0.1); the
    standard errors and priors are the book's."""
    if not isinstance(variant, Variant):
        raise ValueError(f"variant must be a Variant from student_variant; got "
                         f"{type(variant).__name__}")
    rng = np.random.default_rng(variant.seed)
    spread, shift = rng.uniform(0.6, 1.4), rng.uniform(-6.0, 6.0)
    y = np.asarray(EIGHT_SCHOOLS_Y)
    return hierarchical_data(np.round(y.mean() + spread * (y - y.mean()) + shift, 1),
                             EIGHT_SCHOOLS_SIGMA)


def eight_schools_reference(data):
    """The quadrature reference of :func:`bayescomp.hierarchical_reference` for ``data``."""
    if not isinstance(data, HierarchicalData):
        raise ValueError(f"data must be a HierarchicalData; got {type(data).__name__}")
    return hierarchical_reference(data)


__all__ = ["FALSE_FAIL_RATE", "MCSE_FACTOR", "GradingError", "MonteCarloGrade", "z_bound",
           "normal_false_fail_rate", "grade_estimate", "require", "importance_expected_mcse",
           "chain_expected_mcse", "metropolis_expected_mcse", "Variant", "student_variant", "current_user", "check_variant",
           "LogisticReference", "logistic_settings", "logistic_reference", "grid_draws",
           "eight_schools_data", "eight_schools_reference"]
