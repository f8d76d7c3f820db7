"""Tests written to kill the mutants that survived the mutation study (`make mutation`).

Each test names the behaviour the surviving mutant changed without any other test noticing;
``tools/mutation/survivors.md`` says which survivors are left and why they do not matter.
"""
import warnings

import numpy as np
import pytest

import bayescomp as bc
from bayescomp.hmc import hmc_transition
from bayescomp.importance import weighted_result
from bayescomp.psis import _generalized_pareto_quantile


def gaussian_log_density(mean, cov):
    """The normalized log density of N(mean, cov) in 2-D, vectorized over leading axes."""
    mean, cov = np.asarray(mean), np.asarray(cov)
    precision, (_, log_det) = np.linalg.inv(cov), np.linalg.slogdet(cov)

    def log_density(theta):
        centred = theta - mean
        return (-0.5 * np.einsum("...i,ij,...j->...", centred, precision, centred)
                - np.log(2 * np.pi) - 0.5 * log_det)
    return log_density


def test_weight_second_moment_on_an_anisotropic_pair_matches_the_closed_form():
    # Survivors: the quadrature's angles (2 pi / n turned into 2 pi * n puts every point on one
    # ray) and the proposal's log determinant. The existing test uses an isotropic target and
    # proposal, for which neither matters. Here p = N(m, P) and q = N(m, Q) are both tilted:
    # E_q[w^2] = |Q| / sqrt(|P| |2Q - P|), reached well inside radius 10.
    mean = np.array([0.3, -0.2])
    target_cov = np.array([[1.5, 0.3], [0.3, 0.5]])
    proposal_cov = np.array([[1.2, -0.2], [-0.2, 0.9]])
    exact = np.linalg.det(proposal_cov) / np.sqrt(
        np.linalg.det(target_cov) * np.linalg.det(2 * proposal_cov - target_cov))
    computed = bc.weight_second_moment_within(gaussian_log_density(mean, target_cov), 0.0, mean,
                                              proposal_cov, [10.0], steps_per_unit=100)
    np.testing.assert_allclose(computed, [exact], rtol=1e-4)


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


def test_e_bfmi_is_per_chain_and_takes_one_chain_of_four_draws():
    # Survivors (the ArviZ cross-check of E-BFMI lives in the hierarchical tests, outside the
    # mutation study's fast selection): pooling the chains' jumps (mean over every axis), and
    # the input rule (one chain is enough, four draws are enough).
    energies = np.array([[0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 0.1, 0.2, 0.3, 0.4]])
    jumps = np.diff(energies, axis=1)
    expected = (jumps**2).mean(axis=1) / energies.var(axis=1, ddof=1)
    np.testing.assert_allclose(bc.e_bfmi(energies), expected, rtol=1e-12)
    np.testing.assert_allclose(bc.e_bfmi(energies[:1]), expected[:1], rtol=1e-12)
    four = energies[:, :4]
    np.testing.assert_allclose(
        bc.e_bfmi(four),
        (np.diff(four, axis=1)**2).mean(axis=1) / four.var(axis=1, ddof=1), rtol=1e-12)


# --- The whole study's survivors (2,230 mutants): importance sampling ----------------------

def test_weighted_result_is_stable_for_huge_log_weights_and_reports_the_largest_weight():
    # Survivors: exp(log w + max) instead of exp(log w - max) (overflows), and max_weight
    # dropped. Weights 1 : 3 on top of log w = 1000 must normalize to 1/4 and 3/4.
    result = weighted_result(np.array([[0.0], [1.0]]), 1000.0 + np.log([1.0, 3.0]))
    np.testing.assert_allclose(result.weights, [0.25, 0.75])
    np.testing.assert_allclose(result.mean, [0.75])
    assert result.max_weight == pytest.approx(0.75)
    assert result.ess == pytest.approx(1 / (0.25**2 + 0.75**2))


