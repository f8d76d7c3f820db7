"""Hamiltonian Monte Carlo: leapfrog trajectories and a Metropolis test on the total energy.

Duane, Kennedy, Pendleton and Roweth (1987), "Hybrid Monte Carlo", *Physics Letters B* 195(2);
Neal (2011), "MCMC using Hamiltonian dynamics", chapter 5 of the *Handbook of Markov Chain
Monte Carlo*. The gradient lets each step travel far along the target's level sets, where a
random walk would diffuse.

Shape convention for several chains: ``(chain, draw, param)``, as in ArviZ and
:mod:`bayescomp.metropolis`.
"""
from typing import NamedTuple

import numpy as np

from ._chains import step_noise
from ._checks import (GRADIENT, as_finite_array, chain_settings, generator, positive_float,
                      positive_int, target_functions)
from ._portable_math import log as portable_log
from ._portable_math import sum_last_axis


class Trajectory(NamedTuple):
    """The states a leapfrog integration passes through, the start included.

    Attributes
    ----------
    positions, momenta : ndarray, shape (n_leapfrog + 1, d)
    """

    positions: np.ndarray
    momenta: np.ndarray


class HMCResult(NamedTuple):
    r"""One HMC chain.

    Attributes
    ----------
    draws : ndarray, shape (n_steps, d)
        The state after each step (the start itself is not included).
    accept_rate : float
        Fraction of the ``n_steps`` trajectories whose end point was accepted.
    n_gradient_evals : int
        Gradient evaluations, ``1 + n_steps * n_leapfrog``: the cost to compare samplers by.
    energy_errors : ndarray, shape (n_steps,)
        :math:`\mathcal H(\text{end}) - \mathcal H(\text{start})` of each trajectory; 0 for exact
        dynamics, inf when the end point overflowed.
    divergent : ndarray of bool, shape (n_steps,)
        Trajectories whose energy error exceeded :data:`DIVERGENCE_THRESHOLD` (see
        :func:`hmc_chain`); each was rejected.
    energies : ndarray, shape (n_steps,)
        The total energy :math:`\mathcal H` of the state kept after each step, for E-BFMI
        (:func:`bayescomp.e_bfmi`).
    """

    draws: np.ndarray
    accept_rate: float
    n_gradient_evals: int
    energy_errors: np.ndarray
    divergent: np.ndarray
    energies: np.ndarray


class HMCChainsResult(NamedTuple):
    """Several HMC chains after warm-up.

    Attributes
    ----------
    draws, accept_rates : ndarray
        As in :class:`~bayescomp.metropolis.MetropolisChainsResult`: the kept draws, shape
        ``(chain, draw, param)``, and each chain's acceptance rate over all its steps.
    n_gradient_evals : int
        Gradient evaluations summed over the chains, warm-up included.
    energy_errors, divergent, energies : ndarray, shape (chain, n_steps)
        As in :class:`HMCResult`, for every step, warm-up included.
    divergent_starts : ndarray, shape (n_divergent, d)
        The state each divergent trajectory left from (warm-up included), in order of chain
        and step: where the sampler met curvature its step size could not follow.
    """

    draws: np.ndarray
    accept_rates: np.ndarray
    n_gradient_evals: int
    energy_errors: np.ndarray
    divergent: np.ndarray
    energies: np.ndarray
    divergent_starts: np.ndarray


# An energy rise above this marks a divergent transition, as in the NUTS of Stan (max_deltaH)
# and PyMC (Emax).
DIVERGENCE_THRESHOLD = 1000.0

#: The random walk's proposal scale in units of sd / sqrt(d): optimal as d grows, with
#: acceptance near 0.234 (Roberts, Gelman and Gilks, 1997).
RWM_OPTIMAL_SCALE = 2.38


def _check_dynamics(position, step_size, n_leapfrog, mass, position_name="start"):
    """Validate the integrator's settings once; return them with the inverse mass."""
    position = as_finite_array(position, position_name, ndim=1)
    step_size = positive_float(step_size, "step_size")
    n_leapfrog = positive_int(n_leapfrog, "n_leapfrog")
    if mass is None:
        return position, step_size, n_leapfrog, np.ones(position.size)
    mass = as_finite_array(mass, "mass", shape=position.shape)
    if np.any(mass <= 0):
        raise ValueError(f"mass must be None (identity) or the positive diagonal of the mass "
                         f"matrix; got {mass.tolist()}")
    return position, step_size, n_leapfrog, 1.0 / mass


def _leapfrog_steps(grad_log_density, position, momentum, grad, step_size, n_leapfrog,
                    inverse_mass):
    """Yield ``(position, momentum, grad)`` after each leapfrog step (``grad`` at ``position``)."""
    for _ in range(n_leapfrog):
        # Half kick, full drift, half kick: symplectic and time-reversible.
        momentum = momentum + 0.5 * step_size * grad
        position = position + step_size * inverse_mass * momentum
        grad = grad_log_density(position)
        momentum = momentum + 0.5 * step_size * grad
        yield position, momentum, grad


