"""The lecture's protocol as one plain NumPy script, and a benchmark of the package against it.

The plain version has no validation, no NamedTuples and no imports beyond NumPy: it is the floor
the package is measured against. The issue's target is ``bayescomp.book.run_lecture()`` within 1.2x of
this script's time. Both must print the same numbers, so the benchmark checks that first.

Usage (from the repository root, in the project venv)::

    python -m tools.benchmarks.plain_numpy_lecture            # checks, ratio, ESS per second
    python -m tools.benchmarks.plain_numpy_lecture --plain    # run the plain script once

Timings on a shared machine are noisy, so each repeat runs both in fresh processes (imports
included, as a reader pays them), interleaved, and the median ratio is reported, by wall clock
and by CPU time (the latter is less disturbed by other work on the machine). It also reports
the ESS per second of Metropolis and HMC on the book's posterior.
"""
import os
import subprocess
import sys
import time

import numpy as np

# The protocol's settings (design notes, "The numerical protocol").
DATA_SEED, N_OBS, THETA_TRUE, PRIOR_VAR = 12, 80, np.array([-0.4, 1.3]), 4.0
GRID_AXES = ((-2.5, 1.5), (0.0, 2.8))
GRID_POINTS, NEWTON_STEPS = 241, 12
IS_RUNS = (("prior", 20_000, 2), ("laplace", 5_000, 3))
MCMC_STARTS = np.array([(-2.0, 0.0), (1.0, 0.3), (-1.0, 2.5), (1.0, 2.5)])
MCMC_FIRST_SEED, MCMC_SCALE, MCMC_STEPS, MCMC_WARMUP = 20, 1.1, 12_000, 2_000
VI_SEED, VI_STEPS, VI_SAMPLES, VI_LR, BETAS, ADAM_EPS = 31, 1_500, 256, 0.03, (0.9, 0.999), 1e-8


def sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def simulate_data():
    rng = np.random.default_rng(DATA_SEED)
    x = rng.uniform(-2.5, 2.5, N_OBS)
    design = np.column_stack([np.ones_like(x), x])
    y = rng.binomial(1, sigmoid(design @ THETA_TRUE)).astype(float)
    return design, y


def posterior(design, y):
    """log p~, its gradient and minus its Hessian, written exactly as the package writes them."""
    def log_density(theta):
        eta = theta @ design.T
        log_lik = np.sum(y * eta - np.logaddexp(0.0, eta), axis=-1)
        return log_lik - np.sum(theta**2, axis=-1) / (2 * PRIOR_VAR)

    def grad(theta):
        return (y - sigmoid(theta @ design.T)) @ design - theta / PRIOR_VAR

    def neg_hessian(theta):
        p = sigmoid(design @ theta)
        return (design.T * (p * (1 - p))) @ design + np.eye(2) / PRIOR_VAR

    return log_density, grad, neg_hessian


def grid_moments(log_density):
    # Weights exp(log p~ - max), normalized; moments are weighted sums over the grid.
    axes = [np.linspace(low, high, GRID_POINTS) for low, high in GRID_AXES]
    points = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
    log_values = log_density(points)
    weights = np.exp(log_values - log_values.max())
    weights /= weights.sum()
    flat_points, flat_weights = points.reshape(-1, 2), weights.reshape(-1)
    mean = flat_weights @ flat_points
    centred = flat_points - mean
    cov = (centred * flat_weights[:, None]).T @ centred
    return mean, cov


def laplace(grad, neg_hessian):
    # Twelve Newton steps from 0, no early stop; the covariance is the inverse of -Hessian.
    theta = np.zeros(2)
    for _ in range(NEWTON_STEPS):
        theta = theta + np.linalg.solve(neg_hessian(theta), grad(theta))
    return theta, np.linalg.inv(neg_hessian(theta))


def importance(log_density, mean, cov, n_draws, seed):
    # log q with slogdet and the inverse covariance, as the protocol says.
    draws = np.random.default_rng(seed).multivariate_normal(mean, cov, n_draws)
    _, logdet = np.linalg.slogdet(cov)
    centred = draws - mean
    mahalanobis = np.einsum("...i,ij,...j->...", centred, np.linalg.inv(cov), centred)
    log_weights = log_density(draws) + 0.5 * (2 * np.log(2 * np.pi) + logdet + mahalanobis)
    weights = np.exp(log_weights - log_weights.max())
    weights /= weights.sum()
    return weights @ draws, 1.0 / np.sum(weights**2), weights.max()


