"""The logistic posterior predictive: the average over draws, and what surrounds it.

:func:`posterior_predictive` averages :math:`\\sigma(z^{*\\top}\\theta)` over weighted draws (grid
points, importance draws, MCMC draws, or a single point for the plug-in), and
:func:`gaussian_predictive` does it over the draws of a Gaussian approximation. The other two
are companions: the spread of the curve itself under the posterior (a picture of what averaging
does), and the probit approximation, which turns the average under a Gaussian into a closed form.
"""
from typing import NamedTuple

import numpy as np

from ._checks import (as_finite_array, generator, positive_definite_cholesky, positive_int,
                      unit_interval_float)
from .problem import design_matrix, sigmoid


class PredictiveBand(NamedTuple):
    """Pointwise quantiles of :math:`\\sigma(z^{*\\top}\\theta)` under weighted draws."""

    lower: np.ndarray
    median: np.ndarray
    upper: np.ndarray


def weighted_quantile(values, weights, probabilities):
    """Quantiles of each column of ``values`` (n, k) under weights (n,) summing to one."""
    order = np.argsort(values, axis=0)
    sorted_values = np.take_along_axis(values, order, axis=0)
    # Mid-point rule: each value sits at the centre of its own slice of probability.
    cumulative = np.cumsum(weights[order], axis=0) - 0.5 * weights[order]
    return np.stack([[np.interp(p, cumulative[:, j], sorted_values[:, j])
                      for j in range(values.shape[1])] for p in probabilities])


def predictive_band(x_new, draws, weights, level=0.9):
    r"""Central ``level`` band and median of the success probability at each new feature.

    Parameters
    ----------
    x_new : array_like, shape (k,)
    draws : array_like, shape (..., 2)
    weights : array_like, shape (...)
        Summing to one over ``draws`` (grid or importance weights).
    level : float
        Probability inside the band, in (0, 1).

    Returns
    -------
    PredictiveBand

    Notes
    -----
    The band is the range of plausible *curves* :math:`\sigma(\theta_0 + \theta_1 x^*)`, not of
    outcomes. The posterior predictive is the band's weighted mean, which can sit away from
    its median when the band is lopsided.
    """
    level = unit_interval_float(level, "level")
    z_new = design_matrix(np.atleast_1d(np.asarray(x_new, dtype=float)))
    flat = as_finite_array(draws, "draws").reshape(-1, 2)
    weights = as_finite_array(weights, "weights").reshape(-1)
    if weights.size != len(flat):
        raise ValueError(f"weights must have one entry per draw ({len(flat)}); got {weights.size}")
    curves = sigmoid(flat @ z_new.T)
    tail = (1 - level) / 2
    return PredictiveBand(*weighted_quantile(curves, weights, (tail, 0.5, 1 - tail)))


def probit_predictive(x_new, mean, cov):
    r"""Closed-form approximation to the predictive under :math:`\theta\sim N(\mu, \Sigma)`.

    Parameters
    ----------
    x_new : array_like, shape (k,)
    mean : array_like, shape (2,)
    cov : array_like, shape (2, 2)

    Returns
    -------
    ndarray, shape (k,)

    Notes
    -----
    With :math:`u = z^{*\top}\theta \sim N(\bar u, v)`, :math:`\bar u = z^{*\top}\mu`,
    :math:`v = z^{*\top}\Sigma z^*`, replace :math:`\sigma(u)` by the probit
    :math:`\Phi(\lambda u)`, :math:`\lambda^2 = \pi/8` (equal slopes at 0). The Gaussian average
    of a probit is a probit, which gives (MacKay, 1992; Bishop, 2006, section 4.5.2)

    .. math::

        \int\sigma(u)\,N(u; \bar u, v)\,du \approx \sigma\!\Big(\frac{\bar u}{\sqrt{1 + \pi v/8}}\Big).
    """
    mean = as_finite_array(mean, "mean", shape=(2,))
    cov = np.asarray(cov, dtype=float)
    positive_definite_cholesky(cov, "cov", 2)
    z_new = design_matrix(np.atleast_1d(np.asarray(x_new, dtype=float)))
    location = z_new @ mean
    variance = np.einsum("ki,ij,kj->k", z_new, cov, z_new)
    return sigmoid(location / np.sqrt(1 + np.pi * variance / 8))


def posterior_predictive(x_new, draws, weights=None):
    r"""Probability that ``y = 1`` at each new feature, averaged over parameter draws.

    Parameters
    ----------
    x_new : array_like, shape (k,)
        Features at which to predict.
    draws : array_like, shape (..., 2)
        Parameter values: grid points, importance draws, MCMC draws, or a single point.
    weights : array_like, shape (...), optional
        Weights summing to one over ``draws``; equal weights when omitted.

    Returns
    -------
    ndarray, shape (k,)

    Notes
    -----
    :math:`p(y^*=1 \mid x^*, \mathcal D) \approx \sum_s w_s\,\sigma(\theta_{s,0} + \theta_{s,1}x^*)`.
    A single draw (the MAP) gives the plug-in prediction.
    """
    z_new = design_matrix(np.atleast_1d(np.asarray(x_new, dtype=float)))
    draws = as_finite_array(draws, "draws")
    if draws.shape[-1] != 2:
        raise ValueError(f"draws must have shape (..., 2); got shape {draws.shape}")
    flat = draws.reshape(-1, 2)
    if weights is None:
        weights = np.full(len(flat), 1.0 / len(flat))
    else:
        weights = as_finite_array(weights, "weights")
        if weights.size != len(flat):
            raise ValueError(
                f"weights must have one entry per draw ({len(flat)}); got {weights.size}"
            )
        weights = weights.reshape(-1)
    return weights @ sigmoid(flat @ z_new.T)


def gaussian_predictive(x_new, mean, cov, n_draws, rng):
    r"""Posterior predictive under a Gaussian approximation, by averaging over its draws.

    Parameters
    ----------
    x_new : array_like, shape (k,)
    mean : array_like, shape (2,)
    cov : array_like, shape (2, 2)
        Symmetric positive definite (for mean-field VI, ``np.diag(sd**2)``).
    n_draws : int
    rng : np.random.Generator

    Returns
    -------
    ndarray, shape (k,)

    Notes
    -----
    :math:`\int \sigma(z^{*\top}\theta)\,N(\theta;\mu,\Sigma)\,d\theta \approx
    \frac1S\sum_s \sigma(z^{*\top}(\mu + L\varepsilon_s))`, with :math:`LL^\top = \Sigma`.
    """
    mean = as_finite_array(mean, "mean", shape=(2,))
    chol = positive_definite_cholesky(cov, "cov", 2)
    n_draws = positive_int(n_draws, "n_draws")
    noise = generator(rng).standard_normal((n_draws, 2))
    return posterior_predictive(x_new, mean + noise @ chol.T)
