"""Each kind of bad input raises a ValueError that names the argument and what was expected."""
import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book

RNG = np.random.default_rng


@pytest.fixture(scope="module")
def target():
    return book.lecture_problem()[1]


def good_chains():
    return RNG(0).normal(size=(4, 100, 2))


# --- wrong shapes ---------------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda t: bc.make_data(theta_true=(1.0, 2.0, 3.0)), r"theta_true must have shape \(2,\)"),
    (lambda t: bc.importance_sample(t, [0, 0], np.eye(3), 10, RNG(0)),
     r"proposal_cov must have shape \(2, 2\)"),
    (lambda t: bc.metropolis_chain(t, [0, 0], np.eye(3), 10, RNG(0)),
     r"proposal_chol must have shape \(2, 2\)"),
    (lambda t: bc.run_metropolis_chains(t, [[0, 0], [1, 1]], np.eye(2), 10, [RNG(0)]),
     r"rngs must be one np.random.Generator for all chains or hold one generator per start \(2\)"),
    (lambda t: bc.split_rhat(np.zeros(100)), r"draws must have shape \(chain, draw\) or "),
    (lambda t: bc.grid_posterior(t.log_density, [(0, 1, 2)], 10), r"bounds must have shape"),
    (lambda t: bc.posterior_predictive([0.0], np.zeros((5, 3))), r"draws must have shape \(\.\.\., 2\)"),
    (lambda t: bc.posterior_predictive([0.0], np.zeros((5, 2)), np.ones(4) / 4),
     r"weights must have one entry per draw \(5\)"),
    (lambda t: bc.mean_field_vi(t, [0, 0], [0, 0, 0], 5, RNG(0)),
     r"init_log_sd must have shape \(2,\)"),
])
def test_wrong_shape(target, call, message):
    with pytest.raises(ValueError, match=message):
        call(target)


# --- non-finite values ----------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda t: bc.grid_posterior(t.log_density, [(-1, np.nan), (0, 2)], 10),
     "bounds must contain only finite values"),
    (lambda t: bc.importance_sample(t, [np.inf, 0], np.eye(2), 10, RNG(0)),
     "proposal_mean must contain only finite values"),
    (lambda t: bc.metropolis_chain(t, [0, np.nan], np.eye(2), 10, RNG(0)),
     "start must contain only finite values"),
    (lambda t: bc.effective_sample_size(np.full((2, 10, 1), np.nan)),
     "draws must contain only finite values"),
    (lambda t: bc.newton_map(t, [np.nan, 0]), "start must contain only finite values"),
    (lambda t: bc.make_data(x_range=(0, np.inf)), "x_range must contain only finite values"),
])
def test_non_finite(target, call, message):
    with pytest.raises(ValueError, match=message):
        call(target)


def test_target_functions_propagate_nan_instead_of_checking(target):
    # They run in samplers' inner loops; the samplers validate their inputs once instead.
    with np.errstate(invalid="ignore"):
        assert np.isnan(target.log_density([np.nan, 0.0]))
        assert np.all(np.isnan(target.grad_log_density([np.nan, 0.0])))


# --- non-positive variances, step counts and sample sizes -----------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda t: bc.logistic_posterior(bc.make_data(), prior_var=0.0), "prior_var must be a finite number > 0"),
    (lambda t: bc.logistic_posterior(bc.make_data(), prior_var=-4.0), "prior_var must be a finite number > 0"),
    (lambda t: bc.make_data(n=0), "n must be an integer >= 1"),
    (lambda t: bc.importance_sample(t, [0, 0], np.eye(2), 0, RNG(0)),
     "n_draws must be an integer >= 1"),
    (lambda t: bc.metropolis_chain(t, [0, 0], np.eye(2), -5, RNG(0)),
     "n_steps must be an integer >= 1"),
    (lambda t: bc.run_metropolis_chains(t, [[0, 0], [1, 1]], np.eye(2), 10, [RNG(0), RNG(1)], 10),
     r"n_warmup must be an integer in \[0, n_steps\)"),
    (lambda t: bc.newton_map(t, [0, 0], 0), "n_steps must be an integer >= 1"),
    (lambda t: bc.mean_field_vi(t, [0, 0], [0, 0], 5, RNG(0),
                                n_samples=0), "n_samples must be an integer >= 1"),
    (lambda t: bc.mean_field_vi(t, [0, 0], [0, 0], 5, RNG(0),
                                lr=-0.1), "lr must be a finite number > 0"),
    (lambda t: bc.gaussian_mixture_target([0.5, 0.5], [-1, 1], [1.0, 0.0]), "sds must all be > 0"),
    (lambda t: bc.grid_posterior(t.log_density, [(-1, 1), (0, 2)], 1),
     "resolution must be an integer >= 2"),
])
def test_non_positive(target, call, message):
    with pytest.raises(ValueError, match=message):
        call(target)


# --- covariances that are not positive definite ---------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda t: bc.importance_sample(t, [0, 0], [[1, 2], [2, 1]], 10, RNG(0)),
     "proposal_cov must be positive definite; its smallest eigenvalue is -1"),
    (lambda t: bc.importance_sample(t, [0, 0], [[1, 0.5], [0.2, 1]], 10, RNG(0)),
     "proposal_cov must be symmetric"),
    (lambda t: bc.gaussian_target([0, 0], [[1, 0], [0, 0]]), "cov must be positive definite"),
    (lambda t: bc.gaussian_log_density([0, 0], [0, 0], -np.eye(2)), "cov must be positive definite"),
    (lambda t: bc.metropolis_chain(t, [0, 0], [[1, 0], [0, -1]], 10, RNG(0)),
     "proposal_chol must be lower triangular with a positive diagonal"),
    (lambda t: bc.full_rank_vi(t, [0, 0], [[1, 1], [0, 1]], 5,
                               RNG(0)), "init_chol must be lower triangular"),
])
def test_not_positive_definite(target, call, message):
    with pytest.raises(ValueError, match=message):
        call(target)


