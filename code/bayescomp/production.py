"""Production MCMC diagnostics: rank-normalized R-hat, bulk ESS and tail ESS.

Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-normalization, folding, and
localization: an improved R-hat for assessing convergence of MCMC", *Bayesian Analysis* 16(2).
These are the versions Stan and ArviZ report, and they match ArviZ to rounding. The textbook
versions in :mod:`bayescomp.diagnostics` stay: they reproduce the lecture's numbers.

Shape convention: ``draws`` is ``(chain, draw, param)``, or ``(chain, draw)`` for one parameter,
in which case each function returns a float instead of an array. Working rules (Vehtari et al.,
2021): R-hat below 1.01, bulk and tail ESS above 400.
"""
import numpy as np

from ._checks import as_finite_array
from ._normal import normal_quantile
from .diagnostics import lagged_products

# Tail ESS looks at the 5% and 95% quantiles (Vehtari et al., 2021, section 4.3).
TAIL_PROBS = (0.05, 0.95)


def _check_chains(draws, min_chains):
    """Return ``draws`` as (chain, draw, param) and whether it came with one parameter."""
    draws = as_finite_array(draws, "draws")
    if draws.ndim not in (2, 3):
        raise ValueError("draws must have shape (chain, draw) or (chain, draw, param); "
                         f"got shape {draws.shape}")
    if draws.shape[0] < min_chains:
        raise ValueError(f"draws must have at least {min_chains} chains on axis 0; "
                         f"got {draws.shape[0]}")
    if draws.shape[1] < 4:
        raise ValueError(f"draws must have at least 4 draws per chain; got {draws.shape[1]}")
    return (draws[..., None], True) if draws.ndim == 2 else (draws, False)


def _per_param(statistic, draws, min_chains):
    """Apply ``statistic`` ((chain, draw) -> float) to each parameter's draws."""
    draws, single = _check_chains(draws, min_chains)
    values = np.array([statistic(draws[:, :, p]) for p in range(draws.shape[2])])
    return float(values[0]) if single else values


def _split_chains(x):
    """Cut each chain into its first and last halves: (chain, draw) -> (2 chain, draw // 2)."""
    half = x.shape[1] // 2
    return np.concatenate([x[:, :half], x[:, -half:]], axis=0)


