"""Gaussian densities: proposals for importance sampling and a target with known answers."""
import numpy as np

from ._checks import as_finite_array, positive_definite_cholesky, probability_vector
from .problem import Target


def gaussian_logpdf(x, mean, cov):
    r"""Log density of :math:`N(\mu, \Sigma)` at each row of ``x``.

    Parameters
    ----------
    x : array_like, shape (..., d)
    mean : array_like, shape (d,)
    cov : array_like, shape (d, d)
        Symmetric positive definite.

    Returns
    -------
    ndarray, shape (...)

    Notes
    -----
    .. math::

        \log N(x;\mu,\Sigma) = -\tfrac12\big[d\log 2\pi + \log\lvert\Sigma\rvert
            + (x-\mu)^\top\Sigma^{-1}(x-\mu)\big],

    with :math:`\log\lvert\Sigma\rvert` from ``slogdet`` and :math:`\Sigma^{-1}` from ``inv``.
    """
    mean = as_finite_array(mean, "mean", ndim=1)
    dim = mean.size
    positive_definite_cholesky(cov, "cov", dim)
    cov = np.asarray(cov, dtype=float)
    x = as_finite_array(x, "x")
    if x.shape[-1] != dim:
        raise ValueError(f"x must have shape (..., {dim}); got shape {x.shape}")
    _, logdet = np.linalg.slogdet(cov)
    centred = x - mean
    mahalanobis = np.einsum("...i,ij,...j->...", centred, np.linalg.inv(cov), centred)
    return -0.5 * (dim * np.log(2 * np.pi) + logdet + mahalanobis)


def gaussian_target(mean, cov):
    """A Gaussian target whose mean and covariance are known, for checking every method.

    Parameters
    ----------
    mean : array_like, shape (d,)
    cov : array_like, shape (d, d)

    Returns
    -------
    Target
    """
    mean = as_finite_array(mean, "mean", ndim=1)
    positive_definite_cholesky(cov, "cov", mean.size)
    precision = np.linalg.inv(np.asarray(cov, dtype=float))

    def log_density(theta):
        centred = np.asarray(theta, dtype=float) - mean
        return -0.5 * np.einsum("...i,ij,...j->...", centred, precision, centred)

    def grad_log_density(theta):
        return -(np.asarray(theta, dtype=float) - mean) @ precision

    def neg_hessian(theta):
        return precision.copy()

    return Target(log_density, grad_log_density, neg_hessian, mean.size)


def gaussian_mixture_target(weights, means, sds):
    r"""A one-dimensional Gaussian mixture: a multimodal target with known moments.

    Parameters
    ----------
    weights : array_like, shape (k,)
        Non-negative component weights summing to one.
    means, sds : array_like, shape (k,)
        Component means and (positive) standard deviations.

    Returns
    -------
    Target
        On parameters of shape ``(..., 1)``. The density is normalized, so ``log_density``
        is exact, not just up to a constant.

    Notes
    -----
    :math:`p(\theta) = \sum_j \pi_j N(\theta; \mu_j, \sigma_j^2)`, with mean
    :math:`\sum_j\pi_j\mu_j` and variance :math:`\sum_j\pi_j(\sigma_j^2+\mu_j^2) - \text{mean}^2`.
    """
    weights = probability_vector(weights, "weights")
    means = as_finite_array(means, "means", shape=weights.shape)
    sds = as_finite_array(sds, "sds", shape=weights.shape)
    if np.any(sds <= 0):
        raise ValueError(f"sds must all be > 0; got {sds.tolist()}")

    def component_log_densities(theta):
        z = (np.asarray(theta, dtype=float)[..., :1] - means) / sds
        return np.log(weights) - 0.5 * z**2 - np.log(sds * np.sqrt(2 * np.pi))

    def log_density(theta):
        return np.logaddexp.reduce(component_log_densities(theta), axis=-1)

    def responsibilities(theta):
        log_parts = component_log_densities(theta)
        return np.exp(log_parts - log_density(theta)[..., None])

    def grad_log_density(theta):
        theta = np.asarray(theta, dtype=float)
        scores = -(theta[..., :1] - means) / sds**2
        return np.sum(responsibilities(theta) * scores, axis=-1, keepdims=True)

    def neg_hessian(theta):
        # d2/dtheta2 log p = E_r[score^2 - 1/sd^2] - (E_r[score])^2 under responsibilities r.
        theta = as_finite_array(theta, "theta", shape=(1,))
        resp = responsibilities(theta)
        scores = -(theta - means) / sds**2
        second = np.sum(resp * (scores**2 - 1 / sds**2)) - np.sum(resp * scores) ** 2
        return np.array([[-second]])

    return Target(log_density, grad_log_density, neg_hessian, 1)


def mixture_moments(weights, means, sds):
    """Mean and variance of a 1-D Gaussian mixture (the forward-KL Gaussian fit)."""
    weights, means, sds = (np.asarray(a, dtype=float) for a in (weights, means, sds))
    mean = weights @ means
    return mean, weights @ (sds**2 + means**2) - mean**2
