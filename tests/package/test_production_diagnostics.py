"""Production diagnostics (rank-normalized R-hat, bulk/tail ESS, PSIS) against ArviZ, to 1e-6.

ArviZ is a test-only dependency: the package reimplements its conventions (average ranks,
Blom's offset, Geyer's monotone sequence on the multi-chain autocorrelation, the Zhang-Stephens
Pareto fit with its prior) without SciPy, and these tests hold it to them.
"""
import statistics

import numpy as np
import pytest

import bayescomp as bc
from bayescomp._special import beta_cdf, beta_quantile, normal_quantile

RTOL = 1e-6


def ar1_chains(coefficient, n_chain, n_draw, seed, shifts=0.0):
    """Gaussian AR(1) chains; ``shifts`` moves each chain's mean (an unconverged run)."""
    noise = np.random.default_rng(seed).standard_normal((n_chain, n_draw))
    chains = np.empty_like(noise)
    chains[:, 0] = noise[:, 0]
    for t in range(1, n_draw):
        chains[:, t] = coefficient * chains[:, t - 1] + noise[:, t]
    return chains + np.reshape(shifts, (-1, 1))


def heavy_tailed_chains(seed):
    """Independent Student-t (df = 2) draws in one column, Cauchy in the other."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.standard_t(2, (4, 800)), rng.standard_cauchy((4, 800))], axis=-1)


CHAIN_CASES = {
    "ar1 0.9": lambda: ar1_chains(0.9, 4, 1000, 1)[..., None],
    "ar1 0.99 odd length": lambda: ar1_chains(0.99, 3, 2001, 2)[..., None],
    "ar1 negative": lambda: ar1_chains(-0.6, 4, 301, 3)[..., None],
    "heavy tails": lambda: heavy_tailed_chains(4),
    "shifted means": lambda: ar1_chains(0.5, 4, 500, 5, shifts=[0.0, 0.0, 0.5, 1.5])[..., None],
    "one chain": lambda: ar1_chains(0.3, 1, 400, 6)[..., None],
    "ties": lambda: np.round(ar1_chains(0.5, 4, 200, 7))[..., None],
}

ARVIZ = {
    bc.rank_normalized_rhat: lambda az, x: az.rhat(x),
    bc.ess_bulk: lambda az, x: az.ess(x, method="bulk"),
    bc.ess_tail: lambda az, x: az.ess(x, method="tail"),
    bc.ess_mean: lambda az, x: az.ess(x, method="mean"),
    bc.mcse_mean: lambda az, x: az.mcse(x, method="mean"),
}
# The quantile diagnostics take a probability too; each is checked at a tail and the median.
QUANTILE_ARVIZ = {
    bc.ess_quantile: lambda az, x, p: az.ess(x, method="quantile", prob=p),
    bc.mcse_quantile: lambda az, x, p: az.mcse(x, method="quantile", prob=p),
}


def arviz_per_param(az, function, draws):
    return np.array([float(ARVIZ[function](az, draws[:, :, p])) for p in range(draws.shape[2])])


@pytest.mark.parametrize("function", list(ARVIZ), ids=lambda f: f.__name__)
def test_lecture_chains_match_arviz(az, lecture, function):
    draws = lecture.chains.draws
    np.testing.assert_allclose(function(draws), arviz_per_param(az, function, draws), rtol=RTOL)


# Every diagnostic on every case, except R-hat on a single chain (it needs two; the bad-input
# tests check that it says so).
SYNTHETIC = [(case, function) for case in CHAIN_CASES for function in ARVIZ
             if not (function is bc.rank_normalized_rhat and CHAIN_CASES[case]().shape[0] < 2)]


@pytest.mark.parametrize("case, function", SYNTHETIC,
                         ids=[f"{function.__name__}-{case}" for case, function in SYNTHETIC])
def test_synthetic_chains_match_arviz(az, case, function):
    draws = CHAIN_CASES[case]()
    np.testing.assert_allclose(function(draws), arviz_per_param(az, function, draws), rtol=RTOL)


QUANTILE_CASES = [(case, function, prob) for case in CHAIN_CASES for function in QUANTILE_ARVIZ
                  for prob in (0.05, 0.5, 0.95)]


@pytest.mark.parametrize("case, function, prob", QUANTILE_CASES,
                         ids=[f"{f.__name__}-{c}-{p}" for c, f, p in QUANTILE_CASES])
def test_quantile_diagnostics_match_arviz(az, case, function, prob):
    draws = CHAIN_CASES[case]()
    theirs = [float(QUANTILE_ARVIZ[function](az, draws[:, :, p], prob)) for p in range(draws.shape[2])]
    np.testing.assert_allclose(function(draws, prob), theirs, rtol=RTOL)


def test_quantile_diagnostics_on_the_lecture_chains_match_arviz(az, lecture):
    draws = lecture.chains.draws
    for function, theirs in QUANTILE_ARVIZ.items():
        expected = [float(theirs(az, draws[:, :, p], 0.05)) for p in range(2)]
        np.testing.assert_allclose(function(draws, 0.05), expected, rtol=RTOL)


def test_beta_cdf_and_quantile_match_scipy(scipy_stats):
    stats = scipy_stats
    for a, b in [(1.5, 2.0), (40.0, 760.0), (2000.5, 38001.0), (0.7, 0.4)]:
        for x in (1e-4, 0.02, 0.05, 0.3, 0.9):
            assert beta_cdf(x, a, b) == pytest.approx(stats.beta.cdf(x, a, b), rel=1e-9, abs=1e-14)
        for p in (0.1586553, 0.5, 0.8413447):
            assert beta_quantile(p, a, b) == pytest.approx(stats.beta.ppf(p, a, b), rel=1e-9)


def test_mcse_of_the_mean_is_about_sd_over_root_n_for_independent_draws():
    draws = np.random.default_rng(11).standard_normal((4, 5000))
    assert bc.mcse_mean(draws) == pytest.approx(1 / np.sqrt(draws.size), rel=0.05)


def test_mcse_of_a_quantile_covers_its_error_at_the_stated_rate():
    # Over many independent runs, the 5% quantile's error divided by its MCSE should look like
    # a standard normal: about 68% of the ratios within 1.
    rng = np.random.default_rng(12)
    ratios = []
    for _ in range(200):
        draws = rng.standard_normal((4, 500))
        error = np.quantile(draws, 0.05) - normal_quantile(0.05)
        ratios.append(error / bc.mcse_quantile(draws, 0.05))
    assert 0.6 < np.mean(np.abs(ratios) < 1) < 0.78


@pytest.mark.parametrize("prob", [0.0, 1.0, -0.1, float("nan")])
def test_quantile_diagnostics_reject_a_probability_outside_0_1(prob):
    for function in QUANTILE_ARVIZ:
        with pytest.raises(ValueError, match="prob must be a number in \\(0, 1\\)"):
            function(np.zeros((4, 10)), prob)


def test_two_d_draws_give_a_float():
    draws = ar1_chains(0.5, 4, 200, 8)
    for function in ARVIZ:
        value = function(draws)
        assert isinstance(value, float)
        assert value == function(draws[..., None])[0]


def test_diagnostics_flag_what_they_should():
    # Shifted chains fail the R-hat rule; a heavy tail does not fool rank normalization.
    assert bc.rank_normalized_rhat(CHAIN_CASES["shifted means"]())[0] > 1.01
    assert np.all(bc.rank_normalized_rhat(heavy_tailed_chains(4)) < 1.01)
    assert bc.ess_bulk(CHAIN_CASES["ar1 0.99 odd length"]())[0] < 400


def test_normal_quantile_matches_the_standard_library():
    p = np.concatenate([np.linspace(1e-9, 1 - 1e-9, 2001), np.logspace(-300, -2, 50)])
    expected = np.array([statistics.NormalDist().inv_cdf(q) for q in p])
    np.testing.assert_allclose(normal_quantile(p), expected, rtol=1e-14, atol=1e-300)


# --- PSIS -------------------------------------------------------------------------------------
def narrow_proposal_log_weights(lecture):
    """A proposal 4.5 times too narrow: the weights' tail is heavy and k-hat must say so."""
    narrow = bc.importance_sample(lecture.target, lecture.laplace.mean,
                                  lecture.laplace.cov / 20, 4000, np.random.default_rng(9))
    return narrow.log_weights


