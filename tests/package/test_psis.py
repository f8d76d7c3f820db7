"""Pareto smoothed importance sampling (bayescomp.psis) where the lecture's runs do not reach."""
import numpy as np
import pytest

import bayescomp as bc
from bayescomp.psis import _generalized_pareto_quantile


# --- Tests written to kill mutants that survived `make mutation` (tools/mutation/survivors.md):
# each names the behaviour its surviving mutant changed without any other test noticing.

def test_psis_matches_arviz_on_few_draws(az):
    # With fewer than about 225 draws the tail is n/5 draws long (not 3 sqrt(n / r_eff)), down to
    # the smallest allowed tail of 5 at n = 21; the lecture's cases all have more draws.
    # Survivors: n/6 for n/5, a tail of exactly 5 refused or left unsmoothed, the candidate
    # grid of the Pareto fit started at 2, and the final normalization's peak added twice.
    for n in [21, 22, 30, 57, 100]:
        for seed in range(3):
            log_weights = 1.5 * np.random.default_rng(seed + n).standard_t(3, n)
            mine = bc.pareto_smoothed_log_weights(log_weights)
            theirs, k_hat = az.psislw(log_weights.copy(), 1.0)
            np.testing.assert_allclose(mine.log_weights, theirs, atol=1e-12)
            assert mine.k_hat == pytest.approx(float(k_hat), abs=1e-12)
            assert np.exp(mine.log_weights).sum() == pytest.approx(1.0)


def test_generalized_pareto_quantile_at_k_zero_is_the_exponential_one():
    # At k = 0 the generalized Pareto is the exponential, with quantile -sigma log(1 - p), and
    # the formula is continuous there. Survivors: that branch's sign, its / for *, log1p(+p).
    probs = np.array([0.1, 0.5, 0.9])
    exponential = -2.0 * np.log(1 - probs)
    np.testing.assert_allclose(_generalized_pareto_quantile(probs, 0.0, 2.0), exponential)
    np.testing.assert_allclose(_generalized_pareto_quantile(probs, 1e-9, 2.0), exponential,
                               rtol=1e-7)