def leapfrog(grad_log_density, position, momentum, step_size, n_leapfrog, mass=None):
    r"""Integrate Hamilton's equations with the leapfrog scheme and return every state.

    Parameters
    ----------
    grad_log_density : callable
        ``theta (d,) -> (d,)``, the gradient of the unnormalized log target.
    position, momentum : array_like, shape (d,)
    step_size : float
    n_leapfrog : int
    mass : array_like, shape (d,), optional
        Diagonal of the mass matrix :math:`M`; the identity when omitted.

    Returns
    -------
    Trajectory
        ``n_leapfrog + 1`` positions and momenta, the start first (for plotting a path).

    Notes
    -----
    With potential energy :math:`U(\theta) = -\log\tilde p(\theta)`, momentum :math:`r` and
    step :math:`h`,

    .. math::

        r \leftarrow r + \tfrac h2\nabla\log\tilde p(\theta),\quad
        \theta \leftarrow \theta + h M^{-1}r,\quad
        r \leftarrow r + \tfrac h2\nabla\log\tilde p(\theta).

    The map preserves volume and is reversible: negating the final momentum and integrating
    again returns to the start. Its energy error is :math:`O(h^2)` over a fixed
    trajectory length (Duane et al., 1987; Neal, 2011, section 5.2.3).
    """
    position, step_size, n_leapfrog, inverse_mass = _check_dynamics(position, step_size,
                                                                    n_leapfrog, mass, "position")
    momentum = as_finite_array(momentum, "momentum", shape=position.shape)
    states = list(_leapfrog_steps(grad_log_density, position, momentum,
                                  grad_log_density(position), step_size, n_leapfrog,
                                  inverse_mass))
    return Trajectory(np.vstack([position] + [s[0] for s in states]),
                      np.vstack([momentum] + [s[1] for s in states]))


def _kinetic(momentum, inverse_mass):
    # Summed in a fixed order (see bayescomp._portable_math), over the last axis.
    return 0.5 * sum_last_axis(inverse_mass * momentum**2)


def hmc_transition(log_density, grad_log_density, state, momentum, log_u, dynamics):
    r"""One HMC step of one chain or of several in lockstep.

    Parameters
    ----------
    log_density, grad_log_density : callable
        Vectorized over leading axes.
    state : tuple of ndarray
        ``(position, potential, grad)``: shapes ``(..., d)``, ``(...)``, ``(..., d)``, with
        ``potential = -log_density(position)``.
    momentum : ndarray, shape (..., d)
    log_u : ndarray, shape (...)
        :math:`\log\xi` with :math:`\xi \sim \mathrm{Unif}(0, 1)`.
    dynamics : tuple
        ``(step_size, n_leapfrog, inverse_mass)``.

    Returns
    -------
    state : tuple of ndarray
        The next ``(position, potential, grad)``.
    energy_error, accepted, divergent, energy : ndarray, shape (...)
    """
    position, potential, grad = state
    step_size, n_leapfrog, inverse_mass = dynamics
    for end, end_momentum, end_grad in _leapfrog_steps(  # noqa: B007 (the last step is kept)
            grad_log_density, position, momentum, grad, step_size, n_leapfrog, inverse_mass):
        pass  # only the trajectory's end is proposed
    end_potential = -log_density(end)
    start_energy = potential + _kinetic(momentum, inverse_mass)
    end_energy = end_potential + _kinetic(end_momentum, inverse_mass)
    # An overflowed end point (NaN energy) counts as an infinite energy error.
    energy_error = np.where(np.isnan(end_energy), np.inf, end_energy - start_energy)
    # Metropolis test on exp(-H): accept with probability min(1, exp(-energy error)).
    accepted = log_u < -energy_error
    keep = accepted[..., None]
    state = (np.where(keep, end, position), np.where(accepted, end_potential, potential),
             np.where(keep, end_grad, grad))
    energy = np.where(accepted, end_energy, start_energy)
    return state, energy_error, accepted, energy_error > DIVERGENCE_THRESHOLD, energy


def _run(log_density, grad_log_density, starts, step_size, n_leapfrog, n_steps, rngs, mass):
    """Run one chain per row of ``starts`` in lockstep; return per-chain records."""
    position, step_size, n_leapfrog, inverse_mass = _check_dynamics(starts[0], step_size,
                                                                    n_leapfrog, mass)
    n_chain, dim = starts.shape
    momentum_scale = np.sqrt(1.0 / inverse_mass)
    noise = step_noise(rngs, n_chain)
    state = (starts, -log_density(starts), grad_log_density(starts))
    draws = np.empty((n_chain, n_steps, dim))
    records = {name: np.empty((n_chain, n_steps)) for name in ("error", "energy")}
    accepted, divergent = (np.zeros((n_chain, n_steps), dtype=bool) for _ in range(2))
    # A divergent trajectory may overflow; it is then rejected, so NumPy need not warn.
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(n_steps):
            # The momentum first, then the uniform (bayescomp._chains.step_noise).
            normals, uniforms = noise(dim)
            momentum = momentum_scale * normals
            # log u with the portable log, so the JavaScript engine's replay is exact.
            log_u = portable_log(uniforms)
            state, error, accepted[:, step], divergent[:, step], energy = hmc_transition(
                log_density, grad_log_density, state, momentum, log_u,
                (step_size, n_leapfrog, inverse_mass))
            draws[:, step], records["error"][:, step], records["energy"][:, step] = \
                state[0], error, energy
    return draws, accepted, records["error"], divergent, records["energy"]


