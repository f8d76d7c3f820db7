"""The standard normal quantile function, vectorized, without SciPy.

Wichura's (1988) algorithm AS241 ("PPND16"): three rational approximations, each accurate to
about 1e-16 relative. It is the algorithm behind Python's ``statistics.NormalDist().inv_cdf``;
here it runs on whole arrays with ``np.polyval``.
"""
import numpy as np

# Coefficients, highest power first (np.polyval's order), from Wichura (1988), table 1.
# Central region |p - 1/2| <= 0.425, in r = 0.180625 - q**2.
_CENTRAL_NUM = (2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
                45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
                133.14166789178437745, 3.387132872796366608)
_CENTRAL_DEN = (5226.495278852854561, 28729.085735721942674, 39307.89580009271061,
                21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
                42.313330701600911252, 1.0)
# Intermediate tails, r = sqrt(-log(min(p, 1-p))) - 1.6 for r <= 5.
_NEAR_NUM = (7.7454501427834140764e-4, 0.0227238449892691845833, 0.24178072517745061177,
             1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
             4.6303378461565452959, 1.42343711074968357734)
_NEAR_DEN = (1.05075007164441684324e-9, 5.475938084995344946e-4, 0.0151986665636164571966,
             0.14810397642748007459, 0.68976733498510000455, 1.6763848301838038494,
             2.05319162663775882187, 1.0)
# Far tails, r = sqrt(-log(min(p, 1-p))) - 5.
_FAR_NUM = (2.01033439929228813265e-7, 2.71155556874348757815e-5, 0.0012426609473880784386,
            0.026532189526576123093, 0.29656057182850489123, 1.7848265399172913358,
            5.4637849111641143699, 6.6579046435011037772)
_FAR_DEN = (2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
            7.868691311456132591e-4, 0.0148753612908506148525, 0.13692988092273580531,
            0.59983220655588793769, 1.0)


def _rational(num, den, r):
    return np.polyval(num, r) / np.polyval(den, r)


def normal_quantile(p):
    r"""Inverse of the standard normal CDF, :math:`\Phi^{-1}(p)`, for ``p`` in (0, 1).

    Notes
    -----
    Wichura (1988), algorithm AS241. With :math:`q = p - 1/2`, the centre uses
    :math:`q\,R_1(0.180625 - q^2)`; the tails use :math:`\pm R_{2,3}(\sqrt{-\log\min(p, 1-p)})`.
    """
    p = np.asarray(p, dtype=float)
    q = p - 0.5
    central = np.abs(q) <= 0.425
    # The tails work with the smaller tail probability, so 1 - p loses no accuracy near p = 1.
    tail_r = np.sqrt(-np.log(np.where(central, 0.5, np.minimum(p, 1.0 - p))))
    tail = np.where(tail_r <= 5.0, _rational(_NEAR_NUM, _NEAR_DEN, tail_r - 1.6),
                    _rational(_FAR_NUM, _FAR_DEN, tail_r - 5.0))
    centre = q * _rational(_CENTRAL_NUM, _CENTRAL_DEN, 0.180625 - q * q)
    return np.where(central, centre, np.where(q < 0, -tail, tail))
