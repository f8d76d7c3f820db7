// Widget 4, the deterministic-approximations chapter: Adam on the ELBO, animated, from a start
// you drag; mean-field or full-rank; the 2-sd ellipse moves over the exact contours beside the
// ELBO trace (below log Z from the grid), with the Laplace ellipse for comparison. On the
// two-mode target, reverse KL (VI) settles in one mode while forward KL would cover both.
import { FullRankVI, MeanFieldVI, laplaceApproximation, seededSource } from '../engine/index.js';
import { Widget, clampPoint, draggablePoint } from './base.js';
import { bigReadouts, buttonRow, button, controlPanel, fmt, legend, select, slider, tableReadout } from './controls.js';
import { Plot } from './plot.js';
import { TARGET_OPTIONS, keyStep, paintTarget, targets } from './targets.js';

const FAMILIES = [['mean-field', 'mean-field'], ['full-rank', 'full-rank']];
const SMOOTH = 50; // the ELBO readout averages the last 50 noisy estimates

export class LaplaceVI extends Widget {
  constructor(root, data, options = {}) {
    super(root, data, {
      ...options,
      title: 'Laplace and variational inference: Adam on the ELBO',
      hint: 'Drag the start (or focus the plot and use the arrow keys), then Play.',
    });
    const w = data.widgets;
    const lecture = data.lecture;
    this.targets = targets(data);
    this.target = 'book';
    this.family = 'mean-field';
    this.lr = lecture.vi_lr;
    this.samples = lecture.vi_samples;
    this.seed = lecture.vi_seed;
    this.startPoint = [...w.vi_start];
    this.maxSteps = lecture.vi_steps;

    const left = this.column();
    const right = this.column();
    this.plot = this.addPlot(new Plot(left, { aspect: 0.8, maxHeight: 420, deck: { aspect: 0.72, maxHeight: 236 }, focusable: true, label: 'The variational Gaussian’s 2-sd ellipse moving over the target’s contours, with the Laplace ellipse. Focus and use the arrow keys to move the start.' }));
    this.legend = legend(left, []);
    const panel = controlPanel(left);
    this.controls = {
      target: select(panel, { name: 'target', label: 'target', options: TARGET_OPTIONS, value: this.target, onChange: (v) => this.set({ target: v }) }),
      family: select(panel, { name: 'family', label: 'family', options: FAMILIES, value: this.family, onChange: (v) => this.set({ family: v }) }),
      lr: slider(panel, { name: 'lr', label: 'learning rate', min: w.vi_lr_range[0], max: w.vi_lr_range[1], value: this.lr, log: true, format: (v) => fmt(v, 3), onInput: (v) => this.setRate(v) }),
      samples: slider(panel, { name: 'samples', label: 'draws per step', min: w.vi_samples_range[0], max: w.vi_samples_range[1], value: this.samples, log: true, steps: 90, format: (v) => String(Math.round(v)), onInput: (v) => this.setSamples(Math.round(v)) }),
    };
    const row = buttonRow(panel);
    this.playButton = button(row, { name: 'play', label: 'Play', toggle: true, onClick: () => (this.playing ? this.pause() : this.play()) });
    button(row, { name: 'step', label: 'Step', title: 'One Adam step', onClick: () => this.run(1) });
    button(row, { name: 'reset', label: 'Restart', onClick: () => this.set({}) });

    this.elboPlot = this.addPlot(new Plot(right, { aspect: 0.55, maxHeight: 250, deck: { aspect: 0.4, maxHeight: 170 }, label: 'The ELBO estimate at each step, its running mean, and log Z from the grid (the ELBO’s ceiling)', margin: { left: 52 } }));
    this.elboLegend = legend(right, []);
    this.big = bigReadouts(right, [['step', 'Adam steps'], ['elbo', `ELBO (last ${SMOOTH})`], ['gap', 'log Z − ELBO ≈ KL']]);
    this.table = tableReadout(right, 'Means and sds: VI, Laplace, grid');
    draggablePoint(this.plot, {
      get: () => this.startPoint,
      move: (point, final) => {
        this.startPoint = clampPoint(point, this.targets[this.target].bounds);
        this.reset(final);
      },
      step: () => keyStep(this.targets[this.target]),
      jump: false,
    });
    this.reset(true);
    this.start();
  }

