"""Write the golden values that the widgets' engine must reproduce, from the package.

Usage: python -m tests.engine.golden [OUT.json]   (default _build/widgets/golden.json)

Deterministic functions are compared at fixed inputs; stochastic ones are replayed: the file
holds the very NumPy draws the package consumed (recorded from a generator with the same seed,
in the protocol's order), and the engine, fed those draws, must give the package's results.
Non-finite numbers are written as null (JSON has no inf).

The engine's tests read the data and settings from the data script the pages load
(``bayescomp-widgets-data.js``), not from here: this file holds the package's answers, and the
lecture's data set as ``lecture_problem`` simulates it, to check that script against.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np

import bayescomp as bc
from bayescomp import book
from bayescomp.book import widgets
from tools.toc import ROOT

DEFAULT_OUT = ROOT / "_build" / "widgets" / "golden.json"


def plain(value):
    """Arrays and NumPy scalars as lists and floats; inf and nan as None."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(item) for item in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def problem(prior_sd=2.0, n_obs=80):
    """The book's data cut to the first ``n_obs`` observations, under prior sd ``prior_sd``."""
    data, _ = book.lecture_problem()
    cut = bc.LogisticData(data.x[:n_obs], data.design[:n_obs], data.y[:n_obs], data.theta_true)
    return bc.logistic_posterior(cut, prior_sd**2)


def densities(target, points, hessian_points):
    return {"points": points, "log_density": target.log_density(points),
            "grad": target.grad_log_density(points),
            "hessian_points": hessian_points,
            "neg_hessian": [target.neg_hessian(p) for p in hessian_points]}


def grid_case(prior_sd, n_obs, bounds, resolution=241):
    target = problem(prior_sd, n_obs)
    grid = bc.grid_posterior(target.log_density, bounds, resolution)
    laplace = bc.laplace_approximation(target, np.zeros(2))
    x_new = [-2.0, 0.0, 2.0]
    x_curve = np.linspace(-4.0, 4.0, 41)      # the explorer's curve spans the data's range +- 1.5
    return {"prior_sd": prior_sd, "n": n_obs, "bounds": bounds, "resolution": resolution,
            "mean": grid.mean, "cov": grid.cov, "sd": grid.sd, "corr": grid.corr,
            "marginals": grid.marginals, "max_log_density": grid.log_density.max(),
            "laplace": {"mean": laplace.mean, "cov": laplace.cov, "sd": laplace.sd},
            "x_new": x_new, "plug_in": bc.posterior_predictive(x_new, laplace.mean),
            "grid_predictive": bc.posterior_predictive(x_new, grid.points, grid.weights),
            "x_curve": x_curve,
            "curve": bc.posterior_predictive(x_curve, grid.points, grid.weights)}


def wide_grid_case(prior_sd, n_obs, n_sd=25, resolution=751):
    """The posterior's moments on a box far wider than it: the MAP +- 25 Laplace sds, 751
    points a side (converged to about 1e-7 here even where the posterior is most skewed). The
    explorer's grid must match them."""
    target = problem(prior_sd, n_obs)
    laplace = bc.laplace_approximation(target, np.zeros(2))
    bounds = np.stack([laplace.mean - n_sd * laplace.sd, laplace.mean + n_sd * laplace.sd], axis=1)
    grid = bc.grid_posterior(target.log_density, bounds, resolution)
    return {"prior_sd": prior_sd, "n": n_obs, "mean": grid.mean, "sd": grid.sd}


def pareto_k(log_weights):
    """k-hat from the package's PSIS when it has one, else from ArviZ (which it matches)."""
    if hasattr(bc, "pareto_smoothed_log_weights"):
        smoothed, k = bc.pareto_smoothed_log_weights(log_weights)
    else:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import arviz
            smoothed, k = arviz.psislw(np.array(log_weights, dtype=float))
    weights = np.exp(smoothed - np.logaddexp.reduce(smoothed))
    return {"log_weights": log_weights, "k": float(k), "smoothed_ess": 1 / np.sum(weights**2),
            "smoothed_sorted": np.sort(smoothed)[-10:]}


def svd_factor(cov):
    """The factor F (draw = mean + F z) that Generator.multivariate_normal uses: from an SVD."""
    _, s, vh = np.linalg.svd(np.asarray(cov, dtype=float))
    return (np.sqrt(s)[:, None] * vh).T


