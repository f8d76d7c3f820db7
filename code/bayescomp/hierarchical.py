r"""A hierarchical normal model, in its centred and non-centred forms: eight schools.

The model of Rubin (1981) and Gelman et al. (2013, section 5.5), with the priors of the Stan and
PyMC examples:

.. math::

    y_j \sim N(\theta_j, \sigma_j^2),\quad \theta_j \sim N(\mu, \tau^2),\quad
    \mu \sim N(0, 5^2),\quad \tau \sim \text{half-Cauchy}(0, 5),\qquad j = 1, \dots, J.

The samplers work on an unconstrained space, with :math:`u = \log\tau`; the log density then
includes the Jacobian :math:`d\tau/du = \tau`.

- **Centred:** parameters :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`.
- **Non-centred:** :math:`(\mu, \log\tau, \eta_1, \dots, \eta_J)` with
  :math:`\theta_j = \mu + \tau\eta_j` and :math:`\eta_j \sim N(0, 1)` a priori.

The two describe the same posterior; they differ in geometry. In the centred form the
:math:`\theta_j` are squeezed together as :math:`\tau \to 0` (Neal's funnel); in the
non-centred form the prior of :math:`\eta` does not depend on :math:`\tau`.

The densities use :mod:`bayescomp._portable_math`, so every bit of them is the same on every CPU
(HMC on a funnel is chaotic; see that module).
"""
from typing import NamedTuple

import numpy as np

from . import _portable_math as pm
from ._checks import as_finite_array, positive_float
from .problem import Target

# Rubin (1981): estimated coaching effects and their standard errors in eight schools.
EIGHT_SCHOOLS_Y = (28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0)
EIGHT_SCHOOLS_SIGMA = (15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0)
FORMS = ("centred", "non-centred")


class HierarchicalData(NamedTuple):
    """Group estimates, their standard errors, and the prior scales.

    Attributes
    ----------
    y, sigma : ndarray, shape (J,)
        Each group's estimate and its (known) standard error.
    mu_prior_sd : float
        :math:`\\mu \\sim N(0, \\text{mu\\_prior\\_sd}^2)`.
    tau_prior_scale : float
        :math:`\\tau \\sim \\text{half-Cauchy}(0, \\text{tau\\_prior\\_scale})`.
    """

    y: np.ndarray
    sigma: np.ndarray
    mu_prior_sd: float
    tau_prior_scale: float


def hierarchical_data(y=EIGHT_SCHOOLS_Y, sigma=EIGHT_SCHOOLS_SIGMA, mu_prior_sd=5.0,
                      tau_prior_scale=5.0):
    """Check and bundle the data and prior scales; the defaults are the eight schools.

    Returns
    -------
    HierarchicalData
    """
    y = as_finite_array(y, "y", ndim=1)
    sigma = as_finite_array(sigma, "sigma", shape=y.shape)
    if y.size < 1:
        raise ValueError("y must hold at least one group's estimate; got none")
    if np.any(sigma <= 0):
        raise ValueError(f"sigma must be > 0 for every group; got {sigma.tolist()}")
    return HierarchicalData(y, sigma, positive_float(mu_prior_sd, "mu_prior_sd"),
                            positive_float(tau_prior_scale, "tau_prior_scale"))


def parameter_names(data, form):
    """Names of the coordinates of ``form`` ("centred" or "non-centred"), in order."""
    local = "theta" if _check_form(form) == "centred" else "eta"
    return ["mu", "log_tau"] + [f"{local}_{j + 1}" for j in range(data.y.size)]


def _check_form(form):
    if form not in FORMS:
        raise ValueError(f"form must be one of {FORMS}; got {form!r}")
    return form


def _split(theta, n_groups):
    theta = np.asarray(theta, dtype=float)
    if theta.shape[-1] != n_groups + 2:
        raise ValueError(f"theta must have shape (..., {n_groups + 2}) (mu, log_tau and one "
                         f"value per group); got shape {theta.shape}")
    return theta[..., 0], theta[..., 1], theta[..., 2:]


def _column(value):
    """``value`` with a trailing axis of length 1, to broadcast against per-group arrays."""
    return np.asarray(value)[..., None]


def _hyperprior(data, mu, log_tau, tau):
    r"""Log prior of :math:`(\mu, u = \log\tau)`, with the Jacobian :math:`\tau`."""
    ratio = tau * tau / (data.tau_prior_scale * data.tau_prior_scale)
    # log N(mu; 0, s_mu^2) + log half-Cauchy(tau) + log tau, up to a constant.
    return -0.5 * mu * mu / (data.mu_prior_sd * data.mu_prior_sd) - pm.log(1.0 + ratio) + log_tau


