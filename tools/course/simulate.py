"""Simulated students: honest and faulty Monte Carlo answers, many at once.

The grading checks (tests/package/test_grading.py, quick) and the grading report
(``python -m tools.course.rates``, long) both draw their students from here, so the two grade
the same runs. Each function returns estimates and the MCSEs a student would report, one row
per simulated student.
"""
from typing import NamedTuple

import numpy as np

import bayescomp as bc
from bayescomp import grading

# The assignments' Monte Carlo settings (course/source/*): what every student is asked to run.
IMPORTANCE_DRAWS = 20_000
CHAINS = 4
STEPS, WARMUP = 3_000, 1_000
SCALE = 1.1
FAULTS = (None, "squared ratio", "square-root ratio")
# A wrong acceptance ratio (p'/p)**power makes the chain target p**power.
POWER = {"squared ratio": 2.0, "square-root ratio": 0.5}


class Answers(NamedTuple):
    """Estimates ``(student, K)``, the MCSEs they report ``(student, K)``, and the number of
    draws each used (kept draws, all chains together)."""

    estimates: np.ndarray
    mcse: np.ndarray
    n_draws: np.ndarray


def prior_proposal(reference):
    """The prior N(0, prior_var I), the proposal of the importance-sampling assignment."""
    dim = reference.target.dim
    return np.zeros(dim), reference.settings.prior_var * np.eye(dim)


def importance_answers(reference, n_draws, n_students, rng):
    """Honest self-normalized importance sampling from the prior, with its delta-method MCSE."""
    mean, cov = prior_proposal(reference)
    runs = bc.importance_runs(reference.target.log_density, np.tile(mean, (n_students, 1)),
                              np.broadcast_to(cov, (n_students, *cov.shape)), n_draws, rng)
    estimates, mcse = bc.weighted_estimates(runs.draws, bc.normalized_weights(runs.log_weights))
    return Answers(estimates, mcse, np.full(n_students, n_draws))


def proposal_factor(reference, scale=SCALE):
    """``scale`` times the Cholesky factor of the Laplace covariance: the assignment's proposal."""
    return scale * np.linalg.cholesky(reference.laplace.cov)


def _starts(reference, n_students):
    return np.tile(np.asarray(reference.settings.mcmc_starts, dtype=float), (n_students, 1))


def metropolis_answers(reference, n_students, rng, fault=None, steps=STEPS, warmup=WARMUP):
    """Metropolis answers, honest (``fault=None``) or with a student's bug.

    ``"squared ratio"`` accepts with :math:`(\\tilde p'/\\tilde p)^2` and ``"square-root ratio"``
    with :math:`(\\tilde p'/\\tilde p)^{1/2}`: wrong acceptance ratios, whose chains target
    :math:`p^2` and :math:`p^{1/2}`. The reported MCSE is :func:`bayescomp.mcse_mean`.
    """
    if fault not in FAULTS:
        raise ValueError(f"fault must be one of {FAULTS}; got {fault!r}")
    chol = proposal_factor(reference)
    log_density = reference.target.log_density
    if fault is not None:
        log_density = lambda theta: POWER[fault] * reference.target.log_density(theta)  # noqa: E731
    run = bc.run_chains(log_density, _starts(reference, n_students), chol, steps, rng, warmup)
    draws = run.draws.reshape(n_students, CHAINS, -1, run.draws.shape[-1])
    estimates = draws.mean(axis=(1, 2))
    mcse = np.array([bc.mcse_mean(d) for d in draws])
    return Answers(estimates, mcse, np.full(n_students, draws[0, ..., 0].size))


def expected_metropolis_mcse(reference, n_draws, rng, n_chains=16, n_steps=20_000):
    """The grader's expected MCSE of the Metropolis mean at ``n_draws`` kept draws."""
    starts = grading.grid_draws(reference.grid, n_chains, rng)
    return grading.metropolis_expected_mcse(reference.target.log_density, starts,
                                            proposal_factor(reference), reference.grid.sd,
                                            int(n_draws), rng, n_steps)


def grade_all(answers, exact, expected_mcse):
    """Whether each student fails: a bool per row of ``answers``."""
    return np.array([not grading.grade_estimate(e, exact, expected_mcse, m).passed
                     for e, m in zip(answers.estimates, answers.mcse)])


def binomial_upper_tail(count, trials, rate):
    """P(X >= count) for X ~ Binomial(trials, rate), summed exactly."""
    return float(sum(np.exp(_log_binomial(k, trials, rate)) for k in range(count, trials + 1)))


def _log_binomial(k, n, p):
    from math import lgamma, log
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(p) + (n - k) * log(1 - p)
