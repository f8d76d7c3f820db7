"""Self-normalized importance sampling with a Gaussian proposal."""
from typing import NamedTuple

import numpy as np

from ._checks import (as_finite_array, generator, positive_definite_cholesky, positive_int,
                      probability_vector, target_functions)
from .gaussian import gaussian_log_density


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


def importance_sample(target, proposal_mean, proposal_cov, n_draws, rng):
    r"""Self-normalized importance sampling from :math:`q = N(\mu, \Sigma)`.

    Parameters
    ----------
    target : Target
        The unnormalized log target (its ``log_density``, ``theta (n, d) -> (n,)``).
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
    positive_definite_cholesky(proposal_cov, "proposal_cov", proposal_mean.size,
                               "proposal_mean")
    log_density = target_functions(target, proposal_mean.size)
    n_draws = positive_int(n_draws, "n_draws")
    rng = generator(rng)
    draws = rng.multivariate_normal(proposal_mean, proposal_cov, n_draws)
    log_weights = log_density(draws) - gaussian_log_density(draws, proposal_mean, proposal_cov)
    return weighted_result(draws, log_weights)


class ImportanceRuns(NamedTuple):
    """Many importance-sampling runs, one Gaussian proposal each.

    Attributes
    ----------
    draws : ndarray, shape (run, n, d)
    log_weights : ndarray, shape (run, n)
        Unnormalized log weights, ``log p~ - log q`` of each run's own proposal.
    """

    draws: np.ndarray
    log_weights: np.ndarray


def importance_runs(target, proposal_means, proposal_covs, n_draws, rng):
    r"""Many runs of :func:`importance_sample` at once, each with its own Gaussian proposal.

    Parameters
    ----------
    target : Target
        The unnormalized log target (its ``log_density``, vectorized over leading axes).
    proposal_means : array_like, shape (run, d)
    proposal_covs : array_like, shape (run, d, d)
        Each symmetric positive definite.
    n_draws : int
        Draws per run.
    rng : np.random.Generator

    Returns
    -------
    ImportanceRuns

    Notes
    -----
    Run :math:`r` draws :math:`\theta = \mu_r + L_r z` with :math:`L_r L_r^\top = \Sigma_r` and
    :math:`z \sim N(0, I)` (every run's :math:`z` from one ``standard_normal`` call), so that
    :math:`\log q_r(\theta) = -\tfrac12 z^\top z - \sum_i \log (L_r)_{ii} - \tfrac d2\log 2\pi`.
    """
    means = as_finite_array(proposal_means, "proposal_means", ndim=2)
    n_run, dim = means.shape
    covs = as_finite_array(proposal_covs, "proposal_covs", shape=(n_run, dim, dim))
    factors = np.array([positive_definite_cholesky(cov, f"proposal_covs[{r}]", dim)
                        for r, cov in enumerate(covs)])
    log_density = target_functions(target, dim)
    noise = generator(rng).standard_normal((n_run, positive_int(n_draws, "n_draws"), dim))
    draws = means[:, None] + noise @ np.swapaxes(factors, -1, -2)
    log_q = (-0.5 * np.sum(noise**2, axis=-1) - np.log(np.diagonal(factors, axis1=1, axis2=2))
             .sum(axis=-1)[:, None] - 0.5 * dim * np.log(2 * np.pi))
    return ImportanceRuns(draws, log_density(draws) - log_q)


def normalized_weights(log_weights):
    """Self-normalized weights from log weights, along the last axis (one run or many)."""
    # Subtract the maximum before exponentiating so the largest weight is exp(0) = 1.
    weights = np.exp(log_weights - np.max(log_weights, axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def weighted_estimates(values, weights):
    r"""Self-normalized estimates and their Monte Carlo standard errors, for one run or many.

    Parameters
    ----------
    values : ndarray, shape (..., n, k)
        :math:`f(\theta_s)` for each draw, ``k`` functions at once.
    weights : ndarray, shape (..., n)
        Self-normalized weights of each run.

    Returns
    -------
    estimates, mcse : ndarray, shape (..., k)

    Notes
    -----
    :math:`\hat\mu = \sum_s \bar w_s f(\theta_s)`, with the delta-method standard error
    :math:`\sqrt{\sum_s \bar w_s^2 (f(\theta_s) - \hat\mu)^2}` (Owen, 2013, section 9.2), as in
    :func:`bayescomp.importance_mcse`.
    """
    estimates = np.einsum("...n,...nk->...k", weights, values)
    spread = np.einsum("...n,...nk->...k", weights**2, (values - estimates[..., None, :]) ** 2)
    return estimates, np.sqrt(spread)


def weighted_result(draws, log_weights):
    """Normalize log weights and summarize the weighted draws as an :class:`ImportanceResult`."""
    weights = normalized_weights(log_weights)
    return ImportanceResult(draws, log_weights, weights, weights @ draws,
                            weight_ess(weights), float(weights.max()))


class LogNormalizerEstimate(NamedTuple):
    """An importance-sampling estimate of :math:`\\log Z` and its standard error."""

    estimate: float
    standard_error: float


def log_normalizer_estimate(result):
    r"""Estimate :math:`\log Z = \log\int\tilde p(\theta)\,d\theta` from importance weights.

    Parameters
    ----------
    result : ImportanceResult
        From a proposal with a normalized density, so that ``log_weights`` are
        :math:`\log\tilde p - \log q`.

    Returns
    -------
    LogNormalizerEstimate

    Notes
    -----
    The average unnormalized weight :math:`\hat Z = \frac1S\sum_s w_s` is unbiased for
    :math:`Z`, with relative variance exactly :math:`\mathrm{Var}_q(w)/(S Z^2)`, estimated from
    the same weights as :math:`(S/\mathrm{ESS}_w - 1)/S`; by the delta method, then,

    .. math::

        \mathrm{se}(\log\hat Z) \approx \sqrt{1/\mathrm{ESS}_w - 1/S}

    (Owen, 2013, section 9.2). Like every error bar computed from the weights, it rests on their
    variance being finite, and it only sees the draws that were made.
    """
    log_weights = as_finite_array(result.log_weights, "result.log_weights", ndim=1)
    size = log_weights.size
    peak = log_weights.max()
    estimate = peak + np.log(np.mean(np.exp(log_weights - peak)))
    return LogNormalizerEstimate(float(estimate), float(np.sqrt(max(1 / result.ess - 1 / size, 0))))


def weight_second_moment_within(log_density, log_normalizer, mean, cov, radii, n_angles=180,
                                steps_per_unit=20):
    r"""Second moment of the weights :math:`p/q` over growing discs of a 2-D Gaussian :math:`q`.

    Parameters
    ----------
    log_density : callable
        ``theta (..., 2) -> (...)``, the unnormalized log target :math:`\log\tilde p`.
    log_normalizer : float
        :math:`\log Z`, so that :math:`p = \tilde p/Z` is normalized (from a converged grid).
    mean, cov : array_like, shapes (2,) and (2, 2)
        The proposal :math:`q = N(\mu, \Sigma)`.
    radii : array_like, shape (k,)
        Increasing radii :math:`R > 0` in :math:`q`'s standardized units.
    n_angles, steps_per_unit : int
        Quadrature points around each circle, and per unit of radius.

    Returns
    -------
    ndarray, shape (k,)
        :math:`\mathbb E_q[w^2;\ \rho < R]` for each :math:`R`.

    Notes
    -----
    Write :math:`\theta = \mu + L(\rho\cos\varphi, \rho\sin\varphi)` with
    :math:`LL^\top = \Sigma`; in these coordinates :math:`q` is the standard normal, so

    .. math::

        \mathbb E_q[w^2;\ \rho < R] = \int_0^R\!\int_0^{2\pi}
            \Big(\frac{p(\theta)}{q(\theta)}\Big)^2 \frac{e^{-\rho^2/2}}{2\pi}\,\rho\,
            d\varphi\,d\rho,

    computed by the midpoint rule in log space. :math:`q` puts mass :math:`e^{-R^2/2}` outside
    radius :math:`R`, so a run of :math:`S` draws reaches about
    :math:`R = \sqrt{2\ln S}` (on average one draw lies beyond it) and seldom goes much
    further. When the full second moment is infinite, the truncated
    one says where the divergence starts, and whether a feasible run can reach it
    (Owen, 2013, section 9.1).
    """
    log_normalizer = float(as_finite_array(log_normalizer, "log_normalizer", ndim=0))
    mean = as_finite_array(mean, "mean", shape=(2,))
    chol = positive_definite_cholesky(cov, "cov", 2)
    radii = as_finite_array(radii, "radii", ndim=1)
    if radii.size == 0 or radii[0] <= 0 or np.any(np.diff(radii) <= 0):
        raise ValueError(f"radii must be positive and increasing; got {radii.tolist()}")
    n_angles = positive_int(n_angles, "n_angles", 8)
    steps_per_unit = positive_int(steps_per_unit, "steps_per_unit", 2)
    # Midpoints of the radial and angular cells.
    step = 1.0 / steps_per_unit
    rho = np.arange(0.5, int(np.ceil(radii[-1] * steps_per_unit))) * step
    angle = (np.arange(n_angles) + 0.5) * 2 * np.pi / n_angles
    circle = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    theta = mean + (rho[:, None, None] * circle) @ chol.T
    # log q in standardized coordinates; log w = log p~ - log Z - log q.
    log_q = -0.5 * rho**2 - np.log(2 * np.pi) - np.log(np.diag(chol)).sum()
    log_w = log_density(theta) - log_normalizer - log_q[:, None]
    # Integrand w^2 * (standard normal density) * rho, summed over each ring.
    log_ring = np.logaddexp.reduce(2 * log_w - 0.5 * rho[:, None] ** 2, axis=1) \
        + np.log(rho * step / n_angles)
    cumulative = np.exp(np.logaddexp.accumulate(log_ring))
    # The ring ending at or just below each radius.
    index = np.searchsorted(rho + 0.5 * step, radii + 1e-12 * step, side="right") - 1
    return cumulative[np.clip(index, 0, None)]
