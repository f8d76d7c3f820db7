// The widgets' engine against the package: golden values written by tests/engine/golden.py.
// Run: node --test tests/engine/   (or `npm test` in code/widgets).
// It reads two files, both written by the package:
// - the golden values, BAYESCOMP_GOLDEN or _build/widgets/golden.json (`make golden`);
// - the data script the pages load, BAYESCOMP_DATA or _build/widgets/bayescomp-widgets-data.js
//   (`make widgets`): the engine is tested on the data and settings the widgets start from.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';

import * as E from '../../code/widgets/engine/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function readInput(variable, path, how) {
  const file = process.env[variable] || resolve(ROOT, path);
  if (!existsSync(file)) throw new Error(`${file} is missing: ${how} (or set ${variable})`);
  return readFileSync(file, 'utf8');
}

const golden = JSON.parse(readInput('BAYESCOMP_GOLDEN', '_build/widgets/golden.json', 'run `make golden`'));
/** What the pages' data script sets: window.BayesCompWidgetData. */
const widgetData = (() => {
  const window = {};
  runInNewContext(readInput('BAYESCOMP_DATA', '_build/widgets/bayescomp-widgets-data.js', 'run `make widgets`'), { window });
  return JSON.parse(JSON.stringify(window.BayesCompWidgetData)); // plain objects of this realm
})();
const RTOL = Number(process.env.BAYESCOMP_RTOL || 1e-9);
const data = widgetData.data;
const settings = widgetData.widgets;
const priorVar = golden.logistic.prior_var;
const book = E.logisticPosterior(data, priorVar);

/** |actual - expected| <= 1e-9 |expected| (+1e-12 so that exact zeros compare), elementwise. */
function close(actual, expected, what, rtol = RTOL) {
  const a = [actual].flat(Infinity);
  const e = [expected].flat(Infinity);
  assert.equal(a.length, e.length, `${what}: ${a.length} values, expected ${e.length}`);
  e.forEach((want, i) => {
    const got = a[i];
    if (want === null) {
      assert.ok(!Number.isFinite(got), `${what}[${i}]: ${got}, expected a non-finite value`);
      return;
    }
    const ok = Math.abs(got - want) <= rtol * Math.abs(want) + 1e-12;
    assert.ok(ok, `${what}[${i}]: ${got} vs ${want} (relative error ${Math.abs(got - want) / Math.abs(want)})`);
  });
}

const flat = (typed) => Array.from(typed);
/** A kept Metropolis chain's states, one array per step. */
const states = (chain) => Array.from({ length: chain.length }, (_, s) => chain.draws.map((x) => x[s]));

test('the data script carries the lecture\'s data set, as the package simulates it', () => {
  const lecture = golden.lecture_data;
  assert.equal(lecture.n_obs, widgetData.lecture.n_obs);
  assert.equal(data.x.length, lecture.n_obs);
  assert.deepEqual(data.x, lecture.x);
  assert.deepEqual(data.y, lecture.y);
  assert.ok(data.y.every((v) => v === 0 || v === 1));
});

test('log density, gradient and minus the Hessian at 100 points', () => {
  const g = golden.logistic;
  close(g.points.map((p) => book.logDensity(p)), g.log_density, 'log density');
  close(g.points.map((p) => book.grad(p)), g.grad, 'gradient');
  close(g.hessian_points.map((p) => book.negHessian(p)), g.neg_hessian, 'minus the Hessian');
});

test('the two-mode target: log density, gradient, Hessian, grid moments', () => {
  const g = golden.two_modes;
  const two = E.isotropicMixture(widgetData.two_modes);
  close(g.points.map((p) => two.logDensity(p)), g.log_density, 'log density');
  close(g.points.map((p) => two.grad(p)), g.grad, 'gradient');
  close(g.hessian_points.map((p) => two.negHessian(p)), g.neg_hessian, 'minus the Hessian');
  const grid = E.gridPosterior((t) => two.logDensity(t), golden.two_modes_grid.bounds, 241);
  close(grid.mean, golden.two_modes_grid.mean, 'grid mean');
  close(grid.cov, golden.two_modes_grid.cov, 'grid cov');
  const moments = two.moments();
  close(moments.mean, g.moments.mean, 'mixture mean (the forward-KL fit)');
  close(moments.cov, g.moments.cov, 'mixture covariance (the forward-KL fit)');
});

test('grid moments at prior sd 0.5, 2, 10 and n = 20, 80 (and a wide box at n = 5)', () => {
  for (const g of golden.grids) {
    const label = `sd ${g.prior_sd}, n ${g.n}`;
    const grid = E.logisticGrid(data, g.n, g.prior_sd ** 2, g.bounds, g.resolution);
    close(grid.mean, g.mean, `${label}: mean`);
    close(grid.cov, g.cov, `${label}: cov`);
    close(grid.sd, g.sd, `${label}: sd`);
    close(grid.corr, g.corr, `${label}: corr`);
    close(grid.marginals.map(flat), g.marginals, `${label}: marginals`, 1e-8);
    // The general path (any target) gives the same grid.
    const target = E.logisticPosterior(data, g.prior_sd ** 2, g.n);
    const general = E.gridPosterior((t) => target.logDensity(t), g.bounds, g.resolution);
    close(general.mean, g.mean, `${label}: mean, general path`);
    const laplace = E.laplaceApproximation(target, [0, 0]);
    close(laplace.mean, g.laplace.mean, `${label}: MAP`);
    close(laplace.cov, g.laplace.cov, `${label}: Laplace cov`);
    close(flat(E.plugInPredictive(laplace.mean, g.x_new)), g.plug_in, `${label}: plug-in predictive`);
    close(flat(E.gridPredictive(grid, g.x_new)), g.grid_predictive, `${label}: grid predictive`);
  }
});

