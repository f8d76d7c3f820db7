"""Random-walk Metropolis with a Gaussian proposal.

Shape convention for several chains: ``(chain, draw, param)``, as in ArviZ.
"""
from typing import NamedTuple, Optional

import numpy as np

from ._chains import step_noise
from ._checks import (as_finite_array, chain_settings, cholesky_factor, generator,
                      integer_in_range, positive_int, target_functions)
from ._portable_math import product_with


class MetropolisResult(NamedTuple):
    """One Metropolis chain.

    Attributes
    ----------
    draws : ndarray, shape (n_steps, d)
        The state after each step (the start itself is not included).
    accept_rate : float
        Fraction of the ``n_steps`` proposals that were accepted.
    proposals : ndarray, shape (n_steps, d) or None
        Every proposal, when ``record_proposals`` was set.
    accepted : ndarray of bool, shape (n_steps,) or None
        Whether each proposal was accepted, when ``record_proposals`` was set.
    """

    draws: np.ndarray
    accept_rate: float
    proposals: Optional[np.ndarray] = None
    accepted: Optional[np.ndarray] = None


class MetropolisChainsResult(NamedTuple):
    """Several Metropolis chains after warm-up.

    Attributes
    ----------
    draws : ndarray, shape (chain, draw, param)
        The kept draws.
    accept_rates : ndarray, shape (chain,)
        Acceptance rate of each chain over all its steps, warm-up included.
    """

    draws: np.ndarray
    accept_rates: np.ndarray


def metropolis_transition(log_density, state, normals, log_u, proposal_chol, times_chol_t=None):
    r"""One random-walk Metropolis step of one chain or of several in lockstep.

    Parameters
    ----------
    log_density : callable
        Vectorized over leading axes.
    state : tuple of ndarray
        ``(position, value)``: shapes ``(..., d)`` and ``(...)``, with
        ``value = log_density(position)``.
    normals : ndarray, shape (..., d)
        :math:`\varepsilon \sim N(0, I)`.
    log_u : ndarray, shape (...)
        :math:`\log u` with :math:`u \sim U(0, 1)`.
    proposal_chol : ndarray, shape (d, d)
        :math:`L`, lower triangular.
    times_chol_t : callable, optional
        ``product_with(proposal_chol.T)`` made once by a caller that takes many steps.

    Returns
    -------
    state : tuple of ndarray
        The next ``(position, value)``.
    proposal : ndarray, shape (..., d)
    accepted : ndarray of bool, shape (...)
    """
    position, value = state
    # Propose theta' = theta + L eps (in a fixed order of operations, see _portable_math).
    times_chol_t = times_chol_t or product_with(proposal_chol.T)
    proposal = position + times_chol_t(normals)
    proposed_value = log_density(proposal)
    # The proposal is symmetric, so the Hastings ratio is the ratio of target densities.
    accepted = log_u < proposed_value - value
    state = (np.where(accepted[..., None], proposal, position),
             np.where(accepted, proposed_value, value))
    return state, proposal, accepted


def _walk(log_density, starts, proposal_chol, n_steps, rngs, keep=None, record_proposals=False):
    """Run one chain per row of ``starts`` in lockstep: kept draws, proposals, decisions.

    ``keep`` lists the steps whose state is stored (all when None), so that a long run of many
    chains need not hold every draw. Returns the kept draws ``(chain, kept, d)``, every proposal
    ``(chain, step, d)`` when recorded (else None) and every decision ``(chain, step)``.
    """
    n_chain, dim = starts.shape
    chol = cholesky_factor(proposal_chol, "proposal_chol", dim, "each start")
    times_chol_t = product_with(chol.T)
    noise = step_noise(rngs, n_chain)
    kept = np.arange(n_steps) if keep is None else keep
    slot = np.full(n_steps, -1)
    slot[kept] = np.arange(len(kept))
    state = (starts, log_density(starts))
    draws = np.empty((n_chain, len(kept), dim))
    proposals = np.empty((n_chain, n_steps, dim)) if record_proposals else None
    accepted = np.zeros((n_chain, n_steps), dtype=bool)
    for step in range(n_steps):
        # The draw order (normal step first, then the uniform) is part of the protocol.
        normals, uniforms = noise(dim)
        state, proposal, accepted[:, step] = metropolis_transition(
            log_density, state, normals, np.log(uniforms), chol, times_chol_t)
        if record_proposals:
            proposals[:, step] = proposal
        if slot[step] >= 0:
            draws[:, slot[step]] = state[0]
    return draws, proposals, accepted


