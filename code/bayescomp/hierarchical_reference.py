r"""The exact posterior of the hierarchical normal model, by a 1-D quadrature over log tau.

Given :math:`\tau` everything is Gaussian, so the posterior factorizes as

.. math::

    p(\mu, \tau, \theta \mid y) = p(\tau \mid y)\, p(\mu \mid \tau, y)\,
        \prod_j p(\theta_j \mid \mu, \tau, y),

with a one-dimensional :math:`p(\tau \mid y)` known in closed form up to a constant and Gaussian
conditionals (Gelman et al., 2013, section 5.4). Every posterior moment is then a 1-D integral of
closed-form conditional moments. We integrate over :math:`u = \log\tau`, where the density is
smooth and decays exponentially at both ends, so the trapezoid rule on an even grid converges
faster than any power of the spacing. This is the chapter's answer key, the way the 241 x 241
grid is for the logistic posterior; and for a posterior with one awkward dimension it is also the
method of choice.
"""
from typing import NamedTuple

import numpy as np

from ._checks import generator, positive_int
from .diagnostics import mcse_mean
from .importance import weighted_estimates


class ConditionalMoments(NamedTuple):
    r"""Closed-form moments given :math:`\tau`, on a grid of :math:`u = \log\tau` values.

    Attributes
    ----------
    log_density : ndarray, shape (K,)
        :math:`\log p(u \mid y)` up to a constant: prior, Jacobian and marginal likelihood.
    mu_mean, mu_var : ndarray, shape (K,)
        :math:`\mu \mid \tau, y \sim N(\hat\mu, V_\mu)`.
    theta_mean, theta_var : ndarray, shape (K, J)
        Moments of :math:`\theta_j \mid \tau, y` with :math:`\mu` integrated out.
    shrinkage : ndarray, shape (K, J)
        :math:`B_j = \sigma_j^2/(\sigma_j^2 + \tau^2)`, the weight on :math:`\mu` in
        :math:`E[\theta_j \mid \mu, \tau, y]`; also :math:`\mathrm{Cov}(\theta_j, \mu \mid \tau,
        y) = B_j V_\mu`.
    data_weight : ndarray, shape (K, J)
        :math:`1 - B_j = \tau^2/(\sigma_j^2 + \tau^2)`, computed as that ratio: as
        :math:`\tau \to 0`, ``1 - shrinkage`` would lose every digit.
    """

    log_density: np.ndarray
    mu_mean: np.ndarray
    mu_var: np.ndarray
    theta_mean: np.ndarray
    theta_var: np.ndarray
    shrinkage: np.ndarray
    data_weight: np.ndarray


class HierarchicalReference(NamedTuple):
    r"""Exact posterior summaries of the hierarchical normal model.

    Coordinates follow the centred form, :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`;
    the ``noncentred_`` fields give :math:`\eta_j = (\theta_j - \mu)/\tau` instead of
    :math:`\theta_j`.

    Attributes
    ----------
    mean, sd : ndarray, shape (J + 2,)
    noncentred_mean, noncentred_sd : ndarray, shape (J + 2,)
    prob_tau_below_1 : float
        :math:`P(\tau < 1 \mid y)`.
    log_tau_grid, log_tau_density : ndarray, shape (K,)
        The quadrature nodes :math:`u_k` and the normalized density :math:`p(u_k \mid y)`.
    log_tau_cdf : ndarray, shape (K,)
        :math:`P(\log\tau \le u_k \mid y)` by the trapezoid rule.
    conditional : ConditionalMoments
        The closed-form moments at the nodes (for exact draws and joint densities).
    log_normalizer : float
        :math:`\log Z`, the log of the integral of :math:`\exp(\log\tilde p)` for the package's
        targets (:func:`bayescomp.centred_target`; the non-centred one has the same :math:`Z`).
    """

    mean: np.ndarray
    sd: np.ndarray
    noncentred_mean: np.ndarray
    noncentred_sd: np.ndarray
    prob_tau_below_1: float
    log_tau_grid: np.ndarray
    log_tau_density: np.ndarray
    log_tau_cdf: np.ndarray
    conditional: ConditionalMoments
    log_normalizer: float


