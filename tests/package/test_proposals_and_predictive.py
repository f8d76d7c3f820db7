"""Proposals beyond the Gaussian, the importance-sampling MCSE, iterate averaging in VI, and
the predictive band and probit formula: known answers, calibration and bad input."""
import numpy as np
import pytest

import bayescomp as bc

RNG = np.random.default_rng


def integrate_1d(log_density, low=-400.0, high=400.0, n=800_001):
    x = np.linspace(low, high, n)[:, None]
    return np.exp(log_density(x)).sum() * (x[1, 0] - x[0, 0])


def test_gaussian_proposal_reproduces_importance_sample(lecture):
    mean, cov = lecture.laplace.mean, lecture.laplace.cov
    direct = bc.importance_sample(lecture.target, mean, cov, 5000, RNG(3))
    general = bc.importance_sample_from(lecture.target,
                                        bc.gaussian_proposal(mean, cov), 5000, RNG(3))
    np.testing.assert_array_equal(direct.draws, general.draws)
    assert direct.ess == general.ess


@pytest.mark.parametrize("make", [
    lambda: bc.student_t_proposal([0.5], [[2.0]], 3.0),
    lambda: bc.defensive_mixture(bc.gaussian_proposal([1.0], [[0.1]]),
                                 bc.gaussian_proposal([0.0], [[4.0]]), 0.2)])
def test_proposal_densities_are_normalized(make):
    assert integrate_1d(make().log_density) == pytest.approx(1.0, abs=1e-5)


def test_student_t_draws_have_the_known_covariance():
    cov = np.array([[1.0, 0.3], [0.3, 0.5]])
    draws = bc.student_t_proposal([1.0, -1.0], cov, 6.0).sample(400_000, RNG(0))
    np.testing.assert_allclose(draws.mean(axis=0), [1.0, -1.0], atol=0.01)
    np.testing.assert_allclose(np.cov(draws.T), cov * 6 / 4, rtol=0.03)


def test_defensive_mixture_bounds_the_weights_of_a_narrow_proposal():
    # Target N(0, 1); a narrow main proposal alone gives unbounded weights in the tails.
    target = bc.gaussian_target([0.0], [[1.0]])
    narrow = bc.gaussian_proposal([0.0], [[0.2]])
    safe = bc.defensive_mixture(narrow, bc.gaussian_proposal([0.0], [[4.0]]), 0.1)
    far = np.array([[4.0], [6.0]])
    assert np.all(np.diff(target.log_density(far) - narrow.log_density(far)) > 0)
    assert np.all(target.log_density(far) - safe.log_density(far) < np.log(2 / 0.1 * 1.0) + 1)


def test_importance_mcse_matches_the_spread_over_repeats():
    target = bc.gaussian_target([0.3, -0.2], [[1.0, 0.4], [0.4, 0.8]])
    proposal = bc.student_t_proposal([0.0, 0.0], 1.5 * np.eye(2), 5.0)
    runs = [bc.importance_sample_from(target, proposal, 2000, RNG(seed))
            for seed in range(300)]
    spread = np.std([r.mean for r in runs], axis=0, ddof=1)
    claimed = np.mean([bc.importance_mcse(r) for r in runs], axis=0)
    np.testing.assert_allclose(claimed, spread, rtol=0.15)


def test_averaged_mean_field_vi_is_closer_to_the_optimum_than_the_last_iterate():
    # For a diagonal Gaussian target the mean-field optimum is the target itself.
    target = bc.gaussian_target([1.0, -2.0], np.diag([0.5, 2.0]))
    errors = {0: [], 1000: []}
    for seed in range(5):
        for n_average in errors:
            fit = bc.mean_field_vi(target, [0.0, 0.0], [0.0, 0.0], 2000, RNG(seed), n_samples=32,
                                   n_average=n_average)
            errors[n_average].append(np.abs(fit.mean - [1.0, -2.0]).max())
    assert np.mean(errors[1000]) < 0.5 * np.mean(errors[0])
    assert np.mean(errors[1000]) < 0.02


def test_probit_formula_is_close_to_the_monte_carlo_average(lecture):
    x_new = np.array([-2.0, 0.0, 2.0, 5.0])
    mean, cov = lecture.laplace.mean, lecture.laplace.cov
    formula = bc.probit_predictive(x_new, mean, cov)
    sampled = bc.gaussian_predictive(x_new, mean, cov, 400_000, RNG(0))
    np.testing.assert_allclose(formula, sampled, atol=0.004)
    # With no spread the formula is the plug-in prediction exactly.
    np.testing.assert_allclose(bc.probit_predictive(x_new, mean, 1e-12 * np.eye(2)),
                               bc.posterior_predictive(x_new, mean), rtol=1e-9)


