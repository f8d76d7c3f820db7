// Convergence diagnostics for several chains of one parameter: `chains` is an array of
// equal-length Float64Arrays. Two sets, as in the package:
// - the lecture's textbook versions (bayescomp.classic_diagnostics): split R-hat (Gelman et al.,
//   2013, section 11.4), each chain's FFT autocorrelation and Geyer's (1992) initial positive
//   sequence ESS, and MCSE = sd / sqrt(ESS): summarize();
// - the production versions (bayescomp.diagnostics) of Vehtari, Gelman, Simpson, Carpenter and
//   Buerkner (2021), "Rank-normalization, folding, and localization: an improved R-hat for
//   assessing convergence of MCMC", Bayesian Analysis 16(2):667-718: rank-normalized split
//   R-hat, bulk and tail ESS, and the MCSE of the mean from the multi-chain ESS: rankSummary().
import { normalQuantile } from './numeric.js';

function meanOf(x) {
  let total = 0;
  for (let t = 0; t < x.length; t += 1) total += x[t];
  return total / x.length;
}

/** Sample variance with ddof 1. */
function varianceOf(x) {
  const m = meanOf(x);
  let total = 0;
  for (let t = 0; t < x.length; t += 1) total += (x[t] - m) ** 2;
  return total / (x.length - 1);
}

/** The draws per chain, after checking what every diagnostic needs (as bayescomp's check_draws). */
function checkChains(chains, minChains = 1) {
  if (chains.length < minChains) {
    throw new Error(`chains must hold at least ${minChains} chain${minChains > 1 ? 's' : ''}; got ${chains.length}`);
  }
  const n = chains[0].length;
  const lengths = chains.map((c) => c.length);
  if (lengths.some((m) => m !== n)) throw new Error(`chains must all have the same length; got ${lengths.join(', ')}`);
  if (n < 4) throw new Error(`chains must have at least 4 draws each; got ${n}`);
  chains.forEach((c, k) => {
    const t = c.findIndex((v) => !Number.isFinite(v));
    if (t >= 0) throw new Error(`chains must hold finite numbers; chain ${k}, draw ${t} is ${c[t]}`);
  });
  return n;
}

/**
 * Split R-hat: cut each chain into halves of n = N // 2 draws, W = mean within-half variance,
 * B = n Var(half means), R-hat = sqrt(((n - 1)/n W + B/n) / W).
 */
export function splitRhat(chains) {
  const n = checkChains(chains);
  const half = Math.floor(n / 2);
  const split = [];
  for (const c of chains) split.push(c.subarray(0, half));
  for (const c of chains) split.push(c.subarray(n - half));
  const within = meanOf(split.map(varianceOf));
  const between = half * varianceOf(split.map(meanOf));
  return Math.sqrt((((half - 1) / half) * within + between / half) / within);
}

/** In-place iterative radix-2 FFT of (re, im); the length must be a power of two. */
export function fft(re, im, inverse = false) {
  const size = re.length;
  for (let i = 1, j = 0; i < size; i += 1) {
    let bit = size >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let length = 2; length <= size; length <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / length;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < size; start += length) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < length / 2; k += 1) {
        const a = start + k;
        const b = a + length / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        // Recompute the twiddle every 64 steps to stop rounding from accumulating.
        if ((k & 63) === 63) {
          cr = Math.cos(angle * (k + 1));
          ci = Math.sin(angle * (k + 1));
        } else {
          const next = cr * wr - ci * wi;
          ci = cr * wi + ci * wr;
          cr = next;
        }
      }
    }
  }
}

/**
 * Lagged products sum_t (x_t - xbar)(x_{t+k} - xbar), k = 0..n-1, of two series at once (one as
 * the real part, one as the imaginary part of a single FFT). Zero-padding to at least 2n makes
 * the circular correlation the ordinary one (Press et al., 2007, section 13.2). y may be null.
 */