def metropolis(log_density, chol):
    """The chains in lockstep, one log-density call per step for all of them, as the package
    runs them, each chain with its own generator."""
    rngs = [np.random.default_rng(MCMC_FIRST_SEED + c) for c in range(len(MCMC_STARTS))]
    current = MCMC_STARTS.astype(float)
    current_lp = log_density(current)
    draws, n_accepted = np.empty((len(rngs), MCMC_STEPS, 2)), np.zeros(len(rngs))
    normals, uniforms = np.empty((len(rngs), 2)), np.empty(len(rngs))
    for step in range(MCMC_STEPS):
        # Per chain and step: two normals, then one uniform; the order fixes every draw.
        for c, rng in enumerate(rngs):
            normals[c], uniforms[c] = rng.standard_normal(2), rng.random()
        # L eps column by column, in the package's fixed order of operations.
        proposal = current + (normals[:, :1] * chol[:, 0] + normals[:, 1:] * chol[:, 1])
        proposal_lp = log_density(proposal)
        accepted = np.log(uniforms) < proposal_lp - current_lp
        current = np.where(accepted[:, None], proposal, current)
        current_lp = np.where(accepted, proposal_lp, current_lp)
        draws[:, step], n_accepted = current, n_accepted + accepted
    return draws[:, MCMC_WARMUP:], n_accepted / MCMC_STEPS


def adam_step(param, grad, moments, step):
    # Bias-corrected Adam ascent; moments are updated in place.
    first, second = moments
    first[:] = BETAS[0] * first + (1 - BETAS[0]) * grad
    second[:] = BETAS[1] * second + (1 - BETAS[1]) * grad**2
    first_hat = first / (1 - BETAS[0] ** step)
    second_hat = second / (1 - BETAS[1] ** step)
    return param + VI_LR * first_hat / (np.sqrt(second_hat) + ADAM_EPS)


def mean_field(grad, mean, log_sd):
    rng = np.random.default_rng(VI_SEED)
    # Separate Adam moments for m and for log s; theta = m + s * noise (reparameterization).
    moments_mean, moments_log_sd = [np.zeros(2), np.zeros(2)], [np.zeros(2), np.zeros(2)]
    for step in range(1, VI_STEPS + 1):
        noise = rng.standard_normal((VI_SAMPLES, 2))
        sd = np.exp(log_sd)
        g = grad(mean + sd * noise)
        grad_log_sd = (g * sd * noise).mean(axis=0) + 1.0
        mean = adam_step(mean, g.mean(axis=0), moments_mean, step)
        log_sd = adam_step(log_sd, grad_log_sd, moments_log_sd, step)
    return mean, np.exp(log_sd)


def run_plain():
    """Every method of the lecture, in order; returns the numbers the lecture prints."""
    design, y = simulate_data()
    log_density, grad, neg_hessian = posterior(design, y)
    grid_mean, grid_cov = grid_moments(log_density)
    mode, cov = laplace(grad, neg_hessian)
    proposals = {"prior": (np.zeros(2), PRIOR_VAR * np.eye(2)), "laplace": (mode, cov)}
    is_runs = [importance(log_density, *proposals[name], n_draws, seed)
               for name, n_draws, seed in IS_RUNS]
    chol = MCMC_SCALE * np.linalg.cholesky(cov)
    draws, acceptance = metropolis(log_density, chol)
    vi_mean, vi_sd = mean_field(grad, mode, np.log(np.sqrt(np.diag(cov))))
    return {"grid mean": grid_mean, "grid cov": grid_cov, "MAP": mode, "Laplace cov": cov,
            "IS prior": np.hstack(is_runs[0]), "IS Laplace": np.hstack(is_runs[1]),
            "draws": draws, "acceptance": acceptance,
            "VI": np.hstack([vi_mean, vi_sd])}


def package_numbers(r=None):
    """The same numbers from ``bayescomp.book.run_lecture`` (or from its results ``r``)."""
    if r is None:
        import bayescomp.book
        r = bayescomp.book.run_lecture()
    return {"grid mean": r.grid.mean, "grid cov": r.grid.cov, "MAP": r.laplace.mean,
            "Laplace cov": r.laplace.cov,
            "IS prior": np.hstack([r.is_prior.mean, r.is_prior.ess, r.is_prior.max_weight]),
            "IS Laplace": np.hstack([r.is_laplace.mean, r.is_laplace.ess,
                                     r.is_laplace.max_weight]),
            "draws": r.chains.draws, "acceptance": r.chains.accept_rates,
            "VI": np.hstack([r.vi.mean, r.vi.sd])}