test('the Newton MAP and the Laplace covariance (12 steps from 0)', () => {
  const laplace = E.laplaceApproximation(book, [0, 0], golden.newton.steps);
  close(laplace.mean, golden.newton.mean, 'MAP');
  close(laplace.cov, golden.newton.cov, 'Laplace cov');
  close(laplace.sd, golden.newton.sd, 'Laplace sd');
  assert.ok(laplace.gradNorm < 1e-9);
  const converged = E.laplaceApproximation(book, [0, 0], 60, 1e-12);
  close(converged.mean, golden.newton.mean, 'MAP, Newton to convergence');
});

test('split R-hat, ESS and MCSE on fixed chains', () => {
  for (const [index, g] of golden.diagnostics.entries()) {
    g.draws.forEach((chains, p) => {
      const series = chains.map((c) => Float64Array.from(c));
      const label = `case ${index}, parameter ${p}`;
      close(E.splitRhat(series), g.rhat[p], `${label}: R-hat`);
      close(E.effectiveSampleSize(series), g.ess[p], `${label}: ESS`);
      close(E.mcse(series), g.mcse[p], `${label}: MCSE`);
    });
  }
});

// The production diagnostics: the same algorithm as the package's, so to 1e-10.
const RANK_RTOL = 1e-10;
const rankCases = [
  ...golden.diagnostics.map((g, index) => ({ name: `diagnostics case ${index}`, draws: g.draws, ...g.rank })),
  ...golden.rank_diagnostics,
];
const rankCase = (name) => golden.rank_diagnostics.find((g) => g.name === name).draws
  .map((chains) => chains.map((c) => Float64Array.from(c)));

test('rank-normalized R-hat, bulk and tail ESS, ESS and MCSE of the mean on fixed chains', () => {
  for (const g of rankCases) {
    g.draws.forEach((chains, p) => {
      const series = chains.map((c) => Float64Array.from(c));
      const label = `${g.name}, parameter ${p}`;
      const alone = {
        rhat: series.length > 1 ? E.rankNormalizedRhat(series) : NaN, essBulk: E.essBulk(series),
        essTail: E.essTail(series), essMean: E.essMean(series), mcse: E.mcseMean(series),
      };
      close(alone.rhat, g.rhat[p], `${label}: rank-normalized R-hat`, RANK_RTOL);
      close(alone.essBulk, g.ess_bulk[p], `${label}: bulk ESS`, RANK_RTOL);
      close(alone.essTail, g.ess_tail[p], `${label}: tail ESS`, RANK_RTOL);
      close(alone.essMean, g.ess_mean[p], `${label}: ESS of the mean`, RANK_RTOL);
      close(alone.mcse, g.mcse_mean[p], `${label}: MCSE of the mean`, RANK_RTOL);
      if (series.length > 1) close(E.splitRhat(series), g.split_rhat[p], `${label}: classic split R-hat`);
      // The summary the widgets show is exactly the functions' values.
      const summary = E.rankSummary(series);
      for (const key of Object.keys(alone)) assert.ok(Object.is(summary[key], alone[key]), `${label}: summary's ${key}`);
      const { mean, sd } = E.pooledMoments(series);
      assert.deepEqual([summary.mean, summary.sd], [mean, sd], `${label}: summary's mean and sd`);
    });
  }
});

test('what each convention of the production diagnostics gives', () => {
  const { rhat_max: rhatMax } = settings;
  // Heavy tails, one chain shifted: the ranks see it, the classic R-hat does not.
  const [heavy] = rankCase('heavy tails');
  assert.ok(E.rankNormalizedRhat(heavy) > rhatMax && E.splitRhat(heavy) < rhatMax);
  // Different means: far above; different scales: only the folded R-hat sees them.
  const [shifted, spread] = rankCase('different means, different scales');
  assert.ok(E.rankNormalizedRhat(shifted) > 1.5);
  assert.ok(E.rankNormalizedRhat(spread) > 1.1 && E.splitRhat(spread) < rhatMax);
  // Every draw equal: R-hat NaN, every draw counts, MCSE 0; chains stuck apart: R-hat infinite.
  const [constant, stuck] = rankCase('constant');
  assert.ok(Number.isNaN(E.rankNormalizedRhat(constant)));
  assert.deepEqual([E.essBulk(constant), E.essTail(constant), E.mcseMean(constant)], [40, 40, 0]);
  assert.equal(E.rankNormalizedRhat(stuck), Infinity);
  // Antithetic chains: tau is floored at 1/log10(S), so ESS = S log10(S) for the S = 1200 draws.
  const [antithetic] = rankCase('antithetic');
  close(E.essBulk(antithetic), 1200 * Math.log10(1200), 'antithetic bulk ESS', 1e-12);
  // One chain: the summary's R-hat is undefined (NaN), its ESS are not.
  const [one] = rankCase('one chain');
  const summary = E.rankSummary(one);
  assert.ok(Number.isNaN(summary.rhat) && summary.essBulk > 0 && summary.essTail > 0);
});

test('rank normalization: average ranks of ties, by the radix sort, against counting', () => {
  // Negative and positive values, -0 and +0 (tied), repeats, magnitudes from 1e-300 to 1e300.
  const values = [3, -1, 0, -0, 2.5, 3, -1e300, 1e-300, -1e-300, 1e300, 3, 0.1, -2.5, 2.5];
  const chains = [Float64Array.from(values.slice(0, 7)), Float64Array.from(values.slice(7))];
  const z = E.rankNormalize(chains).flatMap((c) => Array.from(c));
  values.forEach((v, i) => {
    // Rank = (number below + 1 + number below or equal) / 2.
    const below = values.filter((w) => w < v).length;
    const upTo = values.filter((w) => w <= v).length;
    const want = E.normalQuantile(((below + 1 + upTo) / 2 - 3 / 8) / (values.length + 1 / 4));
    assert.equal(z[i], want, `value ${v} (index ${i})`);
  });
});

