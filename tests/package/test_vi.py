"""Variational inference (bayescomp.vi). Several fits at once: one fit in a batch is the single
fit, each fit of a batch finds the same optimum, and a batch's shapes are the single fit's with
the fit in front; then the ELBO, the fits' edge cases and the gradient estimators."""
import numpy as np
import pytest

import bayescomp as bc

from .densities import FLAT, flat_gradient, normal_log_density

RNG = np.random.default_rng
MEAN = np.array([1.0, -0.5])
COV = np.array([[2.0, -0.9], [-0.9, 0.75]])


@pytest.fixture(scope="module")
def gaussian():
    return bc.gaussian_target(MEAN, COV)


def fit(kind, target, init_mean, rng, **settings):
    if kind == "mean-field":
        return bc.mean_field_vi(target, init_mean,
                                np.zeros_like(init_mean), 600, rng, n_samples=32, lr=0.05,
                                n_average=300, **settings)
    return bc.full_rank_vi(target, init_mean, np.eye(2), 600,
                           rng, n_samples=32, lr=0.05, n_average=300, **settings)


@pytest.mark.parametrize("kind", ["mean-field", "full-rank"])
def test_a_batch_of_one_is_the_single_fit(gaussian, kind):
    single, batch = fit(kind, gaussian, np.zeros(2), RNG(3)), fit(kind, gaussian, np.zeros((1, 2)), RNG(3))
    for got, want in zip(batch, single):
        if got is not None:
            np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("kind", ["mean-field", "full-rank"])
def test_every_fit_of_a_batch_finds_the_optimum(gaussian, kind):
    batch = fit(kind, gaussian, np.zeros((5, 2)), RNG(4))
    assert batch.mean.shape == (5, 2) and batch.elbo.shape == (5, 600)
    np.testing.assert_allclose(batch.mean, np.tile(MEAN, (5, 1)), atol=0.05)
    # The fits differ: each has its own share of the noise.
    assert len({tuple(row) for row in batch.mean}) == 5
    if kind == "mean-field":
        # The mean-field optimum's sds are 1 / sqrt(diag(precision)).
        np.testing.assert_allclose(batch.sd, np.tile(1 / np.sqrt(np.diag(np.linalg.inv(COV))), (5, 1)),
                                   rtol=0.05)
        assert batch.mean_path.shape == (5, 600, 2)
    else:
        np.testing.assert_allclose(batch.cov, np.tile(COV, (5, 1, 1)), rtol=0.1, atol=0.05)


def test_a_start_of_more_than_two_axes_is_refused(gaussian):
    with pytest.raises(ValueError, match=r"init_mean must have shape \(d,\) for one fit or \(fit, d\)"):
        fit("mean-field", gaussian, np.zeros((2, 2, 2)), RNG(0))


def test_one_generator_per_fit_gives_each_fit_its_single_run(gaussian):
    batch = fit("mean-field", gaussian, np.zeros((3, 2)), [RNG(s) for s in (7, 8, 9)])
    for k, seed in enumerate((7, 8, 9)):
        single = fit("mean-field", gaussian, np.zeros(2), RNG(seed))
        np.testing.assert_allclose(batch.mean[k], single.mean, rtol=1e-13)
        np.testing.assert_allclose(batch.sd[k], single.sd, rtol=1e-13)
    with pytest.raises(ValueError, match=r"rng must be one np.random.Generator or one per fit \(3\)"):
        fit("full-rank", gaussian, np.zeros((3, 2)), [RNG(0), RNG(1)])


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

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
    log_q = normal_log_density(mean, np.diag(sd**2))
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
