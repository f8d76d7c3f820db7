"""The MAP by Newton's method, and the Laplace approximation built on it."""
from typing import NamedTuple

import numpy as np

from ._checks import (ASCENT, CURVATURE, as_finite_array, positive_float, positive_int,
                      target_functions)


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


def newton_map(target, start, n_steps=12):
    r"""Find the mode of a log density by Newton's method.

    Parameters
    ----------
    target : Target
        Its ``grad_log_density``, ``theta (d,) -> (d,)``, and ``neg_hessian``,
        ``theta (d,) -> (d, d)``, minus the Hessian: positive definite for a log-concave target.
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
    grad_log_density, neg_hessian = target_functions(target, theta.size, CURVATURE)
    n_steps = positive_int(n_steps, "n_steps")
    for _ in range(n_steps):
        theta = theta + np.linalg.solve(neg_hessian(theta), grad_log_density(theta))
    return theta


class AscentPath(NamedTuple):
    r"""The iterates of a safeguarded Newton ascent.

    Attributes
    ----------
    points : ndarray, shape (n_iterates, d)
        The start first, then every accepted iterate.
    log_density : ndarray, shape (n_iterates,)
        :math:`\log\tilde p` at each point; it increases strictly.
    converged : bool
        True when the last step left the gradient's norm below ``tolerance``.
    """

    points: np.ndarray
    log_density: np.ndarray
    converged: bool


def _uphill_step(log_density, theta, current, grad, hessian):
    """Solve (H + lambda I) step = grad with the smallest damping lambda (0 first, then growing
    from 1e-3 of H's largest diagonal entry) that makes H + lambda I positive definite and the
    step increase log p; None if no damping does."""
    damping, floor = 0.0, 1e-3 * max(np.abs(np.diag(hessian)).max(), 1.0)
    while damping < 1e12 * floor:
        damped = hessian + damping * np.eye(theta.size)
        if np.all(np.linalg.eigvalsh(damped) > 0):
            candidate = theta + np.linalg.solve(damped, grad)
            # A trial step may land where the density under- or overflows; it is then refused.
            with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
                value = log_density(candidate)
            if value > current:
                return candidate, value
        damping = max(2.0 * damping, floor)
    return None


def newton_ascent(target, start, n_steps, tolerance=1e-8):
    r"""Climb :math:`\log\tilde p` by Newton steps, damped when they would not go uphill.

    Parameters
    ----------
    target : Target
        Its ``log_density``, ``grad_log_density`` and ``neg_hessian``.
    start : array_like, shape (d,)
    n_steps : int
        At most this many steps.
    tolerance : float
        Stop once the gradient's norm is below this.

    Returns
    -------
    AscentPath

    Notes
    -----
    Each step solves :math:`(H + \lambda I)\,\delta = \nabla\log\tilde p` with the first
    :math:`\lambda` in :math:`0, \lambda_0, 2\lambda_0, 4\lambda_0, \dots` (:math:`\lambda_0`
    a thousandth of :math:`H`'s largest diagonal entry, at least :math:`10^{-3}`) that makes
    the matrix positive definite and the step increase :math:`\log\tilde p` (Levenberg, 1944;
    Marquardt, 1963; Nocedal and Wright, 2006, section 3.4). Every step therefore goes uphill,
    also where a plain Newton step would overshoot or head for a minimum; on a smooth density
    with a maximum the path typically converges to a local maximum, within ``n_steps`` or not
    (``converged`` says which). Where the density has no maximum, the path shows where it
    climbs to.
    """
    theta = as_finite_array(start, "start", ndim=1)
    log_density, grad_log_density, neg_hessian = target_functions(target, theta.size, ASCENT)
    n_steps = positive_int(n_steps, "n_steps")
    tolerance = positive_float(tolerance, "tolerance")
    points, values = [theta], [float(log_density(theta))]
    converged = False
    for _ in range(n_steps):
        step = _uphill_step(log_density, theta, values[-1], grad_log_density(theta),
                            neg_hessian(theta))
        if step is None:
            break
        theta, value = step
        points.append(theta)
        values.append(float(value))
        if np.linalg.norm(grad_log_density(theta)) < tolerance:
            converged = True
            break
    return AscentPath(np.array(points), np.array(values), converged)


def laplace_approximation(target, start, n_steps=12):
    r"""Gaussian approximation :math:`N(\hat\theta, H(\hat\theta)^{-1})` at the MAP.

    Parameters
    ----------
    target, start, n_steps
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
    mode = newton_map(target, start, n_steps)
    grad_log_density, neg_hessian = target_functions(target, mode.size, CURVATURE)
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
    Hessian, i.e. :math:`\big((H^{-1})^{-1}\big)_{aa}`, the inverse covariance's diagonal entry,
    not :math:`1/(H^{-1})_{aa}`, the reciprocal of the marginal variance.
    """
    mode = laplace.mean
    curvature = np.linalg.inv(laplace.cov)[axis, axis]
    offsets = np.linspace(-half_width, half_width, n_points) * laplace.sd[axis]
    points = np.repeat(mode[None, :], n_points, axis=0)
    points[:, axis] += offsets
    exact = log_density(points) - log_density(mode)
    return ModeSlice(points[:, axis], exact, -0.5 * curvature * offsets**2)
