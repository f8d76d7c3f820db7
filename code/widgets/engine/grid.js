// The grid reference: the posterior on an evenly spaced tensor grid, normalized, with its
// moments. ij indexing as in the package: value [i * m1 + j] sits at (axes[0][i], axes[1][j]).
import { softmax } from './numeric.js';
import { sigmoid } from './targets.js';

/** Evenly spaced points as NumPy's linspace computes them: lo + i * step, last one exactly hi. */
export function linspace(lo, hi, m) {
  const out = new Float64Array(m);
  const step = (hi - lo) / (m - 1);
  for (let i = 0; i < m; i += 1) out[i] = i * step + lo;
  out[m - 1] = hi;
  return out;
}

export function gridAxes(bounds, resolution) {
  const sizes = Array.isArray(resolution) ? resolution : [resolution, resolution];
  return [linspace(bounds[0][0], bounds[0][1], sizes[0]), linspace(bounds[1][0], bounds[1][1], sizes[1])];
}

/** log p~ at every grid point of any target with a logDensity(theta). */
export function evaluateOnGrid(logDensity, axes) {
  const [a0, a1] = axes;
  const values = new Float64Array(a0.length * a1.length);
  for (let i = 0; i < a0.length; i += 1) {
    for (let j = 0; j < a1.length; j += 1) values[i * a1.length + j] = logDensity([a0[i], a1[j]]);
  }
  return values;
}

/**
 * The logistic log likelihood of the first n observations at every grid point. The y * eta part
 * is linear in theta, so only the softplus terms need the loop over observations. Along the
 * intercept axis eta grows in even steps, so e^eta is a geometric sequence: one exp every 16
 * points, products in between (relative error below 1e-14), and one log1p per term.
 */
export function logisticLogLikOnGrid({ x, y }, n, axes) {
  const [a0, a1] = axes;
  const m0 = a0.length;
  const m1 = a1.length;
  let sumY = 0;
  let sumXY = 0;
  for (let k = 0; k < n; k += 1) {
    sumY += y[k];
    sumXY += x[k] * y[k];
  }
  const ratio = Math.exp((a0[m0 - 1] - a0[0]) / (m0 - 1));
  const values = new Float64Array(m0 * m1);
  const column = new Float64Array(m0);
  for (let j = 0; j < m1; j += 1) {
    const t1 = a1[j];
    for (let i = 0; i < m0; i += 1) column[i] = a0[i] * sumY + t1 * sumXY;
    for (let k = 0; k < n; k += 1) {
      const shift = t1 * x[k];
      let e = 0;
      for (let i = 0; i < m0; i += 1) {
        const eta = a0[i] + shift;
        e = (i & 15) === 0 ? Math.exp(eta) : e * ratio;
        // softplus(eta) = log(1 + e^eta), or eta + log(1 + e^-eta) when eta > 0.
        column[i] -= eta > 0 ? eta + Math.log1p(1 / e) : Math.log1p(e);
      }
    }
    for (let i = 0; i < m0; i += 1) values[i * m1 + j] = column[i];
  }
  return values;
}

/** Add the N(0, priorVar I) log prior to cached log-likelihood values. */
export function addLogPrior(logLik, axes, priorVar) {
  const [a0, a1] = axes;
  const values = new Float64Array(logLik.length);
  for (let i = 0; i < a0.length; i += 1) {
    for (let j = 0; j < a1.length; j += 1) {
      const k = i * a1.length + j;
      values[k] = logLik[k] - (a0[i] ** 2 + a1[j] ** 2) / (2 * priorVar);
    }
  }
  return values;
}

/**
 * Normalize log p~ on the grid and take its moments.
 *
 * w_j = exp(log p~_j - max) / sum; mean = sum_j w_j theta_j; cov = sum_j w_j (theta_j - mean)
 * (theta_j - mean)^T. Subtracting the maximum keeps exp from overflowing. Also returns
 * log Z, the Riemann-sum log normalizing constant (the ceiling of every ELBO).
 */
export function gridMoments(axes, logValues) {
  const [a0, a1] = axes;
  const m1 = a1.length;
  const { weights, logTotal } = softmax(logValues);
  const mean = [0, 0];
  for (let i = 0; i < a0.length; i += 1) {
    for (let j = 0; j < m1; j += 1) {
      const w = weights[i * m1 + j];
      mean[0] += w * a0[i];
      mean[1] += w * a1[j];
    }
  }
  const cov = [
    [0, 0],
    [0, 0],
  ];
  const marginals = [new Float64Array(a0.length), new Float64Array(m1)];
  for (let i = 0; i < a0.length; i += 1) {
    const c0 = a0[i] - mean[0];
    for (let j = 0; j < m1; j += 1) {
      const w = weights[i * m1 + j];
      const c1 = a1[j] - mean[1];
      cov[0][0] += w * c0 * c0;
      cov[0][1] += w * c0 * c1;
      cov[1][1] += w * c1 * c1;
      marginals[0][i] += w;
      marginals[1][j] += w;
    }
  }
  cov[1][0] = cov[0][1];
  const sd = [Math.sqrt(cov[0][0]), Math.sqrt(cov[1][1])];
  const corr = cov[0][1] / (sd[0] * sd[1]);
  const cell = (a0[1] - a0[0]) * (a1[1] - a1[0]);
  return {
    axes,
    logDensity: logValues,
    weights,
    mean,
    cov,
    sd,
    corr: [
      [1, corr],
      [corr, 1],
    ],
    marginals,
    logZ: logTotal + Math.log(cell),
  };
}

/** The grid posterior of any target, as the package's grid_posterior. */
export function gridPosterior(logDensity, bounds, resolution = 241) {
  const axes = gridAxes(bounds, resolution);
  return gridMoments(axes, evaluateOnGrid(logDensity, axes));
}

