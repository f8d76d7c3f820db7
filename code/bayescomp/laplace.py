"""The MAP by Newton's method, and the Laplace approximation built on it."""
from typing import NamedTuple

import numpy as np

from ._checks import as_finite_array, positive_int


class LaplaceResult(NamedTuple):
    """A Gaussian approximation centred at the mode.

    Attributes
    ----------
    mean : ndarray, shape (d,)
        The MAP estimate.
    cov : ndarray, shape (d, d)
        Inverse of minus the Hessian at the MAP.
    sd : ndarray, shape (d,)
        Marginal standard deviations, ``sqrt(diag(cov))``.
    grad_norm : float
        Norm of the gradient at the returned mode; near zero when Newton converged.
    """

    mean: np.ndarray
    cov: np.ndarray
    sd: np.ndarray
    grad_norm: float


def newton_map(grad_log_density, neg_hessian, start, n_steps=12):
    r"""Find the mode of a log density by Newton's method.

    Parameters
    ----------
    grad_log_density : callable
        ``theta (d,) -> (d,)``.
    neg_hessian : callable
        ``theta (d,) -> (d, d)``, minus the Hessian; positive definite for a log-concave target.
    start : array_like, shape (d,)
    n_steps : int
        Number of Newton updates (no early stopping, so runs are reproducible step for step).

    Returns
    -------
    ndarray, shape (d,)

    Notes
    -----
    Each step solves the local quadratic model exactly:
    :math:`\theta \leftarrow \theta + H(\theta)^{-1}\nabla\log\tilde p(\theta)`, with
    :math:`H = -\nabla^2 \log\tilde p`. Convergence is quadratic near the mode
    (Nocedal and Wright, 2006, chapter 3).
    """
    theta = as_finite_array(start, "start", ndim=1)
    n_steps = positive_int(n_steps, "n_steps")
    for _ in range(n_steps):
        theta = theta + np.linalg.solve(neg_hessian(theta), grad_log_density(theta))
    return theta


def laplace_approximation(grad_log_density, neg_hessian, start, n_steps=12):
    r"""Gaussian approximation :math:`N(\hat\theta, H(\hat\theta)^{-1})` at the MAP.

    Parameters
    ----------
    grad_log_density, neg_hessian, start, n_steps
        As for :func:`newton_map`.

    Returns
    -------
    LaplaceResult

    Notes
    -----
    A second-order Taylor expansion of :math:`\log\tilde p` around the mode :math:`\hat\theta`,

    .. math::

        \log\tilde p(\theta) \approx \log\tilde p(\hat\theta)
            - \tfrac12 (\theta-\hat\theta)^\top H (\theta-\hat\theta),

    is the log of a Gaussian with covariance :math:`H^{-1}` (Bishop, 2006, section 4.4).
    """
    mode = newton_map(grad_log_density, neg_hessian, start, n_steps)
    hessian = neg_hessian(mode)
    if np.any(np.linalg.eigvalsh(hessian) <= 0):
        raise ValueError("neg_hessian at the mode must be positive definite; "
                         "the point found is not a local maximum")
    cov = np.linalg.inv(hessian)
    return LaplaceResult(mode, cov, np.sqrt(np.diag(cov)),
                         float(np.linalg.norm(grad_log_density(mode))))