test('the production diagnostics say what is wrong with bad input', () => {
  const chain = (n) => Float64Array.from({ length: n }, (_, t) => Math.sin(t));
  for (const f of [E.rankNormalizedRhat, E.essBulk, E.essTail, E.essMean, E.mcseMean, E.rankSummary]) {
    assert.throws(() => f([chain(3), chain(3)]), /chains must have at least 4 draws each; got 3/, f.name);
    assert.throws(() => f([chain(10), chain(9)]), /chains must all have the same length; got 10, 9/, f.name);
    assert.throws(() => f([]), /chains must hold at least [12] chains?; got 0/, f.name);
    assert.throws(() => f([chain(10), Float64Array.of(...chain(9), NaN)]),
      /chains must hold finite numbers; chain 1, draw 9 is NaN/, f.name);
  }
  assert.throws(() => E.rankNormalizedRhat([chain(10)]), /chains must hold at least 2 chains; got 1/);
});

test('the normal quantile (Wichura\'s AS241) equals the package\'s', () => {
  const g = golden.normal_quantile;
  close(g.p.map(E.normalQuantile), g.z, 'normal quantile', 1e-13);
  // Symmetric where 1 - p is exact: in the far and near tails and the centre.
  for (const p of [2 ** -40, 2 ** -10, 0.0625, 0.25, 0.375]) assert.equal(E.normalQuantile(1 - p), -E.normalQuantile(p), `symmetry at ${p}`);
  assert.deepEqual([0, 1, -0.1, 1.1, NaN].map(E.normalQuantile), [-Infinity, Infinity, NaN, NaN, NaN]);
});

test('the FFT autocorrelation equals the direct sum', () => {
  const x = Float64Array.from({ length: 37 }, (_, t) => Math.sin(t * 0.7) + 0.1 * t);
  const y = Float64Array.from({ length: 37 }, (_, t) => Math.cos(t * 1.3));
  const [rx, ry] = E.autocorrelation([x, y]);
  for (const [series, rho] of [[x, rx], [y, ry]]) {
    const m = series.reduce((a, b) => a + b) / series.length;
    const c = Array.from(series, (v) => v - m);
    const lag = (k) => c.slice(0, c.length - k).reduce((t, v, i) => t + v * c[i + k], 0);
    close(flat(rho), c.map((_, k) => lag(k) / lag(0)), 'autocorrelation', 1e-10);
  }
});

test('weight ESS and Pareto k-hat on fixed log weights', () => {
  for (const g of golden.weights) {
    const weights = E.normalizeLogWeights(g.log_weights);
    if (g.ess !== null) close(E.weightEss(weights), g.ess, `${g.name}: weight ESS`);
    const psis = E.paretoSmoothedLogWeights(g.log_weights);
    close(psis.k, g.k, `${g.name}: k-hat`);
    close(E.weightEss(psis.logWeights.map(Math.exp)), g.smoothed_ess, `${g.name}: smoothed ESS`);
    close(flat(Float64Array.from(psis.logWeights).sort().slice(-10)), g.smoothed_sorted, `${g.name}: smoothed tail`);
  }
  assert.equal(E.paretoSmoothedLogWeights([0, -1, -2, -3, -4, -5, -6, -7, -8, -9]).k, Infinity);
});

test('the k-hat bound for S draws is the package k_hat_threshold', () => {
  const g = golden.k_hat_thresholds;
  close(g.draws.map((n) => E.kHatThreshold(n, g.cap)), g.bound, 'min(1 - 1/log10 S, 0.7)');
  assert.ok(E.kHatThreshold(100, g.cap) < 0.55 && E.kHatThreshold(20000, g.cap) === g.cap);
  assert.throws(() => E.kHatThreshold(1, g.cap), /at least 2 draws/);
});

test('Student-t and defensive-mixture proposal densities', () => {
  const g = golden.proposals;
  const t = E.studentTProposal(g.mean, g.cov, g.df);
  close(g.points.map((p) => t.logDensity(p)), g.student_t, 'Student-t log density');
  const gauss = E.gaussianProposal(g.mean, g.cov);
  close(g.points.map((p) => gauss.logDensity(p)), g.gaussian, 'Gaussian log density');
  const prior = E.gaussianProposal([0, 0], g.prior_cov);
  const mixture = E.defensiveMixture(gauss, prior, g.fallback_weight);
  close(g.points.map((p) => mixture.logDensity(p)), g.defensive, 'defensive mixture log density');
});

test('replayed draws: importance sampling reproduces the package\'s estimates', () => {
  for (const g of golden.importance) {
    const proposal = E.gaussianProposal(g.mean_proposal, g.cov, g.factor);
    const rng = E.replaySource({ normals: g.normals });
    const result = E.importanceSample((t) => book.logDensity(t), proposal, g.n, rng);
    assert.equal(rng.used().normals, g.normals.length, 'every recorded normal is used');
    close(flat(result.draws.slice(0, 100)), g.draws_head, `seed ${g.seed}: draws`);
    close(flat(result.logWeights.slice(0, 50)), g.log_weights_head, `seed ${g.seed}: log weights`);
    close(result.mean, g.estimate, `seed ${g.seed}: estimated mean`);
    close(result.ess, g.ess, `seed ${g.seed}: weight ESS`);
    close(result.maxWeight, g.max_weight, `seed ${g.seed}: largest weight`);
  }
});

