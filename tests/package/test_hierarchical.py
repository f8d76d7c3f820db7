"""The hierarchical model (eight schools): its two targets, the exact 1-D quadrature reference,
exact draws, and the CPU-independent arithmetic the HMC runs rely on."""
import numpy as np
import pytest

import bayescomp as bc
from bayescomp import book
from bayescomp import _portable_math as pm

DATA = bc.hierarchical_data()
REFERENCE = bc.hierarchical_reference(DATA)


def random_points(n, seed):
    """Points around the posterior bulk in either form, log tau spread over [-3, 3]."""
    points = np.random.default_rng(seed).normal(size=(n, 10))
    points[:, 0] = 4 + 3 * points[:, 0]
    points[:, 1] *= 1.5
    return points


# --- the targets ------------------------------------------------------------------------------
@pytest.mark.parametrize("form", bc.hierarchical.FORMS)
def test_gradient_matches_central_differences(form):
    target = bc.hierarchical_target(DATA, form)
    step = 1e-6
    for theta in random_points(20, 1):
        numeric = [(target.log_density(theta + step * e) - target.log_density(theta - step * e))
                   / (2 * step) for e in np.eye(10)]
        np.testing.assert_allclose(target.grad_log_density(theta), numeric, rtol=1e-6,
                                   atol=1e-6)


@pytest.mark.parametrize("form", bc.hierarchical.FORMS)
def test_neg_hessian_matches_differences_of_the_gradient(form):
    target = bc.hierarchical_target(DATA, form)
    step = 1e-6
    for theta in random_points(10, 2):
        numeric = -np.array([(target.grad_log_density(theta + step * e)
                              - target.grad_log_density(theta - step * e)) / (2 * step)
                             for e in np.eye(10)])
        np.testing.assert_allclose(target.neg_hessian(theta), numeric, rtol=1e-5, atol=1e-5)