def importance_replay(target, mean, cov, n_draws, seed):
    result = bc.importance_sample(target, mean, cov, n_draws,
                                  np.random.default_rng(seed))
    normals = np.random.default_rng(seed).standard_normal((n_draws, 2))
    factor = svd_factor(cov)
    # The replay is only valid if this is exactly how NumPy made the draws.
    np.testing.assert_allclose(normals @ factor.T + mean, result.draws, rtol=1e-14, atol=1e-14)
    return {"mean_proposal": mean, "cov": cov, "factor": factor, "n": n_draws, "seed": seed,
            "normals": normals.ravel(), "estimate": result.mean, "ess": result.ess,
            "max_weight": result.max_weight, "log_weights_head": result.log_weights[:50],
            "draws_head": result.draws[:50]}


def weighed_draws(target, proposal, n_draws, seed):
    """The package's draws from any proposal, and the estimates it makes from them."""
    result = bc.importance_sample_from(target, proposal, n_draws,
                                       np.random.default_rng(seed))
    return {"name": proposal.name, "draws": result.draws.ravel(),
            "log_q": proposal.log_density(result.draws), "estimate": result.mean,
            "ess": result.ess, "max_weight": result.max_weight,
            "mcse": bc.importance_mcse(result)}


def metropolis_replay(target, start, chol, n_steps, seed):
    normals, uniforms = protocol_draws(seed, n_steps, len(start))
    chain = bc.metropolis_chain(target, start, chol, n_steps,
                                np.random.default_rng(seed), record_proposals=True)
    return {"start": start, "chol": chol, "n_steps": n_steps, "seed": seed,
            "normals": normals, "uniforms": uniforms, "draws": chain.draws.ravel(),
            "accepted": chain.accepted, "accept_rate": chain.accept_rate}


def lecture_walk(target, start, chol, n_steps, seed):
    """The lecture's first chain (proposal factor ``chol``) as a ``chains`` entry."""
    chain = bc.metropolis_chain(target, start, chol, n_steps, np.random.default_rng(seed))
    return chain_replay("the lecture's random walk on the book's posterior",
                        "metropolis.js:MetropolisChain", {"kind": "logistic"}, start,
                        {"chol": chol}, chain.draws, *protocol_draws(seed, n_steps, len(start)))


def vi_replay(target, laplace, n_steps, seed, full_rank):
    rng = np.random.default_rng(seed)
    normals = np.stack([rng.standard_normal((256, 2)) for _ in range(n_steps)])
    common = dict(n_steps=n_steps, rng=np.random.default_rng(seed), n_samples=256, lr=0.03)
    if full_rank:
        init_chol = np.linalg.cholesky(laplace.cov)
        fit = bc.full_rank_vi(target, laplace.mean, init_chol, **common)
        result = {"init_chol": init_chol, "chol": fit.chol, "cov": fit.cov}
    else:
        fit = bc.mean_field_vi(target, laplace.mean, np.log(laplace.sd), **common)
        result = {"init_log_sd": np.log(laplace.sd), "sd": fit.sd}
    return {**result, "init_mean": laplace.mean, "n_steps": n_steps, "seed": seed,
            "n_samples": 256, "lr": 0.03, "normals": normals.ravel(), "mean": fit.mean,
            "elbo": fit.elbo}


def hmc_replay(target, start, mass, step_size, n_leapfrog, n_steps, seed):
    """The package's HMC chain and the draws it consumed: per step d normals, then a uniform."""
    chain = bc.hmc_chain(target, start, step_size,
                         n_leapfrog, n_steps, np.random.default_rng(seed), mass=mass)
    dim = len(start)
    normals, uniforms = protocol_draws(seed, n_steps, dim)
    # The first trajectories, each from the state before its iteration, with its momentum.
    states = np.vstack([start, chain.draws[:19]])
    scale = np.sqrt(mass) if mass is not None else np.ones(dim)
    paths = [bc.leapfrog(target.grad_log_density, state, scale * z, step_size, n_leapfrog,
                         mass=mass).positions for state, z in zip(states, normals.reshape(-1, dim))]
    return {"start": start, "mass": mass, "step_size": step_size, "n_leapfrog": n_leapfrog,
            "paths": paths,
            "n_steps": n_steps, "normals": normals, "uniforms": uniforms,
            "draws": chain.draws.ravel(), "divergent": chain.divergent,
            "energies": chain.energies, "energy_errors": chain.energy_errors,
            "accept_rate": chain.accept_rate}


