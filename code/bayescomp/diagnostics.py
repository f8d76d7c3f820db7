"""MCMC diagnostics as Stan, ArviZ and the R package posterior compute them.

Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-normalization, folding, and
localization: an improved R-hat for assessing convergence of MCMC", *Bayesian Analysis* 16(2):

- :func:`rank_normalized_rhat`: do the chains agree, in location and in scale?
- :func:`ess_bulk`, :func:`ess_tail`: how many independent draws the chains are worth for the
  centre of the distribution and for its 5% and 95% quantiles;
- :func:`ess_mean`, :func:`mcse_mean`: the ESS and Monte Carlo standard error of a mean;
- :func:`ess_quantile`, :func:`mcse_quantile`: the same for a quantile.

Each matches ArviZ to rounding (the tests hold it to 1e-6 relative). Working rules (Vehtari et
al., 2021): R-hat below 1.01, bulk and tail ESS above 400. The lecture's textbook versions are in
:mod:`bayescomp.classic_diagnostics`; they reproduce its numbers.

Shape convention: ``draws`` is ``(chain, draw, param)``, or ``(chain, draw)`` for one parameter,
in which case each function returns a float instead of an array.
"""
from typing import NamedTuple

import numpy as np

from ._chains import check_draws, lagged_products, per_param, split_chains
from ._checks import unit_interval_float
from ._special import beta_quantile, normal_quantile
from .classic_diagnostics import potential_scale_reduction

# Tail ESS looks at the 5% and 95% quantiles (Vehtari et al., 2021, section 4.3).
TAIL_PROBS = (0.05, 0.95)
# Working rules: R-hat and ESS from Vehtari et al. (2021), E-BFMI from Betancourt (2016).
RHAT_THRESHOLD = 1.01
ESS_THRESHOLD = 400
EBFMI_THRESHOLD = 0.3
# An MCSE is the half-width of a central interval of probability 0.6827: +-1 sd of a normal.
_ONE_SD = (0.1586553, 0.8413447)


