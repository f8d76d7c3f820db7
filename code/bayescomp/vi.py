"""Gaussian variational inference by the reparameterization gradient and Adam, in NumPy."""
from typing import NamedTuple

import numpy as np

from ._checks import (GRADIENT, as_finite_array, cholesky_factor, generator, integer_in_range,
                      positive_float, positive_int, target_functions)


class MeanFieldResult(NamedTuple):
    """A fitted mean-field Gaussian ``N(mean, diag(sd**2))``.

    Attributes
    ----------
    mean, sd : ndarray, shape (d,)
        The fit: the last iterate, or the average of the last ``n_average`` iterates.
    elbo : ndarray, shape (n_steps,), or None
        Monte Carlo ELBO estimate (up to the target's constant) at each step, before the update;
        None when it was not tracked.
    mean_path, sd_path : ndarray, shape (n_steps, d)
        The iterates after each step, for watching the optimizer (``mean_path[-1]`` is the
        last iterate).
    """

    mean: np.ndarray
    sd: np.ndarray
    elbo: np.ndarray
    mean_path: np.ndarray
    sd_path: np.ndarray


class FullRankResult(NamedTuple):
    """A fitted full-covariance Gaussian ``N(mean, chol @ chol.T)``.

    Attributes
    ----------
    mean : ndarray, shape (d,)
    chol : ndarray, shape (d, d)
        Lower triangular with a positive diagonal.
    cov : ndarray, shape (d, d)
    elbo : ndarray, shape (n_steps,)
    """

    mean: np.ndarray
    chol: np.ndarray
    cov: np.ndarray
    elbo: np.ndarray


class ELBOGradient(NamedTuple):
    """One estimate of the ELBO's gradient for :math:`q = N(m, \\operatorname{diag}(s^2))`.

    Attributes
    ----------
    mean, log_sd : ndarray, shape (d,)
        The estimated derivatives in :math:`m` and in :math:`\\log s`.
    """

    mean: np.ndarray
    log_sd: np.ndarray


class _Adam:
    """Adam ascent on one parameter block (Kingma and Ba, 2015), with bias correction."""

    def __init__(self, shape, lr, betas, eps):
        self.lr, (self.beta1, self.beta2), self.eps = lr, betas, eps
        self.first, self.second, self.step = np.zeros(shape), np.zeros(shape), 0

    def ascend(self, param, grad):
        self.step += 1
        self.first = self.beta1 * self.first + (1 - self.beta1) * grad
        self.second = self.beta2 * self.second + (1 - self.beta2) * grad**2
        first_hat = self.first / (1 - self.beta1**self.step)
        second_hat = self.second / (1 - self.beta2**self.step)
        return param + self.lr * first_hat / (np.sqrt(second_hat) + self.eps)


def _gaussian_entropy(log_diag):
    """Entropy of a Gaussian whose covariance factor has diagonal ``exp(log_diag)`` (the last
    axis)."""
    return log_diag.sum(axis=-1) + 0.5 * log_diag.shape[-1] * (1 + np.log(2 * np.pi))


def _reparameterized(grad_log_density, mean, sd, noise):
    # The chain rule through theta = m + s * noise; +1 is the gradient of the entropy sum(log s).
    # Draws are on axis -2: (S, d), or (fit, S, d) for several fits at once.
    grad = grad_log_density(mean[..., None, :] + sd[..., None, :] * noise)
    return ELBOGradient(grad.mean(axis=-2), (grad * sd[..., None, :] * noise).mean(axis=-2) + 1.0)


def _check_gaussian(mean, sd, noise):
    mean = as_finite_array(mean, "mean", ndim=1)
    sd = as_finite_array(sd, "sd", shape=mean.shape)
    if np.any(sd <= 0):
        raise ValueError(f"sd must be positive in every coordinate; got {sd.tolist()}")
    noise = as_finite_array(noise, "noise", shape=(None, mean.size))
    if len(noise) < 2:
        raise ValueError(f"noise must hold at least 2 draws (rows) of shape ({mean.size},); "
                         f"got {len(noise)}")
    return mean, sd, noise


