"""How often a diagnostic misses a failure, and how often it cries wolf, over replicate runs.

A diagnostic is a test of the hypothesis "this run is accurate". Over many independent runs of a
method, each run either *missed* (its estimate is wrong beyond tolerance, by an outside exact
reference) or not, and each diagnostic either *fired* on it or not. The two error rates of the
test (Neyman and Pearson's type II and type I errors) are then

- the miss rate, P(silent | missed): the share of wrong runs on which it stayed silent;
- the false-alarm rate, P(fired | not missed): the share of accurate runs it flagged.

Each is a binomial proportion, reported with Wilson's (1927) score interval.
"""
from typing import NamedTuple

import numpy as np

from ._checks import unit_interval_float
from ._special import normal_quantile


class Rate(NamedTuple):
    """A proportion ``count / trials`` with a confidence interval.

    Attributes
    ----------
    count, trials : int
    value : float
        ``count / trials``; NaN when there are no trials.
    low, high : float
        The Wilson score interval (:func:`wilson_interval`); NaN when there are no trials.
    """

    count: int
    trials: int
    value: float
    low: float
    high: float


class ErrorRates(NamedTuple):
    """A diagnostic's two error rates over replicate runs.

    Attributes
    ----------
    miss : Rate
        P(silent | missed): over the runs that missed, the share on which it did not fire.
    false_alarm : Rate
        P(fired | not missed): over the runs that did not miss, the share on which it fired.
    """

    miss: Rate
    false_alarm: Rate


def wilson_interval(count, trials, level=0.95):
    r"""Wilson's score interval for a binomial proportion.

    Parameters
    ----------
    count, trials : int
        Successes and trials, ``0 <= count <= trials``.
    level : float
        The interval's coverage, in (0, 1).

    Returns
    -------
    (float, float)
        The interval; ``(nan, nan)`` when ``trials`` is 0.

    Notes
    -----
    With :math:`\hat p = k/n` and :math:`z` the normal quantile at :math:`(1 + \text{level})/2`,

    .. math::

        \frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}.

    Unlike :math:`\hat p \pm z\sqrt{\hat p(1-\hat p)/n}`, it does not collapse to a point at
    :math:`\hat p = 0` or 1, and its coverage stays close to the nominal level for small
    :math:`n` (Wilson, 1927; Brown, Cai and DasGupta, 2001).
    """
    count, trials = int(count), int(trials)
    if trials < 0 or not 0 <= count <= max(trials, 0):
        raise ValueError(f"count and trials must satisfy 0 <= count <= trials; "
                         f"got count {count}, trials {trials}")
    if trials == 0:
        return float("nan"), float("nan")
    z = float(normal_quantile(0.5 + unit_interval_float(level, "level") / 2))
    p, n = count / trials, trials
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return float(max(centre - half, 0.0)), float(min(centre + half, 1.0))


def rate(flags, level=0.95):
    """The share of True in ``flags`` (bool, any shape), as a :class:`Rate`."""
    flags = np.asarray(flags, dtype=bool).ravel()
    count, trials = int(flags.sum()), flags.size
    return Rate(count, trials, count / trials if trials else float("nan"),
                *wilson_interval(count, trials, level))


def _same_runs(missed, fired):
    missed, fired = np.asarray(missed), np.asarray(fired)
    if missed.dtype != bool or fired.dtype != bool or missed.shape != fired.shape or missed.ndim != 1:
        raise ValueError(f"missed and fired must be boolean arrays of shape (run,), one entry per "
                         f"run; got {missed.dtype} {missed.shape} and {fired.dtype} {fired.shape}")
    return missed, fired


def error_rates(missed, fired, level=0.95):
    """A diagnostic's miss and false-alarm rates over replicate runs.

    Parameters
    ----------
    missed : array_like of bool, shape (run,)
        Whether each run counts as a miss, judged by an outside reference: for instance its
        error beyond tolerance, or (as chapter 7 passes it) beyond the tolerance plus two of the run's MCSE, with
        the runs that fit neither kind left out beforehand. The rates are conditional on it.
    fired : array_like of bool, shape (run,)
        Whether the diagnostic fired on each run, judged from that run alone.
    level : float

    Returns
    -------
    ErrorRates
    """
    missed, fired = _same_runs(missed, fired)
    return ErrorRates(rate(~fired[missed], level), rate(fired[~missed], level))


def silent_misses(missed, fired, level=0.95):
    """The share of all runs that missed while every diagnostic stayed silent.

    Parameters
    ----------
    missed : array_like of bool, shape (run,)
    fired : array_like of bool, shape (run, diagnostic)
        Each diagnostic's verdict on each run.
    level : float

    Returns
    -------
    Rate
    """
    fired = np.asarray(fired)
    if fired.ndim != 2:
        raise ValueError(f"fired must have shape (run, diagnostic); got shape {fired.shape}")
    missed, any_fired = _same_runs(missed, fired.any(axis=1))
    return rate(missed & ~any_fired, level)