  /** A fresh optimizer at the start; the Laplace approximation from Newton at the start. */
  reset(final = true) {
    this.guard(() => {
      const t = this.targets[this.target];
      const w = this.data.widgets;
      const sd = this.target === 'book' ? t.laplace.sd : [w.vi_two_mode_init_sd, w.vi_two_mode_init_sd];
      const options = { lr: this.lr, nSamples: this.samples };
      this.vi = this.family === 'full-rank'
        ? new FullRankVI(t.target, this.startPoint, [[sd[0], 0], [0, sd[1]]], options)
        : new MeanFieldVI(t.target, this.startPoint, sd.map(Math.log), options);
      this.rng = seededSource(this.seed);
      this.path = [[...this.vi.mean]];
      try {
        this.laplace = laplaceApproximation(t.target, this.startPoint, 60, 1e-12);
      } catch {
        this.laplace = null; // Newton from here does not reach a maximum
      }
      this.draw();
      this.showReadouts();
      if (final) this.changed();
    });
  }

  setRate(lr) {
    this.lr = lr;
    this.vi.setLearningRate(lr);
    this.changed();
  }

  setSamples(n) {
    this.samples = n;
    this.vi.nSamples = n;
    this.changed();
  }

  get steps() {
    return this.vi.elbo.length;
  }

  advance(n) {
    for (let s = 0; s < n; s += 1) {
      this.vi.step(this.rng);
      if (this.steps % 2 === 0) this.path.push([...this.vi.mean]);
    }
    if (this.path.length > 2000) this.path = this.path.filter((_, i) => i % 2 === 0);
  }

  tick(frames) {
    const n = Math.min(this.data.widgets.vi_steps_per_frame * frames, Math.max(0, this.maxSteps - this.steps));
    this.advance(n);
    if (this.steps >= this.maxSteps) {
      this.pause();
      this.say(`${this.maxSteps.toLocaleString('en')} Adam steps (the book’s run); Play continues.`);
    }
    this.draw();
    this.showReadouts();
  }

  smoothedElbo() {
    const e = this.vi.elbo;
    if (!e.length) return NaN;
    const recent = e.slice(-SMOOTH);
    return recent.reduce((a, b) => a + b, 0) / recent.length;
  }

  showReadouts() {
    if (!this.vi) return;
    const t = this.targets[this.target];
    const elbo = this.smoothedElbo();
    this.big.set('step', this.steps.toLocaleString('en'));
    this.big.set('elbo', fmt(elbo, 3));
    this.big.set('gap', fmt(t.grid.logZ - elbo, 3));
    const sd = this.vi.sd;
    const lap = this.laplace;
    const m = t.moments;
    const header = ['', this.family === 'full-rank' ? 'full-rank VI' : 'mean-field VI', 'Laplace', 'grid'];
    if (m) header.push('forward KL');
    const rows = [];
    for (const [stat, name] of [['mean', 'mean'], ['sd', 'sd']]) {
      [0, 1].forEach((a) => {
        const row = [`${name} θ${'₀₁'[a]}`, fmt(stat === 'mean' ? this.vi.mean[a] : sd[a], 3), lap ? fmt(lap[stat][a], 3) : '–', fmt(t.grid[stat][a], 3)];
        if (m) row.push(fmt(stat === 'mean' ? m.mean[a] : Math.sqrt(m.cov[a][a]), 3));
        rows.push(row);
      });
    }
    this.table.set(header, rows);
    if (!this.playing && this.steps < this.maxSteps) {
      this.say(t.moments
        ? 'Reverse KL (VI) settles in one mode; forward KL would cover both.'
        : 'ELBO ≤ log Z; the gap is KL(q ‖ p). Mean-field cannot tilt its ellipse.');
    }
  }

  invalidate() {
    this.plot.forget();
  }

  draw() {
    const p = this.plot;
    if (!p.width || !this.vi) return;
    const th = this.theme;
    const c = th.colors;
    const t = this.targets[this.target];
    paintTarget(p, t, th);
    p.clip();
    if (t.moments) p.ellipse(t.moments.mean, t.moments.cov, { color: c.laplace, width: 2, dash: [10, 4, 2, 4] });
    if (this.laplace) p.ellipse(this.laplace.mean, this.laplace.cov, { color: c.laplace, width: 2, dash: [6, 4] });
    p.polyline(this.path, { color: c.vi, width: 1.5, alpha: 0.6 });
    p.ellipse(this.vi.mean, this.vi.cov, { color: c.vi, width: 3 });
    p.marker(this.vi.mean[0], this.vi.mean[1], { shape: 'circle', size: 4, color: c.vi });
    p.marker(t.grid.mean[0], t.grid.mean[1], { shape: 'plus', size: 9, color: c.grid, width: 3 });
    p.restore();
    p.handle(this.startPoint[0], this.startPoint[1], c.vi, th);
    const entries = [[c.target, 'target; + grid mean'], [c.vi, `${this.family} VI 2-sd ellipse, path of its mean`], [c.laplace, 'Laplace 2-sd ellipse', true]];
    if (t.moments) entries.push([c.laplace, 'forward KL: moment-matched Gaussian', true]);
    this.legend.set(entries);
    this.drawElbo();
  }