def conditional_moments(data, log_tau):
    r"""The closed-form pieces of the posterior at given values of :math:`u = \log\tau`.

    Parameters
    ----------
    data : HierarchicalData
    log_tau : array_like, shape (K,)

    Returns
    -------
    ConditionalMoments

    Notes
    -----
    With :math:`V_j = \sigma_j^2 + \tau^2`, integrating out :math:`\theta_j` gives
    :math:`y_j \mid \mu, \tau \sim N(\mu, V_j)`. Completing the square in :math:`\mu` against its
    prior :math:`N(0, s_\mu^2)` (:math:`s_\mu` and :math:`s_\tau` are the prior scales of
    :math:`\mu` and :math:`\tau`, ``data.mu_prior_sd`` and ``data.tau_prior_scale``, both 5),

    .. math::

        V_\mu^{-1} = s_\mu^{-2} + \sum_j V_j^{-1},\qquad
        \hat\mu = V_\mu\sum_j y_j/V_j,\\
        \log p(y \mid \tau) = \tfrac12\log V_\mu - \tfrac12\sum_j\log V_j
            - \tfrac12\Big(\sum_j \frac{y_j^2}{V_j} - \frac{\hat\mu^2}{V_\mu}\Big) + c,

    and :math:`\log p(u \mid y) = \log p(y \mid \tau) - \log(1 + \tau^2/s_\tau^2) + u + c'`
    (half-Cauchy prior, Jacobian :math:`\tau`). Given :math:`\mu`,
    :math:`\theta_j \sim N((1 - B_j)y_j + B_j\mu,\ (1 - B_j)\sigma_j^2)`; averaging over
    :math:`\mu \mid \tau, y` adds :math:`B_j^2 V_\mu` to the variance.
    """
    log_tau = np.asarray(log_tau, dtype=float)
    tau2 = np.exp(2.0 * log_tau)[:, None]
    sigma2 = data.sigma**2
    total_var = sigma2 + tau2                                    # V_j, shape (K, J)
    mu_var = 1.0 / (1.0 / data.mu_prior_sd**2 + (1.0 / total_var).sum(axis=1))
    mu_mean = mu_var * (data.y / total_var).sum(axis=1)
    log_likelihood = 0.5 * (np.log(mu_var) - np.log(total_var).sum(axis=1)
                            - (data.y**2 / total_var).sum(axis=1) + mu_mean**2 / mu_var)
    log_prior = -np.log1p(tau2[:, 0] / data.tau_prior_scale**2) + log_tau
    shrinkage, data_weight = sigma2 / total_var, tau2 / total_var
    theta_mean = data_weight * data.y + shrinkage * mu_mean[:, None]
    theta_var = data_weight * sigma2 + shrinkage**2 * mu_var[:, None]
    return ConditionalMoments(log_likelihood + log_prior, mu_mean, mu_var, theta_mean, theta_var,
                              shrinkage, data_weight)


def _trapezoid_weights(n_nodes, spacing):
    weights = np.full(n_nodes, spacing)
    weights[[0, -1]] = 0.5 * spacing
    return weights


