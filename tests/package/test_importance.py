"""Many importance-sampling runs at once, each with its own Gaussian proposal."""
import numpy as np
import pytest

import bayescomp as bc

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
