"""The grid reference: the posterior evaluated on a dense tensor grid.

This is an audit, not an algorithm: ``m`` points per axis cost ``m**d`` density evaluations, which
is fine for two parameters and hopeless for twenty.
"""
from typing import NamedTuple

import numpy as np

from ._checks import as_finite_array, positive_int


class GridResult(NamedTuple):
    """A normalized posterior on a tensor grid.

    Attributes
    ----------
    axes : tuple of ndarray
        The grid coordinates of each parameter.
    points : ndarray, shape (m_0, ..., m_{d-1}, d)
        Every grid point (``ij`` indexing).
    log_density : ndarray, shape (m_0, ..., m_{d-1})
        The unnormalized log density at each point.
    weights : ndarray, shape (m_0, ..., m_{d-1})
        Normalized weights, summing to one.
    mean, sd : ndarray, shape (d,)
    cov, corr : ndarray, shape (d, d)
    marginals : tuple of ndarray
        Marginal weights along each axis (each sums to one).
    """

    axes: tuple
    points: np.ndarray
    log_density: np.ndarray
    weights: np.ndarray
    mean: np.ndarray
    cov: np.ndarray
    sd: np.ndarray
    corr: np.ndarray
    marginals: tuple


def grid_posterior(log_density, bounds, resolution=241):
    r"""Evaluate and normalize a density on an evenly spaced tensor grid.

    Parameters
    ----------
    log_density : callable
        ``theta (..., d) -> (...)``, an unnormalized log density.
    bounds : array_like, shape (d, 2)
        ``(low, high)`` for each parameter; the grid includes both ends.
    resolution : int or sequence of int
        Points per axis.

    Returns
    -------
    GridResult

    Notes
    -----
    The weights are :math:`w_j \propto \exp(\log\tilde p(\theta_j) - \max_k \log\tilde p(\theta_k))`,
    normalized to sum to one, so that
    :math:`\mathbb E[f(\theta)] \approx \sum_j w_j f(\theta_j)`. Subtracting the maximum before
    exponentiating keeps the largest term at 1 and avoids overflow.
    """
    bounds = as_finite_array(bounds, "bounds", shape=(None, 2))
    if np.any(bounds[:, 0] >= bounds[:, 1]):
        raise ValueError(f"bounds must be rows (low, high) with low < high; got {bounds.tolist()}")
    dim = len(bounds)
    sizes = [positive_int(m, "resolution", 2) for m in np.broadcast_to(resolution, (dim,)).tolist()]
    # Build the grid points with ij indexing, coordinates on the last axis.
    axes = tuple(np.linspace(low, high, m) for (low, high), m in zip(bounds, sizes))
    points = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
    # Normalize in log space first so that exp never overflows.
    log_values = np.asarray(log_density(points))
    weights = np.exp(log_values - log_values.max())
    weights /= weights.sum()
    # Moments are weighted sums over all grid points.
    flat_points, flat_weights = points.reshape(-1, dim), weights.reshape(-1)
    mean = flat_weights @ flat_points
    centred = flat_points - mean
    cov = (centred * flat_weights[:, None]).T @ centred
    sd = np.sqrt(np.diag(cov))
    marginals = tuple(
        weights.sum(axis=tuple(a for a in range(dim) if a != axis)) for axis in range(dim)
    )
    return GridResult(axes, points, log_values, weights, mean, cov, sd, cov / np.outer(sd, sd),
                      marginals)