/** The logistic posterior on a grid: the cached likelihood (when given) plus the prior. */
export function logisticGrid(data, n, priorVar, bounds, resolution = 241, logLik = null) {
  const axes = gridAxes(bounds, resolution);
  const lik = logLik || logisticLogLikOnGrid(data, n, axes);
  return { ...gridMoments(axes, addLogPrior(lik, axes, priorVar)), logLik: lik };
}

/**
 * P(y = 1 | x) averaged over the grid posterior, sum_j w_j sigma(theta_j0 + theta_j1 x).
 * Points with weight below minWeight are skipped (0 keeps every point with any mass).
 */
export function gridPredictive(grid, xs, minWeight = 0) {
  const [a0, a1] = grid.axes;
  const m1 = a1.length;
  const out = new Float64Array(xs.length);
  for (let i = 0; i < a0.length; i += 1) {
    for (let j = 0; j < m1; j += 1) {
      const w = grid.weights[i * m1 + j];
      if (w <= minWeight) continue;
      for (let k = 0; k < xs.length; k += 1) out[k] += w * sigmoid(a0[i] + a1[j] * xs[k]);
    }
  }
  return out;
}

/**
 * The posterior predictive curve for drawing: gridPredictive with the grid's weights first
 * pooled into about `blocks` x `blocks` blocks, each at its weighted centroid, so that a curve
 * of many x values stays cheap while a control is dragged. Within a block sigma is nearly
 * linear, so the error is second order in the block's width (tests/engine bounds it). With
 * `blocks` at least the grid's size, every block is one point: the exact gridPredictive.
 */
export function pooledPredictive(grid, xs, blocks = 60) {
  const [a0, a1] = grid.axes;
  const m0 = a0.length;
  const m1 = a1.length;
  const k = Math.max(1, Math.ceil(Math.max(m0, m1) / blocks));
  const out = new Float64Array(xs.length);
  for (let i0 = 0; i0 < m0; i0 += k) {
    for (let j0 = 0; j0 < m1; j0 += k) {
      let w = 0;
      let c0 = 0;
      let c1 = 0;
      for (let i = i0; i < Math.min(i0 + k, m0); i += 1) {
        for (let j = j0; j < Math.min(j0 + k, m1); j += 1) {
          const wij = grid.weights[i * m1 + j];
          w += wij;
          c0 += wij * a0[i];
          c1 += wij * a1[j];
        }
      }
      if (!(w > 0)) continue;
      for (let x = 0; x < xs.length; x += 1) out[x] += w * sigmoid(c0 / w + (c1 / w) * xs[x]);
    }
  }
  return out;
}

/** The plug-in prediction sigma(theta_0 + theta_1 x) at one parameter value. */
export function plugInPredictive(theta, xs) {
  return Float64Array.from(xs, (x) => sigmoid(theta[0] + theta[1] * x));
}

/**
 * A grid box that holds the posterior: the lecture's box, widened where the Laplace
 * approximation's mean +- marginSd sds reaches beyond it, with new edges snapped outward.
 */
export function coveringBox(baseBounds, laplace, marginSd, snap) {
  return baseBounds.map(([lo, hi], a) => {
    const low = laplace.mean[a] - marginSd * laplace.sd[a];
    const high = laplace.mean[a] + marginSd * laplace.sd[a];
    return [low < lo ? Math.floor(low / snap) * snap : lo, high > hi ? Math.ceil(high / snap) * snap : hi];
  });
}

/**
 * The largest weight on each edge of the grid relative to the largest weight overall:
 * [low theta_0, high theta_0, low theta_1, high theta_1]. Near zero when the box holds the
 * posterior; the explorer widens a side whose ratio is not.
 */
export function edgeRatios(grid) {
  const [a0, a1] = grid.axes;
  const m0 = a0.length;
  const m1 = a1.length;
  const w = grid.weights;
  let top = 0;
  for (const v of w) if (v > top) top = v;
  const edges = [0, 0, 0, 0];
  for (let j = 0; j < m1; j += 1) {
    edges[0] = Math.max(edges[0], w[j]);
    edges[1] = Math.max(edges[1], w[(m0 - 1) * m1 + j]);
  }
  for (let i = 0; i < m0; i += 1) {
    edges[2] = Math.max(edges[2], w[i * m1]);
    edges[3] = Math.max(edges[3], w[i * m1 + m1 - 1]);
  }
  return edges.map((e) => e / top);
}

/** Widen each side of the box whose edge ratio exceeds `tolerance` by half the box's width. */
export function widenBox(box, ratios, tolerance, snap) {
  return box.map(([lo, hi], a) => {
    const grow = Math.ceil((0.5 * (hi - lo)) / snap) * snap;
    return [ratios[2 * a] > tolerance ? lo - grow : lo, ratios[2 * a + 1] > tolerance ? hi + grow : hi];
  });
}

/**
 * A grid that holds the posterior: from `box` (usually the coveringBox of the Laplace
 * approximation), widen each side where the density at the edge exceeds `tolerance` of the
 * peak, at most `maxWidenings` times. A skewed posterior (few observations, a wide prior) can
 * outrun a box sized by the Laplace approximation. `gridOn(box)` computes the grid on a box.
 * Returns { box, grid, widenings }; `edgeRatios(grid)` says whether the last box holds it.
 */
export function holdingGrid(box, gridOn, { tolerance, snap, maxWidenings }) {
  let grid = gridOn(box);
  let widenings = 0;
  for (; widenings < maxWidenings; widenings += 1) {
    const ratios = edgeRatios(grid);
    if (Math.max(...ratios) <= tolerance) break;
    box = widenBox(box, ratios, tolerance, snap);
    grid = gridOn(box);
  }
  return { box, grid, widenings };
}
