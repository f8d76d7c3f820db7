"""Checks against answers known in closed form."""
import numpy as np
import pytest

from bayescomp import (effective_sample_size, gaussian_mixture_target, grid_posterior,
                       isotropic_mixture_target, laplace_approximation, mixture_moments, sigmoid,
                       split_rhat, weight_ess)
from bayescomp.book import lecture_problem


def finite_difference_gradient(f, theta, h=1e-6):
    steps = h * np.eye(theta.size)
    return np.array([(f(theta + e) - f(theta - e)) / (2 * h) for e in steps])


@pytest.mark.parametrize("theta", [[0.0, 0.0], [-0.3, 1.4], [1.2, -2.0]])
def test_gradient_matches_finite_differences(theta):
    _, target = lecture_problem()
    theta = np.array(theta)
    np.testing.assert_allclose(target.grad_log_density(theta),
                               finite_difference_gradient(target.log_density, theta),
                               rtol=1e-6, atol=1e-6)


def test_neg_hessian_matches_finite_differences_of_gradient():
    _, target = lecture_problem()
    theta = np.array([-0.3, 1.4])
    numeric = -finite_difference_gradient(target.grad_log_density, theta)
    np.testing.assert_allclose(target.neg_hessian(theta), numeric, rtol=1e-5)


def test_log_density_broadcasts_over_leading_axes():
    _, target = lecture_problem()
    batch = np.random.default_rng(0).normal(size=(3, 5, 2))
    one_by_one = np.array([[target.log_density(t) for t in row] for row in batch])
    np.testing.assert_allclose(target.log_density(batch), one_by_one)
    assert target.grad_log_density(batch).shape == (3, 5, 2)


@pytest.mark.parametrize("n_obs, shape", [(80, (2 * 26_214 + 123,)), (1280, (130, 130))])
def test_many_points_are_evaluated_in_blocks_with_the_same_values(n_obs, shape):
    """More points than a block holds (bayescomp.problem.ELEMENTS_PER_BLOCK numbers): the same
    values, point for point, as a hundred at a time, the last partial block included, in the
    points' own shape (draws, or a grid)."""
    from bayescomp.problem import ELEMENTS_PER_BLOCK
    from bayescomp.book.lecture import LectureSettings

    _, target = lecture_problem(LectureSettings()._replace(n_obs=n_obs))
    points = np.random.default_rng(1).normal(size=(*shape, 2))
    assert points.size // 2 > ELEMENTS_PER_BLOCK // n_obs, "the case must span several blocks"
    flat = points.reshape(-1, 2)
    pieces = np.concatenate([target.log_density(flat[i:i + 100]) for i in range(0, len(flat), 100)])
    together = target.log_density(points)
    assert together.shape == shape
    np.testing.assert_array_equal(together.ravel(), pieces)


def test_gradient_is_zero_at_map(lecture):
    assert np.linalg.norm(lecture.target.grad_log_density(lecture.laplace.mean)) < 1e-10


def test_sigmoid_is_stable_at_extremes():
    np.testing.assert_allclose(sigmoid([-800.0, 0.0, 800.0]), [0.0, 0.5, 1.0])


@pytest.mark.parametrize("target, points", [
    (gaussian_mixture_target([0.3, 0.7], [-2.0, 1.5], [0.5, 1.0]), ([-1.0], [0.2], [2.5])),
    (isotropic_mixture_target([0.3, 0.7], [[-1.0, 0.5], [1.0, -0.2]], [0.8, 1.3]),
     ([0.2, -0.4], [-1.5, 1.0])),
], ids=["1-D", "isotropic 2-D"])
def test_mixture_gradient_and_hessian_match_finite_differences(target, points):
    for theta in map(np.array, points):
        np.testing.assert_allclose(target.grad_log_density(theta),
                                   finite_difference_gradient(target.log_density, theta),
                                   rtol=1e-6)
        hessian = [finite_difference_gradient(lambda t, i=i: target.grad_log_density(t)[i], theta)
                   for i in range(theta.size)]
        np.testing.assert_allclose(target.neg_hessian(theta), -np.array(hessian),
                                   rtol=1e-5, atol=1e-8)