  drawElbo() {
    const p = this.elboPlot;
    if (!p.width) return;
    const th = this.theme;
    const t = this.targets[this.target];
    const e = this.vi.elbo;
    const logZ = t.grid.logZ;
    const smooth = [];
    let total = 0;
    e.forEach((v, i) => {
      total += v;
      if (i >= SMOOTH) total -= e[i - SMOOTH];
      smooth.push(total / Math.min(i + 1, SMOOTH));
    });
    let lo = logZ - 2;
    for (let i = Math.floor(smooth.length / 10); i < smooth.length; i += 1) lo = Math.min(lo, smooth[i]);
    lo = Math.max(lo, logZ - 40);
    const hi = logZ + 0.15 * (logZ - lo);
    p.clear(th);
    p.setDomain([0, Math.max(e.length, 50)], [lo, hi]);
    p.axes(th, { xLabel: 'Adam step', yLabel: 'ELBO', xCount: 5, yCount: 4, gridLines: true });
    p.clip();
    const steps = e.map((_, i) => i + 1);
    p.line(steps, e, { color: th.colors.vi, width: 1, alpha: 0.35 });
    p.line(steps, smooth, { color: th.colors.vi, width: 2.5 });
    p.line(p.xDomain, [logZ, logZ], { color: th.colors.grid, width: 1.5, dash: [6, 4] });
    p.restore();
    this.elboLegend.set([[th.colors.vi, `ELBO per step and mean of the last ${SMOOTH}`], [th.colors.grid, 'log Z (grid): the ceiling', true]]);
  }

  play() {
    if (this.steps >= this.maxSteps) this.maxSteps = this.steps + this.data.lecture.vi_steps;
    super.play();
  }

  pause() {
    super.pause();
    this.showReadouts();
  }

  state() {
    return { target: this.target, family: this.family, lr: this.lr, samples: this.samples, start: this.startPoint, seed: this.seed };
  }

  set(params) {
    const w = this.data.widgets;
    if (params.target && params.target !== this.target) {
      if (!this.targets[params.target]) throw new Error(`unknown target "${params.target}"`);
      this.target = params.target;
      if (!params.start) this.startPoint = [...(params.target === 'book' ? w.vi_start : w.vi_two_mode_start)];
    }
    if (params.family) {
      if (!FAMILIES.some(([v]) => v === params.family)) throw new Error(`unknown family "${params.family}"`);
      this.family = params.family;
    }
    if (params.lr !== undefined) this.lr = Number(params.lr);
    if (params.samples !== undefined) this.samples = Math.round(Number(params.samples));
    if (params.seed !== undefined) this.seed = Number(params.seed);
    if (params.start) this.startPoint = params.start.map(Number);
    const c = this.controls;
    c.target.set(this.target);
    c.family.set(this.family);
    c.lr.set(this.lr);
    c.samples.set(this.samples);
    this.maxSteps = this.data.lecture.vi_steps;
    const wasPlaying = this.playing;
    this.reset(true);
    if (params.playing === true || (wasPlaying && params.playing !== false)) this.play();
    else if (this.playing) this.pause();
  }

  /** run(k): k Adam steps at once. */
  run(steps = 1) {
    this.advance(Math.max(0, Math.round(steps)));
    this.draw();
    this.showReadouts();
    this.changed();
  }

  readout() {
    if (!this.vi) return {};
    const t = this.targets[this.target];
    return {
      widget: this.name,
      target: this.target,
      family: this.family,
      lr: this.lr,
      samples: this.samples,
      start: this.startPoint,
      seed: this.seed,
      steps: this.steps,
      playing: this.playing,
      mean: this.vi.mean,
      sd: this.vi.sd,
      cov: this.vi.cov,
      elbo: this.smoothedElbo(),
      log_z: t.grid.logZ,
      laplace_mean: this.laplace ? this.laplace.mean : null,
      laplace_sd: this.laplace ? this.laplace.sd : null,
      grid_mean: t.grid.mean,
      grid_sd: t.grid.sd,
      forward_kl: t.moments ? { mean: t.moments.mean, sd: [0, 1].map((a) => Math.sqrt(t.moments.cov[a][a])) } : null,
    };
  }
}
