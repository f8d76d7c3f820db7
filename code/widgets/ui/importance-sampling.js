// Widget 2, the importance-sampling chapter: drag the proposal's centre; set its scale per
// axis, its family and the number of draws. Each draw is a disc whose area is its weight.
// The same seed is kept while dragging, so the cloud moves smoothly with the proposal.
import {
  defensiveMixture, gaussianProposal, importanceSample, kHatThreshold, paretoSmoothedLogWeights, seededSource,
  studentTProposal,
} from '../engine/index.js';
import { Widget, clampPoint, draggablePoint } from './base.js';
import { bigReadouts, buttonRow, button, controlPanel, fmt, legend, select, slider, tableReadout } from './controls.js';
import { Plot } from './plot.js';
import { TARGET_OPTIONS, keyStep, paintTarget, targets } from './targets.js';

const FAMILIES = [['gaussian', 'Gaussian'], ['student-t', 'Student-t'], ['defensive', 'defensive']];
const PRESETS = [
  ['', 'choose…'],
  ['laplace', 'Laplace-sized'],
  ['prior', 'the prior'],
  ['two-modes-narrow', 'two modes: narrow'],
  ['two-modes-covering', 'two modes: covering'],
];

export class ImportanceSampling extends Widget {
  constructor(root, data, options = {}) {
    super(root, data, {
      ...options,
      title: 'Importance sampling: move the proposal',
      hint: 'Drag the proposal’s centre (or focus the plot and use the arrow keys). Disc area = weight.',
    });
    const w = data.widgets;
    this.targets = targets(data);
    this.firstSeed = 1;
    this.status.classList.add('bcw-status-2'); // its warnings (k-hat, ESS) follow the run's line
    this.seed = this.firstSeed;
    this.applyPreset('laplace', false);

    const left = this.column();
    const right = this.column();
    this.plot = this.addPlot(new Plot(left, { aspect: 0.8, maxHeight: 440, focusable: true, label: 'The target’s contours, the proposal’s 2-sd ellipse and the weighted draws. Focus and use the arrow keys to move the proposal.' }));
    this.legend = legend(left, []);
    this.big = bigReadouts(right, [['ess', 'weight ESS'], ['fraction', 'ESS / draws'], ['max', 'largest weight'], ['khat', 'Pareto k̂']]);
    this.table = tableReadout(right, 'Estimated mean against the grid mean');
    const panel = controlPanel(right);
    this.controls = {
      target: select(panel, { name: 'target', label: 'target', options: TARGET_OPTIONS, value: this.target, onChange: (v) => this.set({ target: v }) }),
      family: select(panel, { name: 'family', label: 'proposal', options: FAMILIES, value: this.family, onChange: (v) => this.set({ family: v }) }),
      s0: slider(panel, { name: 'scale0', label: 'scale θ₀', min: w.is_scale_range[0], max: w.is_scale_range[1], value: this.scale[0], log: true, format: (v) => fmt(v, 2), onInput: (v) => this.update({ scale: [v, this.scale[1]] }, false), onChange: () => this.changed() }),
      s1: slider(panel, { name: 'scale1', label: 'scale θ₁', min: w.is_scale_range[0], max: w.is_scale_range[1], value: this.scale[1], log: true, format: (v) => fmt(v, 2), onInput: (v) => this.update({ scale: [this.scale[0], v] }, false), onChange: () => this.changed() }),
      draws: slider(panel, { name: 'draws', label: 'draws', min: w.is_draws_range[0], max: w.is_draws_range[1], value: this.draws, log: true, steps: 100, format: (v) => String(Math.round(v)), onInput: (v) => this.update({ draws: Math.round(v) }, false), onChange: () => this.changed() }),
      preset: select(panel, { name: 'preset', label: 'preset', options: PRESETS, value: '', onChange: (v) => v && this.set({ preset: v }) }),
    };
    const row = buttonRow(panel);
    button(row, { name: 'new-seed', label: 'New draws (new seed)', onClick: () => this.set({ seed: this.seed + 1 }) });
    draggablePoint(this.plot, {
      get: () => this.centre,
      move: (point, final) => {
        this.update({ centre: clampPoint(point, this.targets[this.target].bounds) }, false);
        if (final) this.changed();
      },
      step: () => keyStep(this.targets[this.target]),
    });
    this.update({}, true);
    this.start();
  }