def test_importance_inputs_of_the_wrong_dimension_are_refused_by_name():
    # Survivors: the ndim checks on proposal_mean and on an estimate's log weights.
    target = bc.gaussian_target([0.0, 0.0], np.eye(2))
    with pytest.raises(ValueError, match="proposal_mean"):
        bc.importance_sample(target, [[0.0, 0.0]], np.eye(2), 10, np.random.default_rng(0))
    good = bc.importance_sample(target, [0.0, 0.0], np.eye(2), 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="log_weights"):
        bc.log_normalizer_estimate(good._replace(log_weights=good.log_weights.reshape(2, 5)))


def standard_normal_2d(theta):
    return -0.5 * np.sum(theta**2, axis=-1) - np.log(2 * np.pi)


def test_weight_second_moment_when_target_equals_proposal_is_the_gaussian_disc_mass():
    # With p = q every weight is 1, so E_q[w^2; rho < R] = P(rho < R) = 1 - exp(-R^2/2).
    # Survivors: the radial step (2/steps_per_unit), the first ring skipped (rho from 1.5) and
    # the index of the first radius clipped at 1.
    radii = np.array([0.05, 0.5, 1.0, 2.0, 3.0])
    computed = bc.weight_second_moment_within(standard_normal_2d, 0.0, [0.0, 0.0], np.eye(2),
                                              radii)
    np.testing.assert_allclose(computed, 1 - np.exp(-radii**2 / 2), rtol=2e-3)


def test_weight_second_moment_below_the_first_ring_is_not_the_total():
    # Survivor: np.clip(index, None, None) turns the index -1 of a radius inside the first ring
    # into the last ring, so the smallest radius reported the whole disc's moment.
    computed = bc.weight_second_moment_within(standard_normal_2d, 0.0, [0.0, 0.0], np.eye(2),
                                              [0.01, 3.0])
    assert computed[0] < 0.01 < 0.98 < computed[1]


def test_weight_second_moment_with_offset_means_matches_a_cartesian_sum():
    # Survivor: angles spread over 3 pi instead of 2 pi. It gives the right answer whenever the
    # integrand is symmetric under theta -> 2 mu - theta (target and proposal share a centre,
    # as in every other test); here they do not. The check is an independent midpoint sum of
    # p^2 / q on a Cartesian grid.
    target_mean, target_cov = np.array([0.6, -0.4]), np.array([[0.8, 0.2], [0.2, 0.6]])
    proposal_mean, proposal_cov = np.array([0.0, 0.0]), np.array([[1.0, 0.3], [0.3, 1.2]])
    log_p = gaussian_log_density(target_mean, target_cov)
    log_q = gaussian_log_density(proposal_mean, proposal_cov)
    step = 0.02
    axis = np.arange(-9, 9, step) + step / 2
    theta = np.stack(np.meshgrid(axis, axis, indexing="ij"), axis=-1)
    exact = np.sum(np.exp(2 * log_p(theta) - log_q(theta))) * step**2
    computed = bc.weight_second_moment_within(log_p, 0.0, proposal_mean, proposal_cov, [8.0],
                                              n_angles=181, steps_per_unit=50)
    np.testing.assert_allclose(computed, [exact], rtol=1e-3)


@pytest.mark.parametrize("kwargs, name", [
    ({"log_normalizer": [0.0]}, "log_normalizer"),
    ({"cov": np.eye(3)}, "cov"),
    ({"radii": 1.0}, "radii"),
    ({"radii": [-1.0, 1.0]}, "radii"),
    ({"radii": [0.0, 1.0]}, "radii"),
    ({"radii": [1.0, 1.0]}, "radii"),
    ({"n_angles": 7}, "n_angles"),
    ({"steps_per_unit": 1}, "steps_per_unit"),
])
def test_weight_second_moment_refuses_bad_settings_by_name(kwargs, name):
    # Survivors: each check's condition (<= turned into <, or dropped) or its bound.
    settings = dict(log_density=standard_normal_2d, log_normalizer=0.0, mean=[0.0, 0.0],
                    cov=np.eye(2), radii=[1.0, 2.0])
    with pytest.raises(ValueError, match=name):
        bc.weight_second_moment_within(**{**settings, **kwargs})


