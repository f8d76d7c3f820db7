"""exp, log, sums and products whose every bit is the same on every CPU and in every batch, and
in the live figures' JavaScript.

Why: Hamiltonian Monte Carlo on a funnel is chaotic. A difference in the last bit of one gradient
grows along the leapfrog trajectory until an accept decision flips, and from then on two runs of
the "same" chain differ at Monte Carlo scale. NumPy's ``exp`` and ``log`` pick a SIMD kernel by
CPU (AVX512F and AVX2 kernels round differently), ``@`` calls a BLAS kernel chosen by CPU, and a
reduction's order of additions is an implementation detail. The hierarchical model's densities
therefore use only what IEEE 754 rounds exactly the same everywhere: ``+ - * /``, ``floor``, and
scaling by powers of two. So the book's printed HMC results are identical on every machine, and
the JavaScript engine, which repeats these steps in the same order, replays the package's chains
bit for bit. For the same reason a point's value must not depend on how many points are
evaluated with it, so that chains run in lockstep are the chains run one at a time.

Accuracy: within about 2 units in the last place of the true values, which is all a log density
needs. Works on floats and on NumPy arrays of any shape.
"""
import math

import numpy as np

# ln 2 split so that k * _LN2_HI is exact for |k| < 2**20 (its low 32 bits are zero).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e+00
# Taylor coefficients 1/j! of exp on |r| <= ln(2)/2: the degree-13 remainder is below 4e-18.
_EXP_COEFFICIENTS = tuple(1.0 / math.factorial(j) for j in range(13, -1, -1))
# Beyond these exp overflows to inf or underflows to 0 in double precision.
_EXP_MAX, _EXP_MIN = 709.782712893384, -745.1332191019411
# 2 / (2j + 1) for the series log m = 2 atanh(s) = sum 2 s^(2j+1)/(2j+1), |s| <= 0.1716.
_LOG_COEFFICIENTS = tuple(2.0 / (2 * j + 1) for j in range(11, -1, -1))
_SQRT_HALF = 0.7071067811865476
# Up to this many values a Python loop is faster than NumPy's per-call overhead (same bits).
_SMALL = 32


def _horner(coefficients, x):
    """Evaluate a polynomial (highest power first) at ``x``, one multiply-add at a time."""
    if isinstance(x, float):
        total = coefficients[0]
        for coefficient in coefficients[1:]:
            total = total * x + coefficient
        return total
    # The same operations in place: an array of many points then allocates once.
    total = np.full_like(x, coefficients[0])
    for coefficient in coefficients[1:]:
        total *= x
        total += coefficient
    return total


def _exp_scalar(x):
    # The same steps as exp() on a Python float: samplers call this once per gradient.
    if not x <= _EXP_MAX:
        return x if x != x else math.inf  # NaN stays NaN
    if x < _EXP_MIN:
        return 0.0
    k = math.floor(x * _INV_LN2 + 0.5)
    r = (x - k * _LN2_HI) - k * _LN2_LO
    return math.ldexp(_horner(_EXP_COEFFICIENTS, r), k)


def exp(x):
    r"""The exponential, from ``+ - * /`` and a power-of-two scaling.

    Notes
    -----
    :math:`e^x = 2^k e^r` with :math:`k` the integer nearest :math:`x/\ln 2` and
    :math:`r = x - k\ln 2` (ln 2 in two parts, so the product is exact), then the Taylor
    polynomial of degree 13 on :math:`|r| \le \ln(2)/2` (Cody and Waite, 1980).
    """
    if np.ndim(x) == 0:
        # A NumPy scalar, not a float: division by zero must give inf, not raise.
        return np.float64(_exp_scalar(float(x)))
    x = np.asarray(x, dtype=float)
    if x.size <= _SMALL:
        return np.array([_exp_scalar(v) for v in x.ravel().tolist()]).reshape(x.shape)
    clipped = np.clip(np.where(np.isnan(x), 0.0, x), _EXP_MIN, _EXP_MAX)
    k = np.floor(clipped * _INV_LN2 + 0.5)
    r = (clipped - k * _LN2_HI) - k * _LN2_LO
    result = np.ldexp(_horner(_EXP_COEFFICIENTS, r), k.astype(np.int64))
    result = np.where(np.isnan(x), np.nan, result)
    # Out of range: the IEEE results inf and 0; NaN stays NaN.
    return np.where(x > _EXP_MAX, np.inf, np.where(x < _EXP_MIN, 0.0, result))


