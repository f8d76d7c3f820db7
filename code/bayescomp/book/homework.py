r"""The course's assignments (``course/source``): each student's problem, answer key and checks.

Every assignment starts with ``VARIANT = homework.start("ps2")``: the student's variant, from
their hub user name (:func:`bayescomp.book.grading.student_variant`). Its Monte Carlo answers are
graded by :func:`check` (the visible "check my answer" cells) and :func:`grade` (the hidden
tests), against the answer key of that variant, which the grader recomputes from the package:

========  ==============================================  ==================================
name      Monte Carlo answer                              exact reference, expected MCSE
========  ==============================================  ==================================
``ps2``   posterior mean, importance sampling (prior)      grid; the delta method on the grid
``ps3``   posterior mean and variance, Metropolis         grid; a long stationary run
``ps4``   Laplace predictive at x = -2, 0, 2, by sampling   Gauss-Hermite; sd / sqrt(n)
``ps7``   E[mu], E[log tau], non-centred Metropolis        quadrature; a long stationary run
========  ==============================================  ==================================

During nbgrader's autograde the kernel runs in ``autograded/<student>/<assignment>``, and the
student is the owner of that folder, whatever the notebook says.
"""
import functools
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..hierarchical import hierarchical_target, to_noncentred
from ..hierarchical_reference import exact_draws
from ..problem import sigmoid
from . import grading
from .grading import GradingError, Variant
from .lecture import lecture_problem

ASSIGNMENTS = {"ps2": "importance sampling", "ps3": "Markov chain Monte Carlo",
               "ps4": "Laplace and variational inference", "ps7": "a hierarchical model"}
# The Monte Carlo settings each assignment prescribes.
PS2_MIN_DRAWS = 20_000
PS3_SCALE, PS3_CHAINS, PS3_MIN_DRAWS = 1.1, 4, 8_000
# ps3 grades four components (two means, two variances) from short chains, whose estimates of a
# variance are heavier-tailed than the normal: at the package's alpha of 0.5 % its honest answers
# failed close to the course's whole 1 % allowance, so ps3's bound is wider (the rate it has now:
# `make grading-report`, _build/reports/grading.md).
PS3_FALSE_FAIL_RATE = 0.002
PS4_X_NEW, PS4_MIN_DRAWS = (-2.0, 0.0, 2.0), 10_000
PS7_CHAINS, PS7_MIN_DRAWS = 4, 16_000
# The grader's long runs, from which it takes a Metropolis chain's autocorrelation time.
REFERENCE_CHAINS, REFERENCE_STEPS = 16, 20_000


def _assignment(name):
    if name not in ASSIGNMENTS:
        raise ValueError(f"assignment must be one of {sorted(ASSIGNMENTS)}; got {name!r}")
    return name


def student(environ=None, cwd=None):
    """The student whose work this is.

    Under nbgrader's autograde (``NBGRADER_EXECUTION=autograde``) it is the name of the folder
    the submission sits in (``autograded/<student>/<assignment>``); elsewhere,
    :func:`bayescomp.book.grading.current_user`.
    """
    environ = os.environ if environ is None else environ
    if environ.get("NBGRADER_EXECUTION") == "autograde" and not environ.get("BAYESCOMP_STUDENT"):
        folder = Path.cwd() if cwd is None else Path(cwd)
        if folder.parent.parent.name != "autograded":
            raise GradingError(f"cannot tell whose submission this is: autograde runs it in "
                               f"{folder}, not in autograded/<student>/<assignment>; set "
                               f"BAYESCOMP_STUDENT to the student's name")
        return folder.parent.name
    return grading.current_user(environ)


def start(assignment):
    """The variant of ``assignment`` for this student (the first cell of every assignment)."""
    variant = grading.student_variant(student(), _assignment(assignment))
    print(f"{ASSIGNMENTS[assignment]}: variant {variant.seed} for {variant.user}")
    return variant


def _variant(variant, assignments):
    if not isinstance(variant, Variant):
        raise GradingError(f"VARIANT must be the Variant the first cell makes; got "
                           f"{type(variant).__name__}")
    if variant.assignment not in assignments:
        raise GradingError(f"this is a variant of {variant.assignment!r}, not of "
                           f"{' or '.join(map(repr, assignments))}")
    return variant


# --- each student's problem ---------------------------------------------------------------------

@functools.lru_cache(maxsize=32)
def logistic_reference(variant):
    """The variant's logistic-regression problem and its grid answer key (cached)."""
    _variant(variant, ("ps2", "ps3", "ps4"))
    return grading.logistic_reference(grading.logistic_settings(variant))