def test_weight_second_moment_accepts_the_smallest_allowed_settings():
    # Survivors: the minimum quadrature sizes raised by one (8 angles, 2 steps per unit).
    computed = bc.weight_second_moment_within(standard_normal_2d, 0.0, [0.0, 0.0], np.eye(2),
                                              [2.0], n_angles=8, steps_per_unit=2)
    np.testing.assert_allclose(computed, 1 - np.exp(-2.0), rtol=0.05)


# --- Variational inference ------------------------------------------------------------------

def flat_log_density(theta):
    return np.zeros(np.shape(theta)[:-1])


def flat_gradient(theta):
    return np.zeros(np.shape(theta))


# log p~ = 0 in any dimension (dim None: the start sets it).
FLAT = bc.Target(flat_log_density, flat_gradient, None, None)


def gaussian_entropy(cov):
    """The entropy of N(m, cov), 0.5 log det(2 pi e cov)."""
    return 0.5 * np.linalg.slogdet(2 * np.pi * np.e * np.asarray(cov))[1]


def test_elbo_of_a_flat_target_is_the_entropy_of_q():
    # With log p~ = 0 the ELBO E_q[log p~] + H(q) is exactly H(q), with no Monte Carlo noise.
    # Survivors: every constant of the entropy (+ turned into -, 0.5 into 1.5, 2 pi into 3 pi,
    # ...), the ELBO's entropy sign, the ELBO left out of full_rank_vi's result.
    log_sd = np.log([0.5, 2.0, 3.0])
    field = bc.mean_field_vi(FLAT, np.zeros(3), log_sd, 1,
                             np.random.default_rng(0))
    assert field.elbo[0] == pytest.approx(gaussian_entropy(np.diag(np.exp(2 * log_sd))), abs=1e-12)
    chol = np.array([[0.5, 0.0, 0.0], [0.3, 2.0, 0.0], [-0.2, 0.1, 3.0]])
    full = bc.full_rank_vi(FLAT, np.zeros(3), chol, 1,
                           np.random.default_rng(0))
    assert full.elbo.shape == (1,)
    assert full.elbo[0] == pytest.approx(gaussian_entropy(chol @ chol.T), abs=1e-12)


def test_full_rank_vi_with_a_tiny_learning_rate_returns_its_start():
    # Adam moves each parameter by at most about lr per step, so with lr = 1e-12 the fit is its
    # initial value. Survivors: the strictly lower part taken with the diagonal (doubling it) or
    # without the first subdiagonal, the factor left out of the result, and the average over the
    # last n_average iterates missing one of them.
    mean, chol = np.array([1.0, -2.0, 0.5]), np.array([[0.5, 0.0, 0.0], [0.3, 2.0, 0.0],
                                                       [-0.2, 0.1, 3.0]])
    target = bc.gaussian_target([0.0, 0.0, 0.0], np.eye(3))
    for n_steps, n_average in [(1, 0), (2, 2), (3, 1)]:
        fit = bc.full_rank_vi(target, mean, chol, n_steps,
                              np.random.default_rng(1), lr=1e-12, n_average=n_average)
        np.testing.assert_allclose(fit.mean, mean, atol=1e-9)
        np.testing.assert_allclose(fit.chol, chol, atol=1e-9)
        np.testing.assert_allclose(fit.cov, chol @ chol.T, atol=1e-9)


def test_full_rank_vi_draws_its_first_points_from_the_initial_q():
    # theta = m + L eps with eps the generator's first (n_samples, d) normals. Survivors: the
    # initial factor's diagonal counted twice (the strictly lower part taken with the diagonal,
    # which only the first step sees), and the ELBO's log density called on None.
    mean, chol = np.array([1.0, -2.0]), np.array([[0.5, 0.0], [0.3, 2.0]])
    seen = []

    def log_density(theta):
        seen.append(np.array(theta, dtype=float))
        return -0.5 * np.sum(theta**2, axis=-1)
    bc.full_rank_vi(bc.Target(log_density, lambda theta: -theta, None, 2), mean, chol, 1,
                    np.random.default_rng(5), n_samples=8)
    noise = np.random.default_rng(5).standard_normal((8, 2))
    np.testing.assert_allclose(seen[0], mean + noise @ chol.T, rtol=1e-12)


