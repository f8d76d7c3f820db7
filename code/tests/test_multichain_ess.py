"""multichain_ess (BDA3 eq. 11.7-11.8): agrees with ArviZ's plain multi-chain ESS, and unlike
the lecture's per-chain estimator it collapses when chains sit in different places."""
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


def test_matches_arviz_mean_ess_on_the_lecture_chains_and_ar1(lecture):
    az = pytest.importorskip("arviz")
    for draws in (lecture.chains.draws, ar1_chains(0.9)):
        ours = bc.multichain_ess(draws)
        theirs = [float(az.ess(az.convert_to_dataset({"x": draws[..., p]}), method="mean")["x"])
                  for p in range(draws.shape[-1])]
        # ArviZ adds Geyer's monotone step, which changes the truncation only slightly.
        np.testing.assert_allclose(ours, theirs, rtol=0.005)


def test_ar1_ess_is_near_its_theoretical_value():
    phi, chains = 0.5, ar1_chains(0.5, n_draw=20_000)
    theory = chains[..., 0].size * (1 - phi) / (1 + phi)
    assert bc.multichain_ess(chains)[0] == pytest.approx(theory, rel=0.1)


def test_chains_stuck_apart_get_a_tiny_multichain_ess_but_a_large_per_chain_one():
    chains = ar1_chains(0.5)
    chains[:2] += 10.0
    assert bc.effective_sample_size(chains)[0] > 1000
    assert bc.multichain_ess(chains)[0] < 10