def test_both_forms_are_one_posterior_up_to_the_jacobian():
    # p_centred(mu, u, theta) |d theta / d eta| = p_noncentred(mu, u, eta), |d theta/d eta| = tau^J.
    centred, noncentred = bc.centred_target(DATA), bc.noncentred_target(DATA)
    points = random_points(50, 3)
    gap = (centred.log_density(points) + DATA.y.size * points[:, 1]
           - noncentred.log_density(bc.to_noncentred(points)))
    np.testing.assert_allclose(gap, gap[0], atol=1e-9)
    np.testing.assert_allclose(bc.to_centred(bc.to_noncentred(points), "non-centred"), points,
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("form", bc.hierarchical.FORMS)
def test_a_batch_gives_the_same_bits_as_single_points(form):
    target = bc.hierarchical_target(DATA, form)
    points = random_points(40, 4)  # more than the small-array fast path handles
    for function in (target.log_density, target.grad_log_density):
        np.testing.assert_array_equal(function(points), np.array([function(p) for p in points]))


def test_the_centred_density_has_no_maximum():
    # Along theta_j = mu and tau -> 0 the log density grows like -(J - 1) log tau.
    target = bc.centred_target(DATA)
    points = np.full((4, 10), 4.0)
    points[:, 1] = [0.0, -5.0, -10.0, -20.0]
    values = target.log_density(points)
    assert np.all(np.diff(values) > 0)
    np.testing.assert_allclose(np.diff(values) / -np.diff(points[:, 1]), DATA.y.size - 1,
                               rtol=0.01)


# --- portable arithmetic ------------------------------------------------------------------------
def test_portable_exp_and_log_are_within_two_units_in_the_last_place():
    x = np.random.default_rng(5).uniform(-740, 709, 50_000)
    ulp = np.abs(pm.exp(x) - np.exp(x)) / np.spacing(np.exp(x))
    assert ulp.max() <= 2
    y = np.exp(np.random.default_rng(6).uniform(-740, 709, 50_000))
    assert np.max(np.abs(pm.log(y) - np.log(y)) / np.spacing(np.abs(np.log(y)))) <= 2


def test_portable_functions_give_the_same_bits_on_scalars_small_and_large_arrays():
    x = np.r_[np.random.default_rng(7).uniform(-800, 800, 100), np.nan, np.inf, -np.inf, 0.0]
    for function, values in ((pm.exp, x), (pm.log, np.abs(x))):
        as_array = function(values)
        np.testing.assert_array_equal(as_array, [function(v) for v in values])
        np.testing.assert_array_equal(as_array[:10], function(values[:10]))
    assert pm.exp(1000.0) == np.inf and pm.exp(-1000.0) == 0.0 and np.isnan(pm.exp(np.nan))
    assert pm.log(0.0) == -np.inf and np.isnan(pm.log(-1.0)) and pm.log(np.inf) == np.inf


def test_portable_sum_adds_left_to_right():
    values = np.array([[1e16, 1.0, -1e16, 1.0]])
    assert pm.sum_last_axis(values)[0] == ((1e16 + 1.0) - 1e16) + 1.0
    assert pm.sum_last_axis(values[0]) == pm.sum_last_axis(values)[0]


# --- the exact reference ------------------------------------------------------------------------
def reference_numbers(reference):
    return np.r_[reference.mean, reference.sd, reference.noncentred_mean,
                 reference.noncentred_sd, reference.prob_tau_below_1]


@pytest.mark.parametrize("settings", [
    dict(n_nodes=16_001),                                      # twice as fine
    dict(log_tau_range=(-40.0, 14.0), n_nodes=10_801),         # wider, same spacing
])
def test_the_quadrature_has_converged_to_1e_8(settings):
    other = bc.hierarchical_reference(DATA, **settings)
    np.testing.assert_allclose(reference_numbers(other), reference_numbers(REFERENCE), rtol=0,
                               atol=1e-8)


def test_a_coarse_or_narrow_grid_is_visibly_worse():
    # The convergence test above can fail: too short a range misses the tail of log tau.
    narrow = bc.hierarchical_reference(DATA, log_tau_range=(-6.0, 4.0), n_nodes=2001)
    assert np.abs(reference_numbers(narrow) - reference_numbers(REFERENCE)).max() > 1e-4


def test_the_density_of_log_tau_integrates_to_one_and_the_cdf_ends_at_one():
    spacing = np.diff(REFERENCE.log_tau_grid)[0]
    assert REFERENCE.log_tau_cdf[-1] == pytest.approx(1.0, abs=1e-12)
    assert np.trapezoid(REFERENCE.log_tau_density, dx=spacing) == pytest.approx(1.0, abs=1e-12)
    zero = np.argmin(np.abs(REFERENCE.log_tau_grid))
    assert REFERENCE.log_tau_cdf[zero] == pytest.approx(REFERENCE.prob_tau_below_1, abs=1e-6)


def test_exact_draws_agree_with_the_quadrature_within_their_monte_carlo_error():
    draws = bc.exact_draws(DATA, REFERENCE, 400_000, np.random.default_rng(8))
    n = len(draws)
    z_means = (draws.mean(axis=0) - REFERENCE.mean) / (draws.std(axis=0) / np.sqrt(n))
    centred = draws - draws.mean(axis=0)
    variance = centred.var(axis=0)
    se_variance = np.sqrt(((centred**4).mean(axis=0) - variance**2) / n)
    z_variances = (variance - REFERENCE.sd**2) / se_variance
    p = REFERENCE.prob_tau_below_1
    z_p = ((draws[:, 1] < 0).mean() - p) / np.sqrt(p * (1 - p) / n)
    eta = bc.to_noncentred(draws)[:, 2:]
    z_eta = (eta.mean(axis=0) - REFERENCE.noncentred_mean[2:]) / (eta.std(axis=0) / np.sqrt(n))
    assert np.abs(np.r_[z_means, z_variances, z_p, z_eta]).max() < 4.5


def test_the_audit_of_exact_draws_misses_nothing_and_of_a_shifted_set_misses_log_tau():
    draws = bc.exact_draws(DATA, REFERENCE, 100_000, np.random.default_rng(9))
    result = bc.audit(REFERENCE, draws)
    assert not result.misses.any()
    assert np.all(np.abs(result.errors) < 3 * result.error_mcse + 1e-12)
    shifted = bc.audit(REFERENCE, draws + np.r_[0.0, 0.5, np.zeros(8)])
    assert shifted.errors[1] == pytest.approx(0.5 / REFERENCE.sd[1], abs=0.03)
    assert shifted.misses.tolist() == [False, True, False, True]
    assert shifted.beyond_allowance.tolist() == [False, True, False, True]


def test_a_miss_within_its_error_bar_is_a_miss_but_not_beyond_the_error_bar():
    # 400 exact draws: the MCSE of P(tau < 1) is about 0.02, a tenth of P. An estimate shifted
    # by 0.15 of P misses the tolerance of 0.1, yet lies within 0.1 + 2 MCSE of the truth.
    draws = bc.exact_draws(DATA, REFERENCE, 400, np.random.default_rng(13))
    result = bc.audit(REFERENCE, draws)
    p = REFERENCE.prob_tau_below_1
    shift = (1.15 * p - result.estimates[3])
    # Move just enough draws across tau = 1 to push the estimate to 1.15 P.
    moved = draws.copy()
    above = np.flatnonzero(moved[:, 1] >= 0)[:int(round(shift * len(draws)))]
    moved[above, 1] = -0.5
    shifted = bc.audit(REFERENCE, moved)
    assert shifted.errors[3] > 0.1 and shifted.misses[3]
    assert shifted.errors[3] < 0.1 + 2 * shifted.error_mcse[3] and not shifted.beyond_allowance[3]


def test_draws_that_never_visit_the_tail_have_no_mcse_and_still_miss():
    # Draws stuck above tau = 1, as chains, as independent draws and with weights: the indicator
    # of tau < 1 is 0 everywhere. Its MCSE is undefined (NaN, printed n/a), not 0, and the
    # audit still flags the probability as missed.
    draws = bc.exact_draws(DATA, REFERENCE, 8_000, np.random.default_rng(12))
    stuck = draws[draws[:, 1] > 0.5][:4_000].reshape(4, 1_000, -1)
    flat = stuck.reshape(-1, stuck.shape[-1])
    for result in (bc.audit(REFERENCE, stuck), bc.audit(REFERENCE, flat),
                   bc.audit(REFERENCE, flat, np.full(len(flat), 1 / len(flat)))):
        assert result.estimates[3] == 0.0
        assert np.isnan(result.mcse[3]) and np.isnan(result.error_mcse[3])
        assert np.all(np.isfinite(result.mcse[:3]))
        assert result.misses[3] and result.beyond_allowance[3]


def test_an_undefined_mcse_prints_as_n_a_and_a_defined_one_as_a_number():
    assert book.format_mcse(np.nan) == "n/a"
    assert book.format_mcse(np.nan, width=5) == "  n/a"
    assert book.format_mcse(0.01234) == "0.012"
    assert book.format_mcse(0.0, decimals=2) == "0.00"   # a real zero stays a number
    assert book.format_mcse(0.5, decimals=1, width=6) == "   0.5"
    with pytest.raises(ValueError, match="decimals and width"):
        book.format_mcse(0.1, decimals=-1)


def test_audited_errors_print_signed_aligned_and_never_as_minus_zero():
    assert book.format_errors([0.123, -1.5]) == "   +0.12   -1.50"
    assert book.format_errors([-0.004, 0.004]) == "   +0.00   +0.00"   # no "-0.00"
    assert book.format_errors([1.0, -2.0, 3.0], width=(5, 6, 7), decimals=1) == " +1.0  -2.0   +3.0"
    assert book.format_errors([np.nan], width=5) == "  n/a"
    with pytest.raises(ValueError, match="errors must be a 1-D"):
        book.format_errors(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="width must be one int or one per error"):
        book.format_errors([0.1, 0.2], width=(5, 6, 7))
    with pytest.raises(ValueError, match="decimals and width"):
        book.format_errors([0.1], decimals=-1)


def test_audit_mcse_of_chains_and_of_weights():
    # Chains that repeat each draw ten times carry no more information than the draws: their
    # ESS-based MCSE matches the independent draws', while treating the 40,000 repeats as
    # independent would understate it by sqrt(10). Equal weights give the independent MCSE.
    draws = bc.exact_draws(DATA, REFERENCE, 4_000, np.random.default_rng(10))
    independent = bc.audit(REFERENCE, draws)
    repeated = np.repeat(draws, 10, axis=0)
    sticky = bc.audit(REFERENCE, repeated.reshape(4, 10_000, 10))
    naive = bc.audit(REFERENCE, repeated)
    np.testing.assert_allclose(sticky.mcse / independent.mcse, 1.0, rtol=0.15)
    np.testing.assert_allclose(sticky.mcse / naive.mcse, np.sqrt(10), rtol=0.15)
    weighted = bc.audit(REFERENCE, draws, np.full(len(draws), 1 / len(draws)))
    np.testing.assert_allclose(weighted.estimates, independent.estimates)
    np.testing.assert_allclose(weighted.mcse, independent.mcse, rtol=1e-3)


def test_the_target_minus_the_exact_log_density_is_log_z_everywhere():
    # An independent check of the closed-form conditionals: p(u | y) p(mu | u) prod p(theta_j |
    # mu, u) must equal the target's exp(log p~) / Z at every point, typical or not.
    draws = bc.exact_draws(DATA, REFERENCE, 5_000, np.random.default_rng(12))
    moved = draws + np.random.default_rng(13).normal(scale=0.3, size=draws.shape)
    for points in (draws, moved):
        gap = bc.centred_target(DATA).log_density(points) - bc.exact_log_density(DATA, REFERENCE,
                                                                                points)
        np.testing.assert_allclose(gap, REFERENCE.log_normalizer, rtol=0, atol=1e-8)
    # A wrong conditional (the prior's variance of mu doubled) breaks the identity.
    wrong = DATA._replace(mu_prior_sd=DATA.mu_prior_sd * np.sqrt(2))
    gap = bc.centred_target(DATA).log_density(draws) - bc.exact_log_density(
        wrong, bc.hierarchical_reference(wrong), draws)
    assert np.ptp(gap) > 0.1


def test_joint_density_of_log_tau_and_theta_integrates_to_the_marginal():
    coarse = bc.hierarchical_reference(DATA, n_nodes=801)  # 801 nodes are enough for this check
    theta = np.linspace(-300, 350, 13_001)
    joint = bc.log_tau_theta_density(coarse, 0, theta)
    np.testing.assert_allclose(np.trapezoid(joint, theta, axis=1), coarse.log_tau_density,
                               rtol=0, atol=1e-9 * coarse.log_tau_density.max())


def test_the_reference_matches_arviz_stored_nuts_runs(az):
    # ArviZ ships NUTS runs of this very model (PyMC, the same priors). The non-centred run
    # agrees with the quadrature within its MCSE; the centred run under-explores the neck.
    p = REFERENCE.prob_tau_below_1
    for name in ("non_centered_eight", "centered_eight"):
        posterior = az.load_arviz_data(name).posterior
        log_tau = np.log(posterior["tau"].values)
        below = (log_tau < 0).astype(float)
        if name == "non_centered_eight":
            columns = [posterior["mu"].values, log_tau] + [posterior["theta"].values[..., j]
                                                            for j in range(8)]
            for k, draws in enumerate(columns):
                z = (draws.mean() - REFERENCE.mean[k]) / bc.mcse_mean(draws)
                assert abs(z) < 4, (k, z)
            assert abs(below.mean() - p) / bc.mcse_mean(below) < 4
        else:
            assert below.mean() < p / 3


# --- methods on this model ----------------------------------------------------------------------
def starts(form, n_chains=4, seed=70):
    draws = bc.exact_draws(DATA, REFERENCE, n_chains, np.random.default_rng(seed))
    return draws if form == "centred" else bc.to_noncentred(draws)


def test_lockstep_chains_are_the_single_chains_bit_for_bit():
    target = bc.centred_target(DATA)
    mass = 1 / REFERENCE.sd**2
    both = bc.run_hmc_chains(target, starts("centred", 2),
                             0.3, 7, 60, [np.random.default_rng(s) for s in (1, 2)], mass=mass)
    second = bc.hmc_chain(target, starts("centred", 2)[1],
                          0.3, 7, 60, np.random.default_rng(2), mass=mass)
    np.testing.assert_array_equal(both.draws[1], second.draws)
    np.testing.assert_array_equal(both.divergent[1], second.divergent)
    np.testing.assert_array_equal(both.energies[1], second.energies)


def test_hmc_diverges_in_the_centred_funnel_and_not_in_the_noncentred_form():
    results = {}
    for form in bc.hierarchical.FORMS:
        target = bc.hierarchical_target(DATA, form)
        sd = REFERENCE.sd if form == "centred" else REFERENCE.noncentred_sd
        results[form] = bc.run_hmc_chains(
            target, starts(form), 0.4, 5, 400,
            [np.random.default_rng(90 + c) for c in range(4)], 100, mass=1 / sd**2)
    centred, noncentred = results["centred"], results["non-centred"]
    assert centred.divergent.mean() > 0.02 and not noncentred.divergent.any()
    # Divergent means an energy error above the threshold; each such trajectory was rejected.
    np.testing.assert_array_equal(centred.divergent,
                                  centred.energy_errors > bc.hmc.DIVERGENCE_THRESHOLD)
    assert len(centred.divergent_starts) == centred.divergent.sum()
    # The divergences start in the neck: below the posterior's median log tau.
    assert np.median(centred.divergent_starts[:, 1]) < np.median(centred.draws[..., 1])


def test_newton_ascent_climbs_into_the_centred_neck_and_finds_the_noncentred_mode():
    centred, noncentred = bc.centred_target(DATA), bc.noncentred_target(DATA)
    path = bc.newton_ascent(centred, REFERENCE.mean, 40)
    assert not path.converged and np.all(np.diff(path.log_density) > 0)
    assert path.points[-1, 1] < -4 and path.log_density[-1] > 30
    path = bc.newton_ascent(noncentred, np.zeros(10), 60)
    assert path.converged
    assert np.all(np.linalg.eigvalsh(noncentred.neg_hessian(path.points[-1])) > 0)


def test_newton_ascent_agrees_with_newton_on_the_logistic_posterior(lecture):
    target = lecture.target
    path = bc.newton_ascent(target, np.zeros(2), 30)
    assert path.converged
    np.testing.assert_allclose(path.points[-1], lecture.laplace.mean, rtol=1e-10)


def test_e_bfmi_matches_arviz(az):
    energies = np.cumsum(np.random.default_rng(10).normal(size=(3, 500)), axis=1)
    np.testing.assert_allclose(bc.e_bfmi(energies), az.bfmi(energies), rtol=1e-12)


# --- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: bc.hierarchical_data(y=[[1.0, 2.0]]), "y must be a 1-D array"),
    (lambda: bc.hierarchical_data(y=[1.0, np.nan], sigma=[1.0, 1.0]),
     "y must contain only finite values"),
    (lambda: bc.hierarchical_data(y=[1.0, 2.0], sigma=[1.0]), r"sigma must have shape \(2,\)"),
    (lambda: bc.hierarchical_data(y=[1.0, 2.0], sigma=[1.0, 0.0]), "sigma must be > 0"),
    (lambda: bc.hierarchical_data(mu_prior_sd=-1), "mu_prior_sd must be a finite number > 0"),
    (lambda: bc.hierarchical_data(tau_prior_scale=0), "tau_prior_scale must be a finite number"),
    (lambda: bc.hierarchical_target(DATA, "centered"), "form must be one of"),
    (lambda: bc.centred_target(DATA).log_density(np.zeros(9)), r"theta must have shape \(\.\.\., 10\)"),
    (lambda: bc.hierarchical_reference(DATA, log_tau_range=(1.0, 5.0)),
     "log_tau_range must be .* low < 0 < high"),
    (lambda: bc.hierarchical_reference(DATA, n_nodes=8000), "n_nodes must put a node at log tau = 0"),
    (lambda: bc.hierarchical_reference(DATA, n_nodes=2), "n_nodes must be an integer >= 3"),
    (lambda: bc.exact_draws(DATA, REFERENCE, 0, np.random.default_rng(0)),
     "n_draws must be an integer >= 1"),
    (lambda: bc.audit(REFERENCE, np.zeros((5, 10)), np.ones(4) / 4), "weights must have one entry"),
    (lambda: bc.audit(REFERENCE, np.zeros((5, 9))), r"draws must have shape \(n, 10\)"),
    (lambda: bc.e_bfmi(np.zeros((2, 3))), "draws must have at least 4 draws per chain"),
    (lambda: bc.newton_ascent(bc.centred_target(DATA), np.zeros(10), 5, tolerance=0),
     "tolerance must be a finite number > 0"),
])
def test_bad_input_gets_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_joint_density_of_log_tau_and_the_deviation_matches_exact_draws():
    # Given tau, theta_1 - mu is Gaussian; its density summed over theta matches the draws'.
    coarse = bc.hierarchical_reference(DATA, n_nodes=801)
    deviation = np.linspace(-120, 120, 4001)
    joint = bc.log_tau_theta_density(coarse, 0, deviation, relative_to_mu=True)
    assert np.all(np.isfinite(joint))
    # The mean of theta_1 - mu: E over tau of its conditional mean (no spike problem).
    mean = np.trapezoid(coarse.log_tau_density * (coarse.conditional.theta_mean[:, 0]
                                                  - coarse.conditional.mu_mean),
                        coarse.log_tau_grid)
    draws = bc.exact_draws(DATA, REFERENCE, 200_000, np.random.default_rng(14))
    sample = draws[:, 2] - draws[:, 0]
    assert abs(mean - sample.mean()) < 4 * sample.std() / np.sqrt(len(sample))
    # Where tau is larger than the theta spacing the rule resolves the Gaussian: it must give
    # back p(u | y). (Below, the Gaussian of sd ~ tau is a spike between the nodes.)
    resolved = coarse.log_tau_grid > -1.0
    np.testing.assert_allclose(np.trapezoid(joint, deviation, axis=1)[resolved],
                               coarse.log_tau_density[resolved], rtol=0,
                               atol=1e-6 * coarse.log_tau_density.max())
