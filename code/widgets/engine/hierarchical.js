// The hierarchical normal model (eight schools) on (mu, log tau, theta_1..J) (centred) or
// (mu, log tau, eta_1..J) (non-centred), as bayescomp/hierarchical.py. Every expression repeats
// the package's operations in the package's order, with the portable exp and log, so the
// values and gradients are the package's to the last bit.
import { exp, log, sumLeftToRight } from './portable.js';

function check(data) {
  const { y, sigma } = data;
  if (y.length !== sigma.length || y.length < 1) throw new Error(`y and sigma must have the same positive length; got ${y.length} and ${sigma.length}`);
  if (!sigma.every((s) => s > 0)) throw new Error('sigma must be > 0 for every group');
  if (!(data.muPriorSd > 0) || !(data.tauPriorScale > 0)) throw new Error('muPriorSd and tauPriorScale must be > 0');
  return y.length;
}

/** Log prior of (mu, u = log tau) with the Jacobian tau (the package's _hyperprior). */
function hyperprior(data, mu, logTau, tau) {
  const ratio = (tau * tau) / (data.tauPriorScale * data.tauPriorScale);
  return ((-0.5 * mu) * mu) / (data.muPriorSd * data.muPriorSd) - log(1 + ratio) + logTau;
}

/** Its derivatives in mu and in u (the package's _hyperprior_grad). */
function hyperpriorGrad(data, mu, tau) {
  const ratio = (tau * tau) / (data.tauPriorScale * data.tauPriorScale);
  return [-mu / (data.muPriorSd * data.muPriorSd), 1 - (2 * ratio) / (1 + ratio)];
}

/** Centred target: logDensity(theta) and grad(theta) for theta of length J + 2. */
export function centredTarget(data) {
  const n = check(data);
  const precision = data.sigma.map((s) => 1 / (s * s));
  const logDensity = (theta) => {
    const mu = theta[0];
    const logTau = theta[1];
    const tau = exp(logTau);
    const spread = [];
    const misfit = [];
    for (let j = 0; j < n; j += 1) {
      const deviation = theta[2 + j] - mu;
      spread.push(deviation * deviation);
      const residual = data.y[j] - theta[2 + j];
      misfit.push((residual * residual) * precision[j]);
    }
    return ((hyperprior(data, mu, logTau, tau) - n * logTau)
            - (0.5 * sumLeftToRight(spread)) / (tau * tau)) - 0.5 * sumLeftToRight(misfit);
  };
  const grad = (theta) => {
    const mu = theta[0];
    const tau = exp(theta[1]);
    const [dMu, dLogTau] = hyperpriorGrad(data, mu, tau);
    const inverseVar = 1 / (tau * tau);
    const deviation = [];
    const squared = [];
    for (let j = 0; j < n; j += 1) {
      deviation.push(theta[2 + j] - mu);
      squared.push(deviation[j] * deviation[j]);
    }
    const out = new Float64Array(n + 2);
    out[0] = dMu + sumLeftToRight(deviation) * inverseVar;
    out[1] = (dLogTau - n) + sumLeftToRight(squared) * inverseVar;
    for (let j = 0; j < n; j += 1) {
      out[2 + j] = (-deviation[j]) * inverseVar + (data.y[j] - theta[2 + j]) * precision[j];
    }
    return out;
  };
  return { logDensity, grad, dim: n + 2, form: 'centred' };
}

/** Non-centred target: theta_j = mu + tau eta_j. */
export function noncentredTarget(data) {
  const n = check(data);
  const precision = data.sigma.map((s) => 1 / (s * s));
  const logDensity = (theta) => {
    const mu = theta[0];
    const logTau = theta[1];
    const tau = exp(logTau);
    const squared = [];
    const misfit = [];
    for (let j = 0; j < n; j += 1) {
      const eta = theta[2 + j];
      squared.push(eta * eta);
      const residual = (data.y[j] - mu) - tau * eta;
      misfit.push((residual * residual) * precision[j]);
    }
    return (hyperprior(data, mu, logTau, tau) - 0.5 * sumLeftToRight(squared))
           - 0.5 * sumLeftToRight(misfit);
  };
  const grad = (theta) => {
    const mu = theta[0];
    const tau = exp(theta[1]);
    const [dMu, dLogTau] = hyperpriorGrad(data, mu, tau);
    const scaled = [];
    const weighted = [];
    for (let j = 0; j < n; j += 1) {
      scaled.push(((data.y[j] - mu) - tau * theta[2 + j]) * precision[j]);
      weighted.push(theta[2 + j] * scaled[j]);
    }
    const out = new Float64Array(n + 2);
    out[0] = dMu + sumLeftToRight(scaled);
    out[1] = dLogTau + tau * sumLeftToRight(weighted);
    for (let j = 0; j < n; j += 1) out[2 + j] = -theta[2 + j] + tau * scaled[j];
    return out;
  };
  return { logDensity, grad, dim: n + 2, form: 'non-centred' };
}

export function hierarchicalTarget(data, form) {
  if (form === 'centred') return centredTarget(data);
  if (form === 'non-centred') return noncentredTarget(data);
  throw new Error(`form must be "centred" or "non-centred"; got ${JSON.stringify(form)}`);
}

/** theta_j = mu + exp(u) eta_j: non-centred coordinates to centred ones (the package's
 * to_centred uses NumPy's exp here; this is for display, not for replays). */
export function toCentred(point) {
  const tau = Math.exp(point[1]);
  return [point[0], point[1], ...Array.from(point.slice(2), (eta) => point[0] + tau * eta)];
}

/** The exact joint density of (theta_1, log tau) on a grid, for drawing the funnel: at each of
 * the reference's nodes u_k, p(u_k | y) times the Gaussian N(theta; m_k, v_k) of theta_1 given
 * tau (the package's log_tau_theta_density). Returns {axes: [theta, logTau], weights} with
 * weights[i * K + k] at theta[i], u_k (the layout of the grids the plots draw). */
export function funnelDensityGrid(reference, theta) {
  const u = reference.log_tau;
  const K = u.length;
  const weights = new Float64Array(theta.length * K);
  for (let k = 0; k < K; k += 1) {
    const mean = reference.theta1_mean[k];
    const variance = reference.theta1_var[k];
    const norm = reference.density[k] / Math.sqrt(2 * Math.PI * variance);
    for (let i = 0; i < theta.length; i += 1) {
      weights[i * K + k] = norm * Math.exp((-0.5 * (theta[i] - mean) ** 2) / variance);
    }
  }
  return { axes: [Float64Array.from(theta), Float64Array.from(u)], weights };
}
