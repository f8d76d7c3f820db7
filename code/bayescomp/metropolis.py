"""Random-walk Metropolis with a Gaussian proposal.

Shape convention for several chains: ``(chain, draw, param)``, as in ArviZ.
"""
from typing import NamedTuple, Optional

import numpy as np

from ._checks import as_finite_array, chain_settings, cholesky_factor, generator, positive_int


class ChainResult(NamedTuple):
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


class ChainsResult(NamedTuple):
    """Several chains after warm-up.

    Attributes
    ----------
    draws : ndarray, shape (chain, draw, param)
        The kept draws.
    accept_rates : ndarray, shape (chain,)
        Acceptance rate of each chain over all its steps, warm-up included.
    """

    draws: np.ndarray
    accept_rates: np.ndarray


def metropolis_chain(log_density, start, proposal_chol, n_steps, rng, record_proposals=False):
    r"""Run one random-walk Metropolis chain.

    Parameters
    ----------
    log_density : callable
        ``theta (d,) -> float``, an unnormalized log target.
    start : array_like, shape (d,)
    proposal_chol : array_like, shape (d, d)
        Lower Cholesky factor :math:`L` of the proposal covariance.
    n_steps : int
    rng : np.random.Generator
    record_proposals : bool
        Keep every proposal and its accept/reject decision (for teaching figures).

    Returns
    -------
    ChainResult

    Notes
    -----
    Each step draws :math:`\varepsilon \sim N(0, I)` and then :math:`u \sim U(0,1)`, proposes
    :math:`\theta' = \theta + L\varepsilon`, and moves when
    :math:`\log u < \log\tilde p(\theta') - \log\tilde p(\theta)`. The proposal is symmetric, so
    this acceptance rule satisfies detailed balance with respect to :math:`p`
    (Metropolis et al., 1953; Gelman et al., 2013, section 11.2).
    """
    current = as_finite_array(start, "start", ndim=1)
    chol = cholesky_factor(proposal_chol, "proposal_chol", current.size)
    n_steps = positive_int(n_steps, "n_steps")
    rng = generator(rng)
    current_log_density = log_density(current)
    draws = np.empty((n_steps, current.size))
    proposals = np.empty_like(draws)
    accepted = np.zeros(n_steps, dtype=bool)
    for step in range(n_steps):
        # The draw order (normal step first, then the uniform) is part of the protocol.
        proposal = current + chol @ rng.standard_normal(current.size)
        log_u = np.log(rng.random())
        proposal_log_density = log_density(proposal)
        if log_u < proposal_log_density - current_log_density:
            current, current_log_density = proposal, proposal_log_density
            accepted[step] = True
        draws[step], proposals[step] = current, proposal
    if record_proposals:
        return ChainResult(draws, float(accepted.mean()), proposals, accepted)
    return ChainResult(draws, float(accepted.mean()))


def run_chains(log_density, starts, proposal_chol, n_steps, rngs, n_warmup=0):
    """Run one Metropolis chain per start, each with its own generator.

    Parameters
    ----------
    log_density : callable
    starts : array_like, shape (chain, d)
    proposal_chol : array_like, shape (d, d)
    n_steps : int
        Total steps per chain, warm-up included.
    rngs : sequence of np.random.Generator
        One generator per chain, so chains are independent and reproducible.
    n_warmup : int
        Leading draws to discard from each chain.

    Returns
    -------
    ChainsResult
        Draws of shape ``(chain, n_steps - n_warmup, d)``.
    """
    starts, rngs, n_steps, n_warmup = chain_settings(starts, rngs, n_steps, n_warmup)
    chains = [metropolis_chain(log_density, start, proposal_chol, n_steps, rng)
              for start, rng in zip(starts, rngs)]
    return ChainsResult(np.stack([c.draws[n_warmup:] for c in chains]),
                        np.array([c.accept_rate for c in chains]))
