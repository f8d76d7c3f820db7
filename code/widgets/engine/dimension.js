// What each extra dimension costs: random-walk Metropolis and HMC on the standard Gaussian
// N(0, I_d), tuned by chapter 6's rules, and the exact distribution of the draws' distance from
// the mode, chi with d degrees of freedom (the typical set).

/** N(0, I_d): log density (up to a constant) and gradient. */
export function standardGaussianTarget(d) {
  if (!(Number.isInteger(d) && d >= 1)) throw new Error(`d must be an integer >= 1; got ${d}`);
  return {
    dim: d,
    logDensity(x) {
      let total = 0;
      for (let i = 0; i < d; i += 1) total += x[i] * x[i];
      return -0.5 * total;
    },
    grad(x) {
      return Float64Array.from(x, (v) => -v);
    },
  };
}

/** Chapter 6's tuning: random-walk scale rwmScale / sqrt(d); HMC step h = T d^(-1/4) with
 * L = d^(1/4) leapfrog steps (rounded, at least 1), so that d h^4 stays fixed. The constants
 * (2.38 and T = 1.4) come from the package's widget data, as bayescomp.book.dimension_tuning's. */
export function dimensionTuning(d, { rwmScale, pathLength }) {
  if (!(rwmScale > 0) || !(pathLength > 0)) {
    throw new Error(`dimensionTuning needs a positive rwmScale and pathLength; got ${rwmScale}, ${pathLength}`);
  }
  const nLeapfrog = Math.max(1, Math.round(d ** 0.25));
  return { rwmScale: rwmScale / Math.sqrt(d), stepSize: pathLength * d ** -0.25, nLeapfrog };
}

/** Euclidean distance of a point from the origin (the mode). */
export function distanceFromMode(x) {
  let total = 0;
  for (let i = 0; i < x.length; i += 1) total += x[i] * x[i];
  return Math.sqrt(total);
}

/** log Gamma(k / 2) for an integer k >= 1, exactly from the factorial and half-integer
 * formulas: Gamma(n) = (n - 1)!, Gamma(n + 1/2) = sqrt(pi) (2n)! / (4^n n!). */
export function logGammaHalf(k) {
  if (!(Number.isInteger(k) && k >= 1)) throw new Error(`k must be an integer >= 1; got ${k}`);
  let total = k % 2 === 0 ? 0 : 0.5 * Math.log(Math.PI);
  // Gamma(k/2) = prod over the factors (k/2 - 1)(k/2 - 2)... down to 1 or to 1/2.
  for (let x = k / 2 - 1; x > 0; x -= 1) total += Math.log(x);
  return total;
}

/** Mean and variance of the chi distribution with d degrees of freedom: the distance of a
 * N(0, I_d) draw from the origin. E[r] = sqrt(2) Gamma((d+1)/2) / Gamma(d/2), E[r^2] = d. */
export function chiMoments(d) {
  const mean = Math.SQRT2 * Math.exp(logGammaHalf(d + 1) - logGammaHalf(d));
  return { mean, variance: d - mean * mean };
}

/** The chi_d density at r >= 0: r^(d-1) exp(-r^2/2) / (2^(d/2-1) Gamma(d/2)). */
export function chiDensity(r, d) {
  if (r <= 0) return d === 1 ? Math.sqrt(2 / Math.PI) * (r === 0 ? 1 : 0) : 0;
  return Math.exp((d - 1) * Math.log(r) - 0.5 * r * r - (d / 2 - 1) * Math.LN2 - logGammaHalf(d));
}

/** A histogram of `values` on `bins` even bins over [low, high], as a density (area 1 over the
 * values inside); values outside are counted apart. */
export function densityHistogram(values, low, high, bins) {
  const counts = new Float64Array(bins);
  let outside = 0;
  const width = (high - low) / bins;
  for (let i = 0; i < values.length; i += 1) {
    const k = Math.floor((values[i] - low) / width);
    if (k >= 0 && k < bins) counts[k] += 1;
    else if (values[i] === high) counts[bins - 1] += 1;
    else outside += 1;
  }
  const total = values.length ? values.length * width : 1;
  return { density: counts.map((c) => c / total), outside, width, low, high };
}

/** The regularized lower incomplete gamma function P(k/2, x) for an integer k >= 1 and x >= 0:
 * its series where it converges fast (x < k/2 + 1), else 1 - Q by Lentz's continued fraction
 * (Press et al., Numerical Recipes, section 6.2). */
function gammaPHalf(k, x) {
  if (x <= 0) return 0;
  const a = k / 2;
  const logPrefactor = a * Math.log(x) - x - logGammaHalf(k);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-16; n += 1) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.exp(logPrefactor) * sum;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < 1000; n += 1) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 - Math.exp(logPrefactor) * h;
}

/** P(|x| <= r) for x ~ N(0, I_d): the chi_d distribution function, P(d/2, r^2/2). */
export function chiCdf(r, d) {
  if (!(Number.isInteger(d) && d >= 1)) throw new Error(`d must be an integer >= 1; got ${d}`);
  return r <= 0 ? 0 : gammaPHalf(d, 0.5 * r * r);
}
