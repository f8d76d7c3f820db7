"""Simulated students: honest and faulty Monte Carlo answers, many at once.

The grading checks (tests/package/test_grading.py, quick) and the grading report
(``python -m tools.course.rates``, long) both draw their students from here, so the two grade
the same runs. Each function returns estimates and the MCSEs a student would report, one row
per simulated student.
"""
from typing import NamedTuple

import numpy as np

import bayescomp as bc
from bayescomp.book import grading, homework

# The assignments' Monte Carlo settings (course/source/*): what every student is asked to run.
IMPORTANCE_DRAWS = homework.PS2_MIN_DRAWS
CHAINS = homework.PS3_CHAINS
STEPS, WARMUP = 3_000, 1_000
SCALE = homework.PS3_SCALE
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
    runs = bc.importance_runs(reference.target, np.tile(mean, (n_students, 1)),
                              np.broadcast_to(cov, (n_students, *cov.shape)), n_draws, rng)
    estimates, mcse = bc.weighted_estimates(runs.draws, bc.normalized_weights(runs.log_weights))
    return Answers(estimates, mcse, np.full(n_students, n_draws))


def _starts(reference, n_students):
    return np.tile(np.asarray(reference.settings.mcmc_starts, dtype=float), (n_students, 1))


def metropolis_answers(reference, n_students, rng, fault=None, steps=STEPS, warmup=WARMUP):
    """Metropolis answers, honest (``fault=None``) or with a student's bug.

    ``"squared ratio"`` accepts with :math:`(\\tilde p'/\\tilde p)^2` and ``"square-root ratio"``
    with :math:`(\\tilde p'/\\tilde p)^{1/2}`: wrong acceptance ratios, whose chains target
    :math:`p^2` and :math:`p^{1/2}`. Each answer is the posterior mean and variance of each
    parameter (:func:`bayescomp.book.homework.mean_and_variance`), with :func:`bayescomp.mcse_mean`.
    """
    if fault not in FAULTS:
        raise ValueError(f"fault must be one of {FAULTS}; got {fault!r}")
    chol = SCALE * np.linalg.cholesky(reference.laplace.cov)
    target = reference.target
    if fault is not None:
        target = target._replace(  # a tempered or sharpened target: only its density is used
            log_density=lambda theta: POWER[fault] * reference.target.log_density(theta))
    run = bc.run_metropolis_chains(target, _starts(reference, n_students), chol, steps, rng, warmup)
    draws = run.draws.reshape(n_students, CHAINS, -1, run.draws.shape[-1])
    values = [homework.mean_and_variance(d) for d in draws]
    estimates = np.array([v.mean(axis=(0, 1)) for v in values])
    mcse = np.array([bc.mcse_mean(v) for v in values])
    return Answers(estimates, mcse, np.full(n_students, draws[0, ..., 0].size))


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


def predictive_answers(variant, n_draws, n_students, rng):
    """Honest answers to ps4: the Laplace predictive at PS4_X_NEW by plain Monte Carlo."""
    laplace = homework.logistic_reference(variant).laplace
    theta = laplace.mean + rng.standard_normal((n_students, n_draws, 2)) @ np.linalg.cholesky(
        laplace.cov).T
    values = bc.sigmoid(theta @ np.vstack([np.ones(len(homework.PS4_X_NEW)), homework.PS4_X_NEW]))
    return Answers(values.mean(axis=1), values.std(axis=1, ddof=1) / np.sqrt(n_draws),
                   np.full(n_students, n_draws))


def hierarchical_answers(variant, n_students, rng, steps=6_000, warmup=2_000):
    """Honest answers to ps7: E[mu], E[log tau] from four non-centred Metropolis chains."""
    problem = homework.eight_schools(variant)
    target = bc.hierarchical_target(problem.data, "non-centred")
    starts = np.tile(homework.eight_schools_starts(variant), (n_students, 1))
    run = bc.run_metropolis_chains(target, starts, np.diag(problem.proposal_sd), steps, rng,
                        warmup)
    hyper = run.draws[..., :2].reshape(n_students, homework.PS7_CHAINS, -1, 2)
    return Answers(hyper.mean(axis=(1, 2)), np.array([bc.mcse_mean(h) for h in hyper]),
                   np.full(n_students, hyper[0, ..., 0].size))


def grade_against_key(answers, variant):
    """Whether each answer fails when graded against ``variant``'s key at its own length."""
    fails = []
    for estimate, mcse, n_draws in zip(*answers):
        key = homework.key(variant, n_draws)
        fails.append(not key.grade(estimate, mcse).passed)
    return np.array(fails)
