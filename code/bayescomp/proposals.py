"""Importance sampling from any proposal, including ones that are safe by construction.

A proposal here is anything with ``sample(n, rng) -> (n, d)`` and ``log_density(theta)``.
:func:`importance_sample` in :mod:`bayescomp.importance` is the Gaussian special case that the
lecture uses; this module adds heavy-tailed and defensive proposals and the Monte Carlo
standard error of a self-normalized estimate.
"""
from math import lgamma, log, pi
from typing import Callable, NamedTuple

import numpy as np

from ._checks import (as_finite_array, generator, positive_definite_cholesky, positive_float,
                      positive_int, target_functions, unit_interval_float)
from .gaussian import gaussian_log_density
from .importance import weighted_result


class Proposal(NamedTuple):
    """A distribution we can sample and whose normalized log density we can evaluate."""

    sample: Callable
    log_density: Callable
    name: str


def gaussian_proposal(mean, cov):
    """:math:`N(\\mu, \\Sigma)`, sampled exactly as :func:`importance_sample` samples it."""
    mean = as_finite_array(mean, "mean", ndim=1)
    cov = np.asarray(cov, dtype=float)
    positive_definite_cholesky(cov, "cov", mean.size, "mean")
    return Proposal(lambda n, rng: rng.multivariate_normal(mean, cov, n),
                    lambda theta: gaussian_log_density(theta, mean, cov), "Gaussian")


def student_t_proposal(mean, cov, df):
    r"""Multivariate Student-t with location ``mean``, scale matrix ``cov`` and ``df`` degrees.

    Notes
    -----
    A draw is :math:`\mu + L z\sqrt{\nu/g}` with :math:`LL^\top = \Sigma`, :math:`z\sim N(0, I)`
    and :math:`g\sim\chi^2_\nu`. Its density,

    .. math::

        q(\theta) = \frac{\Gamma(\frac{\nu+d}{2})}{\Gamma(\frac\nu2)(\nu\pi)^{d/2}|\Sigma|^{1/2}}
            \Big(1 + \tfrac{\delta^2}{\nu}\Big)^{-(\nu+d)/2},\qquad
            \delta^2 = (\theta-\mu)^\top\Sigma^{-1}(\theta-\mu),

    falls off polynomially, so it dominates any target with Gaussian tails and the weights
    :math:`p/q` stay bounded (Owen, 2013, section 9.6; Geweke, 1989).
    """
    mean = as_finite_array(mean, "mean", ndim=1)
    chol = positive_definite_cholesky(cov, "cov", mean.size, "mean")
    df = positive_float(df, "df")
    dim = mean.size
    log_norm = (lgamma((df + dim) / 2) - lgamma(df / 2) - dim / 2 * log(df * pi)
                - np.log(np.diag(chol)).sum())

    def sample(n, rng):
        normal = rng.standard_normal((n, dim))
        scale = np.sqrt(df / rng.chisquare(df, n))
        return mean + (normal @ chol.T) * scale[:, None]

    def log_density(theta):
        # Solve with the Cholesky factor rather than inverting the scale matrix.
        centred = np.linalg.solve(chol, (np.asarray(theta) - mean).T).T
        return log_norm - (df + dim) / 2 * np.log1p((centred**2).sum(axis=-1) / df)

    return Proposal(sample, log_density, f"Student-t ({df:g} df)")


def defensive_mixture(main, fallback, fallback_weight):
    r"""The mixture :math:`(1-\alpha)\,q_{\mathrm{main}} + \alpha\,q_{\mathrm{fallback}}`.

    Notes
    -----
    With a fallback that covers the target's tails (for a posterior, the prior), every weight
    obeys :math:`p/q \le p/(\alpha q_{\mathrm{fallback}})`, so a bounded likelihood keeps the
    weights bounded whatever the main proposal misses (Hesterberg, 1995).
    """
    alpha = unit_interval_float(fallback_weight, "fallback_weight")

    def sample(n, rng):
        # One uniform per draw chooses the component; both components are drawn in full.
        from_fallback = rng.random(n) < alpha
        return np.where(from_fallback[:, None], fallback.sample(n, rng), main.sample(n, rng))

    def log_density(theta):
        return np.logaddexp(np.log1p(-alpha) + main.log_density(theta),
                            np.log(alpha) + fallback.log_density(theta))

    return Proposal(sample, log_density, f"{main.name} + {alpha:g} x {fallback.name}")


def importance_sample_from(target, proposal, n_draws, rng):
    """Self-normalized importance sampling of ``target`` (a :class:`~bayescomp.problem.Target`)
    from any :class:`Proposal`.

    Returns the same :class:`ImportanceResult` as :func:`importance_sample`; with
    ``gaussian_proposal(mean, cov)`` and the same generator it gives the same draws.
    """
    n_draws = positive_int(n_draws, "n_draws")
    log_density = target_functions(target)
    rng = generator(rng)
    draws = proposal.sample(n_draws, rng)
    return weighted_result(draws, log_density(draws) - proposal.log_density(draws))


def importance_mcse(result, function=None):
    r"""Monte Carlo standard error of a self-normalized estimate.

    Parameters
    ----------
    result : ImportanceResult
    function : callable, optional
        ``theta (n, d) -> (n, ...)``; the error of ``result.expectation(function)``. By default
        the error of the mean, one value per parameter.

    Notes
    -----
    By the delta method (Owen, 2013, equation 9.8), the variance of
    :math:`\hat\mu = \sum_s \bar w_s f(\theta_s)` is estimated by

    .. math::

        \widehat{\mathrm{Var}}(\hat\mu) = \sum_s \bar w_s^2\,(f(\theta_s) - \hat\mu)^2 .

    Like the weight ESS, it only sees the draws that were made: when the weights have infinite
    variance it can be badly optimistic.
    """
    values = result.draws if function is None else function(result.draws)
    estimate = np.tensordot(result.weights, values, axes=1)
    return np.sqrt(np.tensordot(result.weights**2, (values - estimate) ** 2, axes=1))
