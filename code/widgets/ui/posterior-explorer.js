// Widget 1, the target chapter: the exact grid posterior, recomputed live from the book's data.
// Controls: the prior sd, the number of observations used, and x*. While a slider is dragged
// the grid is coarser unless the likelihood on the full grid is cached (a prior-only change
// reuses it); on release it is the full 241 x 241 grid.
import {
  coveringBox, edgeRatios, gridAxes, gridPredictive, holdingGrid, laplaceApproximation, linspace, logisticGrid,
  logisticLogLikOnGrid, logisticPosterior, plugInPredictive, pooledPredictive,
} from '../engine/index.js';
import { Widget, draggablePoint } from './base.js';
import { bigReadouts, controlPanel, fmt, legend, slider, tableReadout } from './controls.js';
import { Plot, SD_LEVELS } from './plot.js';

const CACHE_SIZE = 8;

export class PosteriorExplorer extends Widget {
  constructor(root, data, options = {}) {
    super(root, data, {
      ...options,
      title: 'Posterior explorer: the exact grid posterior, live',
      hint: 'Move the sliders; drag the line x* on the right-hand plot (or focus it and use the arrow keys).',
    });
    const w = data.widgets;
    const lecture = data.lecture;
    this.priorSd = Math.sqrt(lecture.prior_var);
    this.n = lecture.n_obs;
    this.xStar = w.x_star;
    this.fullResolution = lecture.grid_resolution;
    const [lo, hi] = lecture.x_range;
    this.xView = [lo - 1.5, hi + 1.5];
    this.cache = new Map();

    const left = this.column();
    const right = this.column();
    this.post = this.addPlot(new Plot(left, { aspect: 0.78, maxHeight: 420, label: 'Contours of the grid posterior of intercept and slope, with the grid mean and the MAP' }));
    this.postLegend = legend(left, []);
    const panel = controlPanel(left);
    this.sdSlider = slider(panel, {
      name: 'prior_sd', label: 'prior sd τ', min: w.prior_sd_range[0], max: w.prior_sd_range[1], value: this.priorSd, log: true, steps: 300,
      format: (v) => fmt(v, 2),
      onInput: (v) => this.update({ priorSd: v }, false),
      onChange: (v) => this.update({ priorSd: v }, true),
    });
    this.nSlider = slider(panel, {
      name: 'n', label: 'observations n', min: w.n_obs_range[0], max: Math.min(w.n_obs_range[1], data.data.x.length), value: this.n, step: 1,
      format: (v) => `first ${v}`,
      onInput: (v) => this.update({ n: v }, false),
      onChange: (v) => this.update({ n: v }, true),
    });
    this.xSlider = slider(panel, {
      name: 'x_star', label: 'new feature x*', min: this.xView[0], max: this.xView[1], value: this.xStar, step: 0.05,
      format: (v) => fmt(v, 2),
      onInput: (v) => this.update({ xStar: v }, false),
      onChange: (v) => this.update({ xStar: v }, true),
    });

    this.pred = this.addPlot(new Plot(right, { aspect: 0.62, maxHeight: 330, focusable: true, label: 'P(y = 1 | x): the plug-in and the posterior predictive curves, the data, and x*. Focus and use the left and right arrow keys to move x*.' }));
    this.predLegend = legend(right, []);
    this.big = bigReadouts(right, [['plug', 'plug-in at x*'], ['predictive', 'posterior at x*'], ['corr', 'correlation']]);
    this.table = tableReadout(right, 'Grid posterior summaries');
    draggablePoint(this.pred, {
      get: () => [this.xStar, 0.5],
      move: ([x], final) => this.update({ xStar: Math.round(x / 0.05) * 0.05 }, final),
      step: () => [0.05, 0],
    });
    this.update({}, true);
    this.start();
  }

  /** Recompute for new settings. `final` asks for the full grid (a release or a keypress). */
  update({ priorSd = this.priorSd, n = this.n, xStar = this.xStar }, final) {
    const sameGrid = this.result && priorSd === this.priorSd && Math.round(n) === this.n;
    if (sameGrid && (!final || this.result.resolution === this.fullResolution)) {
      this.moveX(xStar, final);
      return;
    }
    this.timedUpdate(final, () => {
      this.priorSd = priorSd;
      this.n = Math.round(n);
      this.xStar = Math.min(this.xView[1], Math.max(this.xView[0], xStar));
      const w = this.data.widgets;
      const target = logisticPosterior(this.data.data, priorSd ** 2, this.n);
      const laplace = laplaceApproximation(target, [0, 0], w.newton_max_steps, 1e-12);
      const start = coveringBox(this.data.lecture.grid_bounds, laplace, w.grid_margin_sd, w.grid_snap);
      const fullKey = `${this.n}|${start}|${this.fullResolution}`;
      const resolution = final || this.cache.has(fullKey) ? this.fullResolution : w.drag_resolution;
      const { box, grid } = holdingGrid(
        start,
        (b) => logisticGrid(this.data.data, this.n, priorSd ** 2, b, resolution, this.likelihood(b, resolution)),
        { tolerance: w.grid_edge_tolerance, snap: w.grid_snap, maxWidenings: w.grid_max_widenings },
      );
      const xs = linspace(this.xView[0], this.xView[1], 121);
      this.result = {
        laplace, box, grid, resolution, xs,
        plugCurve: plugInPredictive(laplace.mean, xs),
        postCurve: pooledPredictive(grid, xs, w.curve_blocks),
        plugAtX: plugInPredictive(laplace.mean, [this.xStar])[0],
        postAtX: gridPredictive(grid, [this.xStar])[0],
      };
      this.sdSlider.set(priorSd);
      this.nSlider.set(this.n);
      this.xSlider.set(this.xStar);
      this.draw();
      this.showReadouts();
    });
  }