def metropolis_chain(target, start, proposal_chol, n_steps, rng, record_proposals=False):
    r"""Run one random-walk Metropolis chain.

    Parameters
    ----------
    target : Target
        The unnormalized log target; its ``log_density``, ``theta (..., d) -> (...)``, is
        vectorized over leading axes.
    start : array_like, shape (d,)
    proposal_chol : array_like, shape (d, d)
        Lower Cholesky factor :math:`L` of the proposal covariance.
    n_steps : int
    rng : np.random.Generator
    record_proposals : bool
        Keep every proposal and its accept/reject decision (for teaching figures).

    Returns
    -------
    MetropolisResult

    Notes
    -----
    Each step draws :math:`\varepsilon \sim N(0, I)` and then :math:`u \sim U(0,1)`, proposes
    :math:`\theta' = \theta + L\varepsilon`, and moves when
    :math:`\log u < \log\tilde p(\theta') - \log\tilde p(\theta)`
    (``metropolis_transition``). The proposal is symmetric, so this acceptance rule
    satisfies detailed balance with respect to :math:`p` (Metropolis et al., 1953; Gelman et al.,
    2013, section 11.2).
    """
    start = as_finite_array(start, "start", ndim=1)
    cholesky_factor(proposal_chol, "proposal_chol", start.size, "each start")
    log_density = target_functions(target, start.size)
    draws, proposals, accepted = _walk(log_density, start[None], proposal_chol,
                                       positive_int(n_steps, "n_steps"), [generator(rng)],
                                       record_proposals=record_proposals)
    if record_proposals:
        return MetropolisResult(draws[0], float(accepted[0].mean()), proposals[0], accepted[0])
    return MetropolisResult(draws[0], float(accepted[0].mean()))


def run_metropolis_chains(target, starts, proposal_chol, n_steps, rngs, n_warmup=0, thin=1):
    """Run one Metropolis chain per start, all in lockstep.

    Parameters
    ----------
    target : Target
        As for :func:`metropolis_chain`.
    starts : array_like, shape (chain, d)
    proposal_chol : array_like, shape (d, d)
    n_steps : int
        Total steps per chain, warm-up included.
    rngs : sequence of np.random.Generator, or np.random.Generator
        One generator per chain, so chains are independent and each is reproducible on its own;
        or one generator for all of them, much faster for many chains (say, many replicates of
        a run).
    n_warmup : int
        Leading draws to discard from each chain.
    thin : int
        Keep every ``thin``-th draw after the warm-up (the last of each ``thin``), so that many
        long chains fit in memory. Thinning a chain whose autocorrelation time is much longer
        than ``thin`` loses little: its ESS hardly changes.

    Returns
    -------
    MetropolisChainsResult
        Draws of shape ``(chain, (n_steps - n_warmup) // thin, d)``.

    Notes
    -----
    The chains advance together, one vectorized call of ``log_density`` per step for all of
    them. With one generator per chain, each uses only its own, in the order of
    :func:`metropolis_chain`, so chain ``c`` is the chain :func:`metropolis_chain` gives from
    ``starts[c]`` and ``rngs[c]``, bit for bit when the target's arithmetic does not depend on
    the batch (the package's Gaussian and hierarchical targets). With one shared generator,
    each step draws every chain's normals, then every chain's uniform.
    """
    starts, rngs, n_steps, n_warmup = chain_settings(starts, rngs, n_steps, n_warmup)
    cholesky_factor(proposal_chol, "proposal_chol", starts.shape[1], "each start")
    log_density = target_functions(target, starts.shape[1])
    thin = integer_in_range(thin, "thin", 1, n_steps - n_warmup, "n_steps - n_warmup",
                            inclusive=True)
    keep = np.arange(n_warmup + thin - 1, n_steps, thin)
    draws, _, accepted = _walk(log_density, starts, proposal_chol, n_steps, rngs, keep)
    return MetropolisChainsResult(draws, accepted.mean(axis=1))