def hierarchical_reference(data, log_tau_range=(-30.0, 10.0), n_nodes=8001):
    r"""Exact posterior moments by the trapezoid rule over :math:`u = \log\tau`.

    Parameters
    ----------
    data : HierarchicalData
    log_tau_range : tuple of float
        Integration limits for :math:`\log\tau`. The density falls like :math:`\tau` as
        :math:`\tau \to 0` (the half-Cauchy prior is flat there, times the Jacobian), so the lower
        limit must be far out: below -30 the neglected part of :math:`E[(\log\tau)^2]` is about
        :math:`30^2 e^{-30} \approx 10^{-10}` of the density's scale. Above, it falls like
        :math:`\tau^{-(J+1)}`.
    n_nodes : int
        Evenly spaced nodes, both limits included; one must fall on :math:`u = 0` after an even
        number of intervals, for Simpson's rule on :math:`P(\tau < 1)`.

    Returns
    -------
    HierarchicalReference

    Notes
    -----
    Each moment is :math:`E[g] = \int E[g \mid \tau, y]\,p(u \mid y)\,du`, and each variance
    follows from the law of total variance, e.g.
    :math:`\mathrm{Var}(\theta_j) = E[\mathrm{Var}(\theta_j\mid\tau)] +
    \mathrm{Var}(E[\theta_j\mid\tau])`. For :math:`\eta_j = (\theta_j - \mu)/\tau`,
    :math:`E[\eta_j\mid\tau] = (1 - B_j)(y_j - \hat\mu)/\tau` and
    :math:`\mathrm{Var}(\eta_j\mid\tau) = ((1 - B_j)\sigma_j^2 + (1 - B_j)^2V_\mu)/\tau^2`.
    The probability :math:`P(\tau < 1)` uses Simpson's rule on :math:`[u_{\min}, 0]`: the
    integrand does not vanish at 0, so the trapezoid rule would be only second order there.
    """
    low, high = (float(v) for v in log_tau_range)
    if not low < 0.0 < high:
        raise ValueError(f"log_tau_range must be (low, high) with low < 0 < high; "
                         f"got {tuple(log_tau_range)}")
    n_nodes = positive_int(n_nodes, "n_nodes", minimum=3)
    grid = np.linspace(low, high, n_nodes)
    spacing = grid[1] - grid[0]
    moments = conditional_moments(data, grid)
    # Normalize p(u | y) so that the trapezoid rule integrates it to one.
    peak = moments.log_density.max()
    density = np.exp(moments.log_density - peak)
    weights = _trapezoid_weights(n_nodes, spacing)
    mass_of_u = weights @ density
    density /= mass_of_u
    mass = weights * density

    def mean_and_sd(conditional_mean, conditional_var):
        mean = mass @ conditional_mean
        second = mass @ (conditional_var + conditional_mean**2)
        return mean, np.sqrt(second - mean**2)

    tau = np.exp(grid)[:, None]
    columns = [(moments.mu_mean, moments.mu_var), (grid, np.zeros_like(grid))]
    mean, sd = zip(*[mean_and_sd(m, v) for m, v in columns])
    theta_mean, theta_sd = mean_and_sd(moments.theta_mean, moments.theta_var)
    keep = moments.data_weight
    eta_mean, eta_sd = mean_and_sd(
        keep * (data.y - moments.mu_mean[:, None]) / tau,
        (keep * data.sigma**2 + keep**2 * moments.mu_var[:, None]) / tau**2)
    # P(tau < 1) = P(u < 0), by Simpson's rule on the nodes up to the one at 0.
    zero = int(np.argmin(np.abs(grid)))
    if abs(grid[zero]) > 1e-9 * spacing or zero % 2 == 1:
        raise ValueError("n_nodes must put a node at log tau = 0 after an even number of "
                         f"intervals; got range {log_tau_range} with {n_nodes} nodes")
    cdf = np.concatenate([[0.0], np.cumsum(0.5 * spacing * (density[1:] + density[:-1]))])
    return HierarchicalReference(
        np.r_[mean, theta_mean], np.r_[sd, theta_sd],
        np.r_[mean, eta_mean], np.r_[sd, eta_sd],
        _simpson(density[:zero + 1], spacing), grid, density, cdf, moments,
        _log_normalizer(data, peak + np.log(mass_of_u)))


def _log_normalizer(data, log_mass_of_u):
    r""":math:`\log Z` of the targets from :math:`\log\int e^{\ell(u)}du`, where :math:`\ell` is
    :attr:`ConditionalMoments.log_density`.

    Integrating :math:`\theta` and :math:`\mu` out of the centred target's
    :math:`\exp(\log\tilde p)` in closed form leaves :math:`(2\pi)^{(J+1)/2}\prod_j\sigma_j\,
    e^{\ell(u)}`: the Gaussian integrals' constants, which :math:`\ell` leaves out.
    """
    n_groups = data.y.size
    return float(log_mass_of_u + 0.5 * (n_groups + 1) * np.log(2 * np.pi)
                 + np.log(data.sigma).sum())


