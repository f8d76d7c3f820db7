"""Gaussian densities: proposals for importance sampling and a target with known answers."""
import numpy as np

from ._checks import as_finite_array, positive_definite_cholesky, probability_vector
from ._portable_math import product_with, sum_last_axis
from .problem import Target


def gaussian_log_density(x, mean, cov):
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
    positive_definite_cholesky(cov, "cov", dim, "mean")
    cov = np.asarray(cov, dtype=float)
    x = as_finite_array(x, "x")
    if x.shape[-1] != dim:
        raise ValueError(f"x must have shape (..., {dim}); got shape {x.shape}")
    _, logdet = np.linalg.slogdet(cov)
    centred = x - mean
    mahalanobis = np.einsum("...i,ij,...j->...", centred, np.linalg.inv(cov), centred)
    return -0.5 * (dim * np.log(2 * np.pi) + logdet + mahalanobis)


def gaussian_target(mean, cov):
    r"""A Gaussian target whose mean and covariance are known, for checking every method.

    Parameters
    ----------
    mean : array_like, shape (d,)
    cov : array_like, shape (d, d)

    Returns
    -------
    Target

    Notes
    -----
    :math:`\log\tilde p(\theta) = -\tfrac12(\theta-\mu)^\top\Sigma^{-1}(\theta-\mu)` and
    :math:`\nabla\log\tilde p = -\Sigma^{-1}(\theta-\mu)`, computed with elementwise operations
    in a fixed order (no BLAS), so that each point's value does not depend on the batch it is
    evaluated in: several chains run in lockstep equal the same chains run one at a time, bit
    for bit, on every CPU.
    """
    mean = as_finite_array(mean, "mean", ndim=1)
    positive_definite_cholesky(cov, "cov", mean.size, "mean")
    precision = np.linalg.inv(np.asarray(cov, dtype=float))
    precision = 0.5 * (precision + precision.T)   # exactly symmetric
    times_precision = product_with(precision)

    def grad_log_density(theta):
        return -times_precision(np.asarray(theta, dtype=float) - mean)

    def log_density(theta):
        centred = np.asarray(theta, dtype=float) - mean
        return 0.5 * sum_last_axis(centred * grad_log_density(theta))

    def neg_hessian(theta):
        return precision.copy()

    return Target(log_density, grad_log_density, neg_hessian, mean.size)


def isotropic_mixture_target(weights, means, sds):
    r"""A normalized mixture of isotropic Gaussians in ``d`` dimensions: several modes, known moments.

    Parameters
    ----------
    weights : array_like, shape (k,)
        Non-negative, summing to one.
    means : array_like, shape (k, d)
    sds : array_like, shape (k,)
        Positive; component ``j`` has covariance ``sds[j]**2 * I``.

    Returns
    -------
    Target
        On parameters of shape ``(..., d)``. The density is normalized, so ``log_density`` is
        exact, not just up to a constant.

    Notes
    -----
    :math:`p(\theta) = \sum_j \pi_j N(\theta; \mu_j, \sigma_j^2 I)`. With responsibilities
    :math:`r_j(\theta) \propto \pi_j N(\theta;\mu_j,\sigma_j^2 I)` and component scores
    :math:`s_j = -(\theta-\mu_j)/\sigma_j^2`, :math:`\nabla\log p = \sum_j r_j s_j` and
    :math:`-\nabla^2\log p = \sum_j r_j (I/\sigma_j^2 - s_j s_j^\top) + \bar s \bar s^\top`,
    with :math:`\bar s = \sum_j r_j s_j`.
    """
    weights = probability_vector(weights, "weights")
    means = as_finite_array(means, "means", shape=(weights.size, None))
    sds = as_finite_array(sds, "sds", shape=weights.shape)
    if np.any(sds <= 0):
        raise ValueError(f"sds must all be > 0; got {sds.tolist()}")
    dim = means.shape[1]

    def parts(theta):
        # Per component: log(pi_j N(theta; mu_j, sd_j^2 I)) and the score s_j, shape (..., k, d).
        centred = as_finite_array(theta, "theta")[..., None, :] - means
        log_parts = (np.log(weights) - 0.5 * np.sum(centred**2, axis=-1) / sds**2
                     - dim * np.log(sds * np.sqrt(2 * np.pi)))
        return log_parts, -centred / sds[:, None] ** 2

    def log_density(theta):
        return np.logaddexp.reduce(parts(theta)[0], axis=-1)

    def grad_log_density(theta):
        log_parts, scores = parts(theta)
        resp = np.exp(log_parts - np.logaddexp.reduce(log_parts, axis=-1)[..., None])
        return np.sum(resp[..., None] * scores, axis=-2)

    def neg_hessian(theta):
        theta = as_finite_array(theta, "theta", shape=(dim,))
        log_parts, scores = parts(theta)
        resp = np.exp(log_parts - np.logaddexp.reduce(log_parts))
        mean_score = resp @ scores
        second = sum(r * (np.eye(dim) / sd**2 - np.outer(s, s))
                     for r, s, sd in zip(resp, scores, sds))
        return second + np.outer(mean_score, mean_score)

    return Target(log_density, grad_log_density, neg_hessian, dim)


def gaussian_mixture_target(weights, means, sds):
    r"""A one-dimensional Gaussian mixture: the ``d = 1`` case of :func:`isotropic_mixture_target`.

    Parameters
    ----------
    weights : array_like, shape (k,)
        Non-negative component weights summing to one.
    means, sds : array_like, shape (k,)
        Component means and (positive) standard deviations.

    Returns
    -------
    Target
        On parameters of shape ``(..., 1)``, normalized.

    Notes
    -----
    :math:`p(\theta) = \sum_j \pi_j N(\theta; \mu_j, \sigma_j^2)`, with mean
    :math:`\sum_j\pi_j\mu_j` and variance :math:`\sum_j\pi_j(\sigma_j^2+\mu_j^2) - \text{mean}^2`
    (:func:`mixture_moments`).
    """
    means = as_finite_array(means, "means", ndim=1)
    return isotropic_mixture_target(weights, means[:, None], sds)


def mixture_moments(weights, means, sds):
    r"""Mean and (co)variance of a Gaussian mixture: the Gaussian that minimizes forward KL.

    With ``means`` of shape ``(k,)`` (one dimension) the mean and the variance, as numbers; with
    ``means`` of shape ``(k, d)`` (isotropic components, as :func:`isotropic_mixture_target`)
    the mean vector and the covariance matrix
    :math:`\sum_j \pi_j\,(\sigma_j^2 I + (\mu_j - m)(\mu_j - m)^\top)`.
    """
    weights, means, sds = (np.asarray(a, dtype=float) for a in (weights, means, sds))
    mean = weights @ means
    if means.ndim == 1:
        return mean, weights @ (sds**2 + means**2) - mean**2
    centred = means - mean
    spread = np.einsum("j,jk,jl->kl", weights, centred, centred)
    return mean, spread + (weights @ sds**2) * np.eye(means.shape[1])
