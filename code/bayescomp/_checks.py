"""Input validation shared by every module.

Each check raises ``ValueError`` with a message that names the argument and says what was
expected, so a reader who passes the wrong thing learns what to change.
"""
import numpy as np


def as_finite_array(value, name, ndim=None, shape=None):
    """Return ``value`` as a float array after checking its shape and that it is finite.

    ``shape`` may contain ``None`` for an axis of any length.
    """
    array = np.asarray(value, dtype=float)
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array; got shape {array.shape}")
    if shape is not None:
        if array.ndim != len(shape) or any(
            want is not None and got != want for got, want in zip(array.shape, shape)
        ):
            wanted = tuple("any" if s is None else s for s in shape)
            raise ValueError(f"{name} must have shape {wanted}; got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must contain only finite values; it has NaN or inf")
    return array


def positive_int(value, name, minimum=1):
    """Return ``value`` as an int, checking that it is a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value}")
    return int(value)


def integer_in_range(value, name, low, high, high_name=None, inclusive=False):
    """Return ``value`` as an int, checking ``low <= value < high`` (``<= high`` if inclusive).

    ``high_name`` names the upper bound in the message (for example ``"n_steps"``).
    """
    interval = f"[{low}, {high_name or high}{']' if inclusive else ')'}"
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not (low <= value <= high if inclusive else low <= value < high):
        raise ValueError(f"{name} must be an integer in {interval}; got {value!r}")
    return int(value)


def probability_vector(value, name):
    """Return ``value`` as a 1-D float array of non-negative entries that sum to one."""
    weights = as_finite_array(value, name, ndim=1)
    if np.any(weights < 0) or not np.isclose(weights.sum(), 1.0):
        raise ValueError(f"{name} must be non-negative and sum to 1; "
                         f"got minimum {weights.min():.3g} and sum {weights.sum():.6g}")
    return weights


def unit_interval_float(value, name):
    """Return ``value`` as a float strictly between 0 and 1 (a probability, a level, a weight)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = np.nan
    if not 0.0 < number < 1.0:           # NaN fails this too
        raise ValueError(f"{name} must be a number in (0, 1); got {value!r}")
    return number


def positive_float(value, name):
    """Return ``value`` as a float, checking that it is finite and strictly positive."""
    number = float(value)
    if not np.isfinite(number) or number <= 0:
        raise ValueError(f"{name} must be a finite number > 0; got {value!r}")
    return number


def _square_of(value, name, dim, dim_from):
    """``value`` as a finite (dim, dim) array; a wrong shape names ``dim_from``, where ``dim``
    came from, since the clash may be that argument's."""
    array = as_finite_array(value, name)
    if dim_from and array.shape != (dim, dim):
        raise ValueError(f"{name} must have shape ({dim}, {dim}) to match {dim_from}, which has "
                         f"length {dim}; got shape {array.shape}")
    return as_finite_array(array, name, shape=(dim, dim) if dim else None)


def positive_definite_cholesky(cov, name, dim=None, dim_from=None):
    """Return the lower Cholesky factor of ``cov``, checking it is a symmetric PD matrix.

    ``dim_from`` names the argument that fixed ``dim`` (a mean, say), for the error message."""
    cov = _square_of(cov, name, dim, dim_from)
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError(f"{name} must be a square 2-D matrix; got shape {cov.shape}")
    if not np.allclose(cov, cov.T, rtol=1e-10, atol=1e-12):
        raise ValueError(f"{name} must be symmetric")
    try:
        return np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        eigmin = np.linalg.eigvalsh(cov).min()
        raise ValueError(
            f"{name} must be positive definite; its smallest eigenvalue is {eigmin:.3g}"
        ) from None


def cholesky_factor(value, name, dim, dim_from=None):
    """Check that ``value`` is a (dim, dim) lower-triangular matrix with a positive diagonal."""
    factor = _square_of(value, name, dim, dim_from)
    if np.any(np.triu(factor, 1) != 0) or np.any(np.diag(factor) <= 0):
        raise ValueError(f"{name} must be lower triangular with a positive diagonal "
                         "(a Cholesky factor of a positive definite covariance)")
    return factor


def generator(rng, name="rng"):
    """Check that ``rng`` is a ``np.random.Generator``; global-state seeding is not accepted."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(
            f"{name} must be a np.random.Generator (e.g. np.random.default_rng(0)); "
            f"got {type(rng).__name__}"
        )
    return rng


# The fields of a Target that the methods call: gradient-based sampling and VI, Newton's method
# for the mode, and the safeguarded ascent that also compares log densities.
GRADIENT = ("log_density", "grad_log_density")
CURVATURE = ("grad_log_density", "neg_hessian")
ASCENT = ("log_density", "grad_log_density", "neg_hessian")


def target_functions(target, dim=None, needed=("log_density",), name="target"):
    """Check that ``target`` is a :class:`~bayescomp.problem.Target` (anything with its
    fields) of ``dim`` parameters whose ``needed`` fields are callable; return them, or the one
    function when one is needed."""
    functions = [getattr(target, field, None) for field in needed]
    if not all(callable(function) for function in functions):
        raise ValueError(f"{name} must be a Target (e.g. bc.logistic_posterior(data) or "
                         f"bc.gaussian_target(mean, cov)) with callable {' and '.join(needed)}; "
                         f"got {type(target).__name__}")
    own = getattr(target, "dim", None)
    if dim is not None and isinstance(own, int) and own != dim:
        raise ValueError(f"{name} has {own} parameters; the start or proposal has {dim}")
    return tuple(functions) if len(functions) > 1 else functions[0]


def chain_settings(starts, rngs, n_steps, n_warmup):
    """Check a multi-chain run: one start row per chain, one generator per chain (or one
    generator for them all), and a warm-up that leaves at least one draw. Returns
    ``(starts, rngs, n_steps, n_warmup)``."""
    starts = as_finite_array(starts, "starts", ndim=2)
    if not isinstance(rngs, np.random.Generator):
        if len(rngs) != len(starts):
            raise ValueError(f"rngs must be one np.random.Generator for all chains or hold one "
                             f"generator per start ({len(starts)}); got {len(rngs)}")
        rngs = [generator(rng, f"rngs[{c}]") for c, rng in enumerate(rngs)]
    n_steps = positive_int(n_steps, "n_steps")
    n_warmup = integer_in_range(n_warmup, "n_warmup", 0, n_steps, "n_steps")
    return starts, rngs, n_steps, n_warmup
