// Convergence diagnostics for several chains of one parameter: `chains` is an array of
// equal-length Float64Arrays. The textbook versions the package uses: split R-hat
// (Gelman et al., 2013, section 11.4), FFT autocorrelation and Geyer's (1992) initial
// positive sequence ESS, and MCSE = sd / sqrt(ESS).

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

function checkChains(chains) {
  if (!chains.length) throw new Error('chains must hold at least one chain');
  const n = chains[0].length;
  if (chains.some((c) => c.length !== n)) throw new Error('chains must all have the same length');
  if (n < 4) throw new Error(`chains must have at least 4 draws each; got ${n}`);
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
 * Autocorrelations rho(0..n-1) of two series at once (one as the real part, one as the
 * imaginary part of a single FFT). Zero-padding to at least 2n makes the circular correlation
 * the ordinary one (Press et al., 2007, section 13.2); dividing by lag 0 normalizes.
 */
function autocorrelationPair(x, y) {
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
  const rx = new Float64Array(n);
  const ry = y ? new Float64Array(n) : null;
  for (let t = 0; t < n; t += 1) {
    rx[t] = pr[t] / pr[0];
    if (y) ry[t] = pi[t] / pi[0];
  }
  return [rx, ry];
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

/**
 * Every parameter's summarize(), computed a piece at a time, so that no animation frame carries
 * all of it: each step() does one job, either the FFT autocorrelations of two chains of one
 * parameter or, last for that parameter, its summary from those autocorrelations. `kept[a]`
 * holds each chain's draws of parameter a (views are fine: nothing is copied). When step()
 * returns true, `result[a]` is exactly summarize(kept[a]), with
 * params x (ceil(chains / 2) + 1) steps in all.
 */
export class StagedDiagnostics {
  constructor(kept) {
    kept.forEach(checkChains);
    this.kept = kept;
    this.rhos = kept.map(() => []);
    this.result = kept.map(() => null);
    this.jobs = [];
    kept.forEach((chains, a) => {
      for (let c = 0; c < chains.length; c += 2) this.jobs.push({ a, c });
      this.jobs.push({ a, summary: true });
    });
  }

  get done() {
    return this.jobs.length === 0;
  }

  /** Do the next job; true once every parameter is summarized. */
  step() {
    const job = this.jobs.shift();
    if (job) {
      const chains = this.kept[job.a];
      if (job.summary) this.result[job.a] = summarize(chains, this.rhos[job.a]);
      else this.rhos[job.a].push(...autocorrelation(chains.slice(job.c, job.c + 2)));
    }
    return this.done;
  }
}