def reparameterization_gradient(grad_log_density, mean, sd, noise):
    r"""Reparameterization estimate of the ELBO's gradient in :math:`(m, \log s)`.

    Parameters
    ----------
    grad_log_density : callable
        ``theta (S, d) -> (S, d)``, the gradient of the unnormalized log target.
    mean, sd : array_like, shape (d,)
        :math:`m` and :math:`s > 0` of :math:`q = N(m, \operatorname{diag}(s^2))`.
    noise : array_like, shape (S, d)
        Standard normal draws :math:`\varepsilon_1, \dots, \varepsilon_S`, :math:`S \ge 2`.

    Returns
    -------
    ELBOGradient

    Notes
    -----
    With :math:`\theta_r = m + s\odot\varepsilon_r` the draws are a differentiable function
    of :math:`(m, \log s)`, so the chain rule gives (Kingma and Welling, 2014)

    .. math::

        \widehat{\nabla_m\mathcal L} = \frac1S\sum_r \nabla\log\tilde p(\theta_r),\qquad
        \widehat{\nabla_{\log s}\mathcal L}
            = \frac1S\sum_r \nabla\log\tilde p(\theta_r)\odot s\odot\varepsilon_r + 1,

    the 1 being the exact gradient of the entropy :math:`\sum_i\log s_i`. Both are unbiased.
    """
    mean, sd, noise = _check_gaussian(mean, sd, noise)
    return _reparameterized(grad_log_density, mean, sd, noise)


def score_function_gradient(log_density, mean, sd, noise, baseline="leave-one-out"):
    r"""Score-function estimate of the ELBO's gradient in :math:`(m, \log s)`, from log p~ alone.

    Parameters
    ----------
    log_density : callable
        ``theta (S, d) -> (S,)``, the unnormalized log target; no gradient is needed.
    mean, sd : array_like, shape (d,)
        :math:`m` and :math:`s > 0` of :math:`q = N(m, \operatorname{diag}(s^2))`.
    noise : array_like, shape (S, d)
        Standard normal draws :math:`\varepsilon_1, \dots, \varepsilon_S`, :math:`S \ge 2`.
    baseline : {"leave-one-out", "none"}
        What to subtract from each draw's :math:`f_r` before weighting it by the score.

    Returns
    -------
    ELBOGradient

    Notes
    -----
    With :math:`\theta_r = m + s\odot\varepsilon_r`,
    :math:`f_r = \log\tilde p(\theta_r) - \log q(\theta_r)` and the score of :math:`q`,
    :math:`\nabla_m\log q = \varepsilon/s` and :math:`\nabla_{\log s}\log q = \varepsilon^2 - 1`,

    .. math::

        \widehat{\nabla_\phi\mathcal L} = \frac1S\sum_r (f_r - b_r)\,\nabla_\phi\log q(\theta_r),
        \qquad b_r = \frac1{S-1}\sum_{t\ne r} f_t

    (Williams, 1992; Ranganath, Gerrish and Blei, 2014). Because the score has mean zero, any
    :math:`b_r` that is independent of :math:`\theta_r` leaves the estimate unbiased; the
    leave-one-out mean is, since the draws are independent (Kool, van Hoof and Welling, 2019).
    The plain batch mean is not: it contains :math:`f_r` itself, and the estimate it gives is
    exactly :math:`(S-1)/S` times this one, biased towards zero. With ``baseline="none"``,
    :math:`b_r = 0`, and the variance carries the unknown :math:`\log Z` inside every :math:`f_r`.
    """
    mean, sd, noise = _check_gaussian(mean, sd, noise)
    if baseline not in ("leave-one-out", "none"):
        raise ValueError(f"baseline must be 'leave-one-out' or 'none'; got {baseline!r}")
    # f_r = log p~(theta_r) - log q(theta_r), with log q from the standardized draws.
    log_q = -0.5 * (noise**2).sum(axis=1) - np.log(sd).sum() - 0.5 * mean.size * np.log(2 * np.pi)
    values = log_density(mean + sd * noise) - log_q
    if baseline == "leave-one-out":
        size = len(values)
        values = values - (values.sum() - values) / (size - 1)
    return ELBOGradient((values[:, None] * noise / sd).mean(axis=0),
                        (values[:, None] * (noise**2 - 1)).mean(axis=0))


def _check_settings(n_steps, n_samples, lr, rng, mean):
    """Checked settings, and a function giving each step's noise for every fit."""
    n_steps, n_samples, lr = (positive_int(n_steps, "n_steps"), positive_int(n_samples, "n_samples"),
                              positive_float(lr, "lr"))
    shape = (n_samples, mean.shape[-1])
    if isinstance(rng, np.random.Generator) or mean.ndim == 1:
        rng = generator(rng)
        return n_steps, n_samples, lr, lambda: rng.standard_normal(mean.shape[:-1] + shape)
    # One generator per fit: each fit is then the fit a single run with its generator gives.
    if len(rng) != len(mean):
        raise ValueError(f"rng must be one np.random.Generator or one per fit ({len(mean)}); "
                         f"got {len(rng)}")
    rngs = [generator(r, f"rng[{k}]") for k, r in enumerate(rng)]
    return n_steps, n_samples, lr, lambda: np.stack([r.standard_normal(shape) for r in rngs])


