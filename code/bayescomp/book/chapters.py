"""Chapter 6's tuning rules: how the book sets both samplers for N(0, I_d) as d grows.

Not a method of the package but the chapter's choice of settings (and the dimension widget's,
which applies the same rule in the browser), so it lives with the book. The constant it builds
on, the random walk's optimal scale (:data:`bayescomp.hmc.RWM_OPTIMAL_SCALE`, Roberts, Gelman
and Gilks, 1997), is a property of the method and stays in :mod:`bayescomp.hmc`.
"""
import numpy as np

from .._checks import positive_float, positive_int
from ..hmc import RWM_OPTIMAL_SCALE

#: Chapter 6's HMC path length T = h L on N(0, I_d): h = T d^(-1/4), L = d^(1/4) steps.
DIMENSION_PATH_LENGTH = 1.4


def dimension_tuning(dim, path_length=DIMENSION_PATH_LENGTH, rwm_scale=RWM_OPTIMAL_SCALE):
    r"""Chapter 6's tuning rules for a standard Gaussian in ``dim`` dimensions.

    Parameters
    ----------
    dim : int
    path_length : float
        :math:`T`, the trajectory length :math:`hL` where :math:`d^{1/4}` is a whole number
        (:math:`d` = 1, 16, 81, ...). Elsewhere :math:`L` is rounded and :math:`h` is not, so
        :math:`hL = T\,\operatorname{round}(d^{1/4})/d^{1/4}`, between :math:`0.67\,T` and
        :math:`1.28\,T` for :math:`d` up to 100 (for :math:`T = 1.4`: 1.57 at :math:`d = 10`,
        1.33 at :math:`d = 100`).
    rwm_scale : float
        The random walk's proposal sd is ``rwm_scale / sqrt(dim)``.

    Returns
    -------
    dict
        ``rwm_scale``, ``step_size`` and ``n_leapfrog``.

    Notes
    -----
    Random walk: :math:`2.38/\sqrt d`, optimal as :math:`d\to\infty` (Roberts et al., 1997).
    HMC: the mean energy error of a trajectory grows like :math:`d h^4`, so
    :math:`h = T d^{-1/4}` keeps the acceptance rate steady, with
    :math:`L = \operatorname{round}(d^{1/4})` steps (at least one) (Beskos et al., 2013).
    """
    dim = positive_int(dim, "dim")
    return {"rwm_scale": positive_float(rwm_scale, "rwm_scale") / np.sqrt(dim),
            "step_size": positive_float(path_length, "path_length") * dim ** -0.25,
            "n_leapfrog": max(1, round(dim ** 0.25))}
