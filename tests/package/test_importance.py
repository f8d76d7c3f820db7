"""Importance sampling (bayescomp.importance): many runs at once, each with its own Gaussian
proposal; the weights, the evidence estimate and the truncated weight moment."""
import numpy as np
import pytest

import bayescomp as bc
from bayescomp.importance import weighted_result

from .densities import normal_log_density

MEANS = np.array([[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
COVS = np.array([[[1.0, 0.3], [0.3, 0.5]], [[2.0, 0.0], [0.0, 0.2]], [[0.3, -0.1], [-0.1, 0.4]]])


def test_a_run_whose_proposal_is_the_target_has_zero_log_weights():
    # log p~ = log q exactly (the normalized Gaussian density of run 1's proposal), so every
    # log weight of run 1 is 0 to rounding, and the draws have the proposal's moments.
    normalized = bc.Target(lambda theta: bc.gaussian_log_density(theta, MEANS[1], COVS[1]), None,
                           None, 2)
    runs = bc.importance_runs(normalized, MEANS, COVS, 20_000, np.random.default_rng(0))
    assert runs.draws.shape == (3, 20_000, 2) and runs.log_weights.shape == (3, 20_000)
    np.testing.assert_allclose(runs.log_weights[1], 0.0, atol=1e-10)
    assert np.abs(runs.log_weights[0]).max() > 1
    for r in range(3):
        np.testing.assert_allclose(runs.draws[r].mean(axis=0), MEANS[r], atol=0.03)
        np.testing.assert_allclose(np.cov(runs.draws[r].T), COVS[r], atol=0.05)


def test_each_proposal_is_checked_by_its_index():
    bad = COVS.copy()
    bad[2] = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.raises(ValueError, match=r"proposal_covs\[2\] must be positive definite"):
        bc.importance_runs(bc.gaussian_target(MEANS[0], COVS[0]), MEANS, bad, 10,
                           np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"proposal_covs must have shape \(3, 2, 2\)"):
        bc.importance_runs(bc.gaussian_target(MEANS[0], COVS[0]), MEANS, COVS[:2], 10,
                           np.random.default_rng(0))


def test_weighted_estimates_of_many_runs_are_each_runs_own():
    rng = np.random.default_rng(2)
    log_weights, values = rng.normal(size=(3, 50)), rng.normal(size=(3, 50, 2))
    weights = bc.normalized_weights(log_weights)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    estimates, mcse = bc.weighted_estimates(values, weights)
    for r in range(3):
        one = bc.importance.weighted_result(values[r], log_weights[r])
        np.testing.assert_allclose(estimates[r], one.mean, rtol=1e-12)
        np.testing.assert_allclose(mcse[r], bc.importance_mcse(one), rtol=1e-12)


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

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
    computed = bc.weight_second_moment_within(normal_log_density(mean, target_cov), 0.0, mean,
                                              proposal_cov, [10.0], steps_per_unit=100)
    np.testing.assert_allclose(computed, [exact], rtol=1e-4)


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
    log_p = normal_log_density(target_mean, target_cov)
    log_q = normal_log_density(proposal_mean, proposal_cov)
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
