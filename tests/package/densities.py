"""Densities the package's tests share, written apart from the package so that they check it."""
import numpy as np

import bayescomp as bc


def normal_log_density(mean, cov):
    """The normalized log density of N(mean, cov) in 2-D, vectorized over leading axes."""
    mean, cov = np.asarray(mean), np.asarray(cov)
    precision, (_, log_det) = np.linalg.inv(cov), np.linalg.slogdet(cov)

    def log_density(theta):
        centred = theta - mean
        return (-0.5 * np.einsum("...i,ij,...j->...", centred, precision, centred)
                - np.log(2 * np.pi) - 0.5 * log_det)
    return log_density


def flat_log_density(theta):
    return np.zeros(np.shape(theta)[:-1])


def flat_gradient(theta):
    return np.zeros(np.shape(theta))


# log p~ = 0 in any dimension (dim None: the start sets it).
FLAT = bc.Target(flat_log_density, flat_gradient, None, None)