def test_full_rank_vi_steps_are_scale_free_with_the_default_adam_epsilon():
    # Adam's step is about lr whatever the gradient's scale, as long as eps (1e-8) is small
    # beside it. Survivor: eps = 1.00000001 as the default, which turns the step into lr times
    # the gradient, here 1e-4 of it. The target is wide (sd 100) and its mean 3 away.
    target = bc.gaussian_target([3.0, 3.0], np.diag([1e4, 1e4]))
    fit = bc.full_rank_vi(target, [0.0, 0.0], np.eye(2),
                          60, np.random.default_rng(2), n_samples=16, lr=0.1)
    assert np.all(fit.mean > 2.0)


@pytest.mark.parametrize("call, name", [
    (lambda: bc.full_rank_vi(FLAT, 0.0, np.eye(1), 1,
                             np.random.default_rng(0)), "init_mean"),
    (lambda: bc.full_rank_vi(FLAT, [0.0, 0.0], np.eye(3), 1,
                             np.random.default_rng(0)), "init_chol"),
    (lambda: bc.reparameterization_gradient(flat_gradient, 0.0, 1.0, np.zeros((4, 1))), "mean"),
])
def test_vi_inputs_of_the_wrong_shape_are_refused_by_name(call, name):
    # Survivors: the ndim checks on the means and the dimension check on init_chol.
    with pytest.raises(ValueError, match=name):
        call()


def test_gradient_estimators_accept_two_draws():
    # The documented minimum is S = 2 (the leave-one-out baseline needs one other draw).
    # Survivors: the check turned into S > 2 and S >= 3.
    noise = np.array([[0.5, -1.0], [-0.3, 0.8]])
    target = bc.gaussian_target([0.0, 0.0], np.eye(2))
    reparameterized = bc.reparameterization_gradient(target.grad_log_density, [0.0, 0.0],
                                                     [1.0, 1.0], noise)
    np.testing.assert_allclose(reparameterized.mean, -noise.mean(axis=0))
    score = bc.score_function_gradient(target.log_density, [0.0, 0.0], [1.0, 1.0], noise)
    assert np.all(np.isfinite(score.mean)) and np.all(np.isfinite(score.log_sd))


def test_score_function_gradient_without_baseline_vanishes_when_q_is_the_target():
    # With log p~ = log q exactly, every f_r = log p~ - log q is 0, so the estimate is exactly
    # zero for any noise. Survivors: the constants of log q (its normalizing terms), which the
    # leave-one-out baseline cancels but baseline="none" does not.
    mean, sd = np.array([0.4, -1.0]), np.array([0.5, 1.5])
    log_q = gaussian_log_density(mean, np.diag(sd**2))
    noise = np.random.default_rng(3).standard_normal((50, 2))
    gradient = bc.score_function_gradient(log_q, mean, sd, noise, baseline="none")
    np.testing.assert_allclose(gradient.mean, 0.0, atol=1e-12)
    np.testing.assert_allclose(gradient.log_sd, 0.0, atol=1e-12)


def test_score_function_log_sd_gradient_matches_the_exact_one_on_a_gaussian():
    # For p = N(0, I) and q = N(m, diag(s^2)), d ELBO / d log s = 1 - s^2. Survivor: the score
    # of log s, (eps^2 - 1), dividing instead of multiplying.
    mean, sd = np.array([0.3, -0.2]), np.array([0.5, 1.5])
    target = bc.gaussian_target([0.0, 0.0], np.eye(2))
    noise = np.random.default_rng(4).standard_normal((200_000, 2))
    gradient = bc.score_function_gradient(target.log_density, mean, sd, noise)
    np.testing.assert_allclose(gradient.log_sd, 1 - sd**2, atol=0.05)
    np.testing.assert_allclose(gradient.mean, -mean, atol=0.05)


