"""ess_mean, the multi-chain ESS of the split draws: near its theoretical value on AR(1) chains,
and unlike the lecture's per-chain estimator it collapses when chains sit in different places.
(Its agreement with ArviZ is in test_production_diagnostics.py.)"""
import numpy as np
import pytest

import bayescomp as bc


def ar1_chains(phi, n_chain=4, n_draw=4000, seed=0):
    rng = np.random.default_rng(seed)
    chains = np.zeros((n_chain, n_draw, 1))
    noise = rng.standard_normal((n_chain, n_draw))
    for t in range(1, n_draw):
        chains[:, t, 0] = phi * chains[:, t - 1, 0] + noise[:, t]
    return chains


def test_ar1_ess_is_near_its_theoretical_value():
    phi, chains = 0.5, ar1_chains(0.5, n_draw=20_000)
    theory = chains[..., 0].size * (1 - phi) / (1 + phi)
    assert bc.ess_mean(chains)[0] == pytest.approx(theory, rel=0.1)


def test_chains_stuck_apart_get_a_tiny_multichain_ess_but_a_large_per_chain_one():
    chains = ar1_chains(0.5)
    chains[:2] += 10.0
    assert bc.effective_sample_size(chains)[0] > 1000
    assert bc.ess_mean(chains)[0] < 10
