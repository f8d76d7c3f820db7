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


class ModeSlice(NamedTuple):
    """The log density along one coordinate through the mode, and its quadratic model.

    Attributes
    ----------
    values : ndarray, shape (k,)
        Coordinate values along the slice.
    log_density : ndarray, shape (k,)
        Exact log density, shifted so it is 0 at the mode.
    quadratic : ndarray, shape (k,)
        The Laplace quadratic :math:`-\\tfrac12 H_{aa}(t-\\hat\\theta_a)^2`.
    """

    values: np.ndarray
    log_density: np.ndarray
    quadratic: np.ndarray


def slice_through_mode(log_density, laplace, axis, half_width=4.0, n_points=201):
    r"""Compare :math:`\log\tilde p` with its quadratic model along one axis through the MAP.

    Parameters
    ----------
    log_density : callable
    laplace : LaplaceResult
    axis : int
        Which coordinate to vary; the others stay at the MAP.
    half_width : float
        The slice spans the MAP plus or minus this many Laplace marginal sds.
    n_points : int

    Returns
    -------
    ModeSlice

    Notes
    -----
    Along the slice the quadratic's curvature is the diagonal entry :math:`H_{aa}` of minus the
    Hessian, i.e. :math:`1/(H^{-1})^{-1}_{aa}`, not the marginal variance.
    """
    mode = laplace.mean
    curvature = np.linalg.inv(laplace.cov)[axis, axis]
    offsets = np.linspace(-half_width, half_width, n_points) * laplace.sd[axis]
    points = np.repeat(mode[None, :], n_points, axis=0)
    points[:, axis] += offsets
    exact = log_density(points) - log_density(mode)
    return ModeSlice(points[:, axis], exact, -0.5 * curvature * offsets**2)