# --- Hamiltonian Monte Carlo ----------------------------------------------------------------

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


# --- The production diagnostics -------------------------------------------------------------

def short_and_awkward_chains():
    """Short chains (4 to 20 draws) of three kinds: independent, random walks, antithetic."""
    for n_draw in [4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20]:
        for seed in (0, 2):
            rng = np.random.default_rng(100 * seed + n_draw)
            alternate = (-1.0) ** np.arange(n_draw)
            yield rng.standard_normal((2, n_draw))
            yield np.cumsum(rng.standard_normal((3, n_draw)), axis=1)
            yield rng.standard_normal((2, n_draw)) * alternate + 0.3 * alternate


def test_ess_and_mcse_match_arviz_on_short_and_antithetic_chains(az):
    # The edge rules of Geyer's initial sequence (how many pairs fit, the first pair left out,
    # its even lag) and of the quantile MCSE's index clipping only act on short series and on
    # negatively correlated ones; the lecture's long chains never reach them. Survivors: those
    # rules' bounds and comparisons. ArviZ is the reference the package follows.
    for x in short_and_awkward_chains():
        for mine, theirs in [
            (bc.ess_bulk(x), az.ess(x, method="bulk")),
            (bc.ess_tail(x), az.ess(x, method="tail")),
            (bc.ess_mean(x), az.ess(x, method="mean")),
            (bc.mcse_quantile(x, 0.05), az.mcse(x, method="quantile", prob=0.05)),
            (bc.mcse_quantile(x, 0.95), az.mcse(x, method="quantile", prob=0.95)),
        ]:
            np.testing.assert_allclose(mine, float(theirs), rtol=1e-8)


def test_a_constant_quantity_has_every_draw_effective():
    # ArviZ's convention: the ESS of a constant series is the number of draws. Survivor: the
    # constant case returning float(None).
    assert bc.ess_bulk(np.full((2, 10), 3.0)) == 20.0
    assert bc.ess_mean(np.full((4, 6), -1.0)) == 24.0


def test_failed_checks_names_divergences_only_when_there_are_some():
    # Survivor: "divergent is not None or any(divergent)", which fails every run that passes
    # its divergence flags, even all False.
    draws = np.random.default_rng(0).standard_normal((4, 500, 2))
    assert bc.failed_checks(draws, divergent=np.zeros((4, 500), dtype=bool)) == []
    assert bc.failed_checks(draws, divergent=np.eye(4, 500, dtype=bool)) == ["divergences"]


# --- The lecture's diagnostics --------------------------------------------------------------

def test_lecture_diagnostics_of_one_parameter_are_plain_floats():
    # (chain, draw) input gives one number, as documented. Survivors: the "single" flag dropped
    # from effective_sample_size, mcse and split_rhat, which then return a 1-element array.
    draws = np.random.default_rng(0).standard_normal((4, 100))
    for function in (bc.effective_sample_size, bc.mcse, bc.split_rhat):
        assert type(function(draws)) is float


def test_lecture_mcse_is_the_pooled_sd_over_the_root_ess():
    # The documented definition, with the sample standard deviation (ddof 1). Survivors: ddof
    # 0 and 2.
    draws = np.random.default_rng(1).standard_normal((2, 6, 2))
    variance = draws.reshape(-1, 2).var(axis=0, ddof=1)
    np.testing.assert_allclose(bc.mcse(draws) ** 2 * bc.effective_sample_size(draws), variance,
                               rtol=1e-12)


def test_split_rhat_of_constant_chains_is_silent():
    # Constant chains have no within-chain variance: R-hat is 0/0, NaN, without a NumPy warning.
    # Survivors: the divide and invalid warnings no longer silenced.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = [bc.split_rhat(np.full((2, 8), 1.0)), bc.split_rhat(np.array([[1.0] * 8,
                                                                              [2.0] * 8]))]
    assert not np.isfinite(values).any()


