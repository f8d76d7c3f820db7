"""HMC: known answers on a Gaussian, second-order energy error, reversibility, bad input."""
import warnings

import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp.hmc import hmc_transition

from .densities import flat_gradient

RNG = np.random.default_rng
MEAN = np.array([1.0, -2.0])
COV = np.array([[1.0, 0.6], [0.6, 2.0]])
STARTS = [[0.0, 0.0], [2.0, -1.0], [-1.0, -3.0], [3.0, -4.0]]


@pytest.fixture(scope="module")
def gaussian():
    return bc.gaussian_target(MEAN, COV)


@pytest.fixture(scope="module")
def gaussian_chains(gaussian):
    # A trajectory length (0.45 * 7 ~ 3) that is not a multiple of the half-periods.
    return bc.run_hmc_chains(gaussian, STARTS, 0.45, 7,
                             2500, [RNG(40 + c) for c in range(4)], n_warmup=500,
                             mass=1 / np.diag(COV))


def mean_within_mcse(values, expected, n_mcse=4):
    """Each column's mean is within ``n_mcse`` Monte Carlo standard errors of ``expected``.

    MCSE = sd / sqrt(ESS), with the ESS of the values themselves ((chain, draw, k) shape).
    """
    pooled = values.reshape(-1, values.shape[-1])
    error = pooled.mean(axis=0) - expected
    mcse = pooled.std(axis=0, ddof=1) / np.sqrt(bc.ess_bulk(values))
    assert np.all(np.abs(error) < n_mcse * mcse), (error, mcse)


def test_recovers_gaussian_mean(gaussian_chains):
    mean_within_mcse(gaussian_chains.draws, MEAN)


def test_recovers_gaussian_covariance(gaussian_chains):
    # Each covariance entry is the mean of (x_i - mu_i)(x_j - mu_j) with the true means.
    centred = gaussian_chains.draws - MEAN
    products = np.stack([centred[..., 0]**2, centred[..., 0] * centred[..., 1],
                         centred[..., 1]**2], axis=-1)
    mean_within_mcse(products, [COV[0, 0], COV[0, 1], COV[1, 1]])


def test_chains_report_their_cost(gaussian_chains):
    assert gaussian_chains.draws.shape == (4, 2000, 2)
    assert gaussian_chains.energy_errors.shape == (4, 2500)
    assert gaussian_chains.n_gradient_evals == 4 * (1 + 2500 * 7)
    assert np.all(gaussian_chains.accept_rates > 0.8)
    assert np.all(bc.rank_normalized_rhat(gaussian_chains.draws) < 1.01)


def test_chains_equal_single_runs(gaussian):
    both = bc.run_hmc_chains(gaussian, STARTS[:2], 0.3,
                             5, 50, [RNG(1), RNG(2)])
    second = bc.hmc_chain(gaussian, STARTS[1], 0.3, 5, 50,
                          RNG(2))
    np.testing.assert_array_equal(both.draws[1], second.draws)
    np.testing.assert_array_equal(both.energy_errors[1], second.energy_errors)


def energy_drift(target, step_size, trajectory_length=2.0):
    """Largest |H - H(start)| along a leapfrog trajectory of fixed length."""
    n_leapfrog = int(round(trajectory_length / step_size))
    path = bc.leapfrog(target.grad_log_density, [0.5, 1.7], [1.0, -0.5], step_size, n_leapfrog)
    energy = -target.log_density(path.positions) + 0.5 * np.sum(path.momenta**2, axis=1)
    return np.max(np.abs(energy - energy[0]))


def test_energy_error_is_second_order(lecture):
    # Halving the step quarters the energy error: the leapfrog scheme is second order.
    drifts = [energy_drift(lecture.target, h) for h in (0.1, 0.05, 0.025, 0.0125)]
    ratios = np.array(drifts[:-1]) / np.array(drifts[1:])
    np.testing.assert_allclose(ratios, 4.0, rtol=0.1)