function lagProductsPair(x, y) {
  const n = x.length;
  let size = 1;
  while (size < 2 * n) size <<= 1;
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const mx = meanOf(x);
  const my = y ? meanOf(y) : 0;
  for (let t = 0; t < n; t += 1) {
    re[t] = x[t] - mx;
    if (y) im[t] = y[t] - my;
  }
  fft(re, im);
  // Separate the two spectra: X_k = (Z_k + conj Z_{-k}) / 2, Y_k = (Z_k - conj Z_{-k}) / 2i;
  // |X_k|^2 goes in the real part and |Y_k|^2 in the imaginary part of one inverse FFT.
  const pr = new Float64Array(size);
  const pi = new Float64Array(size);
  for (let k = 0; k < size; k += 1) {
    const m = (size - k) & (size - 1);
    const xr = (re[k] + re[m]) / 2;
    const xi = (im[k] - im[m]) / 2;
    const yr = (im[k] + im[m]) / 2;
    const yi = (re[m] - re[k]) / 2;
    pr[k] = xr * xr + xi * xi;
    pi[k] = yr * yr + yi * yi;
  }
  fft(pr, pi, true);
  // The inverse FFT is not divided by its length: do it here (a power of two, so exactly).
  const px = new Float64Array(n);
  const py = y ? new Float64Array(n) : null;
  for (let t = 0; t < n; t += 1) {
    px[t] = pr[t] / size;
    if (y) py[t] = pi[t] / size;
  }
  return [px, py];
}

/** Autocorrelations rho(0..n-1) of two series at once: lagged products over lag 0. */
function autocorrelationPair(x, y) {
  return lagProductsPair(x, y).map((p) => p && p.map((v) => v / p[0]));
}

/** Autocorrelation rho(k), k = 0..n-1, of each chain. */
export function autocorrelation(chains) {
  const out = [];
  for (let c = 0; c < chains.length; c += 2) out.push(...autocorrelationPair(chains[c], chains[c + 1]));
  return out.slice(0, chains.length);
}

/**
 * ESS = M N / (1 + 2 sum_k rho(k)), with rho averaged over chains and the sum taken over the
 * pairs rho(2k-1) + rho(2k), k = 1, 2, ..., up to the first negative pair (Geyer, 1992).
 */
export function effectiveSampleSize(chains) {
  checkChains(chains);
  return essFromAutocorrelations(autocorrelation(chains));
}

/** The ESS from each chain's autocorrelations (so they can be computed a few at a time). */
export function essFromAutocorrelations(rhos) {
  const n = rhos[0].length;
  const rho = new Float64Array(n);
  for (const r of rhos) for (let t = 0; t < n; t += 1) rho[t] += r[t];
  for (let t = 0; t < n; t += 1) rho[t] /= rhos.length;
  const pairs = Math.floor((n - 1) / 2);
  let sum = 0;
  for (let k = 0; k < pairs; k += 1) {
    const pair = rho[2 * k + 1] + rho[2 * k + 2];
    if (pair < 0) break;
    sum += pair;
  }
  return (rhos.length * n) / (1 + 2 * sum);
}

/** Pooled mean and sd (ddof 1) of all chains' draws. */
export function pooledMoments(chains) {
  let count = 0;
  let total = 0;
  for (const c of chains) {
    for (let t = 0; t < c.length; t += 1) total += c[t];
    count += c.length;
  }
  const m = total / count;
  let squares = 0;
  for (const c of chains) for (let t = 0; t < c.length; t += 1) squares += (c[t] - m) ** 2;
  return { mean: m, sd: Math.sqrt(squares / (count - 1)) };
}

/** Every diagnostic of one parameter: split R-hat, ESS, MCSE = pooled sd / sqrt(ESS), mean. */
export function summarize(chains, rhos = null) {
  checkChains(chains);
  const ess = essFromAutocorrelations(rhos || autocorrelation(chains));
  const { mean, sd } = pooledMoments(chains);
  return { rhat: splitRhat(chains), ess, mcse: sd / Math.sqrt(ess), mean, sd };
}

/** MCSE of the mean of one parameter. */
export function mcse(chains) {
  return summarize(chains).mcse;
}

// --- Vehtari et al. (2021): rank-normalized split R-hat, bulk and tail ESS --------------------
// Each function matches its namesake in bayescomp.diagnostics (camelCase), conventions included.

// Tail ESS looks at the 5% and 95% quantiles (Vehtari et al., 2021, section 4.3).
const TAIL_PROBS = [0.05, 0.95];

/** Each chain's first and last halves of floor(N/2) draws, first halves first; the middle draw
 * of an odd N is left out (bayescomp's split_chains). Views: nothing is copied. */
export function splitChains(chains) {
  const n = chains[0].length;
  const half = Math.floor(n / 2);
  return [...chains.map((c) => c.subarray(0, half)), ...chains.map((c) => c.subarray(n - half))];
}

