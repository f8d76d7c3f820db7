// Self-normalized importance sampling: proposals, weights, weight ESS and PSIS k-hat.
import { chol2, det2, inv2 } from './linalg.js';
import { logAddExp, logSumExp, softmax } from './numeric.js';

const LOG_2PI = Math.log(2 * Math.PI);

/** log N(x; mean, cov) = -[2 log 2 pi + log|cov| + (x - mean)^T cov^-1 (x - mean)] / 2. */
export function gaussianLogDensity(x, mean, cov) {
  const inv = inv2(cov);
  const c0 = x[0] - mean[0];
  const c1 = x[1] - mean[1];
  const mahalanobis = c0 * (inv[0][0] * c0 + inv[0][1] * c1) + c1 * (inv[1][0] * c0 + inv[1][1] * c1);
  return -0.5 * (2 * LOG_2PI + Math.log(det2(cov)) + mahalanobis);
}

/**
 * N(mean, cov), drawn as mean + factor z with z ~ N(0, I). The factor defaults to the Cholesky
 * factor; any F with F F^T = cov gives the same distribution (NumPy's multivariate_normal uses
 * one from an SVD, which a replay passes in).
 */
export function gaussianProposal(mean, cov, factor = chol2(cov)) {
  return {
    family: 'gaussian',
    mean,
    cov,
    sample(rng) {
      const z0 = rng.normal();
      const z1 = rng.normal();
      return [mean[0] + (factor[0][0] * z0 + factor[0][1] * z1), mean[1] + (factor[1][0] * z0 + factor[1][1] * z1)];
    },
    logDensity: (x) => gaussianLogDensity(x, mean, cov),
  };
}

/**
 * Multivariate Student-t with df degrees of freedom (an integer), location mean and scale
 * matrix cov: mean + L z / sqrt(w / df) with w a sum of df squared normals. In two dimensions
 * Gamma(df/2 + 1) / Gamma(df/2) = df/2, so log q = -log 2 pi - log|cov|/2 - (df/2 + 1) log(1 + m/df).
 */
export function studentTProposal(mean, cov, df) {
  if (!(Number.isInteger(df) && df >= 1)) throw new Error(`df must be a whole number >= 1; got ${df}`);
  const factor = chol2(cov);
  const inv = inv2(cov);
  const logDet = Math.log(det2(cov));
  return {
    family: 'student-t',
    mean,
    cov,
    df,
    sample(rng) {
      const z0 = rng.normal();
      const z1 = rng.normal();
      let chiSquare = 0;
      for (let k = 0; k < df; k += 1) chiSquare += rng.normal() ** 2;
      const s = 1 / Math.sqrt(chiSquare / df);
      return [mean[0] + s * factor[0][0] * z0, mean[1] + s * (factor[1][0] * z0 + factor[1][1] * z1)];
    },
    logDensity(x) {
      const c0 = x[0] - mean[0];
      const c1 = x[1] - mean[1];
      const m = c0 * (inv[0][0] * c0 + inv[0][1] * c1) + c1 * (inv[1][0] * c0 + inv[1][1] * c1);
      return -LOG_2PI - 0.5 * logDet - (df / 2 + 1) * Math.log1p(m / df);
    },
  };
}

/**
 * The defensive mixture (1 - fallbackWeight) main + fallbackWeight fallback (Hesterberg, 1995),
 * as the package's defensive_mixture(main, fallback, fallback_weight): a fallback that covers
 * the target's tails (for a posterior, the prior) bounds the weights p~/q by
 * p~/(fallbackWeight fallback). A uniform picks the component, then it draws.
 */
export function defensiveMixture(main, fallback, fallbackWeight) {
  if (!(fallbackWeight > 0 && fallbackWeight < 1)) throw new Error(`fallbackWeight must be in (0, 1); got ${fallbackWeight}`);
  const logMain = Math.log1p(-fallbackWeight);
  const logFallback = Math.log(fallbackWeight);
  return {
    family: 'defensive',
    mean: main.mean,
    main,
    fallback,
    fallbackWeight,
    sample: (rng) => (rng.uniform() < fallbackWeight ? fallback.sample(rng) : main.sample(rng)),
    logDensity: (x) => logAddExp(logMain + main.logDensity(x), logFallback + fallback.logDensity(x)),
  };
}

/** Weight ESS of normalized weights, 1 / sum w^2 (Kong, 1992). */
export function weightEss(weights) {
  let total = 0;
  for (const w of weights) total += w * w;
  return 1 / total;
}

/** Normalized weights exp(lw - max) / sum, so the largest raw weight is exp(0) = 1. */
export function normalizeLogWeights(logWeights) {
  return softmax(logWeights).weights;
}

/**
 * Draw n points from the proposal and weight them by p~/q.
 *
 * E_p[f] ~ sum_s wbar_s f(theta_s), wbar_s = w_s / sum_r w_r (Owen, 2013, chapter 9). The MCSE
 * of the mean is the delta-method one, sqrt(sum_s wbar_s^2 (theta_s - estimate)^2).
 */
export function importanceSample(logDensity, proposal, n, rng) {
  const draws = new Float64Array(2 * n);
  const logWeights = new Float64Array(n);
  for (let s = 0; s < n; s += 1) {
    const theta = proposal.sample(rng);
    draws[2 * s] = theta[0];
    draws[2 * s + 1] = theta[1];
    logWeights[s] = logDensity(theta) - proposal.logDensity(theta);
  }
  return weighDraws(draws, logWeights);
}

