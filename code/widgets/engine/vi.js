// Gaussian variational inference: Adam ascent on a Monte Carlo ELBO with the
// reparameterization gradient (Kingma and Welling, 2014; Kingma and Ba, 2015).
// Mean-field q = N(m, diag(s^2)) and full-rank q = N(m, L L^T), as the package.

const HALF_LOG_2PI_E = 0.5 * (1 + Math.log(2 * Math.PI));

/** Adam on one block of parameters (a flat array), with bias correction. */
export class Adam {
  constructor(size, lr, betas = [0.9, 0.999], eps = 1e-8) {
    this.lr = lr;
    [this.beta1, this.beta2] = betas;
    this.eps = eps;
    this.first = new Float64Array(size);
    this.second = new Float64Array(size);
    this.step = 0;
  }

  ascend(param, grad) {
    this.step += 1;
    const c1 = 1 - this.beta1 ** this.step;
    const c2 = 1 - this.beta2 ** this.step;
    return param.map((p, i) => {
      this.first[i] = this.beta1 * this.first[i] + (1 - this.beta1) * grad[i];
      this.second[i] = this.beta2 * this.second[i] + (1 - this.beta2) * grad[i] ** 2;
      return p + (this.lr * (this.first[i] / c1)) / (Math.sqrt(this.second[i] / c2) + this.eps);
    });
  }
}

/**
 * One stochastic ELBO step's inputs: nSamples draws theta = m + F eps (eps drawn row by row),
 * the target's log density and gradient at each, and the eps themselves.
 */
function sampleThetas(target, mean, factor, nSamples, rng) {
  const eps = new Float64Array(2 * nSamples);
  const grads = new Float64Array(2 * nSamples);
  let logDensity = 0;
  for (let s = 0; s < nSamples; s += 1) {
    const e0 = rng.normal();
    const e1 = rng.normal();
    eps[2 * s] = e0;
    eps[2 * s + 1] = e1;
    const theta = [mean[0] + (factor[0][0] * e0 + factor[0][1] * e1), mean[1] + (factor[1][0] * e0 + factor[1][1] * e1)];
    const g = target.grad(theta);
    grads[2 * s] = g[0];
    grads[2 * s + 1] = g[1];
    logDensity += target.logDensity(theta);
  }
  return { eps, grads, meanLogDensity: logDensity / nSamples };
}

/**
 * Mean-field VI, step by step. The ELBO is E_q[log p~] + sum log s + const; with
 * theta = m + s * eps: grad_m = E[grad log p~(theta)], grad_log_s = E[grad log p~ * s * eps] + 1.
 */
export class MeanFieldVI {
  constructor(target, initMean, initLogSd, { lr = 0.03, nSamples = 256, betas = [0.9, 0.999], eps = 1e-8 } = {}) {
    this.target = target;
    this.mean = [initMean[0], initMean[1]];
    this.logSd = [initLogSd[0], initLogSd[1]];
    this.nSamples = nSamples;
    this.adamMean = new Adam(2, lr, betas, eps);
    this.adamLogSd = new Adam(2, lr, betas, eps);
    this.elbo = [];
  }

  setLearningRate(lr) {
    this.adamMean.lr = lr;
    this.adamLogSd.lr = lr;
  }

  get sd() {
    return this.logSd.map(Math.exp);
  }

  get cov() {
    const sd = this.sd;
    return [
      [sd[0] ** 2, 0],
      [0, sd[1] ** 2],
    ];
  }

  step(rng) {
    const n = this.nSamples;
    const sd = this.sd;
    const factor = [
      [sd[0], 0],
      [0, sd[1]],
    ];
    const { eps, grads, meanLogDensity } = sampleThetas(this.target, this.mean, factor, n, rng);
    this.elbo.push(meanLogDensity + this.logSd[0] + this.logSd[1] + 2 * HALF_LOG_2PI_E);
    const gradMean = [0, 0];
    const gradLogSd = [0, 0];
    for (let s = 0; s < n; s += 1) {
      for (let a = 0; a < 2; a += 1) {
        gradMean[a] += grads[2 * s + a];
        gradLogSd[a] += grads[2 * s + a] * sd[a] * eps[2 * s + a];
      }
    }
    this.mean = this.adamMean.ascend(this.mean, gradMean.map((g) => g / n));
    this.logSd = this.adamLogSd.ascend(this.logSd, gradLogSd.map((g) => g / n + 1));
  }
}

/**
 * Full-rank VI, step by step: L lower triangular with its diagonal stored as logs. With
 * g = grad log p~(m + L eps): grad_L = E[g eps^T] (lower part), and the diagonal's log gets
 * E[g_i eps_i] L_ii + 1 (Titsias and Lazaro-Gredilla, 2014).
 */
export class FullRankVI {
  constructor(target, initMean, initChol, { lr = 0.03, nSamples = 256, betas = [0.9, 0.999], eps = 1e-8 } = {}) {
    this.target = target;
    this.mean = [initMean[0], initMean[1]];
    this.lower = initChol[1][0];
    this.logDiag = [Math.log(initChol[0][0]), Math.log(initChol[1][1])];
    this.nSamples = nSamples;
    this.adams = [new Adam(2, lr, betas, eps), new Adam(4, lr, betas, eps), new Adam(2, lr, betas, eps)];
    this.elbo = [];
  }

  setLearningRate(lr) {
    for (const adam of this.adams) adam.lr = lr;
  }

  get chol() {
    return [
      [Math.exp(this.logDiag[0]), 0],
      [this.lower, Math.exp(this.logDiag[1])],
    ];
  }

  get cov() {
    const l = this.chol;
    return [
      [l[0][0] ** 2, l[0][0] * l[1][0]],
      [l[0][0] * l[1][0], l[1][0] ** 2 + l[1][1] ** 2],
    ];
  }

  get sd() {
    const c = this.cov;
    return [Math.sqrt(c[0][0]), Math.sqrt(c[1][1])];
  }

  step(rng) {
    const n = this.nSamples;
    const factor = this.chol;
    const { eps, grads, meanLogDensity } = sampleThetas(this.target, this.mean, factor, n, rng);
    this.elbo.push(meanLogDensity + this.logDiag[0] + this.logDiag[1] + 2 * HALF_LOG_2PI_E);
    const gradMean = [0, 0];
    const gf = [0, 0, 0, 0]; // E[g eps^T], row-major
    for (let s = 0; s < n; s += 1) {
      const g0 = grads[2 * s];
      const g1 = grads[2 * s + 1];
      const e0 = eps[2 * s];
      const e1 = eps[2 * s + 1];
      gradMean[0] += g0;
      gradMean[1] += g1;
      gf[0] += g0 * e0;
      gf[1] += g0 * e1;
      gf[2] += g1 * e0;
      gf[3] += g1 * e1;
    }
    for (let i = 0; i < 4; i += 1) gf[i] /= n;
    this.mean = this.adams[0].ascend(this.mean, gradMean.map((g) => g / n));
    // The lower block is the whole 2x2 matrix with only its strictly lower entry free.
    this.lower = this.adams[1].ascend([0, 0, this.lower, 0], [0, 0, gf[2], 0])[2];
    this.logDiag = this.adams[2].ascend(this.logDiag, [gf[0] * factor[0][0] + 1, gf[3] * factor[1][1] + 1]);
  }
}