/** Every draw of the chains in one array, chain after chain. */
function pooled(chains) {
  const all = new Float64Array(chains.length * chains[0].length);
  chains.forEach((c, k) => all.set(c, k * c.length));
  return all;
}

// Typed arrays use the platform's byte order: where the low 32-bit word of a float64 lies.
const LOW = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1 ? 0 : 1;

/**
 * The indices that sort `values` ascending, by a least-significant-digit radix sort on their
 * IEEE-754 bits, 16 bits per pass (about three times as fast as a comparison sort of indices;
 * the rank-normalized diagnostics sort twice per parameter at every refresh).
 */
function argsort(values) {
  const n = values.length;
  // Keys that order as unsigned integers as the numbers do: flip the sign bit of x >= 0, every
  // bit of x < 0 (-0 lands just before +0; the callers treat them as tied).
  const words = new Uint32Array(Float64Array.from(values).buffer);
  const keys = new Uint32Array(2 * n);
  for (let i = 0; i < n; i += 1) {
    const high = words[2 * i + 1 - LOW];
    const flip = high >>> 31 ? 0xffffffff : 0;
    keys[2 * i] = words[2 * i + LOW] ^ flip;
    keys[2 * i + 1] = high ^ (flip | 0x80000000);
  }
  // Four stable counting sorts, from the lowest 16 bits to the highest.
  let order = Uint32Array.from({ length: n }, (_, i) => i);
  let next = new Uint32Array(n);
  const starts = new Uint32Array(65537);
  for (let pass = 0; pass < 4; pass += 1) {
    const word = pass >> 1;
    const shift = 16 * (pass & 1);
    const digit = (k) => (keys[2 * k + word] >>> shift) & 0xffff;
    starts.fill(0);
    for (let i = 0; i < n; i += 1) starts[digit(i) + 1] += 1;
    for (let d = 1; d <= 65536; d += 1) starts[d] += starts[d - 1];
    for (let i = 0; i < n; i += 1) next[starts[digit(order[i])]++] = order[i];
    [order, next] = [next, order];
  }
  return order;
}

/**
 * Normal scores of the ranks of `values` (bayescomp's _rank_normalize): a run of tied values
 * [start, end) in sorted order shares the average rank r = (start + 1 + end) / 2, and
 * z = Phi^-1((r - 3/8) / (S + 1/4)) for S values (Blom's offset). Also returns the sort order.
 */
function normalScores(values) {
  const order = argsort(values);
  const size = values.length;
  const z = new Float64Array(size);
  for (let start = 0, end = 1; start < size; start = end, end = start + 1) {
    while (end < size && values[order[end]] === values[order[start]]) end += 1;
    const score = normalQuantile(((start + 1 + end) / 2 - 3 / 8) / (size + 1 / 4));
    for (let i = start; i < end; i += 1) z[order[i]] = score;
  }
  return { z, order };
}

/** The values of one array as chains of n draws (views). */
function asChains(all, n) {
  return Array.from({ length: all.length / n }, (_, k) => all.subarray(k * n, (k + 1) * n));
}

/** Normal scores of the ranks pooled over all chains, in the chains' shape. */
export function rankNormalize(chains) {
  return asChains(normalScores(pooled(chains)).z, chains[0].length);
}

/**
 * R-hat of chains that are already split (bayescomp's potential_scale_reduction): n draws each,
 * W the mean within-chain variance, var+ = (n - 1)/n W + Var(chain means), R-hat =
 * sqrt(var+ / W). Infinite when each chain stays put, NaN when every draw is equal.
 */
function potentialScaleReduction(split) {
  const n = split[0].length;
  const within = meanOf(split.map(varianceOf));
  const varPlus = ((n - 1) / n) * within + varianceOf(split.map(meanOf));
  return Math.sqrt(varPlus / within);
}

/** The bulk R-hat of split chains (ranks make heavy tails harmless), with the normal scores
 * (for the bulk ESS) and numpy's median of the draws (for the folded R-hat). */
function bulkRhat(split) {
  const all = pooled(split);
  const { z, order } = normalScores(all);
  const mid = all.length >> 1;
  const median = all.length % 2 ? all[order[mid]] : (all[order[mid - 1]] + all[order[mid]]) / 2;
  const scores = asChains(z, split[0].length);
  return { bulk: potentialScaleReduction(scores), z: scores, median };
}

