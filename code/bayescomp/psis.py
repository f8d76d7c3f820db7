"""Pareto smoothed importance sampling (PSIS): stabler weights and the k-hat diagnostic.

Vehtari, Simpson, Gelman, Yao and Gabry (2024), "Pareto smoothed importance sampling",
*Journal of Machine Learning Research* 25(72). Matches ArviZ's ``psislw`` to rounding.
Working rule: trust the estimate when k-hat < 0.7.
"""
from typing import NamedTuple

import numpy as np

from ._checks import as_finite_array, positive_float, positive_int

# The fit needs a few tail points to say anything (ArviZ gives up below 5).
MIN_TAIL = 5
#: The cap of the k-hat rule: above it a PSIS estimate is not trusted at any sample size.
K_HAT_MAX = 0.7


class ParetoSmoothedWeights(NamedTuple):
    """Smoothed, self-normalized log weights and the fitted tail shape.

    Attributes
    ----------
    log_weights : ndarray, shape (n,)
        Log weights whose exponentials sum to one.
    k_hat : float
        Estimated shape of the generalized Pareto tail of the weights; ``inf`` when the tail
        could not be fitted (then the weights are only normalized, not smoothed).
    """

    log_weights: np.ndarray
    k_hat: float


def _tail_length(n_draws, relative_ess):
    r"""Tail size :math:`S_{\text{tail}} = \lceil\min(S/5,\ 3\sqrt{S/r_{\text{eff}}})\rceil`."""
    return int(np.ceil(min(n_draws / 5.0, 3 * (n_draws / relative_ess) ** 0.5)))


def _fit_generalized_pareto(exceedances):
    r"""Shape :math:`k` and scale :math:`\sigma` of a generalized Pareto fit to sorted exceedances.

    Zhang and Stephens (2009): a quadrature over :math:`b = -k/\sigma` weighted by the profile
    likelihood, with the prior and the shrinkage of :math:`k` towards 0.5 used by ArviZ and loo.
    """
    n = exceedances.size
    n_candidates = 30 + int(n**0.5)
    # Candidate values of b, spread by the data's first quartile and maximum.
    b = 1 - np.sqrt(n_candidates / (np.arange(1, n_candidates + 1, dtype=float) - 0.5))
    b /= 3 * exceedances[int(n / 4 + 0.5) - 1]
    b += 1 / exceedances[-1]
    # Profile log likelihood of each candidate, and its normalized weight: a softmax, shifted
    # by the largest value so that no exponential overflows (profiles span thousands of nats
    # when the tail holds thousands of draws).
    k = np.log1p(-b[:, None] * exceedances).mean(axis=1)
    profile = n * (np.log(-(b / k)) - k - 1)
    weights = np.exp(profile - profile.max())
    weights /= weights.sum()
    keep = weights >= 10 * np.finfo(float).eps
    weights, b = weights[keep] / weights[keep].sum(), b[keep]
    # Posterior mean of b, then k and sigma given it.
    b_mean = np.sum(b * weights)
    k_hat = np.log1p(-b_mean * exceedances).mean()
    sigma = -k_hat / b_mean
    # A weak prior, worth 10 draws, pulls k towards 0.5.
    return (n * k_hat + 10 * 0.5) / (n + 10), sigma


def _generalized_pareto_quantile(probs, k, sigma):
    r"""Inverse CDF :math:`\sigma\,((1-p)^{-k} - 1)/k` (:math:`-\sigma\log(1-p)` at :math:`k=0`)."""
    if abs(k) < np.finfo(float).eps:
        return -sigma * np.log1p(-probs)
    return sigma * (np.expm1(-k * np.log1p(-probs)) / k)


def _smooth_tail(shifted, tail_length):
    """Replace the largest log weights by expected order statistics of a fitted Pareto tail."""
    # The tail is every draw above the (tail_length + 1)-th largest, but never below ~exp(-708).
    cutoff = max(np.sort(shifted)[-tail_length - 1], np.log(np.finfo(float).tiny))
    tail = np.flatnonzero(shifted > cutoff)
    if tail.size < MIN_TAIL:
        return shifted, np.inf
    order = tail[np.argsort(shifted[tail])]
    k_hat, sigma = _fit_generalized_pareto(np.exp(shifted[order]) - np.exp(cutoff))
    if not (np.isfinite(k_hat) and sigma > 0):
        return shifted, k_hat  # the fit failed: leave the weights as they are
    probs = np.arange(0.5, tail.size) / tail.size
    smoothed = shifted.copy()
    smoothed[order] = np.log(_generalized_pareto_quantile(probs, k_hat, sigma) + np.exp(cutoff))
    # No smoothed weight may exceed the largest raw weight, here exp(0).
    return np.minimum(smoothed, 0.0), k_hat