@pytest.mark.parametrize("mass", [None, [4.0, 9.0]])
def test_leapfrog_is_reversible(lecture, mass):
    grad = lecture.target.grad_log_density
    start, momentum = np.array([-0.3, 1.4]), np.array([1.3, -0.8])
    forward = bc.leapfrog(grad, start, momentum, 0.1, 25, mass)
    back = bc.leapfrog(grad, forward.positions[-1], -forward.momenta[-1], 0.1, 25, mass)
    np.testing.assert_allclose(back.positions[-1], start, atol=1e-10, rtol=0)
    np.testing.assert_allclose(-back.momenta[-1], momentum, atol=1e-10, rtol=0)


def test_divergent_trajectories_are_rejected(gaussian):
    chain = bc.hmc_chain(gaussian, MEAN, 50.0, 30, 20,
                         RNG(0))
    assert chain.accept_rate == 0
    np.testing.assert_array_equal(chain.draws, np.tile(MEAN, (20, 1)))


# --- bad input ------------------------------------------------------------------------------
def run(target, **changes):
    settings = dict(start=[0.0, 0.0], step_size=0.1, n_leapfrog=5, n_steps=10, rng=RNG(0))
    settings.update(changes)
    return bc.hmc_chain(target, **settings)


@pytest.mark.parametrize("changes, message", [
    (dict(step_size=0.0), "step_size must be a finite number > 0; got 0.0"),
    (dict(step_size=-0.1), "step_size must be a finite number > 0"),
    (dict(n_leapfrog=0), "n_leapfrog must be an integer >= 1; got 0"),
    (dict(n_leapfrog=2.5), "n_leapfrog must be an integer >= 1; got 2.5"),
    (dict(n_steps=0), "n_steps must be an integer >= 1; got 0"),
    (dict(start=[np.nan, 0.0]), "start must contain only finite values"),
    (dict(start=[[0.0, 0.0]]), "start must be a 1-D array; got shape"),
    (dict(rng=42), "rng must be a np.random.Generator"),
    (dict(mass=[1.0, 2.0, 3.0]), r"mass must have shape \(2,\); got shape \(3,\)"),
    (dict(mass=[1.0, -2.0]), "mass must be None .* or the positive diagonal"),
])
def test_bad_settings(gaussian, changes, message):
    with pytest.raises(ValueError, match=message):
        run(gaussian, **changes)


@pytest.mark.parametrize("position, momentum, message", [
    ([0.0, 0.0], [1.0], r"momentum must have shape \(2,\)"),
    ([0.0, np.inf], [1.0, 0.0], "position must contain only finite values"),
])
def test_leapfrog_bad_state(gaussian, position, momentum, message):
    with pytest.raises(ValueError, match=message):
        bc.leapfrog(gaussian.grad_log_density, position, momentum, 0.1, 5)


def test_chains_need_one_generator_each(gaussian):
    with pytest.raises(ValueError, match=r"rngs must be one np.random.Generator for all chains or hold one generator per start \(2\)"):
        bc.run_hmc_chains(gaussian, STARTS[:2], 0.1, 5,
                          10, [RNG(0)])


def test_dimension_tuning_follows_chapter_6():
    assert book.dimension_tuning(16) == pytest.approx({"rwm_scale": 2.38 / 4, "step_size": 0.7,
                                                    "n_leapfrog": 2})
    assert book.dimension_tuning(1)["n_leapfrog"] == 1
    for d in (3, 50, 100):
        tuning = book.dimension_tuning(d)
        # d h^4 is the same in every dimension: the energy error's mean stays fixed.
        assert d * tuning["step_size"] ** 4 == pytest.approx(1.4**4)
    with pytest.raises(ValueError, match="dim must be an integer >= 1"):
        book.dimension_tuning(0)


def test_one_shared_generator_gives_one_chain_the_single_run(gaussian):
    shared = bc.run_hmc_chains(gaussian, STARTS[1:2], 0.3,
                               5, 50, RNG(2))
    single = bc.hmc_chain(gaussian, STARTS[1], 0.3, 5, 50,
                          RNG(2))
    np.testing.assert_array_equal(shared.draws[0], single.draws)