/** The larger of the bulk R-hat and the folded one, the R-hat of |theta - median|: folding
 * turns a difference in scale into one in location. As Python's max(bulk, folded) picks it (NaN
 * only when the bulk's is NaN). */
function largerRhat(split, { bulk, median }) {
  const folded = potentialScaleReduction(rankNormalize(split.map((c) => c.map((v) => Math.abs(v - median)))));
  return folded > bulk ? folded : bulk;
}

/**
 * Rank-normalized split R-hat (Vehtari et al., 2021, section 4.2): split each chain in half,
 * replace every draw by the normal score of its rank among all, R-hat of those; again on the
 * draws folded about their median; the larger of the two. At least 2 chains of 4 draws.
 */
export function rankNormalizedRhat(chains) {
  checkChains(chains, 2);
  const split = splitChains(chains);
  return largerRhat(split, bulkRhat(split));
}

/**
 * The autocorrelation of split chains measured against the pooled variance (Vehtari et al.,
 * 2021, section 3.2): rho_t = 1 - (W - mean_m s_m^2 rho_tm) / var+, so that chains sitting in
 * different places cannot look independent (bayescomp's _multichain_autocorrelation).
 */
function multichainAutocorrelation(split) {
  const m = split.length;
  const n = split[0].length;
  // Each chain's autocovariance s_m^2 rho_tm at every lag t, two chains per FFT.
  const acov = [];
  for (let k = 0; k < m; k += 2) acov.push(...lagProductsPair(split[k], split[k + 1]));
  acov.length = m;
  acov.forEach((a) => { for (let t = 0; t < n; t += 1) a[t] /= n; });
  // W from the lag-0 autocovariances (ddof 1), and var+ = (n - 1)/n W + Var(chain means).
  const within = (meanOf(acov.map((a) => a[0])) * n) / (n - 1);
  let varPlus = (within * (n - 1)) / n;
  if (m > 1) varPlus += varianceOf(split.map(meanOf));
  const rho = new Float64Array(n);
  for (let t = 0; t < n; t += 1) {
    let total = 0;
    for (const a of acov) total += a[t];
    rho[t] = 1 - (within - total / m) / varPlus;
  }
  rho[0] = 1;
  return rho;
}

/**
 * Integrated autocorrelation time by Geyer's (1992) initial positive and monotone sequence,
 * with the edge rules of Stan and ArviZ (bayescomp's _geyer_tau): tau = -1 + 2 sum_k P~_k +
 * max(rho_2K+2, 0), P_k = rho_2k + rho_2k+1, P~_k = min_j<=k P_j.
 */
function geyerTau(rho) {
  // The pairs that fit before the last two lags.
  const nPairs = Math.max(1, Math.ceil((rho.length - 2) / 2));
  const pairs = Float64Array.from({ length: nPairs }, (_, k) => rho[2 * k] + rho[2 * k + 1]);
  // Keep the pairs before the first one that is not positive.
  const firstNotPositive = pairs.findIndex((v) => v <= 0);
  const stop = Math.min((firstNotPositive < 0 ? nPairs : firstNotPositive) + 1, nPairs);
  // Initial monotone sequence: each kept pair capped by the ones before it.
  let sum = 0;
  let cap = Infinity;
  for (let k = 0; k < stop - 1; k += 1) {
    cap = Math.min(cap, pairs[k]);
    sum += cap;
  }
  // The first pair left out still adds its even lag once, unless that lag is not positive and
  // the pair's sum is negative.
  let lastEven = stop === 1 ? 1 : rho[2 * (stop - 1)];
  if (stop > 1 && lastEven <= 0 && pairs[stop - 1] < 0) lastEven = 0;
  return -1 + 2 * sum + lastEven;
}

/** ESS = S / tau of split chains (bayescomp's _ess). */
function essOfSplit(split) {
  const all = pooled(split);
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of all) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // A constant series: every draw counts (ArviZ's convention); 1e-15 is numpy's resolution.
  if (hi - lo < 1e-15) return all.length;
  // The floor 1/log10(S) on tau keeps antithetic chains from reporting an absurdly large ESS.
  const tau = Math.max(geyerTau(multichainAutocorrelation(split)), 1 / Math.log10(all.length));
  return all.length / tau;
}

/** Bulk ESS: the ESS of the rank-normalized split chains (Vehtari et al., 2021, section 4.3). */
export function essBulk(chains) {
  checkChains(chains);
  return essOfSplit(rankNormalize(splitChains(chains)));
}

