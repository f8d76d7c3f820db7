"""Several VI fits at once: one fit in a batch is the single fit, each fit of a batch finds the
same optimum, and a batch's shapes are the single fit's with the fit in front."""
import numpy as np
import pytest

import bayescomp as bc

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