def hierarchical_case():
    """Eight schools: densities and gradients of both forms, and HMC replays on each: one with a
    step large enough to diverge in the centred funnel (and then barely move), and one that
    moves (seed 92: 71% accepted in the centred form) and still diverges 8 times,
    as the widget's chains do."""
    data = bc.hierarchical_data()
    reference = bc.hierarchical_reference(data)
    centred_points = bc.exact_draws(data, reference, 60, np.random.default_rng(3))
    starts = np.round(bc.exact_draws(data, reference, 2, np.random.default_rng(70)), 4)
    case = {"y": data.y, "sigma": data.sigma, "mu_prior_sd": data.mu_prior_sd,
            "tau_prior_scale": data.tau_prior_scale, "forms": {}, "chains": []}
    for form in bc.hierarchical.FORMS:
        target = bc.hierarchical_target(data, form)
        points = centred_points if form == "centred" else bc.to_noncentred(centred_points)
        sd = np.round(reference.sd if form == "centred" else reference.noncentred_sd, 3)
        start = starts[0] if form == "centred" else np.round(bc.to_noncentred(starts)[0], 4)
        case["forms"][form] = {
            "points": points, "log_density": target.log_density(points),
            "grad": target.grad_log_density(points),
            "hmc": [hmc_replay(target, start, 1 / sd**2, step, n_leapfrog, 300, seed)
                    for step, n_leapfrog, seed in ((0.2, 10, 90), (0.45, 5, 91), (0.2, 10, 92))]}
        case["chains"].append(walk_replay(
            f"the funnel widget's random walk, {form} eight schools", target,
            {"kind": "eight-schools", "form": form}, start,
            bc.hmc.RWM_OPTIMAL_SCALE / np.sqrt(target.dim) * sd, 2000, 80))
    # The funnel widget's exact picture: the joint density of (theta_1, log tau) at its nodes.
    shown = widgets.funnel_data()["reference"]
    nodes = np.searchsorted(reference.log_tau_grid, np.array(shown["log_tau"]) - 1e-9)
    theta = np.linspace(-30.0, 45.0, 31)
    case["funnel_density"] = {"theta": theta,
                              "density": bc.log_tau_theta_density(reference, 0, theta)[nodes]}
    return case


def protocol_draws(seed, n_steps, dim):
    """What a generator with this seed gives a Metropolis or HMC step, in the protocol's order:
    per step d normals, then a uniform. Returned as the two streams a replay source serves."""
    rng = np.random.default_rng(seed)
    normals, uniforms = np.empty((n_steps, dim)), np.empty(n_steps)
    for step in range(n_steps):
        normals[step] = rng.standard_normal(dim)
        uniforms[step] = rng.random()
    return normals.ravel(), uniforms


def chain_replay(name, engine, target, start, options, states, normals, uniforms):
    """One entry of ``chains``, which engine.test.mjs replays with no code of its own.

    ``engine`` is ``"file.js:Class"`` in code/widgets/engine/, a chain shaped like
    ``HMCChain(target, start, options, rng)`` with ``step()`` and ``state``; ``target`` names an
    engine target (see TARGETS in engine.test.mjs) and its arguments; ``options`` are the
    class's own (camelCase); ``states`` the package's chain, one row per step; ``normals`` and
    ``uniforms`` the draws its generator gave, each stream in the order they were used.
    """
    module, cls = engine.split(":")
    return {"name": name, "module": module, "class": cls, "target": target, "start": start,
            "options": options, "states": np.asarray(states).tolist(), "normals": normals,
            "uniforms": uniforms}


def walk_replay(name, target, target_spec, start, scale, n_steps, seed):
    """The package's random walk with the proposal diag(scale), as a ``chains`` entry."""
    chain = bc.metropolis_chain(target, start, np.diag(scale), n_steps,
                                np.random.default_rng(seed))
    return chain_replay(name, "metropolis.js:MetropolisChain", target_spec, start,
                        {"scale": scale}, chain.draws,
                        *protocol_draws(seed, n_steps, len(start)))


