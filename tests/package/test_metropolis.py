"""Random-walk Metropolis in lockstep: batched chains are the single chains, by either source of
random numbers, and one transition is the rule the chapter teaches."""
import numpy as np
import pytest

import bayescomp as bc

RNG = np.random.default_rng
STARTS = np.array([[0.0, 0.0], [2.0, -1.0], [-1.0, -3.0]])
CHOL = np.linalg.cholesky(np.array([[0.5, 0.2], [0.2, 0.8]]))


@pytest.fixture(scope="module")
def gaussian():
    return bc.gaussian_target([1.0, -2.0], [[1.0, 0.6], [0.6, 2.0]])


def test_lockstep_chains_are_the_single_chains(gaussian):
    run = bc.run_metropolis_chains(gaussian, STARTS, CHOL, 200, [RNG(c) for c in range(3)])
    for c, start in enumerate(STARTS):
        single = bc.metropolis_chain(gaussian, start, CHOL, 200, RNG(c))
        np.testing.assert_array_equal(run.draws[c], single.draws)
        assert run.accept_rates[c] == single.accept_rate


def test_one_shared_generator_gives_one_chain_the_single_run(gaussian):
    shared = bc.run_metropolis_chains(gaussian, STARTS[:1], CHOL, 200, RNG(4))
    single = bc.metropolis_chain(gaussian, STARTS[0], CHOL, 200, RNG(4))
    np.testing.assert_array_equal(shared.draws[0], single.draws)


def test_a_shared_generator_batch_replays_chain_by_chain(gaussian):
    n_steps, chain = 100, 1
    run = bc.run_metropolis_chains(gaussian, STARTS, CHOL, n_steps, RNG(9))
    rng = RNG(9)
    state = (STARTS[chain:chain + 1], gaussian.log_density(STARTS[chain:chain + 1]))
    for step in range(n_steps):
        normals = rng.standard_normal((3, 2))[chain:chain + 1]
        log_u = np.log(rng.random(3)[chain:chain + 1])
        state = bc.metropolis.metropolis_transition(gaussian.log_density, state, normals, log_u,
                                                    CHOL)[0]
        np.testing.assert_array_equal(state[0][0], run.draws[chain, step])


def test_a_transition_moves_exactly_when_log_u_is_below_the_log_ratio(gaussian):
    position = np.array([[1.0, -2.0], [1.0, -2.0]])
    state = (position, gaussian.log_density(position))
    normals = np.array([[1.0, 0.0], [1.0, 0.0]])
    proposal = position[0] + CHOL[:, 0]
    log_ratio = gaussian.log_density(proposal) - gaussian.log_density(position[0])
    (moved, values), proposals, accepted = bc.metropolis.metropolis_transition(
        gaussian.log_density, state, normals, np.array([log_ratio - 1e-9, log_ratio + 1e-9]), CHOL)
    np.testing.assert_allclose(proposals[0], proposal, rtol=0, atol=1e-15)
    assert accepted.tolist() == [True, False]
    np.testing.assert_array_equal(moved[1], position[1])
    assert values[0] == pytest.approx(gaussian.log_density(proposal))


def test_shared_generator_chains_sample_the_target(gaussian):
    run = bc.run_metropolis_chains(gaussian, np.tile([1.0, -2.0], (200, 1)), 1.2 * CHOL, 400,
                        RNG(5), n_warmup=100)
    pooled = run.draws.reshape(-1, 2)
    np.testing.assert_allclose(pooled.mean(axis=0), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(np.cov(pooled.T), [[1.0, 0.6], [0.6, 2.0]], atol=0.1)


def test_thinning_keeps_every_thin_th_draw_after_warm_up(gaussian):
    full = bc.run_metropolis_chains(gaussian, STARTS, CHOL, 120, [RNG(c) for c in range(3)], 20)
    thinned = bc.run_metropolis_chains(gaussian, STARTS, CHOL, 120, [RNG(c) for c in range(3)],
                            20, thin=7)
    np.testing.assert_array_equal(thinned.draws, full.draws[:, 6::7])
    np.testing.assert_array_equal(thinned.accept_rates, full.accept_rates)


@pytest.mark.parametrize("thin", [0, 101, 2.5])
def test_thinning_must_leave_a_draw(gaussian, thin):
    with pytest.raises(ValueError, match=r"thin must be an integer in \[1, n_steps - n_warmup\]"):
        bc.run_metropolis_chains(gaussian, STARTS, CHOL, 120, [RNG(c) for c in range(3)], 20,
                      thin=thin)