def _log_scalar(x):
    # The same steps as log() on a Python float.
    if not x > 0:
        return -math.inf if x == 0 else math.nan
    if x == math.inf:
        return math.inf
    mantissa, exponent = math.frexp(x)
    if mantissa < _SQRT_HALF:
        mantissa, exponent = 2.0 * mantissa, exponent - 1
    s = (mantissa - 1.0) / (mantissa + 1.0)
    exponent = float(exponent)
    return exponent * _LN2_HI + (exponent * _LN2_LO + s * _horner(_LOG_COEFFICIENTS, s * s))


def log(x):
    r"""The natural logarithm of ``x > 0``, from ``+ - * /`` and a power-of-two split.

    Notes
    -----
    Write :math:`x = 2^e m` with :math:`m \in [\sqrt{1/2}, \sqrt 2)`. With
    :math:`s = (m - 1)/(m + 1)`, :math:`\log m = 2\operatorname{atanh} s =
    2\sum_{j\ge0} s^{2j+1}/(2j+1)`, twelve terms for :math:`|s| \le 0.1716`; then
    :math:`\log x = e\ln 2 + \log m`. Zero gives -inf, negative values NaN.
    """
    if np.ndim(x) == 0:
        return np.float64(_log_scalar(float(x)))
    x = np.asarray(x, dtype=float)
    if x.size <= _SMALL:
        return np.array([_log_scalar(v) for v in x.ravel().tolist()]).reshape(x.shape)
    mantissa, exponent = np.frexp(x)
    # frexp gives mantissa in [0.5, 1); move it to [sqrt(1/2), sqrt(2)).
    low = mantissa < _SQRT_HALF
    mantissa = np.where(low, 2.0 * mantissa, mantissa)
    exponent = (exponent - low).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (mantissa - 1.0) / (mantissa + 1.0)
        log_mantissa = s * _horner(_LOG_COEFFICIENTS, s * s)
        result = exponent * _LN2_HI + (exponent * _LN2_LO + log_mantissa)
    result = np.where(x > 0, result, np.where(x == 0, -np.inf, np.nan))
    return np.where(x == np.inf, np.inf, result)


def sum_last_axis(values):
    """Sum over the last axis from left to right, so the rounding is the same everywhere."""
    values = np.asarray(values, dtype=float)
    if values.ndim == 1:
        total = 0.0
        for value in values.tolist():
            total += value
        return np.float64(total)
    total = values[..., 0]
    for j in range(1, values.shape[-1]):
        total = total + values[..., j]
    return total


def product_with(matrix):
    """The function ``vectors -> vectors @ matrix`` for vectors on the last axis, computed one row
    of ``matrix`` at a time.

    Elementwise products and sums in a fixed order: a vector gets the same bits however many
    vectors come with it. (A BLAS ``@`` picks its kernel by the batch's shape and the CPU, so
    one chain and four chains would differ in the last bit.) A diagonal matrix is one product;
    the check is made once, here, not at every call.
    """
    matrix = np.array(matrix, dtype=float)
    diagonal = np.diag(matrix).copy()
    if np.array_equal(matrix, np.diag(diagonal)):
        return lambda vectors: vectors * diagonal

    def product(vectors):
        total = vectors[..., :1] * matrix[0]
        for i in range(1, matrix.shape[0]):
            total = total + vectors[..., i:i + 1] * matrix[i]
        return total
    return product