def _average_ranks(values):
    """Ranks 1..n of a flat array, tied values sharing the average of their ranks."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    # Each run of equal values is one group; its members share the mean of its rank range.
    new_group = np.r_[True, ordered[1:] != ordered[:-1]]
    starts = np.flatnonzero(new_group)
    ends = np.r_[starts[1:], values.size]
    group = np.cumsum(new_group) - 1
    ranks = np.empty(values.size)
    ranks[order] = ((starts + 1 + ends) / 2)[group]
    return ranks


def _rank_normalize(x):
    r"""Normal scores of the ranks pooled over all chains, in the shape of ``x``.

    :math:`z = \Phi^{-1}((r - 3/8)/(S + 1/4))`, Blom's (1958) offset for :math:`S` values.
    """
    ranks = _average_ranks(x.ravel())
    return normal_quantile((ranks - 3 / 8) / (x.size + 1 / 4)).reshape(x.shape)


def _classic_rhat(x):
    r"""R-hat of (chain, draw) values: :math:`\sqrt{(B/W + n - 1)/n}`.

    Chains that never move give :math:`W = 0`: infinite R-hat if they sit at different values,
    NaN if every draw is the same.
    """
    n = x.shape[1]
    between = n * x.mean(axis=1).var(ddof=1)
    within = x.var(axis=1, ddof=1).mean()
    if within == 0:
        return np.inf if between > 0 else np.nan
    return np.sqrt((between / within + n - 1) / n)


def _rank_rhat(x):
    """Bulk and folded rank-normalized split R-hat of one parameter; the larger of the two."""
    split = _split_chains(x)
    bulk = _classic_rhat(_rank_normalize(split))
    # Folding around the median turns a difference in scale into a difference in location.
    folded = _classic_rhat(_rank_normalize(np.abs(split - np.median(split))))
    return max(bulk, folded)


def rank_normalized_rhat(draws):
    r"""Rank-normalized split R-hat, the larger of its bulk and folded versions.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)
        At least 2 chains and 4 draws per chain.

    Returns
    -------
    ndarray, shape (param,), or float for 2-D ``draws``
        NaN for a parameter whose draws are all equal; infinite when the split chains each
        stay put but at different values.

    Notes
    -----
    Split every chain in half, giving :math:`M` chains of :math:`n` draws. Replace each draw by the
    normal score of its rank among all :math:`S = Mn` draws,
    :math:`z = \Phi^{-1}\big((r - 3/8)/(S + 1/4)\big)`, and compute
    :math:`\hat R = \sqrt{(B/W + n - 1)/n}` on the :math:`z`, with :math:`W` the mean
    within-chain variance and :math:`B = n\,\mathrm{Var}(\bar z_m)`. Repeat on the folded draws
    :math:`|\theta - \operatorname{median}\theta|` and report the larger value
    (Vehtari et al., 2021, section 4.2). Ranks make it work for heavy tails; folding catches chains
    that agree in location but not in scale.
    """
    return _per_param(_rank_rhat, draws, min_chains=2)


def _geyer_truncated_sum(rho):
    r"""Geyer's (1992) initial positive and monotone sequence estimate of :math:`\tau`.

    ``rho`` holds :math:`\hat\rho_t` for lags :math:`t = 0, \dots, n-1` with
    :math:`\hat\rho_0 = 1`; the result is :math:`\hat\tau = -1 + 2\sum_{k<K} P_k + \hat\rho_{2K}`,
    with the truncation and edge rules of Stan and ArviZ.
    """
    n = rho.size
    pair_sums = rho[:-1:2] + rho[1::2]  # P_k = rho_2k + rho_2k+1
    # Stop at the first pair that is not positive, or where the series runs out of lags.
    n_pairs = max(1, int(np.ceil((n - 2) / 2)))
    non_positive = np.flatnonzero(pair_sums[:n_pairs] <= 0)
    stop = non_positive[0] + 1 if non_positive.size else n_pairs
    # Initial monotone sequence: each kept pair is capped by the one before it.
    kept = np.minimum.accumulate(pair_sums[:stop - 1])
    # The first pair left out still adds its even lag once, unless that lag is not positive
    # and the pair's sum is negative (the edge rule of Stan and ArviZ).
    last_even = 1.0 if stop == 1 else rho[2 * (stop - 1)]
    if stop > 1 and last_even <= 0 and pair_sums[stop - 1] < 0:
        last_even = 0.0
    return -1.0 + 2.0 * kept.sum() + last_even


def _ess(x):
    r"""ESS of (chain, draw) values from the multi-chain autocorrelation (Stan's formula)."""
    n_chain, n_draw = x.shape
    total = n_chain * n_draw
    if np.ptp(x) < np.finfo(float).resolution:
        return float(total)  # a constant series: every draw counts (ArviZ's convention)
    acov = lagged_products(x - x.mean(axis=1, keepdims=True)) / n_draw
    # var+ pools within- and between-chain variance (Gelman et al., 2013, equation 11.3).
    mean_var = acov[:, 0].mean() * n_draw / (n_draw - 1.0)
    var_plus = mean_var * (n_draw - 1.0) / n_draw
    if n_chain > 1:
        var_plus += x.mean(axis=1).var(ddof=1)
    rho = 1.0 - (mean_var - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    # The floor 1/log10(S) keeps antithetic chains from reporting an absurdly large ESS.
    tau = max(_geyer_truncated_sum(rho), 1.0 / np.log10(total))
    return total / tau


def _bulk_ess(x):
    return _ess(_rank_normalize(_split_chains(x)))


def _tail_ess(x):
    # ESS of the indicator I(theta <= q) at each tail quantile q, the smaller of the two.
    quantiles = np.quantile(x, TAIL_PROBS)
    return min(_ess(_split_chains((x <= q).astype(float))) for q in quantiles)


def ess_bulk(draws):
    r"""Bulk effective sample size: the ESS of the rank-normalized split chains.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)
        At least 4 draws per chain.

    Returns
    -------
    ndarray, shape (param,), or float for 2-D ``draws``

    Notes
    -----
    Split chains and rank-normalize as in :func:`rank_normalized_rhat`, then, with
    :math:`\hat\rho_t = 1 - (W - \overline{\gamma}_t)/\widehat{\mathrm{var}}^+` from the
    autocovariances :math:`\gamma_t` averaged over chains (Gelman et al., 2013, section 11.5),

    .. math::

        \mathrm{ESS} = \frac{S}{\hat\tau},\qquad
        \hat\tau = -1 + 2\sum_{t=0}^{2K+1}\hat\rho_t,

    where the sum runs over Geyer's (1992) initial positive sequence of pairs
    :math:`\hat\rho_{2k} + \hat\rho_{2k+1}`, made monotone (Vehtari et al., 2021, section 3.2).
    """
    return _per_param(_bulk_ess, draws, min_chains=1)


def ess_tail(draws):
    r"""Tail effective sample size: the smaller ESS of the 5% and 95% quantile indicators.

    Parameters and returned shape are those of :func:`ess_bulk`.

    Notes
    -----
    For :math:`\alpha \in \{0.05, 0.95\}`, let :math:`\hat q_\alpha` be the empirical quantile of
    all draws and :math:`I = \mathbb 1(\theta \le \hat q_\alpha)`; then

    .. math::

        \mathrm{ESS}_{\text{tail}} = \min_\alpha \mathrm{ESS}(I_\alpha),

    each computed on the split chains as in :func:`ess_bulk`, without ranks
    (Vehtari et al., 2021, section 4.3). It tells how well the chains pin down the 90% interval.
    """
    return _per_param(_tail_ess, draws, min_chains=1)
