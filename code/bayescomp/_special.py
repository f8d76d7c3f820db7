"""Special functions the diagnostics need, without SciPy (the reader's install has none).

- The standard normal quantile, vectorized: Wichura's (1988) algorithm AS241 ("PPND16"), three
  rational approximations each accurate to about 1e-16 relative. It is the algorithm behind
  Python's ``statistics.NormalDist().inv_cdf``; here it runs on whole arrays with ``np.polyval``.
- The Beta CDF (the regularized incomplete beta function) and its inverse, for the MCSE of a
  quantile.
"""
import math

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


def _log_beta(a, b):
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_continued_fraction(x, a, b):
    r"""The continued fraction of :math:`I_x(a, b)`, evaluated by the modified Lentz method.

    Converges quickly for :math:`x < (a + 1)/(a + b + 2)`; :func:`beta_cdf` uses the symmetry
    :math:`I_x(a,b) = 1 - I_{1-x}(b,a)` otherwise (Press et al., 2007, section 6.4).
    """
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        # The even and odd coefficients d_{2m} and d_{2m+1} of the fraction.
        for coefficient in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + coefficient * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + coefficient / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            return result
    raise ArithmeticError(f"the incomplete beta fraction did not converge (a={a}, b={b})")


def beta_cdf(x, a, b):
    r"""Regularized incomplete beta function :math:`I_x(a, b)`, the Beta(a, b) CDF at ``x``.

    Notes
    -----
    :math:`I_x(a,b) = \frac{x^a(1-x)^b}{a\,B(a,b)}\cdot\frac{1}{1+}\frac{d_1}{1+}\frac{d_2}{1+}
    \cdots`, with the prefactor computed on the log scale so large :math:`a, b` do not underflow.
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - beta_cdf(1.0 - x, b, a)
    log_front = a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b)
    return math.exp(log_front) * _beta_continued_fraction(x, a, b) / a


def beta_quantile(p, a, b):
    """Inverse of :func:`beta_cdf` in ``x``, by bisection to about 1e-15."""
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        if beta_cdf(middle, a, b) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    return 0.5 * (low + high)
