"""bayescomp: the helper package of the book *Bayesian Computation*.

One posterior (two-parameter Bayesian logistic regression), a grid reference, and four ways to
approximate it. Every stochastic function takes an explicit ``np.random.Generator``. MCMC draws
use the shape ``(chain, draw, param)`` throughout.

Plotting needs matplotlib, which is slow to import, so :mod:`bayescomp.plotting` (and
``setup_figures``) load on first use: ``import bayescomp`` alone stays NumPy-only.
"""
import importlib
import importlib.metadata
from .display import Table, scientific, show_source
from . import questions  # bc.questions.ask: self-check questions in the chapters
from . import grading  # bc.grading: the course's homework, graded against the exact references
from .classic_diagnostics import autocorrelation, effective_sample_size, mcse, split_rhat
from .diagnostics import (RunChecks, check_runs, e_bfmi, ess_bulk, ess_mean, ess_quantile, ess_tail,
                          failed_checks, mcse_mean, mcse_quantile, rank_normalized_rhat)
from .error_rates import ErrorRates, Rate, error_rates, silent_misses, wilson_interval
from .gaussian import (gaussian_logpdf, gaussian_mixture_target, gaussian_target,
                       isotropic_mixture_target, mixture_moments)
from .grid import GridResult, grid_posterior
from .importance import (ImportanceResult, ImportanceRuns, LogNormalizerEstimate, importance_runs,
                         importance_sample, normalized_weights, weighted_estimates,
                         log_normalizer_estimate, weight_ess, weight_second_moment_within)
from .laplace import (AscentPath, LaplaceResult, ModeSlice, laplace_approximation, newton_ascent,
                      newton_map, slice_through_mode)
from .lecture import LectureResults, LectureSettings, lecture_problem, run_lecture
from .hierarchical import (HierarchicalData, centred_target, hierarchical_data, hierarchical_target,
                           noncentred_target, parameter_names, to_centred, to_noncentred)
from .hierarchical_reference import (AUDITED, Audit, ConditionalMoments, HierarchicalReference, audit, audit_runs,
                                     conditional_moments, exact_draws, exact_log_density, format_errors,
                                     format_mcse, hierarchical_reference, log_tau_theta_density)
from .hmc import (HMCChainsResult, HMCResult, Trajectory, dimension_tuning, hmc_chain, leapfrog,
                  run_hmc_chains)
from .metropolis import ChainResult, ChainsResult, metropolis_chain, run_chains
from .predictive import (PredictiveBand, gaussian_predictive, posterior_predictive, predictive_band,
                         probit_predictive)
from .proposals import (Proposal, defensive_mixture, gaussian_proposal, importance_mcse,
                        importance_sample_from, student_t_proposal)
from .psis import ParetoSmoothedWeights, k_hat_threshold, pareto_smoothed_log_weights
from .problem import LogisticData, Target, design_matrix, logistic_posterior, make_data, sigmoid
from .vi import (ELBOGradient, FullRankResult, MeanFieldResult, full_rank_vi, mean_field_vi,
                 reparameterization_gradient, score_function_gradient)

# The edition, from the installed metadata (its one source is code/pyproject.toml).
__version__ = importlib.metadata.version("bayescomp")

__all__ = [
    "Table", "scientific", "show_source", "setup_figures", "autocorrelation", "effective_sample_size", "mcse", "split_rhat",
    "RunChecks", "check_runs", "ErrorRates", "Rate", "error_rates", "silent_misses", "wilson_interval",
    "e_bfmi", "failed_checks", "ess_bulk", "ess_mean", "ess_quantile", "ess_tail", "mcse_mean", "mcse_quantile",
    "rank_normalized_rhat",
    "gaussian_logpdf", "gaussian_mixture_target", "gaussian_target", "isotropic_mixture_target",
    "mixture_moments", "GridResult", "grid_posterior",
    "ImportanceResult", "ImportanceRuns", "LogNormalizerEstimate", "importance_runs", "importance_sample",
    "normalized_weights", "weighted_estimates", "log_normalizer_estimate",
    "weight_ess", "weight_second_moment_within",
    "AscentPath", "LaplaceResult", "ModeSlice", "laplace_approximation", "newton_ascent", "newton_map",
    "slice_through_mode",
    "LectureResults", "LectureSettings", "lecture_problem", "run_lecture",
    "HierarchicalData", "centred_target", "hierarchical_data", "hierarchical_target",
    "noncentred_target", "parameter_names", "to_centred", "to_noncentred",
    "AUDITED", "Audit", "ConditionalMoments", "HierarchicalReference", "audit", "audit_runs", "conditional_moments",
    "exact_draws", "exact_log_density", "format_errors", "format_mcse", "hierarchical_reference",
    "log_tau_theta_density",
    "HMCChainsResult", "HMCResult", "Trajectory", "dimension_tuning", "hmc_chain", "leapfrog", "run_hmc_chains",
    "ChainResult", "ChainsResult", "metropolis_chain", "run_chains",
    "PredictiveBand", "predictive_band", "probit_predictive",
    "Proposal", "defensive_mixture", "gaussian_proposal", "importance_mcse", "importance_sample_from",
    "student_t_proposal",
    "ParetoSmoothedWeights", "k_hat_threshold", "pareto_smoothed_log_weights",
    "LogisticData", "Target", "design_matrix", "gaussian_predictive", "logistic_posterior", "make_data",
    "posterior_predictive", "sigmoid",
    "ELBOGradient", "FullRankResult", "MeanFieldResult", "full_rank_vi", "mean_field_vi",
    "reparameterization_gradient", "score_function_gradient",
]


def __getattr__(name):
    # Load matplotlib only when a plot is asked for (PEP 562 module __getattr__).
    if name == "plotting":
        return importlib.import_module(".plotting", __name__)
    if name == "setup_figures":
        return importlib.import_module(".plotting", __name__).setup_figures
    if name == "widgets":  # the live figures (bc.widgets.metropolis() in Jupyter)
        return importlib.import_module(".widgets", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