def assert_same_numbers():
    """The plain script and the package agree bit for bit, or the timing means nothing."""
    plain, package = run_plain(), package_numbers()
    different = [name for name in plain if not np.array_equal(plain[name], package[name])]
    assert not different, f"plain script and package differ in {different}"
    return sorted(plain)


# Each timed run is a fresh interpreter, so imports count as they do for a reader.
PLAIN_RUN = [sys.executable, __file__, "--plain"]
PACKAGE_RUN = [sys.executable, "-c", "import bayescomp.book; bayescomp.book.run_lecture()"]


def timed_run(command):
    """Wall-clock and CPU seconds (user + system) of one child process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return wall, cpu


def time_side_by_side(repeats):
    """Interleave plain and package runs; return per-pair ratios and each side's times."""
    plain, package = [], []
    for _ in range(repeats):
        # Alternating keeps a change in machine load from favouring one side.
        plain.append(timed_run(PLAIN_RUN))
        package.append(timed_run(PACKAGE_RUN))
    plain, package = np.array(plain), np.array(package)
    return package / plain, plain, package


def hmc_settings(laplace):
    """HMC on the book's posterior: mass = Laplace precision diagonal, trajectory ~1.5 sd."""
    return dict(step_size=0.5, n_leapfrog=3, mass=1 / laplace.sd**2)


def ess_per_second():
    """Bulk and tail ESS (worst parameter) per CPU second of Metropolis and HMC, four chains."""
    import bayescomp as bc
    from bayescomp import book
    settings = book.LectureSettings()
    _, target = book.lecture_problem(settings)
    laplace = bc.laplace_approximation(target, np.zeros(2), settings.newton_steps)
    rngs = [np.random.default_rng(settings.mcmc_first_seed + c) for c in range(4)]
    # CPU time of this process: other work on a shared machine does not count against it.
    start = time.process_time()
    metropolis_draws = bc.run_metropolis_chains(target, settings.mcmc_starts,
                                     settings.mcmc_scale * np.linalg.cholesky(laplace.cov),
                                     settings.mcmc_steps, rngs, settings.mcmc_warmup).draws
    metropolis_seconds = time.process_time() - start
    rngs = [np.random.default_rng(40 + c) for c in range(4)]
    start = time.process_time()
    hmc = bc.run_hmc_chains(target, settings.mcmc_starts,
                            n_steps=2_500, rngs=rngs, n_warmup=500, **hmc_settings(laplace))
    hmc_seconds = time.process_time() - start
    return {name: (draws.shape, seconds, bc.ess_bulk(draws).min(), bc.ess_tail(draws).min())
            for name, draws, seconds in (("Metropolis", metropolis_draws, metropolis_seconds),
                                         ("HMC", hmc.draws, hmc_seconds))}


def report(repeats=5):
    checked = assert_same_numbers()
    print(f"plain script and run_lecture agree bit for bit on: {', '.join(checked)}")
    ratios, plain, package = time_side_by_side(repeats)
    print(f"{repeats} interleaved runs in fresh processes, imports included:")
    print(f"  plain NumPy  median {np.median(plain[:, 0]):.2f} s wall, "
          f"{np.median(plain[:, 1]):.2f} s CPU")
    print(f"  run_lecture  median {np.median(package[:, 0]):.2f} s wall, "
          f"{np.median(package[:, 1]):.2f} s CPU")
    print(f"  ratio run_lecture / plain: median {np.median(ratios[:, 0]):.3f} wall, "
          f"{np.median(ratios[:, 1]):.3f} CPU (target <= 1.2)")
    print("ESS per CPU second on the book's posterior (worst parameter, four chains):")
    for name, (shape, seconds, bulk, tail) in ess_per_second().items():
        print(f"  {name:10} {shape[0]} x {shape[1]} kept draws in {seconds:.2f} CPU s: "
              f"bulk ESS {bulk:.0f} ({bulk / seconds:.0f}/s), tail ESS {tail:.0f} "
              f"({tail / seconds:.0f}/s)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--plain"]:
        run_plain()
    else:
        report()