  applyPreset(name, recompute = true) {
    const w = this.data.widgets;
    const book = this.targets.book;
    const presets = {
      laplace: { target: 'book', family: 'gaussian', centre: book.laplace.mean, scale: book.laplace.sd, draws: w.is_draws },
      prior: { target: 'book', family: 'gaussian', centre: [0, 0], scale: [Math.sqrt(this.data.lecture.prior_var), Math.sqrt(this.data.lecture.prior_var)], draws: this.data.lecture.is_prior_draws },
      'two-modes-narrow': { target: 'two-modes', family: 'gaussian', centre: w.is_narrow_centre, scale: w.is_narrow_scale, draws: w.is_draws },
      'two-modes-covering': { target: 'two-modes', family: 'gaussian', centre: [0, 0], scale: w.is_covering_scale, draws: w.is_draws },
    };
    const preset = presets[name];
    if (!preset) throw new Error(`unknown preset "${name}"; known: ${Object.keys(presets).join(', ')}`);
    // A preset also restores the first seed: it shows what the chapter and the notes describe,
    // whatever draws came before.
    Object.assign(this, { target: preset.target, family: preset.family, centre: [...preset.centre], scale: [...preset.scale], draws: preset.draws, seed: this.firstSeed });
    if (recompute) this.update({}, true);
  }

  proposal() {
    const cov = [[this.scale[0] ** 2, 0], [0, this.scale[1] ** 2]];
    const main = gaussianProposal(this.centre, cov);
    if (this.family === 'student-t') return studentTProposal(this.centre, cov, this.data.widgets.t_df);
    if (this.family === 'defensive') return defensiveMixture(main, this.targets[this.target].fallback, this.data.widgets.fallback_weight);
    if (this.family !== 'gaussian') throw new Error(`unknown proposal family "${this.family}"`);
    return main;
  }

  update(next, final) {
    this.timedUpdate(final, () => {
      Object.assign(this, next);
      const t = this.targets[this.target];
      const result = importanceSample(t.logDensity, this.proposal(), this.draws, seededSource(this.seed));
      const psis = paretoSmoothedLogWeights(result.logWeights);
      this.result = { ...result, khat: psis.k, kHatMax: kHatThreshold(result.n, this.data.widgets.k_hat_max) };
      this.syncControls();
      this.draw();
      this.showReadouts();
    });
  }

  syncControls() {
    const c = this.controls;
    c.target.set(this.target);
    c.family.set(this.family);
    c.s0.set(this.scale[0]);
    c.s1.set(this.scale[1]);
    c.draws.set(this.draws);
  }

  errors() {
    const truth = this.targets[this.target].grid.mean;
    return this.result.mean.map((m, a) => (m - truth[a]) / this.result.mcse[a]);
  }

  showReadouts() {
    const r = this.result;
    const k = r.khat;
    const { error_mcse_max: errorMax, high_ess_fraction: highEss } = this.data.widgets;
    const kHatMax = r.kHatMax; // the bound for this many draws: 0.5 at 100, the cap 0.7 from about 2,200
    this.big.set('ess', `${fmt(r.ess, 1)}`);
    this.big.set('fraction', `${fmt((100 * r.ess) / r.n, 1)}%`);
    this.big.set('max', fmt(r.maxWeight, 4));
    this.big.set('khat', fmt(k, 2), k < kHatMax ? 'bcw-good' : 'bcw-warn');
    const truth = this.targets[this.target].grid.mean;
    const z = this.errors();
    this.table.set(['', 'estimate', 'MCSE', 'grid mean', 'error / MCSE'], [0, 1].map((a) => [
      `θ${'₀₁'[a]}`, fmt(r.mean[a], 3), fmt(r.mcse[a], 3), fmt(truth[a], 3), [fmt(z[a], 1), Math.abs(z[a]) > errorMax ? 'bcw-warn' : 'bcw-good'],
    ]));
    const off = Math.max(...z.map(Math.abs));
    this.say(`${r.n} draws from a ${this.family.replace('-', ' ')} proposal at (${fmt(this.centre[0], 2)}, ${fmt(this.centre[1], 2)}), seed ${this.seed}. `
      + (off > errorMax && r.ess > highEss * r.n ? 'High ESS, yet the estimate is many MCSEs off: the proposal misses mass it never sees.'
        : k >= kHatMax ? `k̂ ≥ ${fmt(kHatMax, 2)}, the bound for ${r.n} draws: the weights’ tail is too heavy to trust the estimate.` : ''));
  }