PSIS_CASES = {
    "prior proposal": lambda r: r.is_prior.log_weights,
    "laplace proposal": lambda r: r.is_laplace.log_weights,
    "narrow proposal": narrow_proposal_log_weights,
}


@pytest.mark.parametrize("case", list(PSIS_CASES))
def test_psis_matches_arviz(az, lecture, case):
    log_weights = PSIS_CASES[case](lecture)
    ours = bc.pareto_smoothed_log_weights(log_weights)
    theirs_weights, theirs_k = az.psislw(log_weights.copy())
    np.testing.assert_allclose(ours.k_hat, float(theirs_k), rtol=RTOL)
    np.testing.assert_allclose(ours.log_weights, theirs_weights, rtol=RTOL)


def test_psis_relative_ess_matches_arviz(az, lecture):
    log_weights = lecture.is_laplace.log_weights
    ours = bc.pareto_smoothed_log_weights(log_weights, relative_ess=0.3)
    theirs_weights, theirs_k = az.psislw(log_weights.copy(), reff=0.3)
    np.testing.assert_allclose(ours.k_hat, float(theirs_k), rtol=RTOL)
    np.testing.assert_allclose(ours.log_weights, theirs_weights, rtol=RTOL)


def test_psis_of_half_a_million_draws_overflows_nothing(az):
    # A tail of 2,000+ draws makes the profile likelihoods span thousands of nats: their
    # normalization must not overflow (chapter 4 fits 500,000 draws), and the fit still agrees
    # with ArviZ's.
    log_weights = np.random.default_rng(3).standard_normal(500_000)
    with np.errstate(over="raise", invalid="raise"):
        ours = bc.pareto_smoothed_log_weights(log_weights)
    with np.errstate(over="ignore"):           # ArviZ's own normalization overflows here
        theirs = float(az.psislw(log_weights.copy())[1])
    np.testing.assert_allclose(ours.k_hat, theirs, rtol=RTOL)