def logistic_problem(variant):
    """``(data, target, settings)`` of the variant: what the student works on."""
    reference = logistic_reference(variant)
    data, target = lecture_problem(reference.settings)
    return data, target, reference.settings


class EightSchools(NamedTuple):
    """The variant's hierarchical problem: its data, the quadrature answer key, and the
    non-centred Metropolis proposal sds the assignment prescribes (rounded to 0.01)."""

    data: object
    reference: object
    proposal_sd: np.ndarray


@functools.lru_cache(maxsize=32)
def eight_schools(variant):
    """The variant's eight schools (cached)."""
    _variant(variant, ("ps7",))
    data = grading.eight_schools_data(variant)
    reference = grading.eight_schools_reference(data)
    dim = data.y.size + 2
    proposal_sd = np.round(2.38 / np.sqrt(dim) * reference.noncentred_sd, 2)
    return EightSchools(data, reference, proposal_sd)


def eight_schools_starts(variant, n_chains=PS7_CHAINS):
    """Starting points for the non-centred chains: exact draws, rounded to 0.1."""
    problem = eight_schools(variant)
    rng = np.random.default_rng(variant.seed)
    return np.round(to_noncentred(exact_draws(problem.data, problem.reference, n_chains, rng)), 1)


# --- the answer key --------------------------------------------------------------------------------

class Key(NamedTuple):
    """The exact value of a Monte Carlo answer and its expected MCSE at the student's length."""

    exact: np.ndarray
    expected_mcse: np.ndarray
    names: tuple
    min_draws: int
    false_fail_rate: float = grading.FALSE_FAIL_RATE

    def grade(self, estimate, mcse=None):
        """:func:`bayescomp.book.grading.grade_estimate` with this key's values, names and alpha."""
        return grading.grade_estimate(estimate, self.exact, self.expected_mcse, mcse,
                                      false_fail_rate=self.false_fail_rate, names=self.names)


def gaussian_predictive_exact(x_new, mean, cov, n_nodes=80):
    r""":math:`E[\sigma(z^\top\theta)]` and its sd under :math:`\theta \sim N(\mu, \Sigma)`, by
    Gauss-Hermite quadrature in :math:`\eta = z^\top\theta \sim N(z^\top\mu, z^\top\Sigma z)`."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(n_nodes)
    weights = weights / weights.sum()
    z = np.column_stack([np.ones(len(x_new)), np.asarray(x_new, dtype=float)])
    location, spread = z @ mean, np.sqrt(np.einsum("ki,ij,kj->k", z, cov, z))
    values = sigmoid(location[:, None] + spread[:, None] * nodes)
    first, second = values @ weights, values**2 @ weights
    return first, np.sqrt(second - first**2)


def ps3_proposal(variant):
    """The assignment's proposal factor: 1.1 times the Cholesky factor of the Laplace covariance."""
    return PS3_SCALE * np.linalg.cholesky(logistic_reference(variant).laplace.cov)


def grid_moments(grid):
    """Exact means and variances from ``grid``, and the sds of :math:`\\theta` and of
    :math:`(\\theta - \\mu)^2` (the scales of their Monte Carlo errors)."""
    dim = len(grid.axes)
    points, weights = grid.points.reshape(-1, dim), grid.weights.reshape(-1)
    deviation2 = (points - grid.mean) ** 2
    variance = weights @ deviation2
    fourth = weights @ deviation2**2
    return np.r_[grid.mean, variance], np.r_[grid.sd, np.sqrt(fourth - variance**2)]


def mean_and_variance(draws, centre=None):
    """The values whose means ps3 asks for: each parameter and its squared deviation from
    ``centre`` (default: the draws' own mean), stacked on the last axis."""
    draws = np.asarray(draws, dtype=float)
    centre = draws.mean(axis=tuple(range(draws.ndim - 1))) if centre is None else centre
    return np.concatenate([draws, (draws - centre) ** 2], axis=-1)


