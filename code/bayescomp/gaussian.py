"""Gaussian densities: proposals for importance sampling and a target with known answers."""
import numpy as np

from ._checks import as_finite_array, positive_definite_cholesky
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
        centred = as_finite_array(theta, "theta") - mean
        return -0.5 * np.einsum("...i,ij,...j->...", centred, precision, centred)

    def grad_log_density(theta):
        return -(as_finite_array(theta, "theta") - mean) @ precision

    def neg_hessian(theta):
        return precision.copy()

    return Target(log_density, grad_log_density, neg_hessian, mean.size)
