"""The lecture's diagnostics (bayescomp.classic_diagnostics): split R-hat, per-chain ESS, MCSE."""
import warnings

import numpy as np

import bayescomp as bc


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

def test_lecture_diagnostics_of_one_parameter_are_plain_floats():
    # (chain, draw) input gives one number, as documented. Survivors: the "single" flag dropped
    # from effective_sample_size, mcse and split_rhat, which then return a 1-element array.
    draws = np.random.default_rng(0).standard_normal((4, 100))
    for function in (bc.effective_sample_size, bc.mcse, bc.split_rhat):
        assert type(function(draws)) is float


def test_lecture_mcse_is_the_pooled_sd_over_the_root_ess():
    # The documented definition, with the sample standard deviation (ddof 1). Survivors: ddof
    # 0 and 2.
    draws = np.random.default_rng(1).standard_normal((2, 6, 2))
    variance = draws.reshape(-1, 2).var(axis=0, ddof=1)
    np.testing.assert_allclose(bc.mcse(draws) ** 2 * bc.effective_sample_size(draws), variance,
                               rtol=1e-12)


def test_split_rhat_of_constant_chains_is_silent():
    # Constant chains have no within-chain variance: R-hat is 0/0, NaN, without a NumPy warning.
    # Survivors: the divide and invalid warnings no longer silenced.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = [bc.split_rhat(np.full((2, 8), 1.0)), bc.split_rhat(np.array([[1.0] * 8,
                                                                              [2.0] * 8]))]
    assert not np.isfinite(values).any()
