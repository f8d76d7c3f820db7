"""Tests written to kill the mutants that survived the mutation study (`make mutation`).

Each test names the behaviour the surviving mutant changed without any other test noticing;
the README's mutation table says which survivors are left and why they do not matter.
"""
import numpy as np

import bayescomp as bc


def gaussian_log_density(mean, cov):
    """The normalized log density of N(mean, cov) in 2-D, vectorized over leading axes."""
    mean, cov = np.asarray(mean), np.asarray(cov)
    precision, (_, log_det) = np.linalg.inv(cov), np.linalg.slogdet(cov)

    def log_density(theta):
        centred = theta - mean
        return (-0.5 * np.einsum("...i,ij,...j->...", centred, precision, centred)
                - np.log(2 * np.pi) - 0.5 * log_det)
    return log_density


def test_weight_second_moment_on_an_anisotropic_pair_matches_the_closed_form():
    # Survivors: the quadrature's angles (2 pi / n turned into 2 pi * n puts every point on one
    # ray) and the proposal's log determinant. The existing test uses an isotropic target and
    # proposal, for which neither matters. Here p = N(m, P) and q = N(m, Q) are both tilted:
    # E_q[w^2] = |Q| / sqrt(|P| |2Q - P|), reached well inside radius 10.
    mean = np.array([0.3, -0.2])
    target_cov = np.array([[1.5, 0.3], [0.3, 0.5]])
    proposal_cov = np.array([[1.2, -0.2], [-0.2, 0.9]])
    exact = np.linalg.det(proposal_cov) / np.sqrt(
        np.linalg.det(target_cov) * np.linalg.det(2 * proposal_cov - target_cov))
    computed = bc.weight_second_moment_within(gaussian_log_density(mean, target_cov), 0.0, mean,
                                              proposal_cov, [10.0], steps_per_unit=100)
    np.testing.assert_allclose(computed, [exact], rtol=1e-4)


def test_hmc_with_a_tiny_step_conserves_energy_and_accepts_every_trajectory():
    # Survivors: the kinetic energy (0.5 * sum r^2 / m turned into 0.5 / sum ...) and the sign
    # of the end point's potential energy. Both break the Hamiltonian's conservation, which is
    # the whole point of HMC: with a step of 0.01 the leapfrog error is about 1e-5, every
    # trajectory is accepted, and the energy kept is the start's or the end's Hamiltonian.
    target = bc.gaussian_target([1.0, -2.0], [[1.0, 0.6], [0.6, 2.0]])
    run = bc.hmc_chain(target.log_density, target.grad_log_density, [0.5, -1.0], 0.01, 5, 200,
                       np.random.default_rng(7))
    assert np.max(np.abs(run.energy_errors)) < 1e-3
    assert run.accept_rate == 1.0 and not run.divergent.any()
    # The Hamiltonian is at least the potential energy of the state kept (kinetic >= 0).
    assert np.all(run.energies >= -target.log_density(run.draws) - 1e-12)


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
