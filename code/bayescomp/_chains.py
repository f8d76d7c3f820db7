"""What every MCMC diagnostic shares: checking draws, splitting chains, autocovariances by FFT
and Geyer's truncation of a sum of autocorrelations.

Shape convention for the whole package: MCMC draws are ``(chain, draw, param)``, as in ArviZ.
The diagnostics also take ``(chain, draw)`` for one parameter and then return a float.
"""
import numpy as np

from ._checks import as_finite_array


def check_draws(draws, min_chains=1, min_draws=4):
    """Return ``(draws, single)``: the draws as ``(chain, draw, param)``, and whether they came
    as ``(chain, draw)`` (one parameter)."""
    draws = as_finite_array(draws, "draws")
    if draws.ndim not in (2, 3):
        raise ValueError("draws must have shape (chain, draw) or (chain, draw, param); "
                         f"got shape {draws.shape}")
    if draws.shape[0] < min_chains:
        raise ValueError(f"draws must have at least {min_chains} chains on axis 0; "
                         f"got {draws.shape[0]}")
    if draws.shape[1] < min_draws:
        raise ValueError(f"draws must have at least {min_draws} draws per chain; "
                         f"got {draws.shape[1]}")
    return (draws[..., None], True) if draws.ndim == 2 else (draws, False)


def per_param(statistic, draws, min_chains=1):
    """Apply ``statistic``, vectorized over the parameters ((chain, draw, param) -> (param,)), to
    checked draws; a float for 2-D draws."""
    draws, single = check_draws(draws, min_chains)
    values = np.asarray(statistic(draws), dtype=float)
    return float(values[0]) if single else values


def split_chains(draws):
    """Cut each chain into its first and last halves: ``(chain, draw, ...) -> (2 chain, draw // 2,
    ...)``. With an odd number of draws the middle one is left out.

    A chain that drifts has halves with different means, so the split catches what a whole-chain
    comparison would average away (Gelman et al., 2013, section 11.4).
    """
    half = draws.shape[1] // 2
    return np.concatenate([draws[:, :half], draws[:, draws.shape[1] - half:]], axis=0)


def lagged_products(centred):
    r"""Sums :math:`\sum_t x_t x_{t+k}` for every lag :math:`k = 0, \dots, n-1` along axis 1
    (any axes after it are separate series).

    The FFT of the series zero-padded to :math:`2n` gives them all in :math:`O(n\log n)`; the
    padding keeps the end of the series from wrapping around onto its start (Press et al., 2007,
    section 13.2).
    """
    n = centred.shape[1]
    spectrum = np.fft.rfft(centred, n=2 * n, axis=1)
    return np.fft.irfft(spectrum * np.conjugate(spectrum), n=2 * n, axis=1)[:, :n]


def positive_pair_count(rho, stop_at_zero=False):
    r"""How many leading pairs :math:`\rho_0+\rho_1,\ \rho_2+\rho_3, \dots` of ``rho`` are positive.

    Geyer's (1992) initial positive sequence: the autocorrelations of a reversible chain come in
    pairs whose sums are positive and decreasing, so the first pair that is negative (or, with
    ``stop_at_zero``, not positive) marks where the estimates have become noise. Pass
    ``rho[1:]`` to pair from lag 1, as the lecture's estimator does.

    Returns
    -------
    n_kept : int
        Pairs before the first one that stops the sum (all of them if none does).
    pair_sums : ndarray
        Every complete pair's sum.
    """
    pair_sums = rho[:-1:2] + rho[1::2]
    stops = np.flatnonzero(pair_sums <= 0 if stop_at_zero else pair_sums < 0)
    return (int(stops[0]) if stops.size else pair_sums.size), pair_sums


def step_noise(rngs, n_chain):
    r"""A function ``dim -> (normals (n_chain, dim), uniforms (n_chain,))`` that draws one step's
    random numbers for every chain: :math:`\varepsilon \sim N(0, I)`, then :math:`u \sim U(0, 1)`.

    ``rngs`` is either one generator per chain, each drawing its chain's normals and then its
    uniform (the book's protocol: chain ``c`` is then the chain a single run with ``rngs[c]``
    gives), or one generator for all chains, drawing every chain's normals and then every
    chain's uniform (much faster for many chains). With one chain the two are the same.
    """
    if isinstance(rngs, np.random.Generator):
        return lambda dim: (rngs.standard_normal((n_chain, dim)), rngs.random(n_chain))

    def own(dim):
        normals, uniforms = np.empty((n_chain, dim)), np.empty(n_chain)
        for c, rng in enumerate(rngs):
            normals[c] = rng.standard_normal(dim)
            uniforms[c] = rng.random()
        return normals, uniforms
    return own
