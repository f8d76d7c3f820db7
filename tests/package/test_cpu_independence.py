"""Results that must not depend on the CPU: batched chains equal single chains bit for bit, under
other BLAS kernels and NumPy SIMD targets than this machine's own.

OpenBLAS picks its kernel by CPU (``OPENBLAS_CORETYPE`` forces one) and NumPy its SIMD loops
(``NPY_DISABLE_CPU_FEATURES`` cuts them). An AMD EPYC without AVX-512 runs OpenBLAS's Haswell or
Zen kernels and NumPy's X86_V3 loops; each variant below is run in a fresh interpreter, since
both are read once at import.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import bayescomp as bc

# The dispatch NumPy would use on a CPU without AVX-512 (X86_V3), and the baseline (X86_V2).
NO_AVX512 = "X86_V4 AVX512_ICL AVX512_SPR"
BASELINE = "X86_V3 " + NO_AVX512
VARIANTS = [({}, "this CPU"),
            ({"OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": NO_AVX512}, "Haswell, X86_V3"),
            ({"OPENBLAS_CORETYPE": "Zen"}, "Zen"),
            ({"OPENBLAS_CORETYPE": "Sandybridge", "NPY_DISABLE_CPU_FEATURES": NO_AVX512},
             "Sandybridge, X86_V3"),
            ({"OPENBLAS_CORETYPE": "Prescott", "NPY_DISABLE_CPU_FEATURES": BASELINE},
             "Prescott, baseline")]

# Run in the child: batched HMC and Metropolis chains against the single chains, on a Gaussian
# with a full covariance and on both hierarchical forms; print what must hold, and a digest of
# the hierarchical chains (portable arithmetic: the same bits on every CPU).
CHILD = r"""
import hashlib, json
import numpy as np
import bayescomp as bc
rng = np.random.default_rng
checks, digest = {}, hashlib.sha256()
gaussian = bc.gaussian_target([1.0, -2.0], [[1.0, 0.6], [0.6, 2.0]])
data = bc.hierarchical_data()
reference = bc.hierarchical_reference(data, n_nodes=2001)
# Starts and scales rounded, as chapter 7 rounds them: the reference's own last bits vary.
exact = np.round(bc.exact_draws(data, reference, 3, rng(70)), 4)
cases = {"gaussian": (gaussian, np.array([[0.0, 0.0], [2.0, -1.0], [-1.0, -3.0]]), None),
         "centred": (bc.centred_target(data), exact, 1 / np.round(reference.sd, 3)**2),
         "non-centred": (bc.noncentred_target(data), np.round(bc.to_noncentred(exact), 4),
                         1 / np.round(reference.noncentred_sd, 3)**2)}
for name, (target, starts, mass) in cases.items():
    both = bc.run_hmc_chains(target, starts, 0.3, 7, 40,
                             [rng(s) for s in range(len(starts))], mass=mass)
    single = bc.hmc_chain(target, starts[-1], 0.3, 7, 40,
                          rng(len(starts) - 1), mass=mass)
    walk = bc.run_metropolis_chains(target, starts, 0.3 * np.eye(target.dim), 200,
                         [rng(10 + s) for s in range(len(starts))])
    alone = bc.metropolis_chain(target, starts[-1], 0.3 * np.eye(target.dim), 200,
                                rng(10 + len(starts) - 1))
    checks[name] = [bool(np.array_equal(both.draws[-1], single.draws)),
                    bool(np.array_equal(both.energies[-1], single.energies)),
                    bool(np.array_equal(walk.draws[-1], alone.draws))]
    if name != "gaussian":
        digest.update(both.draws.tobytes() + walk.draws.tobytes())
print(json.dumps({"checks": checks, "digest": digest.hexdigest()}))
"""


def run_child(variables):
    env = {**os.environ, **variables}
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def results():
    return {label: run_child(variables) for variables, label in VARIANTS}


@pytest.mark.parametrize("label", [label for _, label in VARIANTS])
def test_batched_chains_are_the_single_chains(results, label):
    failed = {name: flags for name, flags in results[label]["checks"].items() if not all(flags)}
    assert not failed, (f"under {label}, batched chains differ from single chains "
                        f"([HMC draws, HMC energies, Metropolis draws] per target): {failed}")


def test_hierarchical_chains_have_the_same_bits_on_every_variant(results):
    digests = {label: result["digest"] for label, result in results.items()}
    assert len(set(digests.values())) == 1, digests


def test_a_gaussian_batch_gives_the_same_bits_as_single_points():
    target = bc.gaussian_target([1.0, -2.0, 0.5], [[1.0, 0.6, 0.1], [0.6, 2.0, -0.3],
                                                  [0.1, -0.3, 0.7]])
    points = np.random.default_rng(3).normal(size=(50, 3))
    for function in (target.log_density, target.grad_log_density):
        np.testing.assert_array_equal(function(points), np.array([function(p) for p in points]))