def test_a_shared_generator_batch_replays_chain_by_chain(gaussian):
    # Each step of a shared-generator run draws every chain's momentum, then every uniform;
    # replaying one chain alone with its share of those numbers must give its draws, bit for bit.
    n_steps, mass = 30, np.array([1.0, 0.5])
    run = bc.run_hmc_chains(gaussian, STARTS, 0.3, 5,
                            n_steps, RNG(8), mass=mass)
    rng, chain = RNG(8), 2
    position = np.array(STARTS[chain], dtype=float)[None]
    state = (position, -gaussian.log_density(position), gaussian.grad_log_density(position))
    for step in range(n_steps):
        momentum = np.sqrt(mass) * rng.standard_normal((len(STARTS), 2))[chain:chain + 1]
        log_u = bc._portable_math.log(rng.random(len(STARTS))[chain:chain + 1])
        state = bc.hmc.hmc_transition(gaussian.log_density, gaussian.grad_log_density, state,
                                      momentum, log_u, (0.3, 5, 1 / mass))[0]
        np.testing.assert_array_equal(state[0][0], run.draws[chain, step])


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

def test_hmc_with_a_tiny_step_conserves_energy_and_accepts_every_trajectory():
    # Survivors: the kinetic energy (0.5 * sum r^2 / m turned into 0.5 / sum ...) and the sign
    # of the end point's potential energy. Both break the Hamiltonian's conservation, which is
    # the whole point of HMC: with a step of 0.01 the leapfrog error is about 1e-5, every
    # trajectory is accepted, and the energy kept is the start's or the end's Hamiltonian.
    target = bc.gaussian_target([1.0, -2.0], [[1.0, 0.6], [0.6, 2.0]])
    run = bc.hmc_chain(target, [0.5, -1.0], 0.01, 5, 200,
                       np.random.default_rng(7))
    assert np.max(np.abs(run.energy_errors)) < 1e-3
    assert run.accept_rate == 1.0 and not run.divergent.any()
    # The Hamiltonian is at least the potential energy of the state kept (kinetic >= 0).
    assert np.all(run.energies >= -target.log_density(run.draws) - 1e-12)


def test_leapfrog_drifts_by_step_times_momentum_over_mass():
    # On a flat target the momentum never changes and theta moves by h r / m per step.
    # Survivors: the inverse mass 2 / m, the drift h / (1/m) r, and leapfrog ignoring its mass.
    path = bc.leapfrog(flat_gradient, [0.0, 0.0], [1.0, 1.0], 0.5, 2, mass=[2.0, 0.5])
    np.testing.assert_allclose(path.positions, [[0.0, 0.0], [0.25, 1.0], [0.5, 2.0]])
    np.testing.assert_allclose(path.momenta, np.ones((3, 2)))


@pytest.mark.parametrize("kwargs, name", [({"mass": [1.0, 0.0]}, "mass"),
                                          ({"position": 0.0, "momentum": 0.0}, "position")])
def test_leapfrog_refuses_a_zero_mass_and_a_scalar_position(kwargs, name):
    # Survivors: mass <= 0 turned into mass < 0, and the position's ndim check dropped.
    settings = dict(grad_log_density=flat_gradient, position=[0.0, 0.0], momentum=[1.0, 1.0],
                    step_size=0.1, n_leapfrog=1)
    with pytest.raises(ValueError, match=name):
        bc.leapfrog(**{**settings, **kwargs})


def test_hmc_momentum_is_drawn_from_n_0_m():
    # r = sqrt(m) z with z the generator's next d normals, so the kinetic energy r^2 / (2 m) is
    # |z|^2 / 2 whatever the mass; with a tiny step the trajectory conserves H and is accepted.
    # Survivors: the momentum scale sqrt(1 / m) turned into sqrt(1 * (1/m)) and sqrt(2 m), one
    # normal for every coordinate (standard_normal(None)), and run_hmc_chains ignoring its mass.
    target = bc.gaussian_target([0.0, 0.0], np.diag([4.0, 0.25]))
    mass = np.array([0.25, 4.0])
    starts = np.array([[1.0, 0.5], [-2.0, 0.2]])
    run = bc.run_hmc_chains(target, starts, 1e-4, 1, 1,
                            [np.random.default_rng(s) for s in (11, 12)], mass=mass)
    one = bc.hmc_chain(target, starts[0], 1e-4, 1, 1,
                       np.random.default_rng(11), mass=mass)
    for c, seed in enumerate((11, 12)):
        z = np.random.default_rng(seed).standard_normal(2)
        expected = -target.log_density(starts[c]) + 0.5 * z @ z
        assert run.energies[c, 0] == pytest.approx(expected, abs=1e-6)
    assert one.energies[0] == pytest.approx(run.energies[0, 0], abs=1e-12)