# --- too few chains or draws for a diagnostic -----------------------------------------------
@pytest.mark.parametrize("diagnostic", [bc.split_rhat, bc.effective_sample_size, bc.mcse])
def test_diagnostic_needs_two_chains(diagnostic):
    with pytest.raises(ValueError, match="draws must have at least 2 chains"):
        diagnostic(good_chains()[:1])


@pytest.mark.parametrize("diagnostic", [bc.split_rhat, bc.effective_sample_size, bc.mcse])
def test_diagnostic_needs_four_draws(diagnostic):
    with pytest.raises(ValueError, match="draws must have at least 4 draws per chain; got 3"):
        diagnostic(good_chains()[:, :3])


# --- randomness must be an explicit Generator -----------------------------------------------
def test_global_seed_is_not_accepted(target):
    with pytest.raises(ValueError, match="rng must be a np.random.Generator"):
        bc.importance_sample(target, [0, 0], np.eye(2), 10, 42)


def test_weights_must_be_a_distribution():
    with pytest.raises(ValueError, match="weights must be non-negative and sum to 1"):
        bc.weight_ess([0.5, 0.7])


def test_run_lecture_rejects_unknown_methods():
    with pytest.raises(ValueError, match=r"methods must be drawn from \('importance', 'mcmc', 'vi'\)"):
        book.run_lecture(methods=("grid", "hmc"))


def test_gaussian_predictive_checks_its_covariance():
    with pytest.raises(ValueError, match="cov must be positive definite"):
        bc.gaussian_predictive([0.0], [0.0, 1.0], [[1.0, 0.0], [0.0, -1.0]], 10, RNG(0))


def test_full_rank_vi_checks_n_average(target):
    with pytest.raises(ValueError, match=r"n_average must be an integer in \[0, n_steps\]"):
        bc.full_rank_vi(target, [0, 0], np.eye(2), 5, RNG(0), n_average=6)


@pytest.mark.parametrize("chain", [-1, 4, 1.0, True, "0"])
def test_a_chain_colour_exists_for_four_chains_only(chain):
    """Four chain colours: a fifth chain (or a chain that is not a count) is refused, not given
    chain 1's colour again."""
    from bayescomp.book.plotting import chain_color

    with pytest.raises(ValueError, match=r"chain must be an integer from 0 to 3"):
        chain_color(chain)


def test_each_of_four_chains_has_its_own_colour():
    from bayescomp.book.plotting import chain_color

    assert len({chain_color(c) for c in range(4)}) == 4
    assert chain_color(np.int64(2)) == chain_color(2)


@pytest.mark.parametrize("call, message", [
    (lambda t: bc.importance_sample(t, [0, 0, 0], np.eye(2), 10, RNG(0)),
     r"proposal_cov must have shape \(3, 3\) to match proposal_mean, which has length 3; "
     r"got shape \(2, 2\)"),
    (lambda t: bc.gaussian_target([0, 0], np.eye(3)),
     r"cov must have shape \(2, 2\) to match mean, which has length 2; got shape \(3, 3\)"),
    (lambda t: bc.metropolis_chain(t, [0, 0, 0], np.eye(2), 10, RNG(0)),
     r"proposal_chol must have shape \(3, 3\) to match each start, which has length 3"),
])
def test_a_shape_clash_names_both_arguments(lecture, call, message):
    with pytest.raises(ValueError, match=message):
        call(lecture.target)


# --- a sampler takes the Target, not its fields ----------------------------------------------
@pytest.mark.parametrize("call", [
    lambda t, f: bc.importance_sample(f, [0, 0], np.eye(2), 10, RNG(0)),
    lambda t, f: bc.importance_runs(f, [[0, 0]], [np.eye(2)], 10, RNG(0)),
    lambda t, f: bc.importance_sample_from(f, bc.gaussian_proposal([0, 0], np.eye(2)), 10, RNG(0)),
    lambda t, f: bc.metropolis_chain(f, [0, 0], np.eye(2), 10, RNG(0)),
    lambda t, f: bc.run_metropolis_chains(f, [[0, 0]], np.eye(2), 10, [RNG(0)]),
    lambda t, f: bc.hmc_chain(t._replace(grad_log_density=None), [0, 0], 0.1, 3, 10, RNG(0)),
    lambda t, f: bc.run_hmc_chains(f, [[0, 0]], 0.1, 3, 10, [RNG(0)]),
])
def test_samplers_refuse_a_bare_function_for_the_target(call):
    target = bc.gaussian_target([0.0, 0.0], np.eye(2))
    with pytest.raises(ValueError, match=r"target must be a Target .* with callable log_density"):
        call(target, target.log_density)


@pytest.mark.parametrize("call", [
    lambda t: bc.importance_sample(t, [0, 0, 0], np.eye(3), 10, RNG(0)),
    lambda t: bc.metropolis_chain(t, [0, 0, 0], np.eye(3), 10, RNG(0)),
    lambda t: bc.run_hmc_chains(t, [[0, 0, 0]], 0.1, 3, 10, [RNG(0)]),
])
def test_samplers_refuse_a_start_of_another_dimension_than_the_target(call):
    with pytest.raises(ValueError, match="target has 2 parameters; the start or proposal has 3"):
        call(bc.gaussian_target([0.0, 0.0], np.eye(2)))