def pareto_smoothed_log_weights(log_weights, relative_ess=1.0):
    r"""Pareto smoothed importance sampling: smooth the largest weights and estimate k-hat.

    Parameters
    ----------
    log_weights : array_like, shape (n,)
        Unnormalized log importance weights :math:`\log\tilde p(\theta_s) - \log q(\theta_s)`,
        finite. ``n`` must give a tail of at least 5 draws (``n >= 21`` when independent).
    relative_ess : float
        ESS / n of the draws: 1 for independent draws, less for MCMC draws.

    Returns
    -------
    ParetoSmoothedWeights
        ``(log_weights, k_hat)``, the log weights normalized so their exponentials sum to one.

    Notes
    -----
    Take the :math:`S_{\text{tail}} = \lceil\min(S/5, 3\sqrt{S/r_{\text{eff}}})\rceil` largest
    weights, fit a generalized Pareto distribution to their excess :math:`w - u` over the next
    weight :math:`u` (Zhang and Stephens, 2009), and replace the :math:`z`-th smallest of them by
    :math:`u + F^{-1}\big((z - 1/2)/S_{\text{tail}}\big)`, where

    .. math::

        F^{-1}(a) = \frac{\beta}{k}\big[(1-a)^{-k} - 1\big]

    is the quantile function of the fitted distribution, with shape :math:`k` and scale
    :math:`\beta`; no smoothed weight may exceed the largest raw weight. The fitted shape
    :math:`\hat k` says how heavy the weights' tail is, over the range of weights that these
    draws reached: the variance of the weights is finite only for :math:`k < 1/2`, and the
    estimate is reliable for :math:`\hat k` below :func:`k_hat_threshold` with about
    :math:`10^{1/(1-\hat k)}` draws (Vehtari et al., 2024, sections 3 and 5).
    """
    log_weights = as_finite_array(log_weights, "log_weights", ndim=1)
    relative_ess = positive_float(relative_ess, "relative_ess")
    tail_length = _tail_length(log_weights.size, relative_ess)
    if tail_length < MIN_TAIL:
        raise ValueError(f"log_weights must have enough draws for a tail of {MIN_TAIL} "
                         f"(at least 21 independent draws); got {log_weights.size}, "
                         f"a tail of {tail_length}")
    # Shift so the largest log weight is 0: the exponentials can neither overflow nor all vanish.
    smoothed, k_hat = _smooth_tail(log_weights - log_weights.max(), tail_length)
    peak = smoothed.max()
    log_total = np.log(np.sum(np.exp(smoothed - peak))) + peak
    return ParetoSmoothedWeights(smoothed - log_total, float(k_hat))


def k_hat_threshold(n_draws):
    r"""The largest :math:`\hat k` at which a PSIS estimate from ``n_draws`` draws is trusted.

    Parameters
    ----------
    n_draws : int
        :math:`S`, the number of draws (at least 2).

    Returns
    -------
    float

    Notes
    -----
    .. math::

        \hat k_{\max}(S) = \min\big(1 - 1/\log_{10} S,\ 0.7\big).

    For a tail of shape :math:`k`, the error of a PSIS estimate becomes small only once
    :math:`S` exceeds about :math:`10^{1/(1-k)}` draws; with :math:`S` draws that allows
    :math:`k < 1 - 1/\log_{10}S`, stricter than 0.7 below :math:`10^{10/3} \approx 2{,}200`
    draws. Above 0.7 the required :math:`S` is impractically large (Vehtari et al., 2024,
    section 3).
    """
    n_draws = positive_int(n_draws, "n_draws", 2)
    return float(min(1 - 1 / np.log10(n_draws), K_HAT_MAX))