# --- Pareto smoothed importance sampling ----------------------------------------------------

def test_psis_matches_arviz_on_few_draws(az):
    # With fewer than about 225 draws the tail is n/5 draws long (not 3 sqrt(n / r_eff)), down to
    # the smallest allowed tail of 5 at n = 21; the lecture's cases all have more draws.
    # Survivors: n/6 for n/5, a tail of exactly 5 refused or left unsmoothed, the candidate
    # grid of the Pareto fit started at 2, and the final normalization's peak added twice.
    for n in [21, 22, 30, 57, 100]:
        for seed in range(3):
            log_weights = 1.5 * np.random.default_rng(seed + n).standard_t(3, n)
            mine = bc.pareto_smoothed_log_weights(log_weights)
            theirs, k_hat = az.psislw(log_weights.copy(), 1.0)
            np.testing.assert_allclose(mine.log_weights, theirs, atol=1e-12)
            assert mine.k_hat == pytest.approx(float(k_hat), abs=1e-12)
            assert np.exp(mine.log_weights).sum() == pytest.approx(1.0)


def test_generalized_pareto_quantile_at_k_zero_is_the_exponential_one():
    # At k = 0 the generalized Pareto is the exponential, with quantile -sigma log(1 - p), and
    # the formula is continuous there. Survivors: that branch's sign, its / for *, log1p(+p).
    probs = np.array([0.1, 0.5, 0.9])
    exponential = -2.0 * np.log(1 - probs)
    np.testing.assert_allclose(_generalized_pareto_quantile(probs, 0.0, 2.0), exponential)
    np.testing.assert_allclose(_generalized_pareto_quantile(probs, 1e-9, 2.0), exponential,
                               rtol=1e-7)


# --- The grid reference ---------------------------------------------------------------------

def test_grid_of_a_tilted_gaussian_gives_its_moments_correlation_and_marginals():
    # A Gaussian with correlation 0.6, well inside the bounds, on a grid with a different
    # resolution per axis, 1000 nats above zero. Survivors: the correlation cov * sd sd^T
    # (or dropped), exp(log p + max) (overflows), the resolution ignored by linspace, the
    # meshgrid's xy indexing (which swaps the axes), and the marginals dropped, summed over
    # everything or over the wrong axis.
    mean, cov = np.array([0.5, -1.0]), np.array([[1.0, 0.6 * 1.0 * 0.5], [0.3, 0.25]])
    log_density = gaussian_log_density(mean, cov)
    grid = bc.grid_posterior(lambda theta: 1000.0 + log_density(theta),
                             [[-6.0, 7.0], [-4.0, 2.0]], resolution=(301, 201))
    assert [axis.size for axis in grid.axes] == [301, 201]
    np.testing.assert_array_equal(grid.points[3, 5], [grid.axes[0][3], grid.axes[1][5]])
    np.testing.assert_allclose(grid.mean, mean, atol=1e-6)
    np.testing.assert_allclose(grid.cov, cov, atol=1e-4)
    np.testing.assert_allclose(grid.corr, [[1.0, 0.6], [0.6, 1.0]], atol=1e-4)
    for axis, marginal, centre, variance in zip(grid.axes, grid.marginals, mean, np.diag(cov)):
        assert marginal.shape == axis.shape and marginal.sum() == pytest.approx(1.0)
        assert marginal @ axis == pytest.approx(centre, abs=1e-6)
        assert marginal @ (axis - centre) ** 2 == pytest.approx(variance, abs=1e-4)


@pytest.mark.parametrize("bounds", [[[1.0, 1.0], [0.0, 1.0]], [[0.0, 1.0], [2.0, -2.0]]])
def test_grid_refuses_empty_or_reversed_bounds(bounds):
    # Survivors: the check dropped, low >= high turned into low > high, and its message.
    with pytest.raises(ValueError, match="bounds must be rows"):
        bc.grid_posterior(lambda theta: np.zeros(theta.shape[:-1]), bounds)