  invalidate() {
    this.plot.forget();
  }

  draw() {
    if (!this.result || !this.plot.width) return;
    const th = this.theme;
    const c = th.colors;
    const t = this.targets[this.target];
    const p = this.plot;
    paintTarget(p, t, th);
    const r = this.result;
    p.clip();
    const { ctx } = p;
    ctx.save();
    ctx.fillStyle = c.importance;
    const rMax = Math.max(6, p.width / 55);
    const small = r.n > 5000 ? 0.8 : 1.2;
    for (let s = 0; s < r.n; s += 1) {
      const px = p.x(r.draws[2 * s]);
      const py = p.y(r.draws[2 * s + 1]);
      const radius = rMax * Math.sqrt(r.weights[s] / r.maxWeight);
      ctx.globalAlpha = 0.25;
      ctx.fillRect(px - small / 2, py - small / 2, small, small);
      if (radius > 0.6) {
        ctx.globalAlpha = 0.55;
        ctx.beginPath();
        ctx.arc(px, py, radius, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();
    // A defensive mixture has no one covariance: draw its main part's, and the fallback's below.
    const prop = this.proposal();
    p.ellipse(this.centre, (prop.main || prop).cov, { color: c.proposal, width: 2.5, dash: [8, 5] });
    if (this.family === 'defensive') p.ellipse(t.fallback.mean, t.fallback.cov, { color: c.proposal, width: 1.5, dash: [2, 4] });
    p.marker(t.grid.mean[0], t.grid.mean[1], { shape: 'plus', size: 9, color: c.grid, width: 3 });
    p.marker(r.mean[0], r.mean[1], { shape: 'cross', size: 7, color: c.importance, width: 3 });
    p.restore();
    p.handle(this.centre[0], this.centre[1], c.proposal, th);
    this.legend.set([
      [c.target, 'target contours; + grid mean'],
      [c.proposal, this.family === 'student-t' ? 'proposal (scale 2-sd ellipse)' : 'proposal 2-sd ellipse', true],
      [c.importance, 'draws (area ∝ weight); × estimate'],
    ]);
  }

  state() {
    return { target: this.target, family: this.family, centre: this.centre, scale: this.scale, draws: this.draws, seed: this.seed };
  }

  set(params) {
    if (params.preset) this.applyPreset(params.preset, false);
    else if (params.target && params.target !== this.target && !params.centre) {
      // A new target starts from a sensible proposal for it.
      this.applyPreset(params.target === 'book' ? 'laplace' : 'two-modes-narrow', false);
    }
    const next = {};
    if (params.target) {
      if (!this.targets[params.target]) throw new Error(`unknown target "${params.target}"`);
      next.target = params.target;
    }
    if (params.family) next.family = params.family;
    if (params.centre) next.centre = params.centre.map(Number);
    if (params.scale) next.scale = params.scale.map(Number);
    if (params.draws) next.draws = Math.round(Number(params.draws));
    if (params.seed !== undefined) next.seed = Number(params.seed);
    if (this.controls && !params.preset) this.controls.preset.set('');
    this.update(next, true);
  }

  /** run(k): k fresh sets of draws, each with the next seed. */
  run(steps = 1) {
    this.update({ seed: this.seed + Math.max(1, steps) }, true);
  }

  readout() {
    const r = this.result;
    if (!r) return {};
    return {
      widget: this.name,
      target: this.target,
      family: this.family,
      centre: this.centre,
      scale: this.scale,
      draws: r.n,
      seed: this.seed,
      ess: r.ess,
      ess_fraction: r.ess / r.n,
      max_weight: r.maxWeight,
      khat: r.khat,
      k_hat_max: r.kHatMax,
      mean: r.mean,
      mcse: r.mcse,
      grid_mean: this.targets[this.target].grid.mean,
      error_in_mcse: this.errors(),
      update_ms: this.updateMs,
    };
  }
}