def test_psis_k_hat_ranks_the_proposals(lecture):
    k_hats = {case: bc.pareto_smoothed_log_weights(get(lecture)).k_hat
              for case, get in PSIS_CASES.items()}
    # The broad prior has light-tailed weights; the narrow proposal fails the 0.7 rule.
    assert k_hats["prior proposal"] < 0.5
    assert k_hats["narrow proposal"] > 0.7
    weights = np.exp(bc.pareto_smoothed_log_weights(lecture.is_laplace.log_weights).log_weights)
    assert np.isclose(weights.sum(), 1.0)


# --- bad input: one test per kind of error ------------------------------------------------
@pytest.mark.parametrize("function", list(ARVIZ), ids=lambda f: f.__name__)
def test_draws_of_the_wrong_shape(function):
    with pytest.raises(ValueError, match=r"draws must have shape \(chain, draw\) or "
                                         r"\(chain, draw, param\); got shape \(100,\)"):
        function(np.zeros(100))


@pytest.mark.parametrize("function", list(ARVIZ), ids=lambda f: f.__name__)
def test_non_finite_draws(function):
    draws = np.zeros((4, 10))
    draws[1, 3] = np.nan
    with pytest.raises(ValueError, match="draws must contain only finite values"):
        function(draws)


@pytest.mark.parametrize("function", list(ARVIZ), ids=lambda f: f.__name__)
def test_too_few_draws(function):
    with pytest.raises(ValueError, match="draws must have at least 4 draws per chain; got 3"):
        function(np.zeros((4, 3)))


def test_rhat_needs_two_chains():
    with pytest.raises(ValueError, match="draws must have at least 2 chains on axis 0; got 1"):
        bc.rank_normalized_rhat(np.zeros((1, 100)))


@pytest.mark.parametrize("log_weights, message", [
    (np.zeros((10, 10)), "log_weights must be a 1-D array"),
    (np.r_[np.zeros(50), np.inf], "log_weights must contain only finite values"),
    (np.zeros(20), "log_weights must have enough draws for a tail of 5 .* got 20"),
])
def test_psis_bad_log_weights(log_weights, message):
    with pytest.raises(ValueError, match=message):
        bc.pareto_smoothed_log_weights(log_weights)


def test_psis_bad_relative_ess():
    with pytest.raises(ValueError, match="relative_ess must be a finite number > 0"):
        bc.pareto_smoothed_log_weights(np.zeros(100), relative_ess=0.0)


def test_failed_checks_at_the_thresholds_flag_r_hat_and_pass_ess(monkeypatch):
    # The book's rules: R-hat < 1.01 passes, so 1.01 itself fails; an ESS of 400 passes.
    from bayescomp import diagnostics
    draws = np.random.default_rng(31).normal(size=(4, 500, 2))
    # The three statistics (R-hat, bulk ESS, tail ESS) of (chain, draw, column), per column.
    def production(rhat, tail):
        return lambda d: (np.array(rhat), np.array([400.0, 900.0]), np.array(tail))
    monkeypatch.setattr(diagnostics, "_production", production([1.0, 1.01], [400.0, 900.0]))
    assert bc.failed_checks(draws) == ["R-hat"]
    monkeypatch.setattr(diagnostics, "_production", production([1.0, 1.0099], [399.9, 900.0]))
    assert bc.failed_checks(draws) == ["ESS"]


