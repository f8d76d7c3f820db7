"""Self-normalized importance sampling with a Gaussian proposal."""
from typing import NamedTuple

import numpy as np

from ._checks import (as_finite_array, generator, positive_definite_cholesky, positive_int,
                      probability_vector)
from .gaussian import gaussian_logpdf


class ImportanceResult(NamedTuple):
    """Weighted draws and the estimates they give.

    Attributes
    ----------
    draws : ndarray, shape (n, d)
        Draws from the proposal.
    log_weights : ndarray, shape (n,)
        Unnormalized log weights, ``log p~ - log q``.
    weights : ndarray, shape (n,)
        Self-normalized weights, summing to one.
    mean : ndarray, shape (d,)
        The weighted mean of the draws.
    ess : float
        The weight effective sample size ``1 / sum(weights**2)``.
    max_weight : float
        The largest normalized weight.
    """

    draws: np.ndarray
    log_weights: np.ndarray
    weights: np.ndarray
    mean: np.ndarray
    ess: float
    max_weight: float

    def expectation(self, function):
        """Self-normalized estimate of ``E[function(theta)]``; ``function`` maps (n, d) -> (n, ...)."""
        return np.tensordot(self.weights, function(self.draws), axes=1)


def weight_ess(weights):
    r"""Effective sample size of normalized importance weights.

    Notes
    -----
    :math:`\mathrm{ESS} = 1/\sum_s \bar w_s^2`: it equals :math:`n` for equal weights and 1 when a
    single weight holds all the mass (Kong, 1992; Owen, 2013, section 9.3).
    """
    weights = probability_vector(weights, "weights")
    return float(1.0 / np.sum(weights**2))


def importance_sample(log_density, proposal_mean, proposal_cov, n_draws, rng):
    r"""Self-normalized importance sampling from :math:`q = N(\mu, \Sigma)`.

    Parameters
    ----------
    log_density : callable
        ``theta (n, d) -> (n,)``, an unnormalized log target.
    proposal_mean : array_like, shape (d,)
    proposal_cov : array_like, shape (d, d)
        Symmetric positive definite.
    n_draws : int
    rng : np.random.Generator

    Returns
    -------
    ImportanceResult

    Notes
    -----
    With :math:`\theta_s \sim q` and :math:`w_s = \tilde p(\theta_s)/q(\theta_s)`,

    .. math::

        \mathbb E_p[f] \approx \sum_s \bar w_s f(\theta_s),\qquad
        \bar w_s = w_s / \textstyle\sum_r w_r .

    The unknown normalizing constant of :math:`\tilde p` cancels in :math:`\bar w`
    (Owen, 2013, chapter 9).
    """
    proposal_mean = as_finite_array(proposal_mean, "proposal_mean", ndim=1)
    positive_definite_cholesky(proposal_cov, "proposal_cov", proposal_mean.size)
    n_draws = positive_int(n_draws, "n_draws")
    rng = generator(rng)
    draws = rng.multivariate_normal(proposal_mean, proposal_cov, n_draws)
    log_weights = log_density(draws) - gaussian_logpdf(draws, proposal_mean, proposal_cov)
    return weighted_result(draws, log_weights)


def weighted_result(draws, log_weights):
    """Normalize log weights and summarize the weighted draws as an :class:`ImportanceResult`."""
    # Subtract the maximum before exponentiating so the largest weight is exp(0) = 1.
    weights = np.exp(log_weights - log_weights.max())
    weights /= weights.sum()
    return ImportanceResult(draws, log_weights, weights, weights @ draws,
                            weight_ess(weights), float(weights.max()))