def _check_average(n_average, n_steps):
    return integer_in_range(n_average, "n_average", 0, n_steps, "n_steps", inclusive=True)


def _check_init_mean(init_mean):
    """A start of shape (d,) for one fit, or (fit, d) for several fits run at once."""
    mean = as_finite_array(init_mean, "init_mean")
    if mean.ndim not in (1, 2):
        raise ValueError(f"init_mean must have shape (d,) for one fit or (fit, d) for several; "
                         f"got shape {mean.shape}")
    return mean


def _averaging(n_steps, n_average):
    """Polyak-Ruppert averaging of the last ``n_average`` iterates: ``add(step, values)`` and
    ``result(last)`` (the average, or the last iterate when there is nothing to average)."""
    totals = []

    def add(step, values):
        if step < n_steps - n_average:
            return
        if not totals:
            totals.extend(np.zeros_like(value) for value in values)
        for total, value in zip(totals, values):
            total += value / n_average

    return add, lambda last: tuple(totals) if n_average else last


def mean_field_vi(target, init_mean, init_log_sd, n_steps, rng, n_samples=256, lr=0.03,
                  betas=(0.9, 0.999), eps=1e-8, n_average=0, track_elbo=True):
    r"""Fit :math:`q = N(m, \operatorname{diag}(s^2))` by maximizing the ELBO.

    Parameters
    ----------
    target : Target
        The unnormalized log target: its ``log_density`` and ``grad_log_density``, both
        vectorized over leading axes.
    init_mean, init_log_sd : array_like, shape (d,) or (fit, d)
        One start, or one per fit for several independent fits run at once (say, replicates
        with different random numbers): every result then has the fit as its leading axis.
    n_steps : int
        Adam steps.
    rng : np.random.Generator, or a sequence of them (one per fit)
        It draws each step's noise, of shape ``(n_samples, d)``, or ``(fit, n_samples, d)``
        for several fits; with one generator per fit, each fit is the one a single run with
        its generator gives.
    n_samples : int
        Draws of :math:`\varepsilon` per step.
    lr, betas, eps : float, tuple, float
        Adam settings.
    n_average : int
        Average :math:`(m, \log s)` over the last ``n_average`` iterates (Polyak-Ruppert
        averaging) instead of returning the last one. With a constant learning rate the last
        iterate keeps jittering around the optimum; the average removes most of that jitter,
        but keeps a bias of the order of the learning rate. (With steps that decrease more
        slowly than one over the iteration count the average is asymptotically efficient,
        Polyak and Juditsky, 1992; with a constant step, plain SGD's average is exact only on
        a quadratic objective, Bach and Moulines, 2013.)
    track_elbo : bool
        Record the ELBO estimate at each step. It costs one more log-density evaluation per
        step, about as much as the gradient, and the fit itself does not use it.

    Returns
    -------
    MeanFieldResult

    Notes
    -----
    The ELBO is :math:`\mathcal L = \mathbb E_q[\log\tilde p(\theta)] + \sum_i \log s_i + c`.
    Writing :math:`\theta = m + s\odot\varepsilon` with :math:`\varepsilon\sim N(0,I)` moves the
    randomness out of :math:`q` (Kingma and Welling, 2014), so

    .. math::

        \nabla_m\mathcal L = \mathbb E[\nabla\log\tilde p(\theta)],\qquad
        \nabla_{\log s}\mathcal L = \mathbb E[\nabla\log\tilde p(\theta)\odot s\odot\varepsilon] + 1,

    estimated with ``n_samples`` draws per step by :func:`reparameterization_gradient`
    (Blei et al., 2017).
    """
    mean = _check_init_mean(init_mean)
    log_density, grad_log_density = target_functions(target, mean.shape[-1], GRADIENT)
    log_sd = as_finite_array(init_log_sd, "init_log_sd", shape=mean.shape)
    n_steps, n_samples, lr, draw_noise = _check_settings(n_steps, n_samples, lr, rng, mean)
    n_average = _check_average(n_average, n_steps)
    adam_mean = _Adam(mean.shape, lr, betas, eps)
    adam_log_sd = _Adam(mean.shape, lr, betas, eps)
    elbo = np.empty((n_steps,) + mean.shape[:-1]) if track_elbo else None
    mean_path, log_sd_path = np.empty((n_steps,) + mean.shape), np.empty((n_steps,) + mean.shape)
    add_to_average, averaged = _averaging(n_steps, n_average)
    for step in range(n_steps):
        # Reparameterize: the draws are a deterministic function of (m, log s) and noise.
        noise = draw_noise()
        sd = np.exp(log_sd)
        if track_elbo:
            elbo[step] = (log_density(mean[..., None, :] + sd[..., None, :] * noise).mean(axis=-1)
                          + _gaussian_entropy(log_sd))
        gradient = _reparameterized(grad_log_density, mean, sd, noise)
        mean = adam_mean.ascend(mean, gradient.mean)
        log_sd = adam_log_sd.ascend(log_sd, gradient.log_sd)
        mean_path[step], log_sd_path[step] = mean, log_sd
        add_to_average(step, (mean, log_sd))
    mean, log_sd = averaged((mean, log_sd))
    # Several fits: each result's leading axis is the fit (paths: (fit, step, d)).
    return MeanFieldResult(mean, np.exp(log_sd), None if elbo is None else np.moveaxis(elbo, 0, -1),
                           np.moveaxis(mean_path, 0, -2), np.exp(np.moveaxis(log_sd_path, 0, -2)))