def test_predictive_band_with_equal_weights_matches_numpy_quantiles():
    draws = RNG(1).normal([0.0, 1.0], 0.3, size=(20_001, 2))
    weights = np.full(len(draws), 1 / len(draws))
    band = bc.predictive_band([-1.0, 2.0], draws, weights, level=0.8)
    curves = bc.sigmoid(draws @ bc.design_matrix(np.array([-1.0, 2.0])).T)
    np.testing.assert_allclose(band.lower, np.quantile(curves, 0.1, axis=0), rtol=1e-3)
    np.testing.assert_allclose(band.median, np.median(curves, axis=0), rtol=1e-3)
    np.testing.assert_allclose(band.upper, np.quantile(curves, 0.9, axis=0), rtol=1e-3)


@pytest.mark.parametrize("call, message", [
    (lambda: bc.student_t_proposal([0.0], [[1.0]], 0.0), r"df must be a finite number > 0"),
    (lambda: bc.student_t_proposal([0.0], [[-1.0]], 3.0), r"cov must be .*positive definite"),
    (lambda: bc.defensive_mixture(None, None, 1.5), r"fallback_weight must be a number in \(0, 1\)"),
    (lambda: bc.defensive_mixture(None, None, "a fifth"), r"fallback_weight must be a number in \(0, 1\)"),
    (lambda: bc.importance_sample_from(None, None, 0, RNG(0)), r"n_draws must be"),
    (lambda: bc.predictive_band([0.0], np.zeros((3, 2)), np.ones(3) / 3, level=1.0),
     r"level must be a number in \(0, 1\)"),
    (lambda: bc.predictive_band([0.0], np.zeros((3, 2)), np.ones(3) / 3, level=float("nan")),
     r"level must be a number in \(0, 1\); got nan"),
    (lambda: bc.predictive_band([0.0], np.zeros((3, 2)), np.ones(2) / 2),
     r"weights must have one entry per draw \(3\)"),
    (lambda: bc.probit_predictive([0.0], [0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]]),
     r"cov must be .*positive definite"),
    (lambda: bc.mean_field_vi(bc.Target(lambda t: 0, lambda t: 0, None, 1), [0.0], [0.0], 10,
                              RNG(0), n_average=11),
     r"n_average must be an integer in \[0, n_steps\]"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_mean_field_path_records_every_iterate_and_ends_at_the_unaveraged_fit():
    target = bc.gaussian_target([1.0, -2.0], np.diag([0.5, 2.0]))
    plain = bc.mean_field_vi(target, [0.0, 0.0], [0.0, 0.0], 200, RNG(0), n_samples=16)
    averaged = bc.mean_field_vi(target, [0.0, 0.0],
                                [0.0, 0.0], 200, RNG(0), n_samples=16, n_average=100)
    assert plain.mean_path.shape == plain.sd_path.shape == (200, 2)
    np.testing.assert_array_equal(plain.mean_path[-1], plain.mean)
    np.testing.assert_array_equal(averaged.mean_path[-1], plain.mean)
    np.testing.assert_allclose(averaged.mean, plain.mean_path[-100:].mean(axis=0), rtol=1e-12)


def test_importance_mcse_of_a_function_matches_the_spread_over_repeats():
    target = bc.gaussian_target([0.3, -0.2], [[1.0, 0.4], [0.4, 0.8]])
    proposal = bc.student_t_proposal([0.0, 0.0], 1.5 * np.eye(2), 5.0)

    def tail_probability(theta):
        return bc.sigmoid(2.0 * theta[:, 0] - theta[:, 1])

    runs = [bc.importance_sample_from(target, proposal, 2000, RNG(seed))
            for seed in range(300)]
    spread = np.std([r.expectation(tail_probability) for r in runs], ddof=1)
    claimed = np.mean([bc.importance_mcse(r, tail_probability) for r in runs])
    assert claimed == pytest.approx(spread, rel=0.15)
    # The identity function gives the MCSE of the mean.
    np.testing.assert_allclose(bc.importance_mcse(runs[0], lambda t: t), bc.importance_mcse(runs[0]))