def dimension_case():
    """Chapter 6's standard Gaussian: tuning, chi_d moments and densities, and replays of the
    random walk and HMC in d = 10 and 16."""
    dims = [1, 2, 3, 5, 10, 16, 50, 81, 100]
    chi_mean = [math.sqrt(2) * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))
                for d in dims]
    radii = [0.1, 0.5, 1.0, 3.0, 9.5]
    density = [[math.exp((d - 1) * math.log(r) - r * r / 2 - (d / 2 - 1) * math.log(2)
                         - math.lgamma(d / 2)) for r in radii] for d in dims]
    replays, chains = [], []
    for d, seed in ((10, 5), (16, 6)):
        tuning = book.dimension_tuning(d)
        target = bc.gaussian_target(np.zeros(d), np.eye(d))
        start = np.random.default_rng(seed + 100).standard_normal(d)
        chains.append(walk_replay(f"the dimension widget's random walk, N(0, I_{d})", target,
                                  {"kind": "standard-gaussian", "d": d}, start,
                                  np.full(d, tuning["rwm_scale"]), 300, seed))
        hmc = hmc_replay(target, start, np.ones(d), tuning["step_size"], tuning["n_leapfrog"],
                         200, seed)
        # The target itself, at a few points: the package's log density is normalized and the
        # engine's is not, so the replay compares each point's difference from the first.
        points = np.random.default_rng(seed + 200).standard_normal((5, d)) * 1.5
        replays.append({"d": d, "points": points, "log_density": target.log_density(points),
                        "grad": target.grad_log_density(points),
                        "tuning": tuning, "hmc": hmc})
    return {"dims": dims, "tuning": [book.dimension_tuning(d) for d in dims], "chi_mean": chi_mean,
            "rwm_scale": bc.hmc.RWM_OPTIMAL_SCALE, "path_length": book.chapters.DIMENSION_PATH_LENGTH,
            "radii": radii, "chi_density": density, "replays": replays, "chains": chains,
            "chi_cdf": [[chi_cdf(r, d) for r in radii + [math.sqrt(d), 14.0]] for d in dims]}


def chi_cdf(r, d):
    """P(|x| <= r) for x ~ N(0, I_d), exactly: P(1/2, x) = erf(sqrt x) or P(1, x) = 1 - e^-x,
    then P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1), with x = r^2 / 2."""
    x = r * r / 2
    a, p = (0.5, math.erf(math.sqrt(x))) if d % 2 else (1.0, -math.expm1(-x))
    while a < d / 2:
        p -= math.exp(a * math.log(x) - x - math.lgamma(a + 1))
        a += 1
    return p


def diagnostics_case(draws):
    return {"draws": np.moveaxis(draws, -1, 0),        # (param, chain, draw) for the engine
            "rhat": bc.split_rhat(draws), "ess": bc.effective_sample_size(draws),
            "mcse": bc.mcse(draws), "rank": rank_values(draws)}


def rank_values(draws):
    """The production diagnostics (Vehtari et al., 2021) of (chain, draw, param) draws, and the
    classic split R-hat beside them; R-hat is NaN (null) for one chain, as the engine gives it."""
    two = draws.shape[0] > 1
    nan = np.full(draws.shape[2], np.nan)
    return {"rhat": bc.rank_normalized_rhat(draws) if two else nan,
            "split_rhat": bc.split_rhat(draws) if two else nan,
            "ess_bulk": bc.ess_bulk(draws), "ess_tail": bc.ess_tail(draws),
            "ess_mean": bc.ess_mean(draws), "mcse_mean": bc.mcse_mean(draws)}


def rank_case(name, *params):
    """A named case of one or more parameters, each (chain, draw), all of the same shape."""
    draws = np.stack([np.asarray(p, dtype=float) for p in params], axis=-1)
    return {"name": name, "draws": np.moveaxis(draws, -1, 0), **rank_values(draws)}


def ar1(rng, shape, phi):
    """AR(1) chains x_t = phi x_{t-1} + e_t of shape (chain, draw, ...), from x_0 = e_0."""
    noise = rng.standard_normal(shape)
    draws = np.empty(shape)
    draws[:, 0] = noise[:, 0]
    for t in range(1, shape[1]):
        draws[:, t] = phi * draws[:, t - 1] + noise[:, t]
    return draws