def hmc_chain(target, start, step_size, n_leapfrog, n_steps, rng, mass=None):
    r"""Run one Hamiltonian Monte Carlo chain with a fixed step size and trajectory length.

    Parameters
    ----------
    target : Target
        The unnormalized log target: its ``log_density``, ``theta (..., d) -> (...)``, and
        ``grad_log_density``, ``theta (..., d) -> (..., d)``, vectorized over leading axes.
    start : array_like, shape (d,)
    step_size : float
        Leapfrog step :math:`h > 0`.
    n_leapfrog : int
        Leapfrog steps per trajectory, :math:`L \ge 1`.
    n_steps : int
    rng : np.random.Generator
    mass : array_like, shape (d,), optional
        Diagonal of the mass matrix :math:`M`; the identity when omitted. Setting it to the
        inverse of the posterior variances makes every coordinate direction equally easy to move
        along; correlated directions would need a dense mass matrix.

    Returns
    -------
    HMCResult

    Notes
    -----
    Each step draws a fresh momentum :math:`r \sim N(0, M)` (``standard_normal(d)`` first), then
    :math:`\xi \sim \mathrm{Unif}(0,1)`, runs :math:`L` leapfrog steps (:func:`leapfrog`) to
    :math:`(\theta', r')`, and moves when

    .. math::

        \log\xi < -\big[\mathcal H(\theta', r') - \mathcal H(\theta, r)\big],\qquad
        \mathcal H(\theta, r) = -\log\tilde p(\theta) + \tfrac12 r^\top M^{-1} r .

    Because the leapfrog map is reversible and preserves volume, this leaves
    :math:`\exp(-\mathcal H)` invariant, and so :math:`p(\theta)` (Duane et al., 1987; Neal,
    2011, section 5.3.2). A trajectory whose energy error exceeds
    :data:`DIVERGENCE_THRESHOLD` (1000, the rule of Stan and PyMC) is flagged *divergent*: the
    integrator has left the region where it tracks the dynamics, usually because the step is
    too large for the local curvature (Betancourt, 2017a, section 6.2). Stan's NUTS checks every
    leapfrog step and its static HMC does not check at all; this sampler checks the
    trajectory's end, where the energy is computed anyway.
    """
    start = as_finite_array(start, "start", ndim=1)
    log_density, grad_log_density = target_functions(target, start.size, GRADIENT)
    draws, accepted, errors, divergent, energies = _run(
        log_density, grad_log_density, start[None], step_size, n_leapfrog,
        positive_int(n_steps, "n_steps"), [generator(rng)], mass)
    n_leapfrog = positive_int(n_leapfrog, "n_leapfrog")
    return HMCResult(draws[0], float(accepted[0].mean()), 1 + int(n_steps) * n_leapfrog,
                     errors[0], divergent[0], energies[0])


def run_hmc_chains(target, starts, step_size, n_leapfrog, n_steps, rngs, n_warmup=0, mass=None):
    """Run one HMC chain per start, each with its own generator, all in lockstep.

    Parameters
    ----------
    target, step_size, n_leapfrog, mass
        As for :func:`hmc_chain`.
    starts, n_steps, rngs, n_warmup
        As for :func:`bayescomp.run_metropolis_chains`: a ``(chain, d)`` array of starts, steps
        per chain with the warm-up, one generator per chain (or one for all chains), and the
        draws to discard.

    Returns
    -------
    HMCChainsResult
        Draws of shape ``(chain, n_steps - n_warmup, d)``.

    Notes
    -----
    The chains advance together, one vectorized gradient call per leapfrog step for all of
    them. With one generator per chain, each uses only its own, in the order of
    :func:`hmc_chain`; so chain ``c`` is the chain :func:`hmc_chain` gives from ``starts[c]``
    and ``rngs[c]``, bit for bit when the target's arithmetic does not depend on the batch (the
    package's Gaussian and hierarchical targets). With one shared generator, each step draws
    every chain's momentum, then every chain's uniform: much faster for many chains.
    """
    starts, rngs, n_steps, n_warmup = chain_settings(starts, rngs, n_steps, n_warmup)
    log_density, grad_log_density = target_functions(target, starts.shape[1], GRADIENT)
    draws, accepted, errors, divergent, energies = _run(
        log_density, grad_log_density, starts, step_size, n_leapfrog, n_steps, rngs, mass)
    # Where each divergent trajectory started: the state before its step.
    before = np.concatenate([starts[:, None], draws[:, :-1]], axis=1)
    n_leapfrog = positive_int(n_leapfrog, "n_leapfrog")
    return HMCChainsResult(draws[:, n_warmup:], accepted.mean(axis=1),
                           len(starts) * (1 + n_steps * n_leapfrog), errors, divergent,
                           energies, before[divergent])