  /** Only x* moved: the two predictions there, and the right-hand plot. */
  moveX(xStar, final) {
    this.timedUpdate(final, () => {
      this.xStar = Math.min(this.xView[1], Math.max(this.xView[0], xStar));
      const r = this.result;
      r.plugAtX = plugInPredictive(r.laplace.mean, [this.xStar])[0];
      r.postAtX = gridPredictive(r.grid, [this.xStar])[0];
      this.xSlider.set(this.xStar);
      this.drawPredictive();
      this.showReadouts();
    });
  }

  /** The log likelihood on this grid, from the cache when it was computed before. */
  likelihood(box, resolution) {
    const key = `${this.n}|${box}|${resolution}`;
    let lik = this.cache.get(key);
    if (!lik) {
      lik = logisticLogLikOnGrid(this.data.data, this.n, gridAxes(box, resolution));
      this.cache.set(key, lik);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value);
    } else {
      this.cache.delete(key);
      this.cache.set(key, lik);
    }
    return lik;
  }

  showReadouts() {
    const { grid, laplace, plugAtX, postAtX } = this.result;
    const corr = grid.corr[0][1];
    this.big.set('plug', fmt(plugAtX, 3));
    this.big.set('predictive', fmt(postAtX, 3));
    this.big.set('corr', fmt(corr, 3));
    this.table.set(['', 'θ₀ intercept', 'θ₁ slope'], [
      ['grid mean', fmt(grid.mean[0], 4), fmt(grid.mean[1], 4)],
      ['grid sd', fmt(grid.sd[0], 4), fmt(grid.sd[1], 4)],
      ['MAP', fmt(laplace.mean[0], 4), fmt(laplace.mean[1], 4)],
    ]);
    const m = this.result.resolution;
    const edge = Math.max(...edgeRatios(this.result.grid));
    this.say(`Grid ${m} × ${m}${m === this.fullResolution ? '' : ' (coarse while dragging)'}, `
      + `edges ≤ ${edge.toExponential(0)} × peak; x* = ${fmt(this.xStar, 2)}`);
  }

  draw() {
    if (!this.result || !this.post.width) return;
    const t = this.theme;
    const c = t.colors;
    const { grid, laplace, box } = this.result;
    // Left: the posterior.
    const p = this.post;
    p.clear(t);
    p.setDomain(box[0], box[1]);
    p.density(grid, t, { levels: SD_LEVELS, color: c.grid });
    p.axes(t, { xLabel: 'intercept θ₀', yLabel: 'slope θ₁' });
    p.marker(grid.mean[0], grid.mean[1], { shape: 'plus', size: 8, color: c.grid, width: 2.5 });
    p.marker(laplace.mean[0], laplace.mean[1], { shape: 'diamond', size: 6, color: c.map });
    this.postLegend.set([[c.grid, 'contours at 1, 2, 3 sd; + grid mean'], [c.map, '◆ MAP']]);
    this.drawPredictive();
  }

  /** Right: the predictive curves, the data and x*. */
  drawPredictive() {
    const t = this.theme;
    const c = t.colors;
    const { xs, plugCurve, postCurve } = this.result;
    const q = this.pred;
    q.clear(t);
    q.setDomain(this.xView, [-0.08, 1.08]);
    q.axes(t, { xLabel: 'feature x', yLabel: 'P(y = 1 | x)', gridLines: true });
    q.clip();
    const { x, y } = this.data.data;
    x.forEach((xi, i) => {
      const jitter = ((i * 37) % 11) / 11 - 0.5;
      const used = i < this.n;
      q.marker(xi, y[i] + (y[i] ? -0.035 : 0.035) + 0.03 * jitter, { shape: 'circle', size: used ? 3 : 2.5, color: used ? t.muted : t.faint, fill: used, width: 1 });
    });
    q.line(xs, plugCurve, { color: c.map, width: 2.5, dash: [7, 5] });
    q.line(xs, postCurve, { color: c.grid, width: 2.5 });
    q.line([this.xStar, this.xStar], [-0.08, 1.08], { color: t.palette.blue, width: 2, dash: [3, 3] });
    q.marker(this.xStar, this.result.plugAtX, { shape: 'circle', size: 5, color: c.map });
    q.marker(this.xStar, this.result.postAtX, { shape: 'circle', size: 5, color: c.grid });
    q.restore();
    q.handle(this.xStar, 0.5, t.palette.blue, t);
    this.predLegend.set([[c.grid, 'posterior predictive (grid)'], [c.map, 'plug-in at the MAP', true], [t.palette.blue, `x* (drag)`, true]]);
  }

  state() {
    return { prior_sd: this.priorSd, n: this.n, x_star: this.xStar };
  }

  set(params) {
    const next = {};
    if ('prior_sd' in params) next.priorSd = Number(params.prior_sd);
    if ('n' in params) next.n = Number(params.n);
    if ('x_star' in params) next.xStar = Number(params.x_star);
    this.update(next, true);
  }

  run() {
    this.update({}, true);
  }

  readout() {
    if (!this.result) return {};
    const { grid, laplace, box, resolution } = this.result;
    return {
      widget: this.name,
      prior_sd: this.priorSd,
      n: this.n,
      x_star: this.xStar,
      grid_mean: grid.mean,
      grid_sd: grid.sd,
      grid_corr: grid.corr[0][1],
      map: laplace.mean,
      plug_in: this.result.plugAtX,
      posterior_predictive: this.result.postAtX,
      box,
      resolution,
      update_ms: this.updateMs,
    };
  }
}
