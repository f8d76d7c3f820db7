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
from .diagnostics import (check_runs, e_bfmi, ess_bulk, ess_mean, ess_quantile, ess_tail,
                          failed_checks, mcse_mean, mcse_quantile, rank_normalized_rhat)
from .error_rates import error_rates, silent_misses, wilson_interval
from .gaussian import (gaussian_log_density, gaussian_mixture_target, gaussian_target,
                       isotropic_mixture_target, mixture_moments)
from .grid import grid_posterior
from .hierarchical import (HierarchicalData, centred_target, hierarchical_data, hierarchical_target,
                           noncentred_target, parameter_names, to_centred, to_noncentred)
from .hierarchical_reference import (AUDITED, audit, audit_runs, conditional_moments, exact_draws,
                                     exact_log_density, hierarchical_reference,
                                     log_tau_theta_density)
from .hmc import hmc_chain, leapfrog, run_hmc_chains
from .importance import (importance_runs, importance_sample, log_normalizer_estimate,
                         normalized_weights, weight_ess, weight_second_moment_within,
                         weighted_estimates)
from .laplace import laplace_approximation, newton_ascent, newton_map, slice_through_mode
from .metropolis import metropolis_chain, run_metropolis_chains
from .predictive import gaussian_predictive, posterior_predictive, predictive_band, probit_predictive
from .problem import LogisticData, Target, design_matrix, logistic_posterior, make_data, sigmoid
from .proposals import (Proposal, defensive_mixture, gaussian_proposal, importance_mcse,
                        importance_sample_from, student_t_proposal)
from .psis import k_hat_threshold, pareto_smoothed_log_weights
from .vi import (full_rank_vi, mean_field_vi, reparameterization_gradient,
                 score_function_gradient)

# The edition, from the installed metadata (its one source is code/pyproject.toml).
__version__ = importlib.metadata.version("bayescomp")

# The public maths: the targets and the data a caller builds or passes (Target, Proposal,
# LogisticData, HierarchicalData, the audited quantities), and every method's function. The
# NamedTuples the functions return (MetropolisResult, HMCChainsResult, GridResult, ...) are
# reached through their results and their modules (bayescomp.metropolis.MetropolisResult).
__all__ = [
    # targets and data
    "Target", "LogisticData", "make_data", "design_matrix", "sigmoid", "logistic_posterior",
    "gaussian_target", "gaussian_mixture_target", "isotropic_mixture_target",
    "gaussian_log_density", "mixture_moments",
    "HierarchicalData", "hierarchical_data", "hierarchical_target", "centred_target",
    "noncentred_target", "parameter_names", "to_centred", "to_noncentred",
    # exact references
    "grid_posterior", "hierarchical_reference", "conditional_moments", "exact_draws",
    "exact_log_density", "log_tau_theta_density", "AUDITED", "audit", "audit_runs",
    # methods
    "importance_sample", "importance_runs", "importance_sample_from", "Proposal",
    "gaussian_proposal", "student_t_proposal", "defensive_mixture", "importance_mcse",
    "normalized_weights", "weighted_estimates", "weight_ess", "log_normalizer_estimate",
    "weight_second_moment_within", "pareto_smoothed_log_weights", "k_hat_threshold",
    "metropolis_chain", "run_metropolis_chains", "hmc_chain", "run_hmc_chains", "leapfrog",
    "laplace_approximation", "newton_map", "newton_ascent", "slice_through_mode",
    "mean_field_vi", "full_rank_vi", "reparameterization_gradient", "score_function_gradient",
    "posterior_predictive", "predictive_band", "probit_predictive", "gaussian_predictive",
    # diagnostics
    "rank_normalized_rhat", "ess_bulk", "ess_tail", "ess_mean", "ess_quantile", "mcse_mean",
    "mcse_quantile", "e_bfmi", "check_runs", "failed_checks",
    "split_rhat", "effective_sample_size", "mcse", "autocorrelation",
    "error_rates", "silent_misses", "wilson_interval",
]
