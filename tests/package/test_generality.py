"""The package on settings other than the lecture's, checked against independent answers."""
import numpy as np
import pytest

from bayescomp import (effective_sample_size, full_rank_vi, gaussian_target, grid_posterior,
                       importance_sample, laplace_approximation, mean_field_vi, run_metropolis_chains)
from bayescomp.book import LectureSettings, lecture_problem, run_lecture


def within_monte_carlo_error(estimate, truth, standard_error, z=4.0):
    np.testing.assert_array_less(np.abs(np.asarray(estimate) - truth), z * standard_error)


def test_grid_agrees_with_large_importance_sample_on_other_settings():
    # Another data seed, a tight prior and another grid: two independent routes must agree.
    settings = LectureSettings(data_seed=5, n_obs=40, prior_var=0.25)
    _, target = lecture_problem(settings)
    grid = grid_posterior(target.log_density, [(-2.0, 1.5), (-1.0, 2.5)], 301)
    laplace = laplace_approximation(target, np.zeros(2))
    sample = importance_sample(target, laplace.mean, 2.0 * laplace.cov, 400_000,
                               np.random.default_rng(7))
    within_monte_carlo_error(sample.mean, grid.mean, grid.sd / np.sqrt(sample.ess))
    np.testing.assert_allclose(np.sqrt(np.diag(np.cov(sample.draws.T, aweights=sample.weights))),
                               grid.sd, rtol=0.01)


def test_grid_is_converged_in_resolution():
    _, target = lecture_problem(LectureSettings(prior_var=100.0, data_seed=3))
    coarse = grid_posterior(target.log_density, [(-3, 2), (-0.5, 3.5)], 181)
    fine = grid_posterior(target.log_density, [(-3.5, 2.5), (-1, 4)], 361)
    np.testing.assert_allclose(coarse.mean, fine.mean, atol=1e-4)
    np.testing.assert_allclose(coarse.cov, fine.cov, atol=1e-4)


def test_laplace_matches_grid_when_data_are_plentiful():
    # With n = 80 the MAP sits 0.26 posterior sd from the mean; with n = 3000 the skew fades.
    _, target = lecture_problem(LectureSettings(n_obs=3000, data_seed=1))
    laplace = laplace_approximation(target, np.zeros(2))
    box = np.column_stack([laplace.mean - 7 * laplace.sd, laplace.mean + 7 * laplace.sd])
    grid = grid_posterior(target.log_density, box, 151)
    np.testing.assert_array_less(np.abs(laplace.mean - grid.mean), 0.06 * grid.sd)
    np.testing.assert_allclose(laplace.cov, grid.cov, rtol=0.01)


MEAN = np.array([1.0, -2.0])
COV = np.array([[1.0, 0.6], [0.6, 0.5]])


@pytest.fixture(scope="module")
def gaussian():
    return gaussian_target(MEAN, COV)


def test_grid_recovers_gaussian(gaussian):
    sd = np.sqrt(np.diag(COV))
    grid = grid_posterior(gaussian.log_density, np.column_stack([MEAN - 7 * sd, MEAN + 7 * sd]),
                          201)
    np.testing.assert_allclose(grid.mean, MEAN, atol=1e-8)
    np.testing.assert_allclose(grid.cov, COV, rtol=1e-6)


def test_importance_sampling_recovers_gaussian(gaussian):
    sample = importance_sample(gaussian, [0.0, 0.0], 4 * np.eye(2), 50_000,
                               np.random.default_rng(11))
    within_monte_carlo_error(sample.mean, MEAN, np.sqrt(np.diag(COV) / sample.ess))


def test_metropolis_recovers_gaussian(gaussian):
    chains = run_metropolis_chains(gaussian, [[0, 0], [3, 0], [0, -4], [2, -1]],
                        1.5 * np.linalg.cholesky(COV), 6000,
                        [np.random.default_rng(s) for s in range(4)], 1000)
    pooled = chains.draws.reshape(-1, 2)
    within_monte_carlo_error(pooled.mean(axis=0), MEAN,
                             np.sqrt(np.diag(COV) / effective_sample_size(chains.draws)))
    np.testing.assert_allclose(np.cov(pooled.T), COV, rtol=0.1, atol=0.03)


def test_mean_field_vi_recovers_known_optimum(gaussian):
    # For a Gaussian target the reverse-KL mean-field optimum is known in closed form:
    # the mean is exact and each sd is 1 / sqrt(precision_ii), smaller than the marginal sd.
    fit = mean_field_vi(gaussian, [0.0, 0.0], [0.0, 0.0], 1500, np.random.default_rng(5))
    np.testing.assert_allclose(fit.mean, MEAN, atol=0.02)
    np.testing.assert_allclose(fit.sd, 1 / np.sqrt(np.diag(np.linalg.inv(COV))), rtol=0.03)


def test_full_rank_vi_recovers_gaussian(gaussian):
    fit = full_rank_vi(gaussian, [0.0, 0.0], np.eye(2), 2000, np.random.default_rng(6))
    np.testing.assert_allclose(fit.mean, MEAN, atol=0.02)
    np.testing.assert_allclose(fit.cov, COV, rtol=0.05, atol=0.02)


# A start far from the optimum: mean (1.5, 0.3), sds 0.1, where the ELBO is about 36 nats below
# the optimum's. Starting at the Laplace fit instead, the ELBO has almost nothing left to gain.
FAR_MEAN, FAR_LOG_SD = (1.5, 0.3), np.log([0.1, 0.1])


def final_elbo(target, init_mean, init_log_sd, lr):
    """Mean of the last 100 ELBO estimates of 600 Adam steps (standard error about 0.01)."""
    fit = mean_field_vi(target, init_mean, init_log_sd, 600, np.random.default_rng(31), lr=lr)
    return fit.elbo[-100:].mean()


def test_elbo_rises_from_a_far_start_to_the_optimum(lecture):
    target, laplace = lecture.target, lecture.laplace
    optimum = final_elbo(target, laplace.mean, np.log(laplace.sd), 0.03)
    unmoved = final_elbo(target, FAR_MEAN, FAR_LOG_SD, 1e-12)   # an optimizer that cannot move
    assert optimum - unmoved > 30, "the start must be far below the optimum"
    assert final_elbo(target, FAR_MEAN, FAR_LOG_SD, 0.03) > optimum - 0.05
    assert lecture.vi.elbo is None  # run_lecture follows the protocol, which has no ELBO trace


def test_run_lecture_subset_matches_full_run(lecture):
    # Leaving the slow samplers out must not change what is computed.
    quick = run_lecture(methods=("importance",))
    assert quick.chains is None and quick.vi is None
    np.testing.assert_array_equal(quick.is_prior.weights, lecture.is_prior.weights)
    np.testing.assert_array_equal(quick.grid.weights, lecture.grid.weights)


def test_iterate_averaging_steadies_full_rank_vi(gaussian):
    # Averaging the last iterates removes most of the step-to-step noise of the last one.
    fits = [full_rank_vi(gaussian, [0.0, 0.0], np.eye(2),
                         1500, np.random.default_rng(seed), n_average=750) for seed in range(3)]
    for fit in fits:
        np.testing.assert_allclose(fit.mean, MEAN, atol=0.01)
        np.testing.assert_allclose(fit.cov, COV, rtol=0.03, atol=0.01)