def quartic_log_density(theta):
    return -np.sum(theta**4, axis=-1)


def quartic_gradient(theta):
    return -4 * theta**3


def test_an_overflowing_trajectory_is_divergent_rejected_and_silent():
    # On log p = -theta^4 a step of 1 from theta = 2 overflows within a few leapfrog steps: the
    # end energy is NaN, which counts as an infinite energy error, so the trajectory is rejected
    # and flagged divergent, without a NumPy warning. Survivors: the NaN test dropped (or its
    # inf replaced by None), and the overflow and invalid warnings no longer silenced.
    starts = np.array([[2.0], [2.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quartic = bc.Target(quartic_log_density, quartic_gradient, None, 1)
        run = bc.run_hmc_chains(quartic, starts, 1.0, 8, 3,
                                [np.random.default_rng(s) for s in (1, 2)])
        one = bc.hmc_chain(quartic, starts[0], 1.0, 8, 3, np.random.default_rng(1))
    assert run.divergent.shape == (2, 3) and run.divergent.all()
    assert np.all(run.energy_errors == np.inf)
    assert run.accept_rates.shape == (2,) and np.all(run.accept_rates == 0.0)
    np.testing.assert_array_equal(run.draws, np.repeat(starts[:, None], 3, axis=1))
    # Every step started where the chain stood: its start.
    np.testing.assert_array_equal(run.divergent_starts, np.repeat(starts, 3, axis=0))
    assert run.energies.shape == (2, 3) and np.all(np.isfinite(run.energies))
    assert one.divergent.all() and one.accept_rate == 0.0


def test_hmc_transition_keeps_the_energy_of_the_state_it_keeps():
    # Survivors: the energy returned always the start's (np.where(None, ...)) or None where
    # the trajectory was rejected. log u = -inf accepts any finite error, log u = 0 rejects any
    # positive one; the end energy is computed here from leapfrog().
    target = bc.gaussian_target([0.0, 0.0], np.eye(2))
    position, momentum = np.array([[1.0, -0.5]]), np.array([[0.3, 0.8]])
    state = (position, -target.log_density(position), target.grad_log_density(position))
    path = bc.leapfrog(target.grad_log_density, position[0], momentum[0], 0.9, 3)
    start_h = -target.log_density(position[0]) + 0.5 * momentum[0] @ momentum[0]
    end_h = -target.log_density(path.positions[-1]) + 0.5 * path.momenta[-1] @ path.momenta[-1]
    assert end_h > start_h  # a step of 0.9 loses energy accuracy, here upwards
    for log_u, accept, energy in [(-np.inf, True, end_h), (0.0, False, start_h)]:
        _, error, accepted, divergent, kept = hmc_transition(
            target.log_density, target.grad_log_density, state, momentum, np.array([log_u]),
            (0.9, 3, np.ones(2)))
        assert accepted[0] == accept and not divergent[0]
        assert error[0] == pytest.approx(end_h - start_h)
        assert kept[0] == pytest.approx(energy)


def test_hmc_counts_one_gradient_per_leapfrog_step_and_one_at_the_start():
    # Survivors: n_gradient_evals dropped or miscounted (2 + n L, 1 - n L, 1 + n / L, and
    # divided by the number of chains). The count here is of the points the gradient was given.
    points = []

    def gradient(theta):
        points.append(len(np.atleast_2d(theta)))
        return -theta
    target = bc.gaussian_target([0.0], np.eye(1))._replace(grad_log_density=gradient)
    run = bc.hmc_chain(target, [0.5], 0.2, 4, 7, np.random.default_rng(0))
    assert run.n_gradient_evals == sum(points) == 1 + 7 * 4
    points.clear()
    runs = bc.run_hmc_chains(target, [[0.5], [-1.0], [2.0]], 0.2, 4, 7,
                             [np.random.default_rng(s) for s in range(3)])
    assert runs.n_gradient_evals == sum(points) == 3 * (1 + 7 * 4)