def _simpson(values, spacing):
    """Composite Simpson's rule on an odd number of evenly spaced values."""
    return float(spacing / 3 * (values[0] + values[-1] + 4 * values[1:-1:2].sum()
                                + 2 * values[2:-1:2].sum()))


def exact_log_density(data, reference, draws):
    r"""The normalized log posterior density at centred points, from the factorization.

    Parameters
    ----------
    data : HierarchicalData
    reference : HierarchicalReference
    draws : array_like, shape (n, J + 2)
        Points :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`.

    Returns
    -------
    ndarray, shape (n,)

    Notes
    -----
    :math:`\log p(u \mid y) + \log N(\mu; \hat\mu, V_\mu) + \sum_j \log N(\theta_j;
    (1 - B_j)y_j + B_j\mu, (1 - B_j)\sigma_j^2)`, every term evaluated at the point's own
    :math:`\tau`. Minus this, a target's :math:`\log\tilde p` must be the constant
    :math:`\log Z` everywhere: a check of the conditionals that does not go through any
    moment.
    """
    draws = np.atleast_2d(np.asarray(draws, dtype=float))
    moments = conditional_moments(data, draws[:, 1])
    log_mass_of_u = reference.log_normalizer - _log_normalizer(data, 0.0)
    keep = moments.data_weight

    def log_normal(x, mean, var):
        return -0.5 * (np.log(2 * np.pi * var) + (x - mean) ** 2 / var)

    theta_mean = keep * data.y + moments.shrinkage * draws[:, :1]
    return (moments.log_density - log_mass_of_u
            + log_normal(draws[:, 0], moments.mu_mean, moments.mu_var)
            + log_normal(draws[:, 2:], theta_mean, keep * data.sigma**2).sum(axis=1))


def exact_draws(data, reference, n_draws, rng):
    r"""Independent draws from the posterior, through its factorization.

    Parameters
    ----------
    data : HierarchicalData
    reference : HierarchicalReference
        From :func:`hierarchical_reference` for the same ``data``.
    n_draws : int
    rng : np.random.Generator

    Returns
    -------
    ndarray, shape (n_draws, J + 2)
        Centred coordinates :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`.

    Notes
    -----
    Draw :math:`u` by inverting the trapezoid CDF of :math:`p(u \mid y)` (linear between nodes,
    an error of the order of the squared node spacing), then
    :math:`\mu \mid \tau, y \sim N(\hat\mu, V_\mu)` and
    :math:`\theta_j \mid \mu, \tau, y \sim N((1-B_j)y_j + B_j\mu, (1-B_j)\sigma_j^2)`, each
    evaluated at the drawn :math:`\tau`. Draw order: all uniforms for :math:`u`, then all
    normals for :math:`\mu`, then all normals for :math:`\theta`.
    """
    n_draws = positive_int(n_draws, "n_draws")
    rng = generator(rng)
    cdf = reference.log_tau_cdf / reference.log_tau_cdf[-1]
    log_tau = np.interp(rng.random(n_draws), cdf, reference.log_tau_grid)
    moments = conditional_moments(data, log_tau)
    mu = moments.mu_mean + np.sqrt(moments.mu_var) * rng.standard_normal(n_draws)
    keep = moments.data_weight
    theta = (keep * data.y + moments.shrinkage * mu[:, None]
             + np.sqrt(keep * data.sigma**2) * rng.standard_normal((n_draws, data.y.size)))
    return np.column_stack([mu, log_tau, theta])


# What the chapter audits: three means and one tail probability.
AUDITED = ("mu", "log tau", "theta_1", "P(tau < 1)")
# A mean within a tenth of a posterior sd, a probability within a tenth of itself, is "accurate".
TOLERANCE = (0.1, 0.1, 0.1, 0.1)