test('the package\'s Student-t and defensive draws give the package\'s estimates and MCSE', () => {
  for (const g of golden.importance_draws) {
    const logWeights = g.log_q.map((logQ, s) => book.logDensity([g.draws[2 * s], g.draws[2 * s + 1]]) - logQ);
    const result = E.weighDraws(Float64Array.from(g.draws), logWeights);
    close(result.mean, g.estimate, `${g.name}: estimated mean`);
    close(result.ess, g.ess, `${g.name}: weight ESS`);
    close(result.maxWeight, g.max_weight, `${g.name}: largest weight`);
    close(result.mcse, g.mcse, `${g.name}: MCSE`);
  }
});

test('replayed draws: a Metropolis chain with identical accept decisions', () => {
  const g = golden.random_walk;
  const rng = E.replaySource({ normals: g.normals, uniforms: g.uniforms });
  const chain = E.metropolisChain(book, g.start, g.chol, g.n_steps, rng);
  assert.deepEqual(Array.from(chain.accepted, Boolean), g.accepted, 'accept decisions');
  const draws = [];
  for (let t = 0; t < g.n_steps; t += 1) draws.push(chain.draws[0][t], chain.draws[1][t]);
  close(draws, g.draws, 'chain');
  close(chain.acceptRate, g.accept_rate, 'acceptance rate');
  assert.deepEqual(rng.used(), { normals: g.normals.length, uniforms: g.uniforms.length });
});

test('replayed draws: 50 Adam steps of mean-field and full-rank VI', () => {
  const [meanField, fullRank] = golden.vi;
  let rng = E.replaySource({ normals: meanField.normals });
  const mf = new E.MeanFieldVI(book, meanField.init_mean, meanField.init_log_sd, { lr: meanField.lr, nSamples: meanField.n_samples });
  for (let s = 0; s < meanField.n_steps; s += 1) mf.step(rng);
  close(mf.mean, meanField.mean, 'mean-field mean');
  close(mf.sd, meanField.sd, 'mean-field sd');
  close(mf.elbo, meanField.elbo, 'mean-field ELBO');

  rng = E.replaySource({ normals: fullRank.normals });
  const fr = new E.FullRankVI(book, fullRank.init_mean, fullRank.init_chol, { lr: fullRank.lr, nSamples: fullRank.n_samples });
  for (let s = 0; s < fullRank.n_steps; s += 1) fr.step(rng);
  close(fr.mean, fullRank.mean, 'full-rank mean');
  close(fr.chol, fullRank.chol, 'full-rank Cholesky factor');
  close(fr.elbo, fullRank.elbo, 'full-rank ELBO');
});

test('the seeded source: reproducible, uniform in [0, 1), normals with mean 0 and sd 1', () => {
  const a = E.seededSource(7);
  const b = E.seededSource(7);
  const draws = Array.from({ length: 20000 }, () => a.normal());
  assert.deepEqual(draws.slice(0, 5), Array.from({ length: 5 }, () => b.normal()));
  const m = draws.reduce((t, v) => t + v) / draws.length;
  const sd = Math.sqrt(draws.reduce((t, v) => t + (v - m) ** 2, 0) / (draws.length - 1));
  assert.ok(Math.abs(m) < 0.03 && Math.abs(sd - 1) < 0.03, `mean ${m}, sd ${sd}`);
  const u = Array.from({ length: 20000 }, () => a.uniform());
  assert.ok(u.every((v) => v >= 0 && v < 1));
  assert.ok(Math.abs(u.reduce((t, v) => t + v) / u.length - 0.5) < 0.01);
});

test('a replay source refuses to invent draws', () => {
  const rng = E.replaySource({ normals: [0.5] });
  assert.equal(rng.normal(), 0.5);
  assert.throws(() => rng.normal(), /all 1 normals used/);
  assert.throws(() => rng.uniform(), /all 0 uniforms used/);
});

test('the covering box keeps the lecture box when the posterior fits inside it', () => {
  const base = widgetData.lecture.grid_bounds;
  const laplace = E.laplaceApproximation(book, [0, 0]);
  assert.deepEqual(E.coveringBox(base, laplace, 5, 0.5), base);
  const wide = E.coveringBox(base, { mean: [0, 3], sd: [1, 1] }, 5, 0.5);
  assert.deepEqual(wide, [[-5, 5], [-2, 8]]);
});

test('edge ratios find a posterior cut by its box', () => {
  const narrow = E.logisticGrid(data, 8, 100, [[-2.5, 1.5], [0, 2.8]], 61);
  const ratios = E.edgeRatios(narrow);
  assert.ok(Math.max(...ratios) > 0.01, `edges ${ratios}`);
  const lecture = E.logisticGrid(data, 80, 4, [[-2.5, 1.5], [0, 2.8]], 241);
  assert.ok(Math.max(...E.edgeRatios(lecture)) < 1e-3);
});

/** The explorer's grid at a prior sd and n, exactly as the view computes it (holdingGrid). */
function explorerGrid(priorSd, n, resolution) {
  const target = E.logisticPosterior(data, priorSd ** 2, n);
  const laplace = E.laplaceApproximation(target, [0, 0], settings.newton_max_steps, 1e-12);
  const start = E.coveringBox(widgetData.lecture.grid_bounds, laplace, settings.grid_margin_sd, settings.grid_snap);
  return E.holdingGrid(start, (box) => E.logisticGrid(data, n, priorSd ** 2, box, resolution), {
    tolerance: settings.grid_edge_tolerance, snap: settings.grid_snap, maxWidenings: settings.grid_max_widenings,
  });
}

