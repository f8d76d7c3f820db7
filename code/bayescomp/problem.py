"""The running example: Bayesian logistic regression with two parameters.

Shape convention for the whole package: a parameter vector ``theta`` has its coordinates on the
last axis, so ``theta`` may be ``(2,)``, ``(n_draws, 2)`` or ``(chain, draw, 2)``; every density,
gradient and predictive function broadcasts over the leading axes.
"""
from typing import Callable, NamedTuple

import numpy as np

from ._checks import as_finite_array, positive_float, positive_int

# The logistic target evaluates many points at once in blocks of rows, so that each of its
# (points, observations) temporaries holds at most this many numbers (16 MB) whatever the number
# of points or observations: half a million draws, or a 121 x 121 grid with 1,280 observations,
# would otherwise take 0.6 to 1 GB.
ELEMENTS_PER_BLOCK = 2**21


def in_blocks(function, dim, n_obs):
    """``function`` of points ``(..., dim)``, evaluated a block of points at a time when there are
    many, so that no (points, ``n_obs``) temporary holds more than :data:`ELEMENTS_PER_BLOCK`
    numbers. Each point's value is computed on its own either way, so the values are the same."""
    rows = max(1, ELEMENTS_PER_BLOCK // n_obs)

    def blocked(theta):
        theta = np.asarray(theta, dtype=float)
        if theta.size // dim <= rows:
            return function(theta)
        flat = theta.reshape(-1, dim)
        values = [function(flat[start:start + rows]) for start in range(0, len(flat), rows)]
        return np.concatenate(values).reshape(theta.shape[:-1])

    return blocked


class LogisticData(NamedTuple):
    """A simulated logistic-regression data set.

    Attributes
    ----------
    x : ndarray, shape (n,)
        The scalar features.
    design : ndarray, shape (n, 2)
        Rows ``(1, x_i)``: an intercept column and the feature.
    y : ndarray, shape (n,)
        The 0/1 labels.
    theta_true : ndarray, shape (2,)
        The coefficients the labels were simulated from.
    """

    x: np.ndarray
    design: np.ndarray
    y: np.ndarray
    theta_true: np.ndarray


class Target(NamedTuple):
    """An unnormalized log density and the derivatives that the methods need.

    Attributes
    ----------
    log_density : callable
        ``theta (..., d) -> (...)``, the log of the density up to an additive constant.
    grad_log_density : callable
        ``theta (..., d) -> (..., d)``.
    neg_hessian : callable
        ``theta (d,) -> (d, d)``, minus the Hessian of ``log_density``.
    dim : int
        The number of parameters ``d``.

    Notes
    -----
    ``log_density`` and ``grad_log_density`` run in every sampler's inner loop, so they do not
    validate ``theta``: the method that calls them checks its inputs once. Like NumPy's ufuncs,
    they return NaN or inf for a non-finite ``theta``.
    """

    log_density: Callable
    grad_log_density: Callable
    neg_hessian: Callable
    dim: int


def sigmoid(z):
    r"""Logistic function, computed without overflow.

    Notes
    -----
    :math:`\sigma(z) = 1/(1+e^{-z}) = \exp(-\log(1 + e^{-z}))`, and ``np.logaddexp(0, -z)``
    evaluates :math:`\log(1+e^{-z})` stably for large :math:`|z|`.
    """
    return np.exp(-np.logaddexp(0.0, -np.asarray(z, dtype=float)))


def design_matrix(x):
    """Rows ``(1, x_i)`` for features ``x`` of shape ``(n,)``."""
    x = as_finite_array(x, "x", ndim=1)
    return np.column_stack([np.ones_like(x), x])


def make_data(seed=12, n=80, theta_true=(-0.4, 1.3), x_range=(-2.5, 2.5)):
    r"""Simulate the book's data set.

    Parameters
    ----------
    seed : int
        Seed for ``np.random.default_rng``.
    n : int
        Number of observations.
    theta_true : array_like, shape (2,)
        Intercept and slope used to simulate the labels.
    x_range : tuple of float
        Features are uniform on this interval.

    Returns
    -------
    LogisticData

    Notes
    -----
    The order of random draws is part of the protocol: first all ``n`` features in one
    ``uniform`` call, then all labels in one ``binomial(1, p)`` call with
    :math:`p_i = \sigma(\theta_0 + \theta_1 x_i)`.
    """
    n = positive_int(n, "n")
    theta_true = as_finite_array(theta_true, "theta_true", shape=(2,))
    low, high = as_finite_array(x_range, "x_range", shape=(2,))
    if not low < high:
        raise ValueError(f"x_range must be (low, high) with low < high; got {tuple(x_range)}")
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, n)
    design = design_matrix(x)
    y = rng.binomial(1, sigmoid(design @ theta_true)).astype(float)
    return LogisticData(x, design, y, theta_true)


def logistic_posterior(data, prior_var=4.0):
    r"""The unnormalized posterior of logistic regression under a N(0, prior_var I) prior.

    Parameters
    ----------
    data : LogisticData
    prior_var : float
        Prior variance :math:`\tau^2` of each coefficient.

    Returns
    -------
    Target

    Notes
    -----
    With :math:`\eta = X\theta`,

    .. math::

        \log \tilde p(\theta) = \sum_i \big[y_i \eta_i - \log(1 + e^{\eta_i})\big]
            - \frac{\lVert\theta\rVert^2}{2\tau^2},

        \nabla \log \tilde p = X^\top\big(y - \sigma(\eta)\big) - \theta/\tau^2,

    and minus the Hessian is :math:`X^\top \operatorname{diag}(\sigma(1-\sigma)) X + I/\tau^2`.
    See Bishop (2006), section 4.5. The prior's constant :math:`(2\pi\tau^2)^{-d/2}` is left
    out, so :math:`\tilde p = (2\pi\tau^2)^{d/2}\,p(\mathcal D\mid\theta)\,p(\theta)` and
    :math:`Z = \int\tilde p = (2\pi\tau^2)^{d/2}\,p(\mathcal D)`.
    """
    design, y = data.design, data.y
    tau2 = positive_float(prior_var, "prior_var")
    dim = design.shape[1]

    # Samplers call these two in their inner loops, so they do not re-validate theta.
    def log_density(theta):
        theta = np.asarray(theta, dtype=float)
        eta = theta @ design.T
        log_lik = np.sum(y * eta - np.logaddexp(0.0, eta), axis=-1)
        return log_lik - np.sum(theta**2, axis=-1) / (2 * tau2)

    def grad_log_density(theta):
        theta = np.asarray(theta, dtype=float)
        residual = y - sigmoid(theta @ design.T)
        return residual @ design - theta / tau2

    def neg_hessian(theta):
        theta = as_finite_array(theta, "theta", shape=(dim,))
        p = sigmoid(design @ theta)
        return (design.T * (p * (1 - p))) @ design + np.eye(dim) / tau2

    # For many points at once, eta is a (points, n) array with n = len(y): in_blocks hands
    # log_density a block of points at a time to bound its size, with the same values.
    return Target(in_blocks(log_density, dim, len(y)), grad_log_density, neg_hessian, dim)
