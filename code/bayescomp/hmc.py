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

from ._checks import as_finite_array, chain_settings, generator, positive_float, positive_int


class Trajectory(NamedTuple):
    """The states a leapfrog integration passes through, the start included.

    Attributes
    ----------
    positions, momenta : ndarray, shape (n_leapfrog + 1, d)
    """

    positions: np.ndarray
    momenta: np.ndarray


class HMCResult(NamedTuple):
    """One HMC chain.

    Attributes
    ----------
    draws : ndarray, shape (n_steps, d)
        The state after each step (the start itself is not included).
    accept_rate : float
        Fraction of the ``n_steps`` trajectories whose end point was accepted.
    n_gradient_evals : int
        Gradient evaluations, ``1 + n_steps * n_leapfrog``: the cost to compare samplers by.
    energy_errors : ndarray, shape (n_steps,)
        :math:`\\mathcal H(\\text{end}) - \\mathcal H(\\text{start})` of each trajectory; 0 for
        exact dynamics, NaN or inf for a divergent one.
    """

    draws: np.ndarray
    accept_rate: float
    n_gradient_evals: int
    energy_errors: np.ndarray


class HMCChainsResult(NamedTuple):
    """Several HMC chains after warm-up.

    Attributes
    ----------
    draws, accept_rates : ndarray
        As in :class:`~bayescomp.metropolis.ChainsResult`: the kept draws, shape
        ``(chain, draw, param)``, and each chain's acceptance rate over all its steps.
    n_gradient_evals : int
        Gradient evaluations summed over the chains, warm-up included.
    energy_errors : ndarray, shape (chain, n_steps)
        Every trajectory's energy error, warm-up included.
    """

    draws: np.ndarray
    accept_rates: np.ndarray
    n_gradient_evals: int
    energy_errors: np.ndarray


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
    With potential energy :math:`U(\theta) = -\log\tilde p(\theta)`, step :math:`h` and momentum
    :math:`r`,

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
    return 0.5 * np.sum(inverse_mass * momentum**2)


def _transition(state, momentum, log_u, log_density, grad_log_density, dynamics):
    """One HMC step from ``state = (position, potential, grad)``; returns the next state,
    the energy error and whether the trajectory's end was accepted."""
    position, potential, grad = state
    step_size, n_leapfrog, inverse_mass = dynamics
    for end, end_momentum, end_grad in _leapfrog_steps(grad_log_density, position, momentum,
                                                       grad, step_size, n_leapfrog,
                                                       inverse_mass):
        pass  # only the trajectory's end is proposed
    end_potential = -log_density(end)
    energy_error = ((end_potential + _kinetic(end_momentum, inverse_mass))
                    - (potential + _kinetic(momentum, inverse_mass)))
    # Metropolis test on exp(-H); a NaN energy error (a divergence) compares False: rejected.
    if log_u < -energy_error:
        return (end, end_potential, end_grad), energy_error, True
    return state, energy_error, False


def hmc_chain(log_density, grad_log_density, start, step_size, n_leapfrog, n_steps, rng,
              mass=None):
    r"""Run one Hamiltonian Monte Carlo chain with a fixed step size and trajectory length.

    Parameters
    ----------
    log_density : callable
        ``theta (d,) -> float``, an unnormalized log target.
    grad_log_density : callable
        ``theta (d,) -> (d,)``.
    start : array_like, shape (d,)
    step_size : float
        Leapfrog step :math:`h > 0`.
    n_leapfrog : int
        Leapfrog steps per trajectory, :math:`L \ge 1`.
    n_steps : int
    rng : np.random.Generator
    mass : array_like, shape (d,), optional
        Diagonal of the mass matrix :math:`M`; the identity when omitted. Setting it to the
        inverse of the posterior variances makes every direction equally easy to move along.

    Returns
    -------
    HMCResult

    Notes
    -----
    Each step draws a fresh momentum :math:`r \sim N(0, M)` (``standard_normal(d)`` first), then
    :math:`u \sim U(0,1)`, runs :math:`L` leapfrog steps (:func:`leapfrog`) to
    :math:`(\theta', r')`, and moves when

    .. math::

        \log u < -\big[\mathcal H(\theta', r') - \mathcal H(\theta, r)\big],\qquad
        \mathcal H(\theta, r) = -\log\tilde p(\theta) + \tfrac12 r^\top M^{-1} r .

    Because the leapfrog map is reversible and preserves volume, this leaves
    :math:`\exp(-\mathcal H)` invariant, and so :math:`p(\theta)` (Duane et al., 1987; Neal, 2011,
    section 5.3.2). A trajectory that overflows is rejected; its energy error is stored as
    NaN or inf.
    """
    position, step_size, n_leapfrog, inverse_mass = _check_dynamics(start, step_size,
                                                                    n_leapfrog, mass)
    n_steps = positive_int(n_steps, "n_steps")
    rng = generator(rng)
    momentum_scale = np.sqrt(1.0 / inverse_mass)
    state = (position, -log_density(position), grad_log_density(position))
    draws, energy_errors = np.empty((n_steps, position.size)), np.empty(n_steps)
    n_accepted = 0
    # A divergent trajectory may overflow; it is then rejected, so NumPy need not warn.
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(n_steps):
            momentum = momentum_scale * rng.standard_normal(position.size)
            log_u = np.log(rng.random())
            state, energy_errors[step], accepted = _transition(
                state, momentum, log_u, log_density, grad_log_density,
                (step_size, n_leapfrog, inverse_mass))
            n_accepted += accepted
            draws[step] = state[0]
    return HMCResult(draws, n_accepted / n_steps, 1 + n_steps * n_leapfrog, energy_errors)


def run_hmc_chains(log_density, grad_log_density, starts, step_size, n_leapfrog, n_steps, rngs,
                   n_warmup=0, mass=None):
    """Run one HMC chain per start, each with its own generator.

    Parameters
    ----------
    log_density, grad_log_density, step_size, n_leapfrog, mass
        As for :func:`hmc_chain`.
    starts, n_steps, rngs, n_warmup
        As for :func:`bayescomp.metropolis.run_chains`: a ``(chain, d)`` array of starts, steps
        per chain with the warm-up, one generator per chain, and the draws to discard.

    Returns
    -------
    HMCChainsResult
        Draws of shape ``(chain, n_steps - n_warmup, d)``.
    """
    starts, rngs, n_steps, n_warmup = chain_settings(starts, rngs, n_steps, n_warmup)
    chains = [hmc_chain(log_density, grad_log_density, start, step_size, n_leapfrog, n_steps,
                        rng, mass) for start, rng in zip(starts, rngs)]
    return HMCChainsResult(np.stack([c.draws[n_warmup:] for c in chains]),
                           np.array([c.accept_rate for c in chains]),
                           sum(c.n_gradient_evals for c in chains),
                           np.stack([c.energy_errors for c in chains]))
