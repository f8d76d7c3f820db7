"""The ELBO gradient estimators, the evidence estimate, the truncated weight moment and the
sample-size-dependent k-hat threshold, each against an answer known in closed form."""
import numpy as np
import pytest

import bayescomp as bc

RNG = np.random.default_rng
MU = np.array([1.0, -0.5])
COV = np.array([[2.0, -0.9], [-0.9, 0.75]])


@pytest.fixture(scope="module")
def gaussian():
    return bc.gaussian_target(MU, COV)


def exact_elbo_gradient(mean, sd):
    # For p = N(mu, Lambda^-1): dL/dm = -Lambda (m - mu), dL/dlog s_i = 1 - Lambda_ii s_i^2.
    precision = np.linalg.inv(COV)
    return -precision @ (mean - MU), 1 - np.diag(precision) * sd**2


def repeated(estimator, mean, sd, repeats=400, n=64):
    rng = RNG(1)
    return np.array([np.concatenate(estimator(mean, sd, rng.standard_normal((n, 2))))
                     for _ in range(repeats)])


@pytest.mark.parametrize("kind", ["reparameterization", "leave-one-out", "none"])
def test_estimators_are_unbiased(gaussian, kind):
    mean, sd = np.array([0.3, 0.2]), np.array([0.8, 1.1])
    if kind == "reparameterization":
        def estimator(m, s, noise):
            return bc.reparameterization_gradient(gaussian.grad_log_density, m, s, noise)
    else:
        def estimator(m, s, noise):
            return bc.score_function_gradient(gaussian.log_density, m, s, noise, baseline=kind)
    values = repeated(estimator, mean, sd)
    exact = np.concatenate(exact_elbo_gradient(mean, sd))
    standard_error = values.std(axis=0, ddof=1) / np.sqrt(len(values))
    assert np.all(np.abs(values.mean(axis=0) - exact) < 4 * standard_error)


def test_batch_mean_baseline_is_shrunk_by_one_over_n(gaussian):
    # The batch-mean baseline gives exactly (n - 1)/n times the leave-one-out estimate.
    mean, sd, noise = np.array([0.3, 0.2]), np.array([0.8, 1.1]), RNG(2).standard_normal((10, 2))
    theta = mean + sd * noise
    f = gaussian.log_density(theta) - bc.gaussian_log_density(theta, mean, np.diag(sd**2))
    batch = ((f - f.mean())[:, None] * noise / sd).mean(axis=0)
    loo = bc.score_function_gradient(gaussian.log_density, mean, sd, noise).mean
    np.testing.assert_allclose(batch, 9 / 10 * loo, rtol=1e-12)


def test_leave_one_out_estimate_vanishes_when_q_is_the_target():
    # log p~ - log q is then the same constant for every draw: no variance at all.
    target = bc.gaussian_target(MU, np.diag([2.0, 0.75]))
    noise = RNG(3).standard_normal((50, 2))
    estimate = bc.score_function_gradient(target.log_density, MU, np.sqrt([2.0, 0.75]), noise)
    np.testing.assert_allclose(np.concatenate(estimate), 0.0, atol=1e-12)


def test_score_function_variance_shrinks_near_the_optimum_and_grows_away(gaussian):
    # An unnormalized target, log Z = -30 as for the book's posterior: without a baseline the
    # constant sits inside every f_i.
    def log_density(theta):
        return gaussian.log_density(theta) - 30.0

    precision = np.linalg.inv(COV)
    optimum_sd = 1 / np.sqrt(np.diag(precision))
    spread = {}
    for name, mean in (("optimum", MU), ("away", MU + 2 * optimum_sd)):
        values = {kind: repeated(lambda m, s, e, k=kind: bc.score_function_gradient(
                      log_density, m, s, e, baseline=k), mean, optimum_sd)[:, :2]
                  for kind in ("leave-one-out", "none")}
        spread[name] = {kind: v.std(axis=0).mean() for kind, v in values.items()}
    assert spread["optimum"]["leave-one-out"] < spread["away"]["leave-one-out"]
    assert spread["optimum"]["leave-one-out"] < 0.2 * spread["optimum"]["none"]