class Audit(NamedTuple):
    r"""Estimates of the audited quantities (:data:`AUDITED`), their Monte Carlo errors, and how
    far they are from the exact values.

    Attributes
    ----------
    estimates, mcse : ndarray, shape (4,)
        :math:`E[\mu]`, :math:`E[\log\tau]`, :math:`E[\theta_1]`, :math:`P(\tau < 1)`, and the
        Monte Carlo standard error of each.
    errors, error_mcse : ndarray, shape (4,)
        For the three means, (estimate - exact) / exact posterior sd; for the probability
        :math:`P(\tau < 1)`, the relative error (estimate :math:`- P(\tau<1)`) /
        :math:`P(\tau<1)`, so that -1 means no mass at all below :math:`\tau = 1`.
        ``error_mcse`` is the MCSE in the same units.
        For draws (chains, independent or weighted) whose values of a quantity never change
        (a run that never visits :math:`\tau < 1` gives an indicator that is always 0) the
        MCSE is NaN: the draws carry no information about their own error, and a printed 0
        would claim certainty.
    misses : ndarray of bool, shape (4,)
        Where the error exceeds :data:`TOLERANCE`: the estimate is wrong by more than the
        audit allows, whatever the run says of its own precision.
    beyond_allowance : ndarray of bool, shape (4,)
        Misses beyond the run's allowance, the tolerance plus two of its own MCSE, so that a
        report of the estimate with its MCSE would mislead. A miss within the allowance is not
        vindicated: the run's own interval of two MCSE may still exclude the exact value, by up
        to the tolerance. An undefined MCSE counts as zero here, so that a run that never
        visits the tail is judged by its error alone.
    """

    estimates: np.ndarray
    mcse: np.ndarray
    errors: np.ndarray
    error_mcse: np.ndarray
    misses: np.ndarray
    beyond_allowance: np.ndarray


def _audited_values(draws):
    """The four audited functions of centred draws (..., J + 2) -> (..., 4)."""
    return np.stack([draws[..., 0], draws[..., 1], draws[..., 2],
                     (draws[..., 1] < 0.0).astype(float)], axis=-1)


def _estimates_and_mcse(values, weights, chains):
    """Estimates and MCSEs of ``values`` with a leading run axis: ``(run, chain, draw, 4)`` for
    chains, ``(run, n, 4)`` for independent or weighted draws; returns two ``(run, 4)`` arrays."""
    estimates, mcse = _estimates_and_formula_mcse(values, weights, chains)
    # Constant values: every formula gives an MCSE of 0, a certainty the draws cannot back.
    constant = np.ptp(values.reshape(len(values), -1, 4), axis=1) == 0
    return estimates, np.where(constant, np.nan, mcse)


def _estimates_and_formula_mcse(values, weights, chains):
    n_run = len(values)
    # Chains: MCSE from the ESS of each quantity of each run (bayescomp.mcse_mean).
    if chains:
        columns = np.moveaxis(values, 0, 2).reshape(*values.shape[1:3], n_run * 4)
        return values.mean(axis=(1, 2)), mcse_mean(columns).reshape(n_run, 4)
    if weights is None:
        return values.mean(axis=1), values.std(axis=1, ddof=1) / np.sqrt(values.shape[1])
    # Self-normalized importance sampling, with the delta-method standard error.
    return weighted_estimates(values, weights)


def _audit(reference, values, weights, chains):
    estimates, mcse = _estimates_and_mcse(values, weights, chains)
    p = reference.prob_tau_below_1
    exact = np.r_[reference.mean[:3], p]
    scale = np.r_[reference.sd[:3], p]
    errors, error_mcse = (estimates - exact) / scale, mcse / scale
    tolerance = np.asarray(TOLERANCE)
    return Audit(estimates, mcse, errors, error_mcse, np.abs(errors) > tolerance,
                 np.abs(errors) - 2 * np.nan_to_num(error_mcse) > tolerance)