def rank_cases():
    """Inputs that exercise each convention of the production diagnostics."""
    rng = np.random.default_rng(2021)
    normal = rng.standard_normal
    offsets = np.arange(4.0)[:, None]
    return [
        rank_case("well mixed", normal((4, 500)), ar1(rng, (4, 500), 0.5)),
        # Chains in different places (R-hat far above 1.01), or of different spreads (only the
        # folded R-hat sees those).
        rank_case("different means, different scales", normal((4, 300)) + offsets,
                  normal((4, 300)) * np.array([1.0, 1.0, 1.0, 3.0])[:, None]),
        # Cauchy draws, one chain shifted by 1: ranks see the shift, the classic R-hat does not.
        rank_case("heavy tails", np.random.default_rng(40).standard_cauchy((4, 1000))
                  + np.array([0.0, 0.0, 0.0, 1.0])[:, None]),
        # Ties: average ranks, and quantiles that fall on tied values.
        rank_case("ties", rng.poisson(0.3, (4, 200)), rng.random((4, 200)) < 0.1,
                  np.round(normal((4, 200)), 1)),
        # Every draw equal (R-hat NaN, ESS = S); each chain stuck at its own value (R-hat
        # infinite); one stuck chain among moving ones.
        rank_case("constant", np.full((4, 10), 2.5), np.repeat(offsets, 10, axis=1),
                  np.vstack([normal((3, 10)), np.zeros((1, 10))])),
        # Antithetic chains: the floor 1/log10(S) on tau binds.
        rank_case("antithetic", ar1(rng, (4, 300), -0.9)),
        # Odd lengths: the middle draw is left out of the split chains (not of the quantiles).
        rank_case("odd length, 2 x 5", normal((2, 5)), normal((2, 5)) + 1.0),
        rank_case("odd length, 3 x 7", ar1(rng, (3, 7), 0.3)),
        rank_case("one chain", ar1(rng, (1, 101), 0.7)),
        # Short AR(0.3) chains: every pair of Geyer's sequence positive, the last even lag not.
        rank_case("short AR(0.3), 4 x 11", ar1(np.random.default_rng(4), (4, 11), 0.3)),
        # S = 21: the 5% quantile's index (S - 1) 0.05 = 1 is whole, so numpy's interpolation
        # returns the draw there, 0.1 (0.7 - (0.7 - 0.1) from the far side would not be 0.1).
        rank_case("quantile on a draw, 3 x 7", np.random.default_rng(83).permutation(
            np.r_[-1.0, 0.1, 0.7, np.linspace(0.8, 2.5, 18)]).reshape(3, 7)),
    ]


def ar1_chains(seed, n_chain, n_draw, phi):
    """Two parameters of AR(1) chains, the second's chain c shifted by 0.3 c."""
    draws = ar1(np.random.default_rng(seed), (n_chain, n_draw, 2), phi)
    return draws + np.array([0.0, 0.3]) * np.arange(n_chain)[:, None, None]


def normal_quantile_case():
    """The normal quantile in each of AS241's three regions, their edges, and near 0, 1/2, 1."""
    from bayescomp._special import normal_quantile

    p = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 1e-3, 0.02, 0.074, 0.075, 0.0751, 0.1, 0.3,
         0.5 - 1e-12, 0.5, 0.5 + 1e-12, 0.7, 0.9249, 0.925, 0.93, 0.999, 1 - 1e-10, 1 - 2**-53]
    return {"p": p, "z": normal_quantile(p)}