test('the explorer\'s grid holds the posterior at every setting, and gives its moments', () => {
  let widened = 0;
  for (const g of golden.wide_grids) {
    const label = `sd ${g.prior_sd}, n ${g.n}`;
    for (const resolution of [settings.drag_resolution, widgetData.lecture.grid_resolution]) {
      const { grid, widenings } = explorerGrid(g.prior_sd, g.n, resolution);
      const edges = Math.max(...E.edgeRatios(grid));
      assert.ok(edges <= settings.grid_edge_tolerance, `${label}, ${resolution}: edges ${edges}`);
      widened += widenings;
      if (resolution === widgetData.lecture.grid_resolution) {
        // Against a box far wider than the posterior: cutting where the density falls below 1e-3
        // of its peak costs up to 2e-4 in a mean and 1.2e-3 in an sd here (relative).
        close(grid.mean, g.mean, `${label}: mean`, 2e-3);
        close(grid.sd, g.sd, `${label}: sd`, 2e-3);
      }
    }
  }
  assert.ok(widened > 0, 'no setting needed widening: the test no longer exercises it');
});

test('widening grows only the sides cut, and stops at its cap', () => {
  const box = [[-2.5, 1.5], [0, 2.8]];
  assert.deepEqual(E.widenBox(box, [0, 0.5, 0, 0], 1e-3, 0.5), [[-2.5, 3.5], [0, 2.8]]);
  let calls = 0;
  const cut = E.logisticGrid(data, 8, 100, box, 61);
  const held = E.holdingGrid(box, () => { calls += 1; return cut; }, { tolerance: 1e-3, snap: 0.5, maxWidenings: 3 });
  assert.equal(held.widenings, 3);
  assert.equal(calls, 4);
});

test('the drawn predictive curve: the grid predictive, pooled into blocks', () => {
  for (const g of golden.grids) {
    const label = `sd ${g.prior_sd}, n ${g.n}`;
    const grid = E.logisticGrid(data, g.n, g.prior_sd ** 2, g.bounds, g.resolution);
    // One point per block: the exact predictive over the grid.
    close(flat(E.pooledPredictive(grid, g.x_curve, g.resolution)), g.curve, `${label}: unpooled curve`);
    // As drawn: within 1e-3 (under a pixel on the widget's plot) of the exact predictive.
    const drawn = E.pooledPredictive(grid, g.x_curve, settings.curve_blocks);
    const error = Math.max(...Array.from(drawn, (v, i) => Math.abs(v - g.curve[i])));
    assert.ok(error < 1e-3, `${label}: drawn curve off by ${error}`);
  }
  // Far out the sigmoid saturates without overflowing: 0 and 1, never NaN.
  const lecture = E.logisticGrid(data, 80, 4, [[-2.5, 1.5], [0, 2.8]], 241);
  const extreme = E.pooledPredictive(lecture, [-1e4, 1e4]);
  assert.deepEqual(Array.from(extreme, (v) => Math.round(v * 1e12) / 1e12), [0, 1]);
});

test('staged diagnostics, a job at a time, equal the package\'s and the engine\'s at once', () => {
  for (const [index, g] of golden.diagnostics.entries()) {
    const kept = g.draws.map((chains) => chains.map((c) => Float64Array.from(c)));
    const staged = new E.StagedDiagnostics(kept);
    let steps = 1;
    while (!staged.step()) steps += 1;
    assert.equal(steps, kept.length * (Math.ceil(kept[0].length / 2) + 1), `case ${index}: jobs`);
    kept.forEach((chains, p) => {
      const label = `case ${index}, parameter ${p}`;
      assert.deepEqual(staged.result[p], E.summarize(chains), `${label}: at once`);
      close(staged.result[p].rhat, g.rhat[p], `${label}: R-hat`);
      close(staged.result[p].ess, g.ess[p], `${label}: ESS`);
      close(staged.result[p].mcse, g.mcse[p], `${label}: MCSE`);
    });
    // The production diagnostics, staged: six jobs per parameter, the summary at once.
    const ranked = new E.StagedDiagnostics(kept, E.rankSummaryJobs);
    steps = 1;
    while (!ranked.step()) steps += 1;
    assert.equal(steps, kept.length * 6, `case ${index}: rank jobs`);
    kept.forEach((chains, p) => {
      assert.deepEqual(ranked.result[p], E.rankSummary(chains), `case ${index}, parameter ${p}: ranked at once`);
      close(ranked.result[p].essTail, g.rank.ess_tail[p], `case ${index}, parameter ${p}: tail ESS`, RANK_RTOL);
    });
  }
});

// --- The hierarchical model and HMC: bit for bit ------------------------------------------------
// The package computes these densities with + - * /, floor and powers of two only (its
// _portable_math), and the engine repeats the same operations in the same order: so equality is
// exact, not to a tolerance. HMC on the funnel is chaotic; only exact arithmetic replays it.
const schools = golden.hierarchical;
const schoolsData = { y: schools.y, sigma: schools.sigma, muPriorSd: schools.mu_prior_sd,
  tauPriorScale: schools.tau_prior_scale };

function same(actual, expected, what) {
  const a = [actual].flat(Infinity);
  const e = [expected].flat(Infinity);
  assert.equal(a.length, e.length, `${what}: ${a.length} values, expected ${e.length}`);
  e.forEach((want, i) => {
    const got = a[i];
    if (want === null) assert.ok(!Number.isFinite(got), `${what}[${i}]: ${got}, expected non-finite`);
    else assert.ok(Object.is(got, want) || (got === 0 && want === 0), `${what}[${i}]: ${got} !== ${want}`);
  });
}