def _hyperprior_grad(data, mu, tau):
    """Derivatives of :func:`_hyperprior` in mu and in u = log tau."""
    ratio = tau * tau / (data.tau_prior_scale * data.tau_prior_scale)
    return -mu / (data.mu_prior_sd * data.mu_prior_sd), 1.0 - 2.0 * ratio / (1.0 + ratio)


def _centred_neg_hessian(data, theta):
    """Minus the Hessian of the centred log density at one point (for Newton and Laplace)."""
    n_groups = data.y.size
    mu, log_tau, local = theta[0], theta[1], theta[2:]
    inverse_var = np.exp(-2.0 * log_tau)
    ratio = np.exp(2.0 * log_tau) / data.tau_prior_scale**2
    deviation = local - mu
    hessian = np.zeros((n_groups + 2, n_groups + 2))
    hessian[0, 0] = 1.0 / data.mu_prior_sd**2 + n_groups * inverse_var
    hessian[0, 1] = hessian[1, 0] = 2.0 * deviation.sum() * inverse_var
    hessian[1, 1] = 4.0 * ratio / (1.0 + ratio) ** 2 + 2.0 * (deviation**2).sum() * inverse_var
    hessian[0, 2:] = hessian[2:, 0] = -inverse_var
    hessian[1, 2:] = hessian[2:, 1] = -2.0 * deviation * inverse_var
    hessian[2:, 2:] = np.diag(inverse_var + 1.0 / data.sigma**2)
    return hessian


def _noncentred_neg_hessian(data, theta):
    """Minus the Hessian of the non-centred log density at one point."""
    n_groups = data.y.size
    mu, log_tau, local = theta[0], theta[1], theta[2:]
    tau = np.exp(log_tau)
    ratio = tau**2 / data.tau_prior_scale**2
    residual = data.y - mu - tau * local
    precision = 1.0 / data.sigma**2
    hessian = np.zeros((n_groups + 2, n_groups + 2))
    hessian[0, 0] = 1.0 / data.mu_prior_sd**2 + precision.sum()
    hessian[0, 1] = hessian[1, 0] = tau * (local * precision).sum()
    hessian[1, 1] = (4.0 * ratio / (1.0 + ratio) ** 2
                     + (tau**2 * local**2 * precision).sum()
                     - tau * (local * residual * precision).sum())
    hessian[0, 2:] = hessian[2:, 0] = tau * precision
    hessian[1, 2:] = hessian[2:, 1] = (tau**2 * local - tau * residual) * precision
    hessian[2:, 2:] = np.diag(1.0 + tau**2 * precision)
    return hessian


def centred_target(data):
    r"""The centred posterior, on :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`.

    Parameters
    ----------
    data : HierarchicalData

    Returns
    -------
    Target
        Vectorized over leading axes; ``neg_hessian`` at a single point.

    Notes
    -----
    With :math:`u = \log\tau` and the prior scales :math:`s_\mu` (``data.mu_prior_sd``) and
    :math:`s_\tau` (``data.tau_prior_scale``), both 5 here, up to a constant,

    .. math::

        \log\tilde p = -\frac{\mu^2}{2s_\mu^2} - \log\Big(1 + \frac{\tau^2}{s_\tau^2}\Big) + u
            - Ju - \sum_j \frac{(\theta_j - \mu)^2}{2\tau^2}
            - \sum_j \frac{(y_j - \theta_j)^2}{2\sigma_j^2}.

    As :math:`\tau \to 0` with every :math:`\theta_j = \mu`, the term :math:`-(J - 1)u` grows
    without bound: the density has no maximum, only a funnel.
    """
    n_groups = data.y.size
    precision = 1.0 / (data.sigma * data.sigma)

    def log_density(theta):
        mu, log_tau, local = _split(theta, n_groups)
        tau = pm.exp(log_tau)
        prior = _hyperprior(data, mu, log_tau, tau)
        spread = pm.sum_last_axis((local - _column(mu)) ** 2)
        misfit = pm.sum_last_axis((data.y - local) ** 2 * precision)
        return prior - n_groups * log_tau - 0.5 * spread / (tau * tau) - 0.5 * misfit

    def grad_log_density(theta):
        mu, log_tau, local = _split(theta, n_groups)
        tau = pm.exp(log_tau)
        d_mu, d_log_tau = _hyperprior_grad(data, mu, tau)
        deviation = local - _column(mu)
        inverse_var = 1.0 / (tau * tau)
        grad = np.empty(np.shape(theta))
        grad[..., 0] = d_mu + pm.sum_last_axis(deviation) * inverse_var
        grad[..., 1] = (d_log_tau - n_groups
                        + pm.sum_last_axis(deviation * deviation) * inverse_var)
        grad[..., 2:] = -deviation * _column(inverse_var) + (data.y - local) * precision
        return grad

    def neg_hessian(theta):
        return _centred_neg_hessian(data, as_finite_array(theta, "theta", shape=(n_groups + 2,)))

    return Target(log_density, grad_log_density, neg_hessian, n_groups + 2)