def golden():
    lecture = book.run_lecture()
    s, target, laplace = lecture.settings, lecture.target, lecture.laplace
    data, _ = book.lecture_problem(s)
    rng = np.random.default_rng(0)
    points = rng.uniform([-2.5, 0.0], [1.5, 2.8], size=(100, 2))
    two = widgets.two_mode_target()
    mixture_points = rng.uniform([-5.0, -3.0], [5.0, 3.0], size=(100, 2))
    lecture_bounds = [list(b) for b in s.grid_bounds]
    grids = [grid_case(sd, n, lecture_bounds) for sd in (0.5, 2.0, 10.0) for n in (20, 80)]
    grids.append(grid_case(10.0, 5, [[-12.0, 10.0], [-6.0, 14.0]], 121))
    two_grid = bc.grid_posterior(two.log_density, widgets.TwoModeSettings().bounds, 241)
    chol = s.mcmc_scale * np.linalg.cholesky(laplace.cov)
    hierarchical, dimension = hierarchical_case(), dimension_case()

    # The proposals of the package's IS chapter: Student-t and the defensive mixture.
    t_mean, t_cov, t_df = laplace.mean, 1.5 * laplace.cov, 4
    prior_cov = s.prior_var * np.eye(2)
    student = bc.student_t_proposal(t_mean, t_cov, t_df)
    defensive = bc.defensive_mixture(bc.gaussian_proposal(t_mean, t_cov),
                                     bc.gaussian_proposal(np.zeros(2), prior_cov), 0.2)

    pareto = np.random.default_rng(6)
    return {
        "lecture_data": {"x": data.x, "y": data.y, "n_obs": s.n_obs},
        "logistic": {"prior_var": s.prior_var, **densities(target, points, points[:10])},
        "two_modes": {**densities(two, mixture_points, mixture_points[:10]),
                      "moments": dict(zip(("mean", "cov"), bc.mixture_moments(
                          *widgets.TwoModeSettings()[:3])))},
        "two_modes_grid": {"bounds": widgets.TwoModeSettings().bounds, "mean": two_grid.mean,
                           "cov": two_grid.cov},
        "grids": grids,
        "wide_grids": [wide_grid_case(sd, n) for sd in (0.25, 2.0, 10.0) for n in (5, 8, 20, 80)],
        "newton": {"steps": s.newton_steps, "mean": laplace.mean, "cov": laplace.cov,
                   "sd": laplace.sd, "grad_norm": laplace.grad_norm},
        "proposals": {"points": points, "mean": t_mean, "cov": t_cov, "df": t_df,
                      "student_t": student.log_density(points),
                      "gaussian": bc.gaussian_log_density(points, t_mean, t_cov),
                      "prior_cov": prior_cov, "fallback_weight": 0.2,
                      "defensive": defensive.log_density(points)},
        "weights": [
            {"name": "prior proposal", **pareto_k(lecture.is_prior.log_weights),
             "ess": lecture.is_prior.ess},
            {"name": "Laplace proposal", **pareto_k(lecture.is_laplace.log_weights),
             "ess": lecture.is_laplace.ess},
            {"name": "Pareto tail k=0.8",
             **pareto_k(0.8 * np.log(pareto.pareto(1.0, 2000) + 1.0) + 0.0),
             "ess": None},
        ],
        # The k-hat bound at the widget's draw counts, its smallest and largest among them.
        "k_hat_thresholds": {"cap": bc.psis.K_HAT_MAX, "draws": [100, 500, 2000, 2200, 20000],
                             "bound": [bc.k_hat_threshold(n) for n in (100, 500, 2000, 2200, 20000)]},
        "diagnostics": [diagnostics_case(lecture.chains.draws),
                        diagnostics_case(ar1_chains(5, 3, 1001, 0.9))],
        "rank_diagnostics": rank_cases(),
        "normal_quantile": normal_quantile_case(),
        "importance": [
            importance_replay(target, np.zeros(2), prior_cov, s.is_prior_draws, s.is_prior_seed),
            importance_replay(target, laplace.mean, laplace.cov, s.is_laplace_draws,
                              s.is_laplace_seed),
        ],
        "importance_draws": [weighed_draws(target, student, 3000, 8),
                             weighed_draws(target, defensive, 3000, 9)],
        "random_walk": metropolis_replay(target, list(s.mcmc_starts[0]), chol, s.mcmc_steps,
                                        s.mcmc_first_seed),
        "vi": [vi_replay(target, laplace, 50, s.vi_seed, full_rank=False),
               vi_replay(target, laplace, 50, 32, full_rank=True)],
        "hierarchical": hierarchical,
        "dimension_case": dimension,
        # Every chain engine.test.mjs replays by itself (chain_replay): add a sampler's here.
        "chains": [lecture_walk(target, list(s.mcmc_starts[0]), chol, s.mcmc_steps,
                                s.mcmc_first_seed),
                   *hierarchical.pop("chains"), *dimension.pop("chains")],
    }


def write(path=DEFAULT_OUT):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plain(golden()), allow_nan=False, separators=(",", ":")))
    return path


if __name__ == "__main__":
    print(write(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT))