def full_rank_vi(target, init_mean, init_chol, n_steps, rng, n_samples=256, lr=0.03,
                 betas=(0.9, 0.999), eps=1e-8, n_average=0):
    r"""Fit :math:`q = N(m, LL^\top)` with :math:`L` lower triangular, by maximizing the ELBO.

    Parameters
    ----------
    target : Target
        As for :func:`mean_field_vi`.
    init_mean : array_like, shape (d,) or (fit, d)
        As for :func:`mean_field_vi`: one start, or one per fit for several fits at once.
    init_chol : array_like, shape (d, d)
        Lower triangular with a positive diagonal; the start of every fit.
    n_steps, rng, n_samples, lr, betas, eps
        As for :func:`mean_field_vi`.
    n_average : int
        Average the parameters over the last ``n_average`` iterates (Polyak-Ruppert averaging)
        instead of returning the last one; stochastic gradients leave the last iterate noisy.

    Returns
    -------
    FullRankResult

    Notes
    -----
    The diagonal of :math:`L` is stored as its log so it stays positive; the strictly lower
    part is free. With :math:`\theta = m + L\varepsilon` and :math:`g = \nabla\log\tilde p(\theta)`,
    :math:`\nabla_L \mathcal L = \mathbb E[g\varepsilon^\top]` (lower part) plus
    :math:`\operatorname{diag}(1/L_{ii})` from the entropy :math:`\sum_i\log L_{ii}`; the chain
    rule multiplies the diagonal entries by :math:`L_{ii}` (Titsias and Lázaro-Gredilla, 2014).
    """
    mean = _check_init_mean(init_mean)
    dim = mean.shape[-1]
    log_density, grad_log_density = target_functions(target, dim, GRADIENT)
    chol = cholesky_factor(init_chol, "init_chol", dim, "init_mean")
    n_steps, n_samples, lr, draw_noise = _check_settings(n_steps, n_samples, lr, rng, mean)
    n_average = _check_average(n_average, n_steps)
    lower = np.broadcast_to(np.tril(chol, -1), mean.shape + (dim,)).copy()
    log_diag = np.broadcast_to(np.log(np.diag(chol)), mean.shape).copy()
    adams = [_Adam(part.shape, lr, betas, eps) for part in (mean, lower, log_diag)]
    elbo = np.empty((n_steps,) + mean.shape[:-1])
    add_to_average, averaged = _averaging(n_steps, n_average)
    for step in range(n_steps):
        noise = draw_noise()
        factor = lower + np.exp(log_diag)[..., None, :] * np.eye(dim)
        theta = mean[..., None, :] + noise @ np.swapaxes(factor, -1, -2)
        grad = grad_log_density(theta)
        elbo[step] = log_density(theta).mean(axis=-1) + _gaussian_entropy(log_diag)
        grad_factor = np.swapaxes(grad, -1, -2) @ noise / n_samples
        mean = adams[0].ascend(mean, grad.mean(axis=-2))
        lower = np.tril(adams[1].ascend(lower, np.tril(grad_factor, -1)), -1)
        log_diag = adams[2].ascend(log_diag, np.diagonal(grad_factor, axis1=-2, axis2=-1)
                                   * np.exp(log_diag) + 1.0)
        add_to_average(step, (mean, lower, log_diag))
    mean, lower, log_diag = averaged((mean, lower, log_diag))
    factor = lower + np.exp(log_diag)[..., None, :] * np.eye(dim)
    return FullRankResult(mean, factor, factor @ np.swapaxes(factor, -1, -2),
                          np.moveaxis(elbo, 0, -1))