def _average_ranks(values):
    """Ranks 1..n along the last axis of ``(K, n)`` values, row by row, tied values sharing the
    average of their ranks; returned doubled, as whole numbers 2..2n."""
    n_rows, n = values.shape
    # Tied values share one rank, so the sort need not be stable. The rows are handled as one
    # flat sequence: each row's sort order, shifted to the row's place in it.
    order = (np.argsort(values, axis=-1) + (n * np.arange(n_rows))[:, None]).ravel()
    ordered = values.ravel()[order]
    # Each run of equal values in a row is one group, and every row starts a new one.
    new_group = np.ones(values.size, dtype=bool)
    new_group[1:] = ordered[1:] != ordered[:-1]
    new_group[::n] = True
    starts = np.flatnonzero(new_group)
    ends = np.append(starts[1:], values.size)
    # A group's members share the mean of its ranks (start + 1 .. end within the row).
    group_rank = starts + 1 + ends - 2 * (starts // n * n)
    doubled = np.empty(values.size, dtype=np.int64)
    doubled[order] = np.repeat(group_rank, ends - starts)
    return doubled.reshape(values.shape)


def _rank_normalize(x):
    r"""Normal scores of the ranks pooled over all chains, per column of ``(chain, draw, K)``.

    :math:`z = \Phi^{-1}((r - 3/8)/(S + 1/4))`, Blom's (1958) offset for :math:`S` values.
    """
    size = x.shape[0] * x.shape[1]
    rows = x.reshape(size, -1).T          # one row of S pooled draws per column
    # An average rank is a multiple of 1/2, so each score is looked up in a table of the 2S
    # possible ones: the same values as evaluating the quantile at every draw, much faster.
    scores = normal_quantile((np.arange(2, 2 * size + 1) / 2 - 3 / 8) / (size + 1 / 4))
    return scores[_average_ranks(rows) - 2].T.reshape(x.shape)


def _rank_rhat_halves(x):
    """The bulk and the folded rank-normalized split R-hat of ``(chain, draw, K)``, per column."""
    split = split_chains(x)
    bulk = potential_scale_reduction(_rank_normalize(split))
    # Folding around the median turns a difference in scale into a difference in location.
    folded = potential_scale_reduction(_rank_normalize(np.abs(split - np.median(split, axis=(0, 1)))))
    return bulk, folded


def _rank_rhat(x):
    """Rank-normalized split R-hat of ``(chain, draw, K)``: the larger of its two halves, per
    column."""
    # fmax: a folded NaN (all folded draws tie) leaves the bulk value; both NaN stay NaN.
    return np.fmax(*_rank_rhat_halves(x))


class RankRhatHalves(NamedTuple):
    """The two halves of the rank-normalized R-hat, each of shape (param,) or a float."""

    bulk: np.ndarray
    folded: np.ndarray


def rank_rhat_halves(draws):
    """The bulk and the folded rank-normalized split R-hat, apart (:func:`rank_normalized_rhat`
    reports the larger of the two).

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)

    Returns
    -------
    RankRhatHalves
    """
    return RankRhatHalves(*(per_param(lambda x, k=k: _rank_rhat_halves(x)[k], draws, min_chains=2)
                            for k in (0, 1)))


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
    For :math:`M` chains of :math:`N` draws, split every chain in half, giving :math:`2M`
    half-chains of :math:`N/2` draws. Replace each draw by the normal score of its rank
    :math:`r` among all :math:`S = MN` draws, :math:`z = \Phi^{-1}\big((r - 3/8)/(S + 1/4)\big)`,
    and apply ``bayescomp.classic_diagnostics.potential_scale_reduction`` to the :math:`z` of
    the half-chains: :math:`\hat R = \sqrt{(B/W + N/2 - 1)/(N/2)}`, with :math:`W` the mean
    within-half-chain variance and :math:`B = (N/2)\,\mathrm{Var}(\bar z_m)`. Repeat on the folded
    draws :math:`|\theta - \operatorname{median}\theta|` and report the larger value
    (Vehtari et al., 2021, section 4.2). Ranks make it work for heavy tails; folding catches chains
    that agree in location but not in scale.
    """
    return per_param(_rank_rhat, draws, min_chains=2)


def _geyer_tau(rho):
    r"""Integrated autocorrelation time by Geyer's (1992) initial positive and monotone sequence.

    ``rho`` holds :math:`\hat\rho_t` for every lag :math:`t = 0, 1, \dots` of the chains, with
    :math:`\hat\rho_0 = 1`, one column per series: shape ``(lag, K)``. With
    :math:`P_k = \hat\rho_{2k} + \hat\rho_{2k+1}`, the pairs :math:`k = 0, \dots, K` before the
    first one that is not positive are kept and capped to be monotone,
    :math:`\tilde P_k = \min_{j\le k} P_j`, and
    :math:`\hat\tau = -1 + 2\sum_{k=0}^{K}\tilde P_k + \max(\hat\rho_{2K+2}, 0)`: the even lag
    of the first pair left out counts when it is positive. At the end of the series the edge
    rules of Stan and ArviZ apply.
    """
    # Pairs that fit before the last two lags; stop at the first pair that is not positive.
    n_pairs = max(1, int(np.ceil((rho.shape[0] - 2) / 2)))
    pair_sums = rho[:2 * n_pairs:2] + rho[1:2 * n_pairs:2]
    stops_here = pair_sums <= 0
    n_positive = np.where(stops_here.any(axis=0), stops_here.argmax(axis=0), n_pairs)
    stop = np.minimum(n_positive + 1, n_pairs)
    # Initial monotone sequence: each kept pair is capped by the ones before it.
    kept = np.arange(n_pairs)[:, None] < stop - 1
    kept_sum = np.where(kept, np.minimum.accumulate(pair_sums, axis=0), 0.0).sum(axis=0)
    # The first pair left out still adds its even lag once, unless that lag is not positive
    # and the pair's sum is negative (the edge rule of Stan and ArviZ).
    column = np.arange(rho.shape[1])
    last_even = np.where(stop == 1, 1.0, rho[2 * (stop - 1), column])
    dropped = (stop > 1) & (last_even <= 0) & (pair_sums[stop - 1, column] < 0)
    return -1.0 + 2.0 * kept_sum + np.where(dropped, 0.0, last_even)


def _multichain_autocorrelation(x):
    r"""The autocorrelation of ``(chain, draw, K)`` values, measured against the pooled variance,
    one column per series: shape ``(lag, K)``.

    With :math:`s_m^2` and :math:`\hat\rho_{t,m}` the variance and lag-:math:`t` autocorrelation
    of chain :math:`m`, :math:`W` their mean variance and :math:`\widehat{\mathrm{var}}^+` the
    pooled estimate of ``potential_scale_reduction``,
    :math:`\hat\rho_t = 1 - (W - \frac1M\sum_m s_m^2\hat\rho_{t,m})/\widehat{\mathrm{var}}^+`
    (Stan Reference Manual, "Effective sample size"; Vehtari et al., 2021, section 3.2).
    """
    n_chain, n_draw = x.shape[:2]
    acov = lagged_products(x - x.mean(axis=1, keepdims=True)) / n_draw
    within = acov[:, 0].mean(axis=0) * n_draw / (n_draw - 1.0)
    var_plus = within * (n_draw - 1.0) / n_draw
    if n_chain > 1:
        var_plus = var_plus + x.mean(axis=1).var(axis=0, ddof=1)
    rho = 1.0 - (within - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    return rho


def _ess(x):
    r"""ESS of ``(chain, draw, K)`` values, per column: :math:`S/\hat\tau` from the multi-chain
    autocorrelation."""
    total = x.shape[0] * x.shape[1]
    # A constant series: every draw counts (ArviZ's convention); its autocorrelation is 0/0.
    constant = np.ptp(x, axis=(0, 1)) < np.finfo(float).resolution
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = _geyer_tau(_multichain_autocorrelation(x))
    # The floor 1/log10(S) keeps antithetic chains from reporting an absurdly large ESS.
    return np.where(constant, float(total), total / np.maximum(tau, 1.0 / np.log10(total)))


def _bulk_ess(x):
    return _ess(_rank_normalize(split_chains(x)))


def _quantile_ess(x, prob):
    # The ESS of the indicator I(theta <= q) at the empirical quantile q of each column.
    return _ess(split_chains((x <= np.quantile(x, prob, axis=(0, 1))).astype(float)))


def _tail_ess(x):
    return np.minimum(*(_quantile_ess(x, prob) for prob in TAIL_PROBS))


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
    Split chains and rank-normalize as in :func:`rank_normalized_rhat`. Measure the
    autocorrelation against the pooled variance, so that chains sitting in different places
    cannot look independent,

    .. math::

        \hat\rho_t = 1 - \frac{W - \frac1M\sum_m s_m^2\hat\rho_{t,m}}{\widehat{\mathrm{var}}^+},
        \qquad \mathrm{ESS} = \frac{S}{\hat\tau},

        \hat\tau = \max\Big(-1 + 2\sum_{k=0}^{K}\tilde P_k + \max(\hat\rho_{2K+2}, 0),\
            \frac{1}{\log_{10}S}\Big),

    where :math:`P_k = \hat\rho_{2k} + \hat\rho_{2k+1}` are Geyer's (1992) pairs, kept up to
    the first one that is not positive and made monotone, :math:`\tilde P_k = \min_{j\le k}P_j`
    (the edge rules at the end of the series are in ``_geyer_tau``), and the floor caps the ESS
    at :math:`S\log_{10}S` (Vehtari et al., 2021, section 3.2).
    """
    return per_param(_bulk_ess, draws)


def ess_tail(draws):
    r"""Tail effective sample size: the smaller ESS of the 5% and 95% quantile indicators.

    Parameters and returned shape are those of :func:`ess_bulk`.

    Notes
    -----
    For :math:`\gamma \in \{0.05, 0.95\}`, let :math:`\hat Q_\gamma` be the empirical quantile of
    all draws and :math:`I_\gamma = \mathbb 1(\theta \le \hat Q_\gamma)`; then
    :math:`\mathrm{ESS}_{\text{tail}} = \min_\gamma \mathrm{ESS}(I_\gamma)`, each computed on the
    split chains as in :func:`ess_bulk`, without ranks (Vehtari et al., 2021, section 4.3). It
    tells how well the chains pin down the 90% interval.
    """
    return per_param(_tail_ess, draws)


def ess_mean(draws):
    r"""Effective sample size for the posterior mean: the ESS of the split chains, no ranks.

    Parameters and returned shape are those of :func:`ess_bulk`.

    Notes
    -----
    The estimator of :func:`ess_bulk` applied to the draws themselves. It assumes a finite
    variance, which ranks do not need; where both are defined they are usually close.
    """
    return per_param(lambda x: _ess(split_chains(x)), draws)


def ess_quantile(draws, prob):
    r"""Effective sample size for the ``prob`` quantile: the ESS of the indicator
    :math:`\mathbb 1(\theta \le \hat Q_{\text{prob}})` on the split chains.

    Parameters and returned shape are those of :func:`ess_bulk`, plus ``prob`` in (0, 1).
    """
    prob = unit_interval_float(prob, "prob")
    return per_param(lambda x: _quantile_ess(x, prob), draws)


def mcse_mean(draws):
    r"""Monte Carlo standard error of the posterior mean, one value per parameter.

    Parameters and returned shape are those of :func:`ess_bulk`.

    Notes
    -----
    :math:`\mathrm{MCSE} = s/\sqrt{\mathrm{ESS}_{\text{mean}}}`, with :math:`s` the standard
    deviation (ddof 1) of all draws pooled across chains and the ESS of :func:`ess_mean`
    (the multi-chain ESS of Vehtari et al., 2021, section 3.2; as in ArviZ and posterior). It
    rests on a Markov-chain central limit theorem, which needs a finite variance and a chain
    that forgets its start fast enough; no estimate from the draws can check either.
    """
    return per_param(lambda x: np.std(x, axis=(0, 1), ddof=1) / np.sqrt(_ess(split_chains(x))),
                     draws)


def _mcse_quantile(x, prob):
    # The quantile's probability is uncertain by a Beta(ESS p + 1, ESS (1 - p) + 1); map the
    # central +-1 sd interval of that Beta through each column's sorted draws.
    ordered = np.sort(x.reshape(-1, *x.shape[2:]), axis=0)
    size = ordered.shape[0]
    half_widths = []
    for column, ess in enumerate(_quantile_ess(x, prob)):
        low, high = (beta_quantile(q, ess * prob + 1, ess * (1 - prob) + 1) for q in _ONE_SD)
        lower = ordered[int(np.floor(max(low * size - 1, 0))), column]
        upper = ordered[int(np.ceil(min(high * size - 1, size - 1))), column]
        half_widths.append((upper - lower) / 2)
    return np.array(half_widths)


def mcse_quantile(draws, prob):
    r"""Monte Carlo standard error of the ``prob`` quantile, one value per parameter.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)
    prob : float
        In (0, 1), for example 0.05 for the lower end of a 90% interval.

    Returns
    -------
    ndarray, shape (param,), or float for 2-D ``draws``

    Notes
    -----
    With :math:`\gamma` = ``prob``, the empirical CDF at the true quantile :math:`Q_\gamma`
    estimates :math:`\gamma` with the precision of :math:`\mathrm{ESS}(\mathbb 1(\theta\le
    Q_\gamma))` independent draws, so its uncertainty is about
    :math:`\mathrm{Beta}(\mathrm{ESS}\,\gamma + 1, \mathrm{ESS}(1-\gamma) + 1)`. The 15.9% and
    84.1% points :math:`a_1, a_2` of that Beta, read off the sorted draws
    :math:`\theta_{(1)} \le \dots \le \theta_{(S)}`, give
    :math:`\mathrm{MCSE} = (\theta_{(\lceil a_2 S\rceil)} - \theta_{(\lfloor a_1 S\rfloor)})/2`
    (Vehtari et al., 2021, section 4.4; as in ArviZ and posterior).
    """
    prob = unit_interval_float(prob, "prob")
    return per_param(lambda x: _mcse_quantile(x, prob), draws)



def e_bfmi(energies):
    r"""Energy Bayesian fraction of missing information of each HMC chain.

    Parameters
    ----------
    energies : array_like, shape (chain, draw)
        The total energy :math:`\mathcal H` kept at each step
        (``energies`` in the result of :func:`run_hmc_chains`).

    Returns
    -------
    ndarray, shape (chain,)

    Notes
    -----
    .. math::

        \text{E-BFMI} = \frac{\frac{1}{N-1}\sum_{n=2}^{N}(E_n - E_{n-1})^2}
                             {\frac{1}{N-1}\sum_{n=1}^{N}(E_n - \bar E)^2}.

    Resampling the momentum is HMC's only way to change energy level. When that step moves
    the energy much less than the energy varies across the posterior (E-BFMI below about 0.3),
    the chain explores the energy levels slowly, as happens in the neck of a funnel
    (Betancourt, 2016; ArviZ's ``bfmi``).
    """
    energies, _ = check_draws(energies, min_chains=1, min_draws=4)
    return _e_bfmi(energies[..., 0])


def _e_bfmi(energies):
    """E-BFMI along the last axis (draws), for any leading axes."""
    jumps = np.diff(energies, axis=-1)
    return (jumps**2).mean(axis=-1) / energies.var(axis=-1, ddof=1)


class RunChecks(NamedTuple):
    """Which production checks each of several runs fails.

    Attributes
    ----------
    rhat, ess_bulk, ess_tail : ndarray of bool, shape (run,)
        Rank-normalized R-hat at or above :data:`RHAT_THRESHOLD` for some parameter; bulk or
        tail ESS below :data:`ESS_THRESHOLD` for some parameter.
    divergences, e_bfmi : ndarray of bool, shape (run,), or None
        Any divergent transition; E-BFMI below :data:`EBFMI_THRESHOLD` in some chain. None
        when the runs are not HMC runs.
    largest_rhat, smallest_ess_bulk, smallest_ess_tail : ndarray, shape (run,)
        The values behind the first three verdicts: each run's worst parameter.
    """

    rhat: np.ndarray
    ess_bulk: np.ndarray
    ess_tail: np.ndarray
    divergences: np.ndarray = None
    e_bfmi: np.ndarray = None
    largest_rhat: np.ndarray = None
    smallest_ess_bulk: np.ndarray = None
    smallest_ess_tail: np.ndarray = None


# The runs' parameters are diagnosed together, this many draws at a time (32 MB of floats).
_VALUES_PER_BLOCK = 2**22


def _production(x):
    """Rank R-hat, bulk ESS and tail ESS of ``(chain, draw, K)``, per column: the three rules of
    :func:`failed_checks`, sharing one rank normalization of the split chains."""
    split = split_chains(x)
    normalized = _rank_normalize(split)
    folded = _rank_normalize(np.abs(split - np.median(split, axis=(0, 1))))
    rhat = np.fmax(potential_scale_reduction(normalized), potential_scale_reduction(folded))
    return rhat, _ess(normalized), _tail_ess(x)


def _by_run(statistics, draws):
    """``statistics`` of every parameter of every run: ``(run, chain, draw, param)`` to a tuple of
    ``(run, param)`` arrays. The runs' parameters become the columns of one (chain, draw, column)
    array, taken a block of columns at a time."""
    n_run, n_chain, n_draw, n_param = draws.shape
    columns = np.moveaxis(draws, 0, 2).reshape(n_chain, n_draw, n_run * n_param)
    width = max(1, _VALUES_PER_BLOCK // (n_chain * n_draw))
    blocks = [statistics(columns[..., start:start + width])
              for start in range(0, columns.shape[2], width)]
    return tuple(np.concatenate(parts).reshape(n_run, n_param) for parts in zip(*blocks))


def check_runs(draws, divergent=None, energies=None):
    r"""The production checks of :func:`failed_checks`, for each of many runs at once.

    Parameters
    ----------
    draws : array_like, shape (run, chain, draw, param)
        Independent runs of the same sampler, for example replicates with different seeds.
    divergent : array_like of bool, shape (run, chain, draw), optional
    energies : array_like, shape (run, chain, draw), optional

    Returns
    -------
    RunChecks

    Notes
    -----
    Each run is judged on its own draws alone, with the rules of :func:`failed_checks`: what a
    user with that one run would have seen.
    """
    draws = np.asarray(draws, dtype=float)
    if draws.ndim != 4:
        raise ValueError(f"draws must have shape (run, chain, draw, param); got shape {draws.shape}")
    check_draws(draws[0], min_chains=2)
    rhat, bulk, tail = (values.max(axis=1) if k == 0 else values.min(axis=1)
                        for k, values in enumerate(_by_run(_production, draws)))
    fired = RunChecks(rhat >= RHAT_THRESHOLD, bulk < ESS_THRESHOLD, tail < ESS_THRESHOLD,
                      largest_rhat=rhat, smallest_ess_bulk=bulk, smallest_ess_tail=tail)
    if divergent is not None:
        fired = fired._replace(divergences=np.asarray(divergent, dtype=bool).reshape(
            len(draws), -1).any(axis=1))
    if energies is not None:
        bfmi = _e_bfmi(np.asarray(energies, dtype=float))
        fired = fired._replace(e_bfmi=bfmi.min(axis=-1) < EBFMI_THRESHOLD)
    return fired


def failed_checks(draws, divergent=None, energies=None):
    """The production checks that a run fails, by name, in a fixed order.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param)
    divergent : array_like of bool, optional
        Divergence flags of an HMC run (``divergent`` in the result of :func:`run_hmc_chains`).
    energies : array_like, shape (chain, draw), optional
        The energies of an HMC run, for E-BFMI.

    Returns
    -------
    list of str
        Any of "R-hat" (rank-normalized R-hat at or above :data:`RHAT_THRESHOLD` for some
        parameter), "ESS" (bulk or tail ESS below :data:`ESS_THRESHOLD`), "divergences" (any)
        and "E-BFMI" (below :data:`EBFMI_THRESHOLD` for some chain); empty when the run passes:
        the rules are R-hat < 1.01 and ESS of at least 400 (Vehtari et al., 2021).
    """
    draws, _ = check_draws(draws, min_chains=2)
    if energies is not None:
        energies = check_draws(energies, min_chains=1, min_draws=4)[0][None, ..., 0]
    fired = check_runs(draws[None], None if divergent is None else np.asarray(divergent)[None],
                       energies)
    names = [("R-hat", fired.rhat), ("ESS", fired.ess_bulk | fired.ess_tail),
             ("divergences", fired.divergences), ("E-BFMI", fired.e_bfmi)]
    return [name for name, flag in names if flag is not None and flag[0]]
