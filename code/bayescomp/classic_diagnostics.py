"""The lecture's MCMC diagnostics: classic split R-hat, a per-chain ESS and the MCSE built on it.

These are the textbook versions the lecture printed, kept so the book reproduces its numbers:
split R-hat on the raw draws (Gelman et al., 2013, section 11.4), and an effective sample size
from each chain's own autocorrelation, truncated by positive pairs from lag 1. The diagnostics
to use in practice are in :mod:`bayescomp.diagnostics` (Vehtari et al., 2021).

Shape convention: ``draws`` is ``(chain, draw, param)``, or ``(chain, draw)`` for one parameter
(then a float is returned).
"""
import numpy as np

from ._chains import check_draws, lagged_products, positive_pair_count, split_chains


def potential_scale_reduction(chains):
    r"""R-hat of chains that are already split (and perhaps rank-normalized).

    Parameters
    ----------
    chains : ndarray, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (param,)
        Infinite where every chain stays put at its own value, NaN where all draws are equal.

    Notes
    -----
    With :math:`M` chains of :math:`N` draws, :math:`W` the mean within-chain variance and
    :math:`B/N` the variance of the chain means,

    .. math::

        \widehat{\mathrm{var}}^+ = \frac{N-1}{N}W + \frac1N B,\qquad
        \hat R = \sqrt{\widehat{\mathrm{var}}^+ / W}

    (Gelman et al., 2013, equations 11.3 and 11.4).
    """
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean(axis=0)
    var_plus = (n - 1) / n * within + chains.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(var_plus / within)


def _one_or_all(values, single):
    return float(values[0]) if single else values


def split_rhat(draws):
    r"""The classic split R-hat on the raw draws, one value per parameter (the lecture's).

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)
        At least 2 chains and 4 draws per chain.

    Returns
    -------
    ndarray, shape (param,), or float for 2-D ``draws``

    Notes
    -----
    For :math:`M` chains of :math:`N` draws, ``potential_scale_reduction`` is applied to the
    :math:`2M` half-chains of :math:`N/2` draws:
    :math:`\hat R = \sqrt{(\frac{N/2-1}{N/2}W + \frac{1}{N/2} B)/W}`, with :math:`W` and :math:`B`
    computed from the half-chains (Gelman et al., 2013, equation 11.4).
    On raw draws it can miss a difference in scale and misbehave for heavy tails;
    :func:`bayescomp.rank_normalized_rhat` fixes both.
    """
    draws, single = check_draws(draws, min_chains=2)
    return _one_or_all(potential_scale_reduction(split_chains(draws)), single)


def autocorrelation(x):
    r"""Autocorrelation of each chain around its own mean, by FFT.

    Parameters
    ----------
    x : array_like, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (chain, draw, param)
        :math:`\rho(t)` for lags :math:`t = 0, \dots, N-1`; :math:`\rho(0) = 1`.
    """
    x, _ = check_draws(x, min_chains=1, min_draws=2)
    acov = lagged_products(x - x.mean(axis=1, keepdims=True))
    return acov / acov[:, :1]


def effective_sample_size(draws):
    r"""The lecture's effective sample size of the pooled draws, one value per parameter.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param) or (chain, draw)
        At least 2 chains and 4 draws per chain.

    Returns
    -------
    ndarray, shape (param,), or float for 2-D ``draws``

    Notes
    -----
    Each chain's autocorrelation :math:`\rho(t)` at lag :math:`t` is taken around that chain's own
    mean and averaged over chains. The pairs :math:`\rho(2k-1)+\rho(2k)`, :math:`k = 1, 2, \dots`,
    are added until one is negative: Geyer's (1992) initial positive sequence, shifted to start at
    lag 1 instead of lag 0. Then

    .. math::

        \mathrm{ESS} = \frac{MN}{1 + 2\sum_{t\ge1}\rho(t)},

    summed over the lags of the kept pairs, for :math:`M` chains of :math:`N` draws.

    Because each chain is centred on its own mean, chains that sit in different places each look
    well mixed; :func:`bayescomp.ess_mean` measures the autocorrelation against the pooled
    variance instead.
    """
    draws, single = check_draws(draws, min_chains=2)
    n_chain, n_draw, n_param = draws.shape
    rho = autocorrelation(draws).mean(axis=0)
    n_pairs = (n_draw - 1) // 2
    ess = np.empty(n_param)
    for p in range(n_param):
        # Pairs (rho[1]+rho[2]), (rho[3]+rho[4]), ... within the available lags.
        n_kept, pair_sums = positive_pair_count(rho[1:2 * n_pairs + 1, p])
        ess[p] = n_chain * n_draw / (1 + 2 * pair_sums[:n_kept].sum())
    return _one_or_all(ess, single)


def mcse(draws):
    r"""The lecture's Monte Carlo standard error of the mean, one value per parameter.

    Notes
    -----
    :math:`\mathrm{MCSE} = s/\sqrt{\mathrm{ESS}}`, with :math:`s` the standard deviation (ddof 1)
    of all draws pooled across chains and the ESS of :func:`effective_sample_size`.
    """
    draws, single = check_draws(draws, min_chains=2)
    pooled = draws.reshape(-1, draws.shape[-1])
    values = pooled.std(axis=0, ddof=1) / np.sqrt(effective_sample_size(draws))
    return _one_or_all(values, single)