/** The estimates from draws and their log weights. */
export function weighDraws(draws, logWeights) {
  const n = logWeights.length;
  const weights = normalizeLogWeights(logWeights);
  const mean = [0, 0];
  let maxWeight = 0;
  for (let s = 0; s < n; s += 1) {
    mean[0] += weights[s] * draws[2 * s];
    mean[1] += weights[s] * draws[2 * s + 1];
    if (weights[s] > maxWeight) maxWeight = weights[s];
  }
  const variance = [0, 0];
  for (let s = 0; s < n; s += 1) {
    const w2 = weights[s] * weights[s];
    variance[0] += w2 * (draws[2 * s] - mean[0]) ** 2;
    variance[1] += w2 * (draws[2 * s + 1] - mean[1]) ** 2;
  }
  return {
    draws,
    logWeights,
    weights,
    mean,
    mcse: [Math.sqrt(variance[0]), Math.sqrt(variance[1])],
    ess: weightEss(weights),
    maxWeight,
    n,
  };
}

const EPS = 2.220446049250313e-16;
const LOG_TINY = Math.log(2.2250738585072014e-308);

function mean(values) {
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}

/**
 * Generalized Pareto fit to sorted exceedances: the empirical Bayes estimate of Zhang and
 * Stephens (2009) with the weakly informative prior on k of Vehtari et al. (2024), as ArviZ.
 */
export function gpdFit(sorted) {
  const n = sorted.length;
  const mEst = 30 + Math.trunc(Math.sqrt(n));
  // Candidate values of b = -k / sigma, spread by the quantiles of the prior.
  const quartile = sorted[Math.trunc(n / 4 + 0.5) - 1];
  let b = Float64Array.from({ length: mEst }, (_, i) => (1 - Math.sqrt(mEst / (i + 1 - 0.5))) / (3 * quartile) + 1 / sorted[n - 1]);
  const lengthScale = Float64Array.from(b, (bi) => {
    const k = mean(sorted.map((x) => Math.log1p(-bi * x)));
    return n * (Math.log(-bi / k) - k - 1);
  });
  // Normalized profile likelihood weights, dropping the negligible ones.
  let weights = Float64Array.from(lengthScale, (li) => 1 / lengthScale.reduce((t, lj) => t + Math.exp(lj - li), 0));
  const keep = Array.from(weights, (w) => w >= 10 * EPS);
  b = b.filter((_, i) => keep[i]);
  weights = weights.filter((_, i) => keep[i]);
  const total = weights.reduce((t, w) => t + w, 0);
  let bPost = 0;
  for (let i = 0; i < b.length; i += 1) bPost += b[i] * (weights[i] / total);
  let k = mean(sorted.map((x) => Math.log1p(-bPost * x)));
  const sigma = -k / bPost;
  k = (n * k + 10 * 0.5) / (n + 10);
  return { k, sigma };
}

/** Quantiles of the generalized Pareto distribution. */
function gpdQuantiles(probs, k, sigma) {
  if (!(sigma > 0)) return probs.map(() => NaN);
  return probs.map((p) => sigma * (Math.abs(k) < EPS ? -Math.log1p(-p) : Math.expm1(-k * Math.log1p(-p)) / k));
}

/**
 * The largest k-hat at which a PSIS estimate from nDraws draws is trusted:
 * min(1 - 1/log10 S, cap), the package's k_hat_threshold with its cap K_HAT_MAX (0.7) passed in
 * (Vehtari et al., 2024, section 3: below about 2,200 draws the tail fit rests on few draws and
 * the bound is stricter).
 */
export function kHatThreshold(nDraws, cap) {
  if (!(nDraws >= 2)) throw new Error(`kHatThreshold needs at least 2 draws; got ${nDraws}`);
  return Math.min(1 - 1 / Math.log10(nDraws), cap);
}

/**
 * Pareto smoothed importance sampling (Vehtari et al., 2024), as ArviZ's psislw with r_eff = 1.
 * Fits a generalized Pareto to the largest min(n/5, 3 sqrt(n)) weights; k-hat above
 * kHatThreshold(n) says the estimate cannot be trusted. Returns k and the smoothed, normalized
 * log weights.
 */
export function paretoSmoothedLogWeights(logWeights) {
  const n = logWeights.length;
  let top = -Infinity;
  for (const v of logWeights) if (v > top) top = v;
  const x = Float64Array.from(logWeights, (v) => v - top);
  const sorted = Float64Array.from(x).sort();
  const tailSize = Math.ceil(Math.min(n / 5, 3 * Math.sqrt(n)));
  const cutoff = Math.max(sorted[n - tailSize - 1], LOG_TINY);
  const expCutoff = Math.exp(cutoff);
  const tail = [];
  for (let s = 0; s < n; s += 1) if (x[s] > cutoff) tail.push(s);
  let k = Infinity;
  if (tail.length > 4) {
    tail.sort((a, b) => x[a] - x[b]);
    const fit = gpdFit(tail.map((s) => Math.exp(x[s]) - expCutoff));
    k = fit.k;
    if (Number.isFinite(k) && fit.sigma > 0) {
      // Replace the tail by the fitted quantiles, truncated at the largest raw weight.
      const probs = tail.map((_, i) => (i + 0.5) / tail.length);
      gpdQuantiles(probs, k, fit.sigma).forEach((q, i) => {
        x[tail[i]] = Math.log(q + expCutoff);
      });
      for (let s = 0; s < n; s += 1) if (x[s] > 0) x[s] = 0;
    }
  }
  const logTotal = logSumExp(x);
  for (let s = 0; s < n; s += 1) x[s] -= logTotal;
  return { logWeights: x, k };
}
