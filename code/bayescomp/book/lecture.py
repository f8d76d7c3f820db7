"""The lecture's settings in one place, and a function that runs every method on them.

Chapters teach each method by calling it directly; :func:`run_lecture` is for the places that
need all of them at once (the comparison chapter, the exercises, the tests). Every setting is an
argument: change one with ``LectureSettings()._replace(prior_var=0.25)``.
"""
from typing import NamedTuple, Optional

import numpy as np

from ..grid import GridResult, grid_posterior
from ..importance import ImportanceResult, importance_sample
from ..laplace import LaplaceResult, laplace_approximation
from ..metropolis import MetropolisChainsResult, run_metropolis_chains
from ..problem import LogisticData, Target, logistic_posterior, make_data
from ..vi import MeanFieldResult, mean_field_vi


class LectureSettings(NamedTuple):
    """Every number that defines the lecture's runs (the book's protocol)."""

    data_seed: int = 12
    n_obs: int = 80
    theta_true: tuple = (-0.4, 1.3)
    x_range: tuple = (-2.5, 2.5)
    prior_var: float = 4.0
    grid_bounds: tuple = ((-2.5, 1.5), (0.0, 2.8))
    grid_resolution: int = 241
    newton_steps: int = 12
    x_new: tuple = (-2.0, 0.0, 2.0)
    is_prior_draws: int = 20_000
    is_prior_seed: int = 2
    is_laplace_draws: int = 5_000
    is_laplace_seed: int = 3
    mcmc_starts: tuple = ((-2.0, 0.0), (1.0, 0.3), (-1.0, 2.5), (1.0, 2.5))
    mcmc_first_seed: int = 20
    mcmc_scale: float = 1.1
    mcmc_steps: int = 12_000
    mcmc_warmup: int = 2_000
    vi_seed: int = 31
    vi_steps: int = 1_500
    vi_samples: int = 256
    vi_lr: float = 0.03


SAMPLERS = ("importance", "mcmc", "vi")


class LectureResults(NamedTuple):
    """The output of every method on one set of :class:`LectureSettings`.

    The grid and Laplace fields are always filled; a sampler left out of ``run_lecture``'s
    ``methods`` gives ``None`` in its fields. ``vi.elbo`` is ``None`` too: the protocol does not
    use the ELBO trace, which would cost a log-density evaluation per step; call
    :func:`bayescomp.mean_field_vi` directly to watch it.
    """

    settings: LectureSettings
    data: LogisticData
    target: Target
    grid: GridResult
    laplace: LaplaceResult
    is_prior: Optional[ImportanceResult]
    is_laplace: Optional[ImportanceResult]
    chains: Optional[MetropolisChainsResult]
    vi: Optional[MeanFieldResult]


def lecture_problem(settings=LectureSettings()):
    """The data set and its unnormalized posterior for ``settings``."""
    data = make_data(settings.data_seed, settings.n_obs, settings.theta_true, settings.x_range)
    return data, logistic_posterior(data, settings.prior_var)


def run_lecture(settings=LectureSettings(), methods=SAMPLERS):
    """Run the grid, Laplace and the chosen samplers with the protocol's seeds and draw order.

    Parameters
    ----------
    settings : LectureSettings
    methods : sequence of {"importance", "mcmc", "vi"}
        Which of the slower methods to run; the grid and Laplace always run (they are the
        reference and the proposal the others need). Leaving some out saves time in sweeps.

    Returns
    -------
    LectureResults
    """
    unknown = set(methods) - set(SAMPLERS)
    if unknown:
        raise ValueError(f"methods must be drawn from {SAMPLERS}; got {sorted(unknown)}")
    s = settings
    data, target = lecture_problem(s)
    grid = grid_posterior(target.log_density, s.grid_bounds, s.grid_resolution)
    laplace = laplace_approximation(target, np.zeros(target.dim), s.newton_steps)
    is_prior = is_laplace = chains = vi = None
    if "importance" in methods:
        is_prior = importance_sample(target, np.zeros(target.dim),
                                     s.prior_var * np.eye(target.dim), s.is_prior_draws,
                                     np.random.default_rng(s.is_prior_seed))
        is_laplace = importance_sample(target, laplace.mean, laplace.cov,
                                       s.is_laplace_draws,
                                       np.random.default_rng(s.is_laplace_seed))
    if "mcmc" in methods:
        chains = run_metropolis_chains(target, s.mcmc_starts,
                            s.mcmc_scale * np.linalg.cholesky(laplace.cov), s.mcmc_steps,
                            [np.random.default_rng(s.mcmc_first_seed + c)
                             for c in range(len(s.mcmc_starts))], s.mcmc_warmup)
    if "vi" in methods:
        vi = mean_field_vi(target, laplace.mean,
                           np.log(laplace.sd), s.vi_steps, np.random.default_rng(s.vi_seed),
                           s.vi_samples, s.vi_lr, track_elbo=False)
    return LectureResults(s, data, target, grid, laplace, is_prior, is_laplace, chains, vi)
