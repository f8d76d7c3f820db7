"""Every number in the lecture's table, reproduced through the public API at its rounding."""
import numpy as np
import pytest

from bayescomp import effective_sample_size, mcse, posterior_predictive, split_rhat

X_NEW = np.array([-2.0, 0.0, 2.0])

# (name, function of the lecture results, expected value, decimals)
TABLE = [
    ("grid mean", lambda r: r.grid.mean, [-0.3335, 1.4794], 4),
    ("grid sd", lambda r: r.grid.sd, [0.3353, 0.2871], 4),
    ("grid correlation", lambda r: r.grid.corr[0, 1], -0.2288, 4),
    ("MAP", lambda r: r.laplace.mean, [-0.3134, 1.4039], 4),
    ("Laplace sd", lambda r: r.laplace.sd, [0.3256, 0.2746], 4),
    ("plug-in predictive", lambda r: posterior_predictive(X_NEW, r.laplace.mean),
     [0.042, 0.422, 0.924], 3),
    ("grid predictive", lambda r: posterior_predictive(X_NEW, r.grid.points, r.grid.weights),
     [0.044, 0.420, 0.923], 3),
    ("IS prior ESS", lambda r: r.is_prior.ess, 681.1, 1),
    ("IS prior draws", lambda r: len(r.is_prior.draws), 20000, 0),
    ("IS prior max weight", lambda r: r.is_prior.max_weight, 0.0029, 4),
    ("IS prior mean", lambda r: r.is_prior.mean, [-0.3415, 1.4898], 4),
    ("IS Laplace ESS", lambda r: r.is_laplace.ess, 4287.3, 1),
    ("IS Laplace draws", lambda r: len(r.is_laplace.draws), 5000, 0),
    ("IS Laplace max weight", lambda r: r.is_laplace.max_weight, 0.0025, 4),
    ("IS Laplace mean", lambda r: r.is_laplace.mean, [-0.3359, 1.4772], 4),
    ("acceptance", lambda r: r.chains.accept_rates, [0.525, 0.526, 0.526, 0.527], 3),
    ("split R-hat", lambda r: split_rhat(r.chains.draws), [1.0008, 1.0004], 4),
    ("ESS", lambda r: effective_sample_size(r.chains.draws), [4521, 4098], 0),
    ("MCMC mean", lambda r: r.chains.draws.reshape(-1, 2).mean(axis=0), [-0.3317, 1.4768], 4),
    ("MCSE", lambda r: mcse(r.chains.draws), [0.005, 0.0044], 4),
    ("VI mean", lambda r: r.vi.mean, [-0.2958, 1.4816], 4),
    ("VI sd", lambda r: r.vi.sd, [0.3233, 0.2733], 4),
]


@pytest.mark.parametrize("name, compute, expected, decimals", TABLE, ids=[t[0] for t in TABLE])
def test_lecture_value(lecture, name, compute, expected, decimals):
    np.testing.assert_array_equal(np.round(compute(lecture), decimals), expected)


def test_kept_draws_shape(lecture):
    assert lecture.chains.draws.shape == (4, 10_000, 2)