for (const form of ['centred', 'non-centred']) {
  const expected = schools.forms[form];
  const target = E.hierarchicalTarget(schoolsData, form);

  test(`${form} eight schools: log density and gradient equal the package's exactly`, () => {
    same(expected.points.map((p) => target.logDensity(p)), expected.log_density, 'log density');
    same(expected.points.map((p) => Array.from(target.grad(p))), expected.grad, 'gradient');
  });

  expected.hmc.forEach((run, k) => {
    test(`${form} eight schools: HMC run ${k + 1} (h = ${run.step_size}) replays NumPy's draws exactly`, () => {
      const d = run.start.length;
      const rng = E.replaySource({ normals: run.normals, uniforms: run.uniforms });
      const chain = new E.HMCChain(target, run.start, { stepSize: run.step_size,
        nLeapfrog: run.n_leapfrog, mass: run.mass }, rng);
      for (let t = 0; t < run.n_steps; t += 1) {
        const { path } = chain.step();
        // The trajectory itself, leapfrog step by leapfrog step, for the first iterations.
        if (t < run.paths.length) same(path.map((q) => Array.from(q)), run.paths[t], `trajectory ${t}`);
      }
      assert.deepEqual(rng.used(), { normals: run.normals.length, uniforms: run.uniforms.length });
      same(chain.draws.map((x) => Array.from(x)), run.draws, 'draws');
      assert.deepEqual(chain.divergent, run.divergent, 'divergence flags');
      same(chain.energies, run.energies, 'energies');
      same(chain.energyErrors, run.energy_errors, 'energy errors');
      assert.equal(chain.draws.length * d, run.draws.length);
    });
  });
}

test('the centred replays include a chain that moves and diverges, as the widget\'s do', () => {
  const moving = schools.forms.centred.hmc.filter((run) => run.accept_rate > 0.5 && run.divergent.some(Boolean));
  assert.ok(moving.length > 0, 'no centred HMC replay both accepts most proposals and diverges');
});

// Every chain in golden.chains (tests/engine/golden.py, chain_replay), replayed with no code of
// its own. A chain of the engine is shaped like HMCChain(target, start, options, rng): step()
// makes one iteration and `state` is where the chain then is. Fed the draws NumPy gave the
// package's sampler (two streams, each in the order it was used), it must pass through the
// package's states and use every draw. A new sampler's replay needs only its golden entry
// (and, for a new kind of target, a line here).
const TARGETS = {
  logistic: () => book,
  'standard-gaussian': ({ d }) => E.standardGaussianTarget(d),
  'eight-schools': ({ form }) => E.hierarchicalTarget(schoolsData, form),
};

for (const run of golden.chains) {
  test(`replayed draws: ${run.name} (${run.module}, ${run.class})`, async () => {
    const engine = await import(`../../code/widgets/engine/${run.module}`);
    assert.ok(engine[run.class], `${run.module} exports no ${run.class}`);
    assert.ok(TARGETS[run.target.kind], `no engine target for the kind ${run.target.kind}`);
    const rng = E.replaySource({ normals: run.normals, uniforms: run.uniforms });
    const chain = new engine[run.class](TARGETS[run.target.kind](run.target), run.start, run.options, rng);
    const visited = run.states.map(() => {
      chain.step();
      return Array.from(chain.state);
    });
    close(visited, run.states, `${run.name}: states`);
    assert.deepEqual(rng.used(), { normals: run.normals.length, uniforms: run.uniforms.length },
      'every recorded draw is used, and no other');
  });
}

test('the funnel widget\'s data: the engine targets from the data script, the exact picture', () => {
  const funnel = widgetData.funnel_data;
  const fromScript = { y: funnel.data.y, sigma: funnel.data.sigma, muPriorSd: funnel.data.mu_prior_sd,
    tauPriorScale: funnel.data.tau_prior_scale };
  assert.deepEqual(fromScript, schoolsData);
  const grid = E.funnelDensityGrid(funnel.reference, schools.funnel_density.theta);
  const K = funnel.reference.log_tau.length;
  const expected = schools.funnel_density.density; // [node][theta]
  const got = expected.map((row, k) => row.map((_, i) => grid.weights[i * K + k]));
  close(got, expected, 'joint density of (theta_1, log tau)');
  // The widget's mass matrices are those of the replays above (the chapter's).
  for (const form of ['centred', 'non-centred']) {
    close(schools.forms[form].hmc[0].mass, funnel.sd[form].map((s) => 1 / (s * s)), `${form} mass`);
  }
});

test('the centred funnel replay diverges somewhere (so the flags are tested)', () => {
  const flags = schools.forms.centred.hmc.flatMap((run) => run.divergent);
  assert.ok(flags.some(Boolean), 'no divergent transition in the centred replays');
});

test('portable exp and log: known values and edge cases', () => {
  assert.equal(E.exp(0), 1);
  assert.equal(E.log(1), 0);
  assert.ok(Math.abs(E.exp(1) - Math.E) <= Number.EPSILON * Math.E);
  assert.equal(E.exp(1000), Infinity);
  assert.equal(E.exp(-1000), 0);
  assert.ok(Number.isNaN(E.exp(NaN)) && Number.isNaN(E.log(-1)));
  assert.equal(E.log(0), -Infinity);
  assert.ok(E.exp(-744) > 0 && E.exp(-744) < 1e-320); // subnormal, rounded once
});

// --- The dimension widget: chapter 6's tuning, the typical set, and replays ----------------------
const dimension = golden.dimension_case;

test('dimension tuning follows the package\'s rule', () => {
  dimension.dims.forEach((d, i) => {
    const ours = E.dimensionTuning(d, { rwmScale: dimension.rwm_scale, pathLength: dimension.path_length });
    const theirs = dimension.tuning[i];
    close([ours.rwmScale, ours.stepSize], [theirs.rwm_scale, theirs.step_size], `tuning d=${d}`, 1e-12);
    assert.equal(ours.nLeapfrog, theirs.n_leapfrog, `L at d=${d}`);
  });
  // The constants come from the package's data; the engine keeps no copy of them.
  assert.throws(() => E.dimensionTuning(4, {}), /positive rwmScale and pathLength/);
});

