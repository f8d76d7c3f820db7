"""The logistic posterior predictive beyond a plain average: a band of curves, and a formula.

:func:`~bayescomp.problem.posterior_predictive` averages :math:`\\sigma(z^{*\\top}\\theta)` over
weighted draws. Here are two companions: the spread of the curve itself under the posterior
(for a picture of what averaging does) and the probit approximation, which turns the average
under a Gaussian into a closed form.
"""
from typing import NamedTuple

import numpy as np

from ._checks import as_finite_array, positive_definite_cholesky
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
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level}")
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
    With :math:`u = z^{*\top}\theta \sim N(m, v)`, :math:`m = z^{*\top}\mu`,
    :math:`v = z^{*\top}\Sigma z^*`, replace :math:`\sigma(u)` by the probit
    :math:`\Phi(\lambda u)`, :math:`\lambda^2 = \pi/8` (equal slopes at 0). The Gaussian average
    of a probit is a probit, which gives (MacKay, 1992; Bishop, 2006, section 4.5.2)

    .. math::

        \int\sigma(u)\,N(u; m, v)\,du \approx \sigma\!\Big(\frac{m}{\sqrt{1 + \pi v/8}}\Big).
    """
    mean = as_finite_array(mean, "mean", shape=(2,))
    cov = np.asarray(cov, dtype=float)
    positive_definite_cholesky(cov, "cov", 2)
    z_new = design_matrix(np.atleast_1d(np.asarray(x_new, dtype=float)))
    location = z_new @ mean
    variance = np.einsum("ki,ij,kj->k", z_new, cov, z_new)
    return sigmoid(location / np.sqrt(1 + np.pi * variance / 8))
