"""bayescomp: the methods of the book *Bayesian Computation*, apart from the book itself.

One posterior (two-parameter Bayesian logistic regression), a grid reference, and four ways to
approximate it; a hierarchical model with its exact reference; the diagnostics. Every
stochastic function takes an explicit ``np.random.Generator``. MCMC draws use the shape
``(chain, draw, param)`` throughout.

This package is the maths: models and targets, exact references, methods and diagnostics, and
it imports NumPy only. What the book needs around it (the lecture's settings, tables and source
listings, questions, figures and live figures, the course's homework) is the subpackage
:mod:`bayescomp.book`, which imports this one and never the other way round.
"""
import importlib.metadata

from .classic_diagnostics import autocorrelation, effective_sample_size, mcse, split_rhat
from .diagnostics import (RunChecks, check_runs, e_bfmi, ess_bulk, ess_mean, ess_quantile, ess_tail,
                          failed_checks, mcse_mean, mcse_quantile, rank_normalized_rhat)
from .error_rates import ErrorRates, Rate, error_rates, silent_misses, wilson_interval
from .gaussian import (gaussian_logpdf, gaussian_mixture_target, gaussian_target,
                       isotropic_mixture_target, mixture_moments)
from .grid import GridResult, grid_posterior
from .hierarchical import (HierarchicalData, centred_target, hierarchical_data, hierarchical_target,
                           noncentred_target, parameter_names, to_centred, to_noncentred)
from .hierarchical_reference import (AUDITED, Audit, ConditionalMoments, HierarchicalReference, audit,
                                     audit_runs, conditional_moments, exact_draws, exact_log_density,
                                     hierarchical_reference, log_tau_theta_density)
from .hmc import HMCChainsResult, HMCResult, Trajectory, hmc_chain, leapfrog, run_hmc_chains
from .importance import (ImportanceResult, ImportanceRuns, LogNormalizerEstimate, importance_runs,
                         importance_sample, log_normalizer_estimate, normalized_weights,
                         weight_ess, weight_second_moment_within, weighted_estimates)
from .laplace import (AscentPath, LaplaceResult, ModeSlice, laplace_approximation, newton_ascent,
                      newton_map, slice_through_mode)
from .metropolis import ChainResult, ChainsResult, metropolis_chain, run_chains
from .predictive import (PredictiveBand, gaussian_predictive, posterior_predictive, predictive_band,
                         probit_predictive)
from .problem import LogisticData, Target, design_matrix, logistic_posterior, make_data, sigmoid
from .proposals import (Proposal, defensive_mixture, gaussian_proposal, importance_mcse,
                        importance_sample_from, student_t_proposal)
from .psis import ParetoSmoothedWeights, k_hat_threshold, pareto_smoothed_log_weights
from .vi import (ELBOGradient, FullRankResult, MeanFieldResult, full_rank_vi, mean_field_vi,
                 reparameterization_gradient, score_function_gradient)

# The edition, from the installed metadata (its one source is code/pyproject.toml).
__version__ = importlib.metadata.version("bayescomp")

__all__ = [
    "autocorrelation", "effective_sample_size", "mcse", "split_rhat",
    "RunChecks", "check_runs", "e_bfmi", "ess_bulk", "ess_mean", "ess_quantile", "ess_tail",
    "failed_checks", "mcse_mean", "mcse_quantile", "rank_normalized_rhat",
    "ErrorRates", "Rate", "error_rates", "silent_misses", "wilson_interval",
    "gaussian_logpdf", "gaussian_mixture_target", "gaussian_target", "isotropic_mixture_target",
    "mixture_moments", "GridResult", "grid_posterior",
    "HierarchicalData", "centred_target", "hierarchical_data", "hierarchical_target",
    "noncentred_target", "parameter_names", "to_centred", "to_noncentred",
    "AUDITED", "Audit", "ConditionalMoments", "HierarchicalReference", "audit", "audit_runs",
    "conditional_moments", "exact_draws", "exact_log_density", "hierarchical_reference",
    "log_tau_theta_density",
    "HMCChainsResult", "HMCResult", "Trajectory", "hmc_chain", "leapfrog", "run_hmc_chains",
    "ImportanceResult", "ImportanceRuns", "LogNormalizerEstimate", "importance_runs",
    "importance_sample", "log_normalizer_estimate", "normalized_weights", "weight_ess",
    "weight_second_moment_within", "weighted_estimates",
    "AscentPath", "LaplaceResult", "ModeSlice", "laplace_approximation", "newton_ascent",
    "newton_map", "slice_through_mode",
    "ChainResult", "ChainsResult", "metropolis_chain", "run_chains",
    "PredictiveBand", "gaussian_predictive", "posterior_predictive", "predictive_band",
    "probit_predictive",
    "LogisticData", "Target", "design_matrix", "logistic_posterior", "make_data", "sigmoid",
    "Proposal", "defensive_mixture", "gaussian_proposal", "importance_mcse",
    "importance_sample_from", "student_t_proposal",
    "ParetoSmoothedWeights", "k_hat_threshold", "pareto_smoothed_log_weights",
    "ELBOGradient", "FullRankResult", "MeanFieldResult", "full_rank_vi", "mean_field_vi",
    "reparameterization_gradient", "score_function_gradient",
]