test('chi_d: mean, E[r^2] = d and density match the exact formulas', () => {
  dimension.dims.forEach((d, i) => {
    const { mean, variance } = E.chiMoments(d);
    close(mean, dimension.chi_mean[i], `chi mean d=${d}`, 1e-12);
    close(mean * mean + variance, d, `chi second moment d=${d}`, 1e-12);
    close(dimension.radii.map((r) => E.chiDensity(r, d)), dimension.chi_density[i], `chi density d=${d}`, 1e-12);
  });
});

test('chi_d distribution function: the exact recursions from erf and exp', () => {
  dimension.dims.forEach((d, i) => {
    const radii = [...dimension.radii, Math.sqrt(d), 14];
    // Absolute 1e-12: the recursion loses relative digits far in the lower tail.
    radii.forEach((r, k) => {
      const got = E.chiCdf(r, d);
      const want = dimension.chi_cdf[i][k];
      assert.ok(Math.abs(got - want) <= 1e-12 + 1e-9 * want, `chi cdf d=${d} r=${r}: ${got} vs ${want}`);
    });
  });
});

dimension.replays.forEach((run) => {
  test(`N(0, I_${run.d}): log density (up to its constant) and gradient equal the package's`, () => {
    const target = E.standardGaussianTarget(run.d);
    const shown = run.points.map((p) => target.logDensity(p));
    close(shown.map((v) => v - shown[0]), run.log_density.map((v) => v - run.log_density[0]), 'log density');
    close(run.points.map((p) => Array.from(target.grad(p))), run.grad, 'gradient');
  });

  test(`N(0, I_${run.d}): HMC replays the package's chain, trajectories and energies`, () => {
    const target = E.standardGaussianTarget(run.d);
    const h = run.hmc;
    const hmcRng = E.replaySource({ normals: h.normals, uniforms: h.uniforms });
    const chain = new E.HMCChain(target, h.start, { stepSize: h.step_size, nLeapfrog: h.n_leapfrog,
      mass: h.mass }, hmcRng);
    for (let t = 0; t < h.n_steps; t += 1) {
      const { path } = chain.step();
      // The trajectory itself, leapfrog step by leapfrog step, for the first iterations.
      if (t < h.paths.length) close(path.map((q) => Array.from(q)), h.paths[t], `HMC trajectory ${t}`);
    }
    assert.deepEqual(hmcRng.used(), { normals: h.normals.length, uniforms: h.uniforms.length });
    assert.deepEqual(chain.divergent, h.divergent, 'HMC divergence flags');
    close(chain.draws.map((x) => Array.from(x)), h.draws, 'HMC draws');
    close(chain.energies, h.energies, 'HMC energies');
    close(chain.acceptRate(), h.accept_rate, 'HMC acceptance rate');
  });
});

test('the dimension widget\'s histogram: a density over its bins, values outside counted apart', () => {
  const h = E.densityHistogram([0.1, 0.2, 0.6, 0.99, 1, 1.5, -0.1], 0, 1, 4);
  close(Array.from(h.density), [2 / 7 / 0.25, 0, 1 / 7 / 0.25, 2 / 7 / 0.25], 'density', 1e-12);
  assert.equal(h.outside, 2);
});

test('kept or not, a chain steps the same: keepDraws only drops the stored draws', () => {
  const target = E.standardGaussianTarget(5);
  const start = [0.3, -0.2, 1, 0.5, -1];
  const settings = { stepSize: 0.5, nLeapfrog: 3 };
  const kept = new E.HMCChain(target, start, settings, E.seededSource(3));
  const lean = new E.HMCChain(target, start, { ...settings, keepDraws: false }, E.seededSource(3));
  const walk = new E.MetropolisChain(target, start, { scale: 0.8 }, E.seededSource(4));
  const leanWalk = new E.MetropolisChain(target, start, { scale: 0.8, keepDraws: false }, E.seededSource(4));
  for (let t = 0; t < 50; t += 1) [kept, lean, walk, leanWalk].forEach((c) => c.step());
  same(Array.from(lean.position), Array.from(kept.draws[49]), 'HMC state');
  same(Array.from(leanWalk.current), states(walk)[49], 'walk state');
  assert.equal(lean.draws.length + leanWalk.accepted.length, 0);
  assert.equal(leanWalk.length, 50);
  assert.equal(lean.gradientEvaluations(), 150);
});

// --- Mutants of `make mutation-js` that the tests above let live --------------------------------
// Each test below kills mutants of the engine that changed what it computes or refuses and still
// passed every test above (tools/mutation/js-survivors.md lists them, and the ones left alive).

test('logSumExp and softmax shift by the largest value wherever it stands; all -Infinity gives -Infinity', () => {
  // Shifted by any other value, exp(1000) would overflow.
  assert.equal(E.logSumExp([1000, 0]), 1000);
  assert.equal(E.logSumExp([-Infinity, -Infinity]), -Infinity);
  close(E.logSumExp([0, Math.log(3)]), Math.log(4), 'log(1 + 3)');
  const big = E.softmax([1000, 0]);
  assert.deepEqual([...big.weights, big.logTotal], [1, 0, 1000]);
  const small = E.softmax([0, Math.log(3)]);
  close(flat(small.weights), [0.25, 0.75], 'weights 1 : 3');
  close(small.logTotal, Math.log(4), 'log of the total');
});

