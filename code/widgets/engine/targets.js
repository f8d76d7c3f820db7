// Targets: an unnormalized log density with its gradient and minus its Hessian, for theta of
// length 2. The book's logistic-regression posterior, and the two-mode Gaussian mixture.
import { logSumExp } from './numeric.js';

/** log(1 + e^x), computed as NumPy's logaddexp(0, x). */
export function softplus(x) {
  if (x === 0) return Math.LN2;
  return x < 0 ? Math.log1p(Math.exp(x)) : x + Math.log1p(Math.exp(-x));
}

/**
 * The logistic function 1 / (1 + e^-z), written so that exp never overflows: for z < 0 as
 * e^z / (1 + e^z). One exp per call (the drawn predictive curve makes about 400,000 calls);
 * equal to the package's exp(-logaddexp(0, -z)) to a few units in the last place.
 */
export function sigmoid(z) {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * The posterior of logistic regression on rows (1, x_i), i < n, under N(0, priorVar I).
 *
 * log p~(theta) = sum_i [y_i eta_i - log(1 + e^eta_i)] - |theta|^2 / (2 priorVar),
 * grad = Z^T (y - sigma(eta)) - theta / priorVar,
 * minus the Hessian = Z^T diag(p (1 - p)) Z + I / priorVar   (Bishop, 2006, section 4.5).
 */
export function logisticPosterior({ x, y }, priorVar, n = x.length) {
  if (!(priorVar > 0)) throw new Error(`priorVar must be > 0; got ${priorVar}`);
  if (!(n >= 1 && n <= x.length)) throw new Error(`n must be in [1, ${x.length}]; got ${n}`);
  const logLik = (t0, t1) => {
    let total = 0;
    for (let i = 0; i < n; i += 1) {
      const eta = t0 + t1 * x[i];
      total += y[i] * eta - softplus(eta);
    }
    return total;
  };
  return {
    dim: 2,
    n,
    priorVar,
    logDensity(theta) {
      return logLik(theta[0], theta[1]) - (theta[0] ** 2 + theta[1] ** 2) / (2 * priorVar);
    },
    grad(theta) {
      let g0 = 0;
      let g1 = 0;
      for (let i = 0; i < n; i += 1) {
        const residual = y[i] - sigmoid(theta[0] + theta[1] * x[i]);
        g0 += residual;
        g1 += residual * x[i];
      }
      return [g0 - theta[0] / priorVar, g1 - theta[1] / priorVar];
    },
    negHessian(theta) {
      let h00 = 0;
      let h01 = 0;
      let h11 = 0;
      for (let i = 0; i < n; i += 1) {
        const p = sigmoid(theta[0] + theta[1] * x[i]);
        const v = p * (1 - p);
        h00 += v;
        h01 += v * x[i];
        h11 += v * x[i] * x[i];
      }
      return [
        [h00 + 1 / priorVar, h01],
        [h01, h11 + 1 / priorVar],
      ];
    },
  };
}

/**
 * A normalized mixture of isotropic Gaussians (weights pi_j, means mu_j, sds sigma_j).
 *
 * With responsibilities r_j and scores s_j = -(theta - mu_j) / sigma_j^2:
 * grad = sum_j r_j s_j, and minus the Hessian = sum_j r_j (I / sigma_j^2 - s_j s_j^T) + sbar sbar^T.
 */
export function isotropicMixture({ weights, means, sds }) {
  const k = weights.length;
  const parts = (theta) => {
    const logParts = new Array(k);
    const scores = new Array(k);
    for (let j = 0; j < k; j += 1) {
      const c0 = theta[0] - means[j][0];
      const c1 = theta[1] - means[j][1];
      const v = sds[j] ** 2;
      logParts[j] = Math.log(weights[j]) - (0.5 * (c0 * c0 + c1 * c1)) / v
        - 2 * Math.log(sds[j] * Math.sqrt(2 * Math.PI));
      scores[j] = [-c0 / v, -c1 / v];
    }
    return { logParts, scores };
  };
  const responsibilities = (logParts) => {
    const total = logSumExp(logParts);
    return logParts.map((v) => Math.exp(v - total));
  };
  return {
    dim: 2,
    logDensity(theta) {
      return logSumExp(parts(theta).logParts);
    },
    grad(theta) {
      const { logParts, scores } = parts(theta);
      const r = responsibilities(logParts);
      let g0 = 0;
      let g1 = 0;
      for (let j = 0; j < k; j += 1) {
        g0 += r[j] * scores[j][0];
        g1 += r[j] * scores[j][1];
      }
      return [g0, g1];
    },
    negHessian(theta) {
      const { logParts, scores } = parts(theta);
      const r = responsibilities(logParts);
      const h = [
        [0, 0],
        [0, 0],
      ];
      const mean = [0, 0];
      for (let j = 0; j < k; j += 1) {
        const s = scores[j];
        const inv = 1 / sds[j] ** 2;
        h[0][0] += r[j] * (inv - s[0] * s[0]);
        h[0][1] += r[j] * -s[0] * s[1];
        h[1][1] += r[j] * (inv - s[1] * s[1]);
        mean[0] += r[j] * s[0];
        mean[1] += r[j] * s[1];
      }
      h[0][0] += mean[0] * mean[0];
      h[0][1] += mean[0] * mean[1];
      h[1][1] += mean[1] * mean[1];
      h[1][0] = h[0][1];
      return h;
    },
    /** Mean and covariance of the mixture: the Gaussian that minimizes forward KL(p || q). */
    moments() {
      const mean = [0, 0];
      for (let j = 0; j < k; j += 1) {
        mean[0] += weights[j] * means[j][0];
        mean[1] += weights[j] * means[j][1];
      }
      const cov = [
        [0, 0],
        [0, 0],
      ];
      for (let j = 0; j < k; j += 1) {
        const d0 = means[j][0] - mean[0];
        const d1 = means[j][1] - mean[1];
        const v = sds[j] ** 2;
        cov[0][0] += weights[j] * (v + d0 * d0);
        cov[0][1] += weights[j] * d0 * d1;
        cov[1][1] += weights[j] * (v + d1 * d1);
      }
      cov[1][0] = cov[0][1];
      return { mean, cov };
    },
  };
}