def test_failed_checks_names_each_failed_rule_and_nothing_else():
    good = ar1_chains(0.3, 4, 2000, 20)[..., None]
    assert bc.failed_checks(good) == []
    assert bc.failed_checks(CHAIN_CASES["shifted means"]()) == ["R-hat", "ESS"]
    sticky = ar1_chains(0.995, 4, 2000, 21)[..., None]
    assert "ESS" in bc.failed_checks(sticky)
    divergent = np.zeros((4, 2000), dtype=bool)
    divergent[2, 10] = True
    assert bc.failed_checks(good, divergent) == ["divergences"]
    # Energies that barely move between iterations: E-BFMI near 0.
    slow_energy = np.cumsum(np.random.default_rng(22).normal(size=(4, 2000)), axis=1)
    assert bc.failed_checks(good, energies=slow_energy) == ["E-BFMI"]
    assert bc.failed_checks(good, energies=np.random.default_rng(23).normal(size=(4, 2000))) == []


@pytest.mark.parametrize("function", list(ARVIZ), ids=lambda f: f.__name__)
def test_a_parameter_gets_the_same_value_alone_or_with_others(function):
    # The diagnostics work on every parameter at once; each column must not see the others.
    draws = np.concatenate([CHAIN_CASES[case]()[:, :200] for case in ("ar1 0.9", "heavy tails",
                                                                       "shifted means", "ties")],
                           axis=2)
    together = function(draws)
    alone = [function(draws[:, :, p]) for p in range(draws.shape[2])]
    np.testing.assert_allclose(together, alone, rtol=1e-12, atol=0)


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

def test_e_bfmi_is_per_chain_and_takes_one_chain_of_four_draws():
    # Survivors (the ArviZ cross-check of E-BFMI lives in the hierarchical tests, outside the
    # mutation study's fast selection): pooling the chains' jumps (mean over every axis), and
    # the input rule (one chain is enough, four draws are enough).
    energies = np.array([[0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 0.1, 0.2, 0.3, 0.4]])
    jumps = np.diff(energies, axis=1)
    expected = (jumps**2).mean(axis=1) / energies.var(axis=1, ddof=1)
    np.testing.assert_allclose(bc.e_bfmi(energies), expected, rtol=1e-12)
    np.testing.assert_allclose(bc.e_bfmi(energies[:1]), expected[:1], rtol=1e-12)
    four = energies[:, :4]
    np.testing.assert_allclose(
        bc.e_bfmi(four),
        (np.diff(four, axis=1)**2).mean(axis=1) / four.var(axis=1, ddof=1), rtol=1e-12)


def short_and_awkward_chains():
    """Short chains (4 to 20 draws) of three kinds: independent, random walks, antithetic."""
    for n_draw in [4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20]:
        for seed in (0, 2):
            rng = np.random.default_rng(100 * seed + n_draw)
            alternate = (-1.0) ** np.arange(n_draw)
            yield rng.standard_normal((2, n_draw))
            yield np.cumsum(rng.standard_normal((3, n_draw)), axis=1)
            yield rng.standard_normal((2, n_draw)) * alternate + 0.3 * alternate


def test_ess_and_mcse_match_arviz_on_short_and_antithetic_chains(az):
    # The edge rules of Geyer's initial sequence (how many pairs fit, the first pair left out,
    # its even lag) and of the quantile MCSE's index clipping only act on short series and on
    # negatively correlated ones; the lecture's long chains never reach them. Survivors: those
    # rules' bounds and comparisons. ArviZ is the reference the package follows.
    for x in short_and_awkward_chains():
        for mine, theirs in [
            (bc.ess_bulk(x), az.ess(x, method="bulk")),
            (bc.ess_tail(x), az.ess(x, method="tail")),
            (bc.ess_mean(x), az.ess(x, method="mean")),
            (bc.mcse_quantile(x, 0.05), az.mcse(x, method="quantile", prob=0.05)),
            (bc.mcse_quantile(x, 0.95), az.mcse(x, method="quantile", prob=0.95)),
        ]:
            np.testing.assert_allclose(mine, float(theirs), rtol=1e-8)


def test_a_constant_quantity_has_every_draw_effective():
    # ArviZ's convention: the ESS of a constant series is the number of draws. Survivor: the
    # constant case returning float(None).
    assert bc.ess_bulk(np.full((2, 10), 3.0)) == 20.0
    assert bc.ess_mean(np.full((4, 6), -1.0)) == 24.0


def test_failed_checks_names_divergences_only_when_there_are_some():
    # Survivor: "divergent is not None or any(divergent)", which fails every run that passes
    # its divergence flags, even all False.
    draws = np.random.default_rng(0).standard_normal((4, 500, 2))
    assert bc.failed_checks(draws, divergent=np.zeros((4, 500), dtype=bool)) == []
    assert bc.failed_checks(draws, divergent=np.eye(4, 500, dtype=bool)) == ["divergences"]