@functools.lru_cache(maxsize=32)
def _autocorrelation_time(variant):
    """The grader's long stationary run of the assignment's sampler: its mcse * sqrt(n)."""
    rng = np.random.default_rng(variant.seed + 1)
    if variant.assignment == "ps3":
        reference = logistic_reference(variant)
        _, scales = grid_moments(reference.grid)
        starts = grading.grid_draws(reference.grid, REFERENCE_CHAINS, rng)
        return grading.metropolis_expected_mcse(
            reference.target, starts, ps3_proposal(variant), scales, 1, rng,
            REFERENCE_STEPS, function=lambda draws: mean_and_variance(draws, reference.grid.mean))
    problem = eight_schools(variant)
    target = hierarchical_target(problem.data, "non-centred")
    starts = to_noncentred(exact_draws(problem.data, problem.reference, REFERENCE_CHAINS, rng))
    return grading.metropolis_expected_mcse(
        target, starts, np.diag(problem.proposal_sd), problem.reference.sd[:2], 1,
        rng, REFERENCE_STEPS, function=lambda draws: draws[..., :2])  # mu, log tau: in both forms


def key(variant, n_draws):
    """The answer key of the variant's Monte Carlo question, at ``n_draws`` draws."""
    n_draws = int(n_draws)
    if variant.assignment == "ps2":
        reference = logistic_reference(variant)
        prior_var = reference.settings.prior_var
        log_q = lambda theta: (-0.5 * np.sum(theta**2, axis=-1) / prior_var  # noqa: E731
                               - np.log(2 * np.pi * prior_var))
        return Key(reference.grid.mean,
                   grading.importance_expected_mcse(reference.grid, log_q, n_draws),
                   ("E[intercept]", "E[slope]"), PS2_MIN_DRAWS)
    if variant.assignment == "ps3":
        exact, _ = grid_moments(logistic_reference(variant).grid)
        return Key(exact, _autocorrelation_time(variant) / np.sqrt(n_draws),
                   ("E[intercept]", "E[slope]", "Var[intercept]", "Var[slope]"), PS3_MIN_DRAWS,
                   PS3_FALSE_FAIL_RATE)
    if variant.assignment == "ps4":
        laplace = logistic_reference(variant).laplace
        exact, sd = gaussian_predictive_exact(PS4_X_NEW, laplace.mean, laplace.cov)
        return Key(exact, sd / np.sqrt(n_draws),
                   tuple(f"predictive at x = {x:g}" for x in PS4_X_NEW), PS4_MIN_DRAWS)
    return Key(eight_schools(variant).reference.mean[:2],
               _autocorrelation_time(variant) / np.sqrt(n_draws), ("E[mu]", "E[log tau]"),
               PS7_MIN_DRAWS)


def _answer(estimate, mcse, n_draws, size):
    problems = []
    for name, value in (("estimate", estimate), ("mcse", mcse)):
        array = np.asarray(value, dtype=float) if value is not None else None
        if array is None or array.shape != (size,) or not np.all(np.isfinite(array)):
            problems.append(f"{name} must be {size} finite numbers; got "
                            f"{'nothing' if array is None else f'shape {array.shape}'}")
        elif name == "mcse" and np.any(array <= 0):
            problems.append("every mcse must be > 0")
    if isinstance(n_draws, bool) or not isinstance(n_draws, (int, np.integer)) or n_draws < 1:
        problems.append(f"n_draws must be the number of draws you used, an integer; got {n_draws!r}")
    if problems:
        raise GradingError("\n".join(problems))


def check(variant, estimate, mcse, n_draws):
    """The visible check: the answer's form, and whether it lies within the z-score bound.

    Prints what passed and returns nothing (a test cell's value would be read by nbgrader as
    partial credit); raises :class:`~bayescomp.book.grading.GradingError` saying what is wrong.
    The MCSE is not judged here: the hidden tests do.
    """
    variant = _variant(variant, tuple(ASSIGNMENTS))
    answer_key = key(variant, 1)
    _answer(estimate, mcse, n_draws, len(answer_key.names))
    answer_key = key(variant, n_draws)
    result = answer_key.grade(estimate)
    grading.require(result)
    print(f"passed: within {result.bound:.2f} expected MCSEs of the exact value "
          f"({', '.join(answer_key.names)})")


def grade(variant, estimate, mcse, n_draws):
    """The hidden test: the variant is the student's own, the run is long enough, and the
    estimate and its MCSE pass :func:`bayescomp.book.grading.grade_estimate`. Returns nothing;
    raises :class:`~bayescomp.book.grading.GradingError` saying what is wrong."""
    variant = _variant(variant, tuple(ASSIGNMENTS))
    grading.check_variant(variant, student())
    answer_key = key(variant, 1)
    _answer(estimate, mcse, n_draws, len(answer_key.names))
    if n_draws < answer_key.min_draws:
        raise GradingError(f"the assignment asks for at least {answer_key.min_draws:,} draws; "
                           f"n_draws is {n_draws:,}")
    answer_key = key(variant, n_draws)
    grading.require(answer_key.grade(estimate, mcse))