/** The ESS of the indicator I(theta <= q) at numpy's (linear) empirical prob-quantile q of all
 * draws, on the split chains. */
function quantileEss(chains, prob) {
  const sorted = pooled(chains).sort();
  const h = (sorted.length - 1) * prob;
  const lo = Math.floor(h);
  const [a, b, t] = [sorted[lo], sorted[Math.min(lo + 1, sorted.length - 1)], h - lo];
  // numpy's interpolation, from the nearer of the two neighbours.
  const q = t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
  return essOfSplit(splitChains(chains.map((c) => c.map((v) => (v <= q ? 1 : 0)))));
}

/** Tail ESS: the smaller ESS of the 5% and 95% quantiles' indicators (Vehtari et al., 2021,
 * section 4.3): how well the chains pin down a 90% interval. */
export function essTail(chains) {
  checkChains(chains);
  return Math.min(...TAIL_PROBS.map((prob) => quantileEss(chains, prob)));
}

/** The ESS for the mean: that of the split chains themselves, no ranks (bayescomp's ess_mean). */
export function essMean(chains) {
  checkChains(chains);
  return essOfSplit(splitChains(chains));
}

/** MCSE of the mean: pooled sd / sqrt(essMean) (bayescomp's mcse_mean). */
export function mcseMean(chains) {
  const ess = essMean(chains);
  return pooledMoments(chains).sd / Math.sqrt(ess);
}

/**
 * rankSummary() as six jobs of similar cost, for StagedDiagnostics: the bulk R-hat, the folded
 * one, the bulk ESS, each tail's ESS, then the ESS and MCSE of the mean and the summary, which
 * the last job returns.
 */
export function rankSummaryJobs(chains) {
  checkChains(chains);
  const split = splitChains(chains);
  const s = {};
  return [
    () => Object.assign(s, bulkRhat(split)),
    // R-hat compares chains: with one chain it is undefined (NaN).
    () => { s.rhat = chains.length > 1 ? largerRhat(split, s) : NaN; },
    () => { s.essBulk = essOfSplit(s.z); },
    () => { s.tail = quantileEss(chains, TAIL_PROBS[0]); },
    () => { s.essTail = Math.min(s.tail, quantileEss(chains, TAIL_PROBS[1])); },
    () => {
      const essForMean = essOfSplit(split);
      const { mean, sd } = pooledMoments(chains);
      return { rhat: s.rhat, essBulk: s.essBulk, essTail: s.essTail, essMean: essForMean,
        mcse: sd / Math.sqrt(essForMean), mean, sd };
    },
  ];
}

/** The production diagnostics of one parameter, as the book's chapters compute them:
 * rank-normalized R-hat (NaN for one chain), bulk and tail ESS, ESS and MCSE of the mean. */
export function rankSummary(chains) {
  let result;
  for (const job of rankSummaryJobs(chains)) result = job();
  return result;
}

/** summarize() as jobs: the FFT autocorrelations of two chains at a time, then the summary
 * from them, which the last job returns. */
export function summaryJobs(chains) {
  checkChains(chains);
  const rhos = [];
  const jobs = [];
  for (let c = 0; c < chains.length; c += 2) jobs.push(() => { rhos.push(...autocorrelation(chains.slice(c, c + 2))); });
  jobs.push(() => summarize(chains, rhos));
  return jobs;
}

/**
 * Every parameter's summary, computed a piece at a time, so that no animation frame carries all
 * of it: each step() does one job of jobsOf(kept[a]) (summaryJobs: summarize(), the textbook
 * diagnostics, in ceil(chains / 2) + 1 jobs; rankSummaryJobs: rankSummary(), the production
 * ones, in 6). `kept[a]` holds each chain's draws of parameter a (views are fine: nothing is
 * copied). When step() returns true, `result[a]` is exactly what the summary computed at once
 * gives.
 */
export class StagedDiagnostics {
  constructor(kept, jobsOf = summaryJobs) {
    this.result = kept.map(() => null);
    this.jobs = kept.flatMap((chains, a) => jobsOf(chains).map((run, k, all) => ({ a, run, last: k === all.length - 1 })));
  }

  get done() {
    return this.jobs.length === 0;
  }

  /** Do the next job; true once every parameter is summarized. */
  step() {
    const job = this.jobs.shift();
    if (job) {
      const value = job.run();
      if (job.last) this.result[job.a] = value;
    }
    return this.done;
  }
}