def audit(reference, draws, weights=None):
    r"""How far draws (chains, independent draws, or weighted draws) are from the exact posterior.

    Parameters
    ----------
    reference : HierarchicalReference
    draws : array_like, shape (chain, draw, J + 2) or (n, J + 2)
        Centred coordinates :math:`(\mu, \log\tau, \theta_1, \dots, \theta_J)`. Three axes are
        MCMC chains (the MCSE then comes from each quantity's ESS); two are independent draws.
    weights : array_like, shape (n,), optional
        Self-normalized importance weights for two-axis ``draws``.

    Returns
    -------
    Audit
    """
    draws = np.asarray(draws, dtype=float)
    if draws.shape[-1] != reference.mean.size or draws.ndim not in (2, 3):
        raise ValueError(f"draws must have shape (n, {reference.mean.size}) or (chain, draw, "
                         f"{reference.mean.size}); got shape {draws.shape}")
    if weights is not None:
        weights = np.asarray(weights, dtype=float).reshape(-1)
        if draws.ndim != 2 or weights.size != len(draws):
            raise ValueError(f"weights must have one entry per draw of 2-D draws "
                             f"({len(draws)}); got {weights.size}")
        weights = weights[None]
    result = _audit(reference, _audited_values(draws)[None], weights, chains=draws.ndim == 3)
    return Audit(*(field[0] for field in result))


def audit_runs(reference, draws, weights=None, chains=True):
    r"""The :func:`audit` of each of many runs at once.

    Parameters
    ----------
    reference : HierarchicalReference
    draws : array_like
        Centred coordinates, run first: ``(run, chain, draw, J + 2)`` for MCMC runs
        (``chains=True``), or ``(run, n, J + 2)`` for independent or weighted draws.
    weights : array_like, shape (run, n), optional
        Each run's self-normalized importance weights.
    chains : bool
        Whether ``draws`` are MCMC chains.

    Returns
    -------
    Audit
        Every field with the run as its leading axis, shape ``(run, 4)``.
    """
    draws = np.asarray(draws, dtype=float)
    want = 4 if chains else 3
    if draws.ndim != want or draws.shape[-1] != reference.mean.size:
        shape = "(run, chain, draw, J + 2)" if chains else "(run, n, J + 2)"
        raise ValueError(f"draws must have shape {shape} with J + 2 = {reference.mean.size}; "
                         f"got shape {draws.shape}")
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
        if chains or weights.shape != draws.shape[:2]:
            raise ValueError(f"weights must have shape (run, n) = {draws.shape[:2]} for "
                             f"independent draws; got shape {weights.shape}")
    return _audit(reference, _audited_values(draws), weights, chains)


def log_tau_theta_density(reference, group, theta_values, relative_to_mu=False):
    r"""The exact joint density of :math:`(\log\tau, \theta_j)`, or of
    :math:`(\log\tau, \theta_j - \mu)`, on the reference's nodes.

    Parameters
    ----------
    reference : HierarchicalReference
    group : int
        Which :math:`\theta_j` (0-based).
    theta_values : array_like, shape (m,)
        Values of :math:`\theta_j`, or of :math:`\theta_j - \mu` with ``relative_to_mu``.
    relative_to_mu : bool
        The deviation :math:`\theta_j - \mu` instead of :math:`\theta_j`: given :math:`\tau`
        its sd is about :math:`\tau`, which is where the funnel's neck really narrows.

    Returns
    -------
    ndarray, shape (K, m)
        :math:`p(u_k \mid y)` times a Gaussian density: given :math:`\tau`, :math:`\theta_j` has
        mean :math:`(1 - B_j)y_j + B_j\hat\mu` and variance :math:`(1 - B_j)\sigma_j^2 +
        B_j^2V_\mu`, and :math:`\theta_j - \mu` has mean :math:`(1 - B_j)(y_j - \hat\mu)` and
        variance :math:`(1 - B_j)\sigma_j^2 + (1 - B_j)^2V_\mu`.
    """
    moments = reference.conditional
    theta_values = np.asarray(theta_values, dtype=float)
    if relative_to_mu:
        # (1 - B) sigma^2 = tau^2 B; written so, the variance keeps its digits as tau -> 0.
        mean = (moments.theta_mean[:, group] - moments.mu_mean)[:, None]
        var = (np.exp(2.0 * reference.log_tau_grid) * moments.shrinkage[:, group]
               + moments.data_weight[:, group] ** 2 * moments.mu_var)[:, None]
    else:
        mean = moments.theta_mean[:, group, None]
        var = moments.theta_var[:, group, None]
    gauss = np.exp(-0.5 * (theta_values - mean) ** 2 / var) / np.sqrt(2 * np.pi * var)
    return reference.log_tau_density[:, None] * gauss