def test_mean_field_vi_uses_the_public_reparameterization_gradient(gaussian):
    # One Adam step from a fixed start equals the step computed from the public estimator.
    fit = bc.mean_field_vi(gaussian, [0.0, 0.0], [0.0, 0.0],
                           1, RNG(4), n_samples=32, lr=0.1, track_elbo=False)
    noise = RNG(4).standard_normal((32, 2))
    gradient = bc.reparameterization_gradient(gaussian.grad_log_density, np.zeros(2), np.ones(2),
                                              noise)
    # Adam's first bias-corrected step moves each coordinate by lr in the gradient's sign.
    np.testing.assert_allclose(fit.mean, 0.1 * np.sign(gradient.mean), rtol=1e-6)
    np.testing.assert_allclose(np.log(fit.sd), 0.1 * np.sign(gradient.log_sd), rtol=1e-6)


@pytest.mark.parametrize("call, message", [
    (lambda t: bc.score_function_gradient(t.log_density, [0, 0], [1, 0], np.zeros((4, 2))),
     "sd must be positive"),
    (lambda t: bc.score_function_gradient(t.log_density, [0, 0], [1, 1], np.zeros((4, 3))),
     r"noise must have shape \('any', 2\)"),
    (lambda t: bc.score_function_gradient(t.log_density, [0, 0], [1, 1], np.zeros((1, 2))),
     "noise must hold at least 2 draws"),
    (lambda t: bc.score_function_gradient(t.log_density, [0, 0], [1, 1], np.zeros((4, 2)),
                                          baseline="batch"), "baseline must be 'leave-one-out'"),
    (lambda t: bc.reparameterization_gradient(t.grad_log_density, [0, 0], [1, 1, 1],
                                              np.zeros((4, 2))), r"sd must have shape \(2,\)"),
    (lambda t: bc.weight_second_moment_within(t.log_density, 0.0, [0, 0], np.eye(2), [2, 1]),
     "radii must be positive and increasing"),
    (lambda t: bc.weight_second_moment_within(t.log_density, np.nan, [0, 0], np.eye(2), [1, 2]),
     "log_normalizer must contain only finite values"),
    (lambda t: bc.weight_second_moment_within(t.log_density, 0.0, [0, 0, 0], np.eye(2), [1]),
     r"mean must have shape \(2,\)"),
    (lambda t: bc.k_hat_threshold(1), "n_draws must be an integer >= 2"),
])
def test_bad_input_names_the_argument(gaussian, call, message):
    with pytest.raises(ValueError, match=message):
        call(gaussian)


def standard_normal_log_density(theta):
    # exp(-|theta|^2 / 2): the 2-D standard normal times Z = 2 pi.
    return -0.5 * np.sum(np.asarray(theta) ** 2, axis=-1)


def test_log_normalizer_estimate_is_calibrated():
    z_scores = []
    for seed in range(200):
        result = bc.importance_sample(bc.Target(standard_normal_log_density, None, None, 2),
                                      [0.3, 0.0], 1.5**2 * np.eye(2), 500, RNG(seed))
        estimate = bc.log_normalizer_estimate(result)
        z_scores.append((estimate.estimate - np.log(2 * np.pi)) / estimate.standard_error)
    assert abs(np.mean(z_scores)) < 0.3 and 0.8 < np.std(z_scores) < 1.2


@pytest.mark.parametrize("proposal_sd", [1.2, 0.6])
def test_truncated_second_moment_matches_the_gaussian_formula(proposal_sd):
    # p = N(0, I), q = N(0, s^2 I): the integral of p^2/q over the disc of radius R s is
    # s^2 / (2 a) * (1 - exp(-a R^2 s^2)) with a = 1 - 1/(2 s^2); a < 0 means it diverges.
    radii = np.array([1.0, 2.0, 4.0])
    a = 1 - 1 / (2 * proposal_sd**2)
    exact = proposal_sd**2 / (2 * a) * (1 - np.exp(-a * radii**2 * proposal_sd**2))
    computed = bc.weight_second_moment_within(standard_normal_log_density, np.log(2 * np.pi),
                                              [0.0, 0.0], proposal_sd**2 * np.eye(2), radii,
                                              steps_per_unit=200)
    np.testing.assert_allclose(computed, exact, rtol=1e-3)


def test_k_hat_threshold_is_stricter_for_small_samples():
    assert bc.k_hat_threshold(1000) == pytest.approx(2 / 3)
    assert bc.k_hat_threshold(100) == pytest.approx(0.5)
    assert bc.k_hat_threshold(2155) == bc.k_hat_threshold(10**6) == 0.7