def test_mixture_moments_match_quadrature():
    weights, means, sds = [0.3, 0.7], [-2.0, 1.5], [0.5, 1.0]
    theta = np.linspace(-12, 12, 20001)[:, None]
    density = np.exp(gaussian_mixture_target(weights, means, sds).log_density(theta))
    step = theta[1, 0] - theta[0, 0]
    mean = np.sum(theta[:, 0] * density) * step
    var = np.sum((theta[:, 0] - mean) ** 2 * density) * step
    np.testing.assert_allclose(mixture_moments(weights, means, sds), (mean, var), rtol=1e-8)


def test_isotropic_mixture_is_normalized_with_its_moments():
    weights, means, sds = [0.3, 0.7], [[-1.0, 0.5], [1.0, -0.2]], [0.8, 1.3]
    grid = grid_posterior(isotropic_mixture_target(weights, means, sds).log_density,
                          [(-9, 9), (-9, 9)], 361)
    cell = np.prod([a[1] - a[0] for a in grid.axes])
    assert np.exp(grid.log_density).sum() * cell == pytest.approx(1, abs=1e-8)
    mean, cov = mixture_moments(weights, means, sds)
    np.testing.assert_allclose(grid.mean, mean, atol=1e-8)
    np.testing.assert_allclose(grid.cov, cov, rtol=1e-8)


def test_rhat_near_one_for_iid_chains():
    draws = np.random.default_rng(1).normal(size=(4, 2000, 2))
    assert np.all(np.abs(split_rhat(draws) - 1) < 0.01)


def test_rhat_flags_shifted_chains():
    draws = np.random.default_rng(2).normal(size=(4, 2000, 1))
    draws[2:] += 1.5
    assert split_rhat(draws)[0] > 1.1


def test_ess_near_n_for_iid_draws():
    draws = np.random.default_rng(3).normal(size=(4, 5000, 2))
    np.testing.assert_allclose(effective_sample_size(draws), 20000, rtol=0.1)


@pytest.mark.parametrize("phi", [0.5, 0.9])
def test_ess_of_ar1_chains(phi):
    rng = np.random.default_rng(4)
    n_chain, n_draw = 4, 50_000
    noise = rng.normal(size=(n_chain, n_draw)) * np.sqrt(1 - phi**2)
    series = np.empty((n_chain, n_draw))
    series[:, 0] = rng.normal(size=n_chain)
    for t in range(1, n_draw):
        series[:, t] = phi * series[:, t - 1] + noise[:, t]
    expected = n_chain * n_draw * (1 - phi) / (1 + phi)
    np.testing.assert_allclose(effective_sample_size(series[..., None])[0], expected, rtol=0.15)


def test_weight_ess_extremes():
    assert weight_ess(np.full(50, 1 / 50)) == pytest.approx(50)
    one_heavy = np.zeros(50)
    one_heavy[7] = 1.0
    assert weight_ess(one_heavy) == pytest.approx(1)


def test_laplace_is_exact_for_a_gaussian_target():
    from bayescomp import gaussian_target
    mean, cov = np.array([1.0, -2.0]), np.array([[2.0, 0.6], [0.6, 0.5]])
    target = gaussian_target(mean, cov)
    fit = laplace_approximation(target, np.zeros(2), 1)
    np.testing.assert_allclose(fit.mean, mean)
    np.testing.assert_allclose(fit.cov, cov)


def test_gaussian_predictive_of_a_point_mass_is_the_plug_in():
    from bayescomp import gaussian_predictive, posterior_predictive
    mean = np.array([-0.3, 1.4])
    tiny = 1e-14 * np.eye(2)
    np.testing.assert_allclose(gaussian_predictive([-2.0, 0.0, 2.0], mean, tiny, 10,
                                                   np.random.default_rng(0)),
                               posterior_predictive([-2.0, 0.0, 2.0], mean), rtol=1e-6)


def test_gaussian_predictive_matches_grid_quadrature():
    # Against a dense grid average over the same Gaussian: agreement within Monte Carlo error.
    from bayescomp import gaussian_predictive, gaussian_target, grid_posterior, posterior_predictive
    mean, cov = np.array([-0.3, 1.4]), np.array([[0.1, -0.02], [-0.02, 0.08]])
    grid = grid_posterior(gaussian_target(mean, cov).log_density, [(-2.5, 1.9), (-0.6, 3.4)], 201)
    exact = posterior_predictive([-2.0, 2.0], grid.points, grid.weights)
    estimate = gaussian_predictive([-2.0, 2.0], mean, cov, 200_000, np.random.default_rng(1))
    np.testing.assert_allclose(estimate, exact, atol=1e-3)