test('an HMC chain refuses a step size or leapfrog count it cannot run, and defaults to unit masses', () => {
  const target = E.standardGaussianTarget(2);
  const rng = E.seededSource(1);
  for (const bad of [{ stepSize: 0, nLeapfrog: 3 }, { stepSize: -0.1, nLeapfrog: 3 }, { stepSize: NaN, nLeapfrog: 3 },
    { stepSize: 0.1, nLeapfrog: 0 }, { stepSize: 0.1, nLeapfrog: 0.5 }]) {
    assert.throws(() => new E.HMCChain(target, [0, 0], bad, rng), /^Error: stepSize must be > 0 and nLeapfrog >= 1$/,
      JSON.stringify(bad));
  }
  assert.equal(new E.HMCChain(target, [0, 0], { stepSize: 0.1, nLeapfrog: 1 }, rng).nLeapfrog, 1);
  const settings = { stepSize: 0.3, nLeapfrog: 4 };
  const unit = E.hmcChain(target, [0.5, -0.5], settings, 20, E.seededSource(2));
  const given = E.hmcChain(target, [0.5, -0.5], { ...settings, mass: [1, 1] }, 20, E.seededSource(2));
  assert.ok(unit.energies.every(Number.isFinite) && unit.acceptRate() > 0.5, `accept rate ${unit.acceptRate()}`);
  same(unit.draws.map((x) => Array.from(x)), given.draws.map((x) => Array.from(x)), 'draws with no mass given');
});

test('a Metropolis chain grows past its capacity, keeps its start and records every proposal', () => {
  const g = golden.random_walk;
  const n = 300;
  const replay = () => E.replaySource({ normals: g.normals.slice(0, 2 * n), uniforms: g.uniforms.slice(0, n) });
  const chain = new E.MetropolisChain(book, g.start, { chol: g.chol, capacity: 7 }, replay());
  for (let t = 0; t < n; t += 1) chain.step();
  assert.deepEqual(Array.from(chain.start), g.start);
  assert.deepEqual(Array.from(chain.accepted.subarray(0, n), Boolean), g.accepted.slice(0, n), 'accept decisions');
  const interleaved = [];
  for (let t = 0; t < n; t += 1) interleaved.push(chain.draws[0][t], chain.draws[1][t]);
  close(interleaved, g.draws.slice(0, 2 * n), 'draws past a capacity of 7');
  close(flat(chain.series(1, 100)), g.draws.slice(201, 2 * n).filter((_, i) => i % 2 === 0), 'series(1, 100)');
  // Each proposal is the state before it moved by L eps, eps the step's two normals.
  const [l0, l1] = g.chol;
  const proposals = [[], []];
  for (let t = 0; t < n; t += 1) {
    const [x, y] = t === 0 ? g.start : g.draws.slice(2 * t - 2, 2 * t);
    const [e0, e1] = g.normals.slice(2 * t, 2 * t + 2);
    proposals[0].push(x + (l0[0] * e0 + l0[1] * e1));
    proposals[1].push(y + (l1[0] * e0 + l1[1] * e1));
  }
  close(chain.proposals.map((p) => flat(p.subarray(0, n))), proposals, 'proposals of the stepped chain');
  close(E.metropolisChain(book, g.start, g.chol, n, replay()).proposals.map(flat), proposals,
    'proposals of metropolisChain');
  assert.throws(() => new E.MetropolisChain({ logDensity: () => -Infinity }, [0, 1], { chol: g.chol }, replay()),
    /^Error: log density is not finite at the start \[0,1\]$/);
});

/** xoshiro128** (Blackman and Vigna's reference code) seeded by splitmix32, in BigInt arithmetic. */
function referenceUniforms(seed) {
  const M = 0xffffffffn;
  const mul = (a, b) => (a * b) & M;
  const rotl = (x, k) => ((x << k) | (x >> (32n - k))) & M;
  let weyl = BigInt(seed);
  const mix = () => {
    weyl = (weyl + 0x9e3779b9n) & M;
    let t = mul(weyl ^ (weyl >> 16n), 0x85ebca6bn);
    t = mul(t ^ (t >> 13n), 0xc2b2ae35n);
    return t ^ (t >> 16n);
  };
  const s = [mix(), mix(), mix(), mix()];
  const next = () => {
    const result = mul(rotl(mul(s[1], 5n), 7n), 9n);
    const t = (s[1] << 9n) & M;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11n);
    return result;
  };
  // 53 random bits: the top 27 of one output, then the top 26 of the next.
  return () => Number(((next() >> 5n) << 26n) + (next() >> 6n)) / 2 ** 53;
}

test('the seeded source is xoshiro128** seeded by splitmix32, and the polar method keeps both normals', () => {
  for (const seed of [0, 7, 2 ** 32 - 1]) {
    const ours = E.seededSource(seed);
    const reference = referenceUniforms(seed);
    for (let k = 0; k < 1000; k += 1) assert.equal(ours.uniform(), reference(), `seed ${seed}, uniform ${k}`);
  }
  // Marsaglia's polar method: a pair (a, b) inside the unit disc gives two normals, a f and b f.
  const uniform = referenceUniforms(11);
  const expected = [];
  while (expected.length < 200) {
    const pair = [2 * uniform() - 1, 2 * uniform() - 1];
    const r2 = pair[0] ** 2 + pair[1] ** 2;
    if (r2 > 0 && r2 < 1) expected.push(...pair.map((v) => v * Math.sqrt((-2 * Math.log(r2)) / r2)));
  }
  const source = E.seededSource(11);
  assert.deepEqual(Array.from({ length: 200 }, () => source.normal()), expected, 'normals of seed 11');
  assert.throws(() => E.replaySource({ uniforms: [0.5] }).normal(), /all 0 normals used/);
});

test('staged diagnostics: a step after the last job does nothing and still says done', () => {
  const chains = rankCase('odd length, 3 x 7')[0];
  const staged = new E.StagedDiagnostics([chains], E.rankSummaryJobs);
  while (!staged.step());
  assert.deepEqual([staged.step(), staged.done], [true, true]);
  assert.deepEqual(staged.result, [E.rankSummary(chains)]);
});
