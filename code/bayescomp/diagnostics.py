"""Convergence diagnostics for MCMC draws of shape ``(chain, draw, param)``.

These are the plain textbook versions, kept short so they can be read: split R-hat
(Gelman et al., 2013, section 11.4), FFT autocorrelation, and an effective sample size from
Geyer's (1992) initial positive sequence. Production code (ArviZ, Stan) adds rank
normalization (Vehtari et al., 2021).
"""
import numpy as np

from ._checks import as_finite_array


def _check_draws(draws):
    draws = as_finite_array(draws, "draws", ndim=3)
    n_chain, n_draw, _ = draws.shape
    if n_chain < 2:
        raise ValueError(f"draws must have at least 2 chains (shape (chain, draw, param)); "
                         f"got {n_chain}")
    if n_draw < 4:
        raise ValueError(f"draws must have at least 4 draws per chain; got {n_draw}")
    return draws


def split_rhat(draws):
    r"""Split-chain potential scale reduction factor, one value per parameter.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (param,)

    Notes
    -----
    Each chain is cut into two halves of :math:`n` draws, giving :math:`M` split chains. With
    :math:`W` the mean within-chain variance and :math:`B = n\,\mathrm{Var}(\bar\theta_m)`,

    .. math::

        \hat R = \sqrt{\frac{\frac{n-1}{n}W + \frac1n B}{W}}.

    It exceeds 1 when the chains disagree (Gelman et al., 2013, equation 11.4).
    """
    _, within, var_plus = _split_variances(_check_draws(draws))
    return np.sqrt(var_plus / within)


def _split_variances(draws):
    """Split chains, their mean within-chain variance W, and var+ = (n-1)/n W + B/n."""
    half = draws.shape[1] // 2
    # Halving each chain also catches a drift within a chain.
    split = np.concatenate([draws[:, :half], draws[:, -half:]], axis=0)
    within = split.var(axis=1, ddof=1).mean(axis=0)
    var_plus = (half - 1) / half * within + split.mean(axis=1).var(axis=0, ddof=1)
    return split, within, var_plus


def autocorrelation(x):
    r"""Autocorrelation of each series along axis 1, by FFT.

    Parameters
    ----------
    x : array_like, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (chain, draw, param)
        :math:`\rho(k)` for lags :math:`k = 0, \dots, n-1`; :math:`\rho(0) = 1`.

    Notes
    -----
    Zero-padding to :math:`2n` turns the FFT's circular correlation into the ordinary one
    (Press et al., 2007, section 13.2); dividing by lag 0 normalizes.
    """
    x = as_finite_array(x, "x", ndim=3)
    acov = lagged_products(x - x.mean(axis=1, keepdims=True))
    return acov / acov[:, :1]


def lagged_products(centred):
    r"""Sums :math:`\sum_t x_t x_{t+k}` for every lag :math:`k = 0, \dots, n-1` along axis 1.

    The FFT of the series zero-padded to :math:`2n` gives them all in :math:`O(n\log n)`; the
    padding keeps the end of the series from wrapping around onto its start.
    """
    n = centred.shape[1]
    spectrum = np.fft.rfft(centred, n=2 * n, axis=1)
    return np.fft.irfft(spectrum * np.conjugate(spectrum), n=2 * n, axis=1)[:, :n]


def effective_sample_size(draws):
    r"""Effective sample size of the pooled draws, one value per parameter.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (param,)

    Notes
    -----
    With :math:`\rho(k)` averaged over chains, sum the pairs :math:`\rho(2k-1)+\rho(2k)` for
    :math:`k = 1, 2, \dots` until a pair is negative (Geyer's initial positive sequence, 1992), then

    .. math::

        \mathrm{ESS} = \frac{MN}{1 + 2\sum_{k\ge1}\rho(k)}.
    """
    draws = _check_draws(draws)
    n_chain, n_draw, n_param = draws.shape
    rho = autocorrelation(draws).mean(axis=0)
    ess = np.empty(n_param)
    for p in range(n_param):
        # Pairs (rho[1]+rho[2]), (rho[3]+rho[4]), ... within the available lags.
        n_pairs = (n_draw - 1) // 2
        pairs = rho[1:2 * n_pairs:2, p] + rho[2:2 * n_pairs + 1:2, p]
        negative = np.flatnonzero(pairs < 0)
        stop = negative[0] if negative.size else n_pairs
        ess[p] = n_chain * n_draw / (1 + 2 * pairs[:stop].sum())
    return ess


def mcse(draws):
    r"""Monte Carlo standard error of the posterior mean, one value per parameter.

    Notes
    -----
    :math:`\mathrm{MCSE} = s/\sqrt{\mathrm{ESS}}`, with :math:`s` the standard deviation
    (ddof 1) of all draws pooled across chains.
    """
    draws = _check_draws(draws)
    pooled = draws.reshape(-1, draws.shape[-1])
    return pooled.std(axis=0, ddof=1) / np.sqrt(effective_sample_size(draws))


def multichain_ess(draws):
    r"""Multi-chain effective sample size of split chains (BDA3), one value per parameter.

    Parameters
    ----------
    draws : array_like, shape (chain, draw, param)

    Returns
    -------
    ndarray, shape (param,)

    Notes
    -----
    Unlike :func:`effective_sample_size`, which centres each chain on its own mean, the
    autocorrelation here is measured against the pooled variance estimate
    :math:`\widehat{\mathrm{var}}^+ = \frac{n-1}{n}W + \frac1n B` of the split chains, so
    chains that sit in different places cannot look independent (Gelman et al., 2013,
    equations 11.7 and 11.8):

    .. math::

        \hat\rho_t = 1 - \frac{W - \frac1M\sum_m \hat\gamma_{m,t}}{\widehat{\mathrm{var}}^+},
        \qquad \mathrm{ESS} = \frac{Mn}{1 + 2\sum_{t=1}^{T}\hat\rho_t},

    with :math:`\hat\gamma_{m,t}` the lag-:math:`t` autocovariance of split chain :math:`m`,
    and :math:`T` where Geyer's pairs :math:`\hat\rho_{2k}+\hat\rho_{2k+1}`, starting at
    :math:`k = 0`, first turn negative.
    """
    split, within, var_plus = _split_variances(_check_draws(draws))
    n_split, half = split.shape[:2]
    # Autocovariances of each split chain (biased: divided by n at every lag).
    acov = lagged_products(split - split.mean(axis=1, keepdims=True)) / half
    rho = 1 - (within - acov.mean(axis=0)) / var_plus
    ess = np.empty(split.shape[2])
    for p in range(split.shape[2]):
        # Geyer's initial positive sequence: pairs (rho0+rho1), (rho2+rho3), ...
        n_pairs = half // 2
        pairs = rho[0:2 * n_pairs:2, p] + rho[1:2 * n_pairs:2, p]
        negative = np.flatnonzero(pairs < 0)
        stop = negative[0] if negative.size else n_pairs
        # Sum of rho_1 .. rho_(2 stop - 1) = sum of the kept pairs minus rho_0 = 1.
        ess[p] = n_split * half / (1 + 2 * (pairs[:stop].sum() - 1))
    return ess
