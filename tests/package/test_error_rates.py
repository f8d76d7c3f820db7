"""Error rates of diagnostics over replicate runs: Wilson intervals, miss and false-alarm rates,
and the per-run checks and audits they are computed from."""
import numpy as np
import pytest

import bayescomp as bc


def test_wilson_interval_known_values():
    # Wilson (1927); Brown, Cai and DasGupta (2001), table values for n = 100.
    low, high = bc.wilson_interval(5, 100)
    assert (low, high) == pytest.approx((0.02154, 0.11175), abs=5e-5)
    assert bc.wilson_interval(0, 100) == pytest.approx((0.0, 0.03699), abs=5e-5)
    assert bc.wilson_interval(100, 100)[1] == 1.0
    assert all(np.isnan(bc.wilson_interval(0, 0)))


def test_wilson_interval_covers_at_its_level():
    # Over many binomial samples, the 95% interval contains the true p about 95% of the time.
    rng = np.random.default_rng(0)
    for p in (0.02, 0.3):
        counts = rng.binomial(100, p, size=4000)
        covered = [low <= p <= high for low, high in (bc.wilson_interval(k, 100) for k in counts)]
        assert 0.93 < np.mean(covered) < 0.975


@pytest.mark.parametrize("count, trials", [(-1, 10), (11, 10), (1, -1)])
def test_wilson_interval_refuses_impossible_counts(count, trials):
    with pytest.raises(ValueError, match="count and trials must satisfy 0 <= count <= trials"):
        bc.wilson_interval(count, trials)


def test_error_rates_count_silent_misses_and_false_alarms():
    missed = np.array([True, True, True, True, False, False, False])
    fired = np.array([True, True, False, True, False, True, False])
    rates = bc.error_rates(missed, fired)
    assert (rates.miss.count, rates.miss.trials) == (1, 4)
    assert (rates.false_alarm.count, rates.false_alarm.trials) == (1, 3)
    assert rates.miss.low < 0.25 < rates.miss.high
    silent = bc.silent_misses(missed, np.column_stack([fired, np.zeros(7, dtype=bool)]))
    assert (silent.count, silent.trials) == (1, 7)
    # No accurate run at all: the false-alarm rate is undefined, not zero.
    assert np.isnan(bc.error_rates(np.ones(3, dtype=bool), np.ones(3, dtype=bool)).false_alarm.value)


def test_error_rates_refuse_mismatched_runs():
    with pytest.raises(ValueError, match=r"missed and fired must be boolean arrays of shape \(run,\)"):
        bc.error_rates(np.ones(3, dtype=bool), np.ones(4, dtype=bool))
    with pytest.raises(ValueError, match=r"missed and fired must be boolean arrays"):
        bc.error_rates([1, 0], [True, False])
    with pytest.raises(ValueError, match=r"fired must have shape \(run, diagnostic\)"):
        bc.silent_misses(np.ones(3, dtype=bool), np.ones(3, dtype=bool))


def test_check_runs_judges_each_run_as_failed_checks_does():
    rng = np.random.default_rng(3)
    good = rng.normal(size=(4, 600, 2))
    shifted = good + np.array([0.0, 0.0, 0.0, 2.0])[:, None, None]
    short = rng.normal(size=(4, 600, 2))[:, :60].repeat(10, axis=1)   # sticky: low ESS
    runs = np.stack([good, shifted, short])
    divergent = np.zeros((3, 4, 600), dtype=bool)
    divergent[2, 1, 7] = True
    energies = np.stack([rng.normal(size=(4, 600)), rng.normal(size=(4, 600)),
                         np.cumsum(rng.normal(size=(4, 600)), axis=1)])
    fired = bc.check_runs(runs, divergent, energies)
    for r in range(3):
        names = bc.failed_checks(runs[r], divergent[r], energies[r])
        assert ("R-hat" in names) == fired.rhat[r]
        assert ("ESS" in names) == (fired.ess_bulk[r] or fired.ess_tail[r])
        assert ("divergences" in names) == fired.divergences[r]
        assert ("E-BFMI" in names) == fired.e_bfmi[r]
    assert fired.rhat[:2].tolist() == [False, True] and fired.ess_bulk[[0, 2]].tolist() == [False, True]
    assert fired.divergences.tolist() == [False, False, True]
    assert bc.check_runs(runs).divergences is None


def test_check_runs_needs_runs_of_chains():
    with pytest.raises(ValueError, match=r"draws must have shape \(run, chain, draw, param\)"):
        bc.check_runs(np.zeros((4, 100, 2)))


def test_audit_runs_is_the_audit_of_each_run():
    data = bc.hierarchical_data()
    reference = bc.hierarchical_reference(data, n_nodes=2001)
    draws = bc.exact_draws(data, reference, 3 * 4 * 50, np.random.default_rng(5)).reshape(3, 4, 50, 10)
    together = bc.audit_runs(reference, draws)
    flat = bc.audit_runs(reference, draws.reshape(3, 200, 10), chains=False)
    weights = np.random.default_rng(6).random((3, 200))
    weights /= weights.sum(axis=1, keepdims=True)
    weighted = bc.audit_runs(reference, draws.reshape(3, 200, 10), weights, chains=False)
    for r in range(3):
        for got, want in zip(together, bc.audit(reference, draws[r])):
            np.testing.assert_allclose(got[r], want, rtol=1e-12)
        for got, want in zip(flat, bc.audit(reference, draws[r].reshape(200, 10))):
            np.testing.assert_allclose(got[r], want, rtol=1e-12)
        for got, want in zip(weighted, bc.audit(reference, draws[r].reshape(200, 10), weights[r])):
            np.testing.assert_allclose(got[r], want, rtol=1e-12)
    with pytest.raises(ValueError, match=r"weights must have shape \(run, n\) = \(3, 200\)"):
        bc.audit_runs(reference, draws.reshape(3, 200, 10), weights[:, :10], chains=False)
    with pytest.raises(ValueError, match=r"draws must have shape \(run, chain, draw, J \+ 2\)"):
        bc.audit_runs(reference, draws[0])


def test_check_runs_keeps_each_runs_worst_values():
    rng = np.random.default_rng(4)
    runs = rng.normal(size=(2, 4, 300, 3))
    fired = bc.check_runs(runs)
    for r in range(2):
        assert fired.largest_rhat[r] == pytest.approx(bc.rank_normalized_rhat(runs[r]).max(), rel=1e-12)
        assert fired.smallest_ess_bulk[r] == pytest.approx(bc.ess_bulk(runs[r]).min(), rel=1e-12)
        assert fired.smallest_ess_tail[r] == pytest.approx(bc.ess_tail(runs[r]).min(), rel=1e-12)