def noncentred_target(data):
    r"""The non-centred posterior, on :math:`(\mu, \log\tau, \eta_1, \dots, \eta_J)`.

    Here :math:`\theta_j = \mu + \tau\eta_j`.

    Parameters
    ----------
    data : HierarchicalData

    Returns
    -------
    Target

    Notes
    -----
    With :math:`u = \log\tau` and the prior scales :math:`s_\mu` and :math:`s_\tau` (both 5
    here), up to a constant,

    .. math::

        \log\tilde p = -\frac{\mu^2}{2s_\mu^2} - \log\Big(1 + \frac{\tau^2}{s_\tau^2}\Big) + u
            - \sum_j \frac{\eta_j^2}{2} - \sum_j \frac{(y_j - \mu - \tau\eta_j)^2}{2\sigma_j^2}.

    The map :math:`\eta \mapsto \theta = \mu + \tau\eta` has Jacobian :math:`\tau^J`, which
    cancels the :math:`\tau^{-J}` of the centred form's :math:`N(\theta_j;\mu,\tau^2)`: that is
    why no :math:`-Ju` appears here.
    """
    n_groups = data.y.size
    precision = 1.0 / (data.sigma * data.sigma)

    def log_density(theta):
        mu, log_tau, local = _split(theta, n_groups)
        tau = pm.exp(log_tau)
        prior = _hyperprior(data, mu, log_tau, tau)
        residual = data.y - _column(mu) - _column(tau) * local
        return (prior - 0.5 * pm.sum_last_axis(local * local)
                - 0.5 * pm.sum_last_axis(residual * residual * precision))

    def grad_log_density(theta):
        mu, log_tau, local = _split(theta, n_groups)
        tau = pm.exp(log_tau)
        d_mu, d_log_tau = _hyperprior_grad(data, mu, tau)
        scaled = (data.y - _column(mu) - _column(tau) * local) * precision
        grad = np.empty(np.shape(theta))
        grad[..., 0] = d_mu + pm.sum_last_axis(scaled)
        grad[..., 1] = d_log_tau + tau * pm.sum_last_axis(local * scaled)
        grad[..., 2:] = -local + _column(tau) * scaled
        return grad

    def neg_hessian(theta):
        return _noncentred_neg_hessian(data, as_finite_array(theta, "theta",
                                                             shape=(n_groups + 2,)))

    return Target(log_density, grad_log_density, neg_hessian, n_groups + 2)


def hierarchical_target(data, form):
    """The target of ``form``: "centred" or "non-centred"."""
    return centred_target(data) if _check_form(form) == "centred" else noncentred_target(data)


def to_centred(draws, form):
    r"""Draws of either form as :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`.

    Parameters
    ----------
    draws : array_like, shape (..., J + 2)
    form : {"centred", "non-centred"}
        The form ``draws`` are in; non-centred draws are mapped by
        :math:`\theta_j = \mu + e^{u}\eta_j`.
    """
    draws = as_finite_array(draws, "draws")
    if _check_form(form) == "centred":
        return draws
    centred = draws.copy()
    centred[..., 2:] = draws[..., :1] + np.exp(draws[..., 1:2]) * draws[..., 2:]
    return centred


def to_noncentred(draws):
    r"""Centred draws :math:`(\mu, \log\tau, \theta)` as :math:`(\mu, \log\tau, \eta)`, with
    :math:`\eta_j = (\theta_j - \mu)/\tau`."""
    draws = as_finite_array(draws, "draws")
    noncentred = draws.copy()
    noncentred[..., 2:] = (draws[..., 2:] - draws[..., :1]) * np.exp(-draws[..., 1:2])
    return noncentred
