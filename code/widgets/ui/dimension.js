// Widget 5, the chapter on gradients and dimension: random-walk Metropolis and HMC on N(0, I_d)
// for d from 1 to 100, each tuned by the chapter's rule, four chains each from exact draws, on
// the same budget of evaluations. Readouts, with the chapter's production diagnostics:
// acceptance, rank-normalized R-hat and ESS per evaluation (the smaller of bulk and tail ESS, of
// x_1 and of the distance from the mode); the typical set as the histogram of the draws'
// distance from the mode against the exact chi_d density, with a radius you move: the exact share of the
// mass within it against the draws'.
import { HMCChain, MetropolisChain, rankSummaryJobs, chiCdf, chiDensity, chiMoments, densityHistogram, dimensionTuning, distanceFromMode, seededSource, standardGaussianTarget } from '../engine/index.js';
import { withPreset, widgetKey } from './base.js';
import { ChainsWidget, Series } from './chains.js';
import { bigReadouts, button, buttonRow, controlPanel, fmt, fmtPlusMinus, fmtRhat, legend, select, slider, tableReadout } from './controls.js';
import { Plot } from './plot.js';

const SAMPLERS = ['rwm', 'hmc'];
const NAMES = { rwm: 'random walk', hmc: 'HMC' };
const TUNINGS = [['chapter', 'rule for d'], ['d1', 'rule for d = 1']];
const TRACE = 300; // HMC iterations shown in the trace (the walk: as many evaluations)

export class Dimension extends ChainsWidget {
  constructor(root, data, options = {}) {
    super(root, data, {
      ...options,
      // The production diagnostics, as chapter 6 quotes them (4 parameters x 6 jobs, spread
      // over frames within a 4 ms budget).
      diagnostics: { jobsOf: rankSummaryJobs, budget: 4 },
      title: 'What each dimension costs: Metropolis and HMC on N(0, I_d), live',
      hint: 'Move d, then Play. Both samplers get the same number of evaluations. Drag on the histogram (or use the arrow keys) to move the radius.',
    });
    const s = data.dimension_data.settings;
    this.s = s;
    this.d = s.d;
    this.tuning = 'chapter';
    this.seed = s.first_seed;
    this.radius = null;
    const left = this.column();
    const right = this.column();
    this.chainPlot(new Plot(left, { aspect: 0.62, maxHeight: 320, deck: { aspect: 0.6, maxHeight: 230 }, focusable: true, label: 'Histograms of the draws’ distance from the mode, for each sampler, against the exact chi density with d degrees of freedom; a vertical line marks the radius. Click or drag, or use the arrow keys, to move the radius.' }));
    this.bindRadius();
    this.legend = legend(left, []);
    const panel = controlPanel(left);
    this.controls = {
      d: slider(panel, { name: 'd', label: 'dimension d', min: 0, max: s.d_values.length - 1, step: 1, value: this.stop(this.d), format: (v) => String(s.d_values[Math.round(v)]), onInput: (v) => this.set({ d: s.d_values[Math.round(v)] }) }),
      tuning: select(panel, { name: 'tuning', label: 'tuning', options: TUNINGS, value: this.tuning, onChange: (v) => this.set({ tuning: v }) }),
      preset: select(panel, { name: 'preset', label: 'preset', options: this.presetOptions(), value: '', onChange: (v) => v && this.set({ preset: v }) }),
    };
    const row = buttonRow(panel);
    this.playButton = button(row, { name: 'play', label: 'Play', toggle: true, onClick: () => (this.playing ? this.pause() : this.play()) });
    button(row, { name: 'step-once', label: 'Step', title: 'One HMC iteration of every chain, and as many evaluations of the walk', onClick: () => this.run(1) });
    button(row, { name: 'reset', label: 'Restart', title: 'Start the chains again from new exact draws', onClick: () => this.set({}) });
    button(row, { name: 'new-seed', label: 'New seed', onClick: () => this.set({ seed: this.seed + 10 }) });

    this.trace = this.addPlot(new Plot(right, { aspect: 0.42, maxHeight: 200, deck: { aspect: 0.4, maxHeight: 170 }, margin: { left: 56, right: 24 }, label: 'Trace of x₁ of the first chain of each sampler over the same number of evaluations.' }));
    this.rightLegend = legend(right, []);
    this.table = tableReadout(right, 'Each sampler: acceptance, ESS per evaluation, the mean distance from the mode');
    this.big = bigReadouts(right, [['within', 'share within the radius: draws / exact'], ['evaluations', 'evaluations per sampler']]);
    this.reset();
    this.start();
  }

  /** The d slider's stop nearest to d (on a log scale). */
  stop(d) {
    const distance = (v) => Math.abs(Math.log(v) - Math.log(d));
    return this.s.d_values.reduce((best, v, i) => (distance(v) < distance(this.s.d_values[best]) ? i : best), 0);
  }

  presetOptions() {
    const dims = this.s.preset_dims;
    return [['', 'choose…'], ...dims.map((d) => [`d${d}`, `d = ${d}`]), [`untuned${dims[dims.length - 1]}`, `d = ${dims[dims.length - 1]}, tuned for d = 1`]];
  }

  /** Each sampler's settings at this d: the chapter's rule, or the rule at d = 1. */
  settings() {
    const tuned = dimensionTuning(this.tuning === 'chapter' ? this.d : 1, { rwmScale: this.s.rwm_base_scale, pathLength: this.s.path_length });
    return tuned;
  }

  get runLength() {
    return this.s.iterations;
  }

  /** New chains at d from exact draws; all draws and diagnostics are dropped. */
  reset() {
    const target = standardGaussianTarget(this.d);
    const tuned = this.settings();
    this.tuned = tuned;
    this.chi = chiMoments(this.d);
    const starts = seededSource(this.seed);
    this.chains = {};
    this.x1 = {};
    this.r = {};
    SAMPLERS.forEach((kind, k) => {
      this.chains[kind] = Array.from({ length: this.s.n_chains }, (_, c) => {
        const start = Array.from({ length: this.d }, () => starts.normal());
        const rng = seededSource(this.seed + 1 + c + 100 * k);
        return kind === 'hmc'
          ? new HMCChain(target, start, { stepSize: tuned.stepSize, nLeapfrog: tuned.nLeapfrog, keepDraws: false }, rng)
          : new MetropolisChain(target, start, { scale: tuned.rwmScale, keepDraws: false }, rng);
      });
      this.x1[kind] = this.chains[kind].map(() => new Series());
      this.r[kind] = this.chains[kind].map(() => new Series());
    });
    this.forgetChains();
    this.refreshDiagnostics();
    this.draw();
    this.changed();
  }

  /** HMC iterations per chain so far (the walk has made nLeapfrog times as many steps). */
  get steps() {
    return this.x1.hmc[0].length;
  }

  /** k HMC iterations of every chain, and as many gradient evaluations' worth of walk steps. */
  advance(k) {
    const room = Math.max(0, Math.min(k, this.runLength * 20 - this.steps));
    SAMPLERS.forEach((kind) => {
      const n = kind === 'hmc' ? room : room * this.tuned.nLeapfrog;
      this.chains[kind].forEach((chain, c) => {
        for (let t = 0; t < n; t += 1) {
          chain.step();
          const x = chain.position || chain.current;
          this.x1[kind][c].push(x[0]);
          this.r[kind][c].push(distanceFromMode(x));
        }
      });
    });
    if (room < k) this.pause();
  }

  tick(frames) {
    this.advance(this.s.hmc_speed * frames);
    this.live.frame((steps) => this.kept(steps), this.steps);
    if (this.steps >= this.runLength && this.steps - this.s.hmc_speed * frames < this.runLength) {
      this.refreshDiagnostics();
      this.pause();
      this.say(`Ran ${this.runLength.toLocaleString('en')} HMC iterations per chain; Play continues.`);
    }
    this.draw();
  }

  /** Per sampler, its chains' draws of x_1 and of the distance r (all kept: exact starts). */
  kept(steps) {
    if (steps < 4) return null;
    return SAMPLERS.flatMap((kind) => {
      const n = kind === 'hmc' ? steps : steps * this.tuned.nLeapfrog;
      return [this.x1[kind].map((s) => s.view(0, n)), this.r[kind].map((s) => s.view(0, n))];
    });
  }

  finishDiagnostics(result, steps) {
    this.diagnostics = result && result.every(Boolean) ? { steps, params: result } : null;
    this.showReadouts();
  }

  refreshDiagnostics() {
    this.live.finished(this.live.atOnce(this.kept(this.steps)), this.steps);
  }

  /** Evaluations per chain: log densities (the walk) or gradients (HMC), the same for both. */
  evaluations(steps = this.steps) {
    return steps * this.tuned.nLeapfrog;
  }

  samplerReadout(kind, k) {
    const chains = this.chains[kind];
    const accept = chains.reduce((t, c) => t + c.acceptRate(), 0) / chains.length;
    const d = this.diagnostics;
    if (!d) return { accept, ess_x1: null, ess_r: null, ess_per_evaluation: null, mean_r: null, mcse_r: null };
    const [x1, r] = [d.params[2 * k], d.params[2 * k + 1]];
    const evaluations = this.evaluations(d.steps) * chains.length;
    // The ESS the chapter quotes: the smaller of bulk and tail, for the worse parameter.
    const [essX1, essR] = [Math.min(x1.essBulk, x1.essTail), Math.min(r.essBulk, r.essTail)];
    // Unlike the textbook ESS, which looks at each chain's autocorrelation alone, these see
    // chains that sit apart: chains stuck at their exact starts get about one draw each.
    return { accept, ess_x1: essX1, ess_r: essR, ess_per_evaluation: Math.min(essX1, essR) / evaluations,
      mean_r: r.mean, mcse_r: r.mcse, rhat: Math.max(x1.rhat, r.rhat) };
  }

  showReadouts() {
    const { rhat_max: rhatMax, error_mcse_max: errorMax } = this.data.widgets;
    // One column per sampler (two columns fit beside the histogram, on a slide too).
    const columns = SAMPLERS.map((kind, k) => {
      const q = this.samplerReadout(kind, k);
      const setting = kind === 'hmc' ? `h ${fmt(this.tuned.stepSize, 2)}, L ${this.tuned.nLeapfrog}` : `scale ${fmt(this.tuned.rwmScale, 2)}`;
      if (q.ess_per_evaluation === null) return [setting, fmt(q.accept, 2), '–', '–', '–'];
      const z = (q.mean_r - this.chi.mean) / q.mcse_r;
      return [setting, fmt(q.accept, 2), [fmtRhat(q.rhat), q.rhat < rhatMax ? 'bcw-good' : 'bcw-warn'],
        fmt(q.ess_per_evaluation, 4), [fmtPlusMinus(q.mean_r, 2 * q.mcse_r), Math.abs(z) <= errorMax ? 'bcw-good' : 'bcw-warn']];
    });
    const names = ['tuning', 'acceptance', 'R-hat', 'ESS / evaluation', `mean |x| (exact ${fmt(this.chi.mean, 2)})`];
    this.table.set(['', ...SAMPLERS.map((kind) => NAMES[kind])], names.map((name, i) => [name, ...columns.map((col) => col[i])]));
    const within = this.within();
    this.big.set('within', `${within.draws === null ? '–' : fmt(within.draws, 3)} / ${fmt(within.exact, 3)}`);
    this.big.set('evaluations', this.evaluations().toLocaleString('en'));
    // One short line (on a slide the status holds one line of 20 px text).
    const note = this.tuning === 'chapter' ? 'chapter’s rule' : 'rule for d = 1';
    this.say(`d = ${this.d}, ${note}: ${this.steps.toLocaleString('en')} HMC iterations, ${(this.steps * this.tuned.nLeapfrog).toLocaleString('en')} walk steps.`);
  }

  // --- the radius ------------------------------------------------------------------------------

  xDomain() {
    const { mean } = chiMoments(this.d);
    return [0, Math.ceil(mean + 3.5)];
  }

  /** The radius shown: the one set, else the exact mean distance (the shell). */
  radiusShown() {
    return this.radius ?? Math.round(this.chi.mean * 100) / 100;
  }

  /** Share of the draws, and of the exact chi_d, within the radius. */
  within() {
    const r = this.radiusShown();
    let inside = 0;
    let total = 0;
    for (const kind of SAMPLERS) {
      for (const s of this.r[kind]) {
        for (const v of s.view()) inside += v <= r ? 1 : 0;
        total += s.length;
      }
    }
    return { radius: r, exact: chiCdf(r, this.d), draws: total ? inside / total : null };
  }

  bindRadius() {
    const p = this.plot;
    let dragging = false;
    p.canvas.addEventListener('pointerdown', (event) => {
      dragging = true;
      p.canvas.setPointerCapture(event.pointerId);
      this.set({ radius: p.pointer(event).value[0], keep: true });
    });
    p.canvas.addEventListener('pointermove', (event) => {
      if (dragging) this.set({ radius: p.pointer(event).value[0], keep: true });
    });
    const release = () => {
      dragging = false;
    };
    p.canvas.addEventListener('pointerup', release);
    p.canvas.addEventListener('pointercancel', release);
    p.canvas.addEventListener('keydown', (event) => {
      const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1 };
      if (!(event.key in moves) || !widgetKey(event)) return;
      event.preventDefault();
      const [lo, hi] = this.xDomain();
      this.set({ radius: this.radiusShown() + moves[event.key] * ((hi - lo) / 100) * (event.shiftKey ? 5 : 1), keep: true });
    });
  }

  // --- drawing -------------------------------------------------------------------------------

  colors() {
    return { rwm: this.theme.colors.mcmc, hmc: this.theme.palette.green };
  }

  draw() {
    const p = this.plot;
    if (!p.width || !this.chains) return;
    const th = this.theme;
    const colors = this.colors();
    const [lo, hi] = this.xDomain();
    const bins = this.s.histogram_bins;
    const hists = this.throttledHistogram(`${this.d}:${this.seed}:${this.tuning}`, () => SAMPLERS.map((kind) => {
      const all = new Float64Array(this.r[kind].reduce((n, s) => n + s.length, 0));
      let at = 0;
      for (const s of this.r[kind]) {
        all.set(s.view(), at);
        at += s.length;
      }
      return densityHistogram(all, lo, hi, bins);
    }));
    if (!this.exactCurve || this.exactCurve.d !== this.d) {
      const xs = Array.from({ length: 241 }, (_, i) => lo + ((hi - lo) * i) / 240);
      this.exactCurve = { d: this.d, xs, density: xs.map((r) => chiDensity(r, this.d)) };
    }
    const { xs, density: exact } = this.exactCurve;
    const top = Math.max(Math.max(...exact), ...hists.map((h) => Math.max(...h.density))) * 1.08;
    p.clear(th);
    p.setDomain([lo, hi], [0, top]);
    p.axes(th, { xLabel: 'distance from the mode, |x|', yLabel: 'density', xCount: 6, yCount: 3 });
    p.clip();
    hists.forEach((h, k) => {
      const ctx = p.ctx;
      ctx.save();
      ctx.strokeStyle = colors[SAMPLERS[k]];
      ctx.lineWidth = 2;
      ctx.beginPath();
      h.density.forEach((v, b) => {
        const x0 = p.x(lo + b * h.width);
        const x1 = p.x(lo + (b + 1) * h.width);
        if (b === 0) ctx.moveTo(x0, p.y(0));
        ctx.lineTo(x0, p.y(v));
        ctx.lineTo(x1, p.y(v));
      });
      ctx.lineTo(p.x(hi), p.y(0));
      ctx.stroke();
      ctx.restore();
    });
    p.line(xs, exact, { color: th.colors.grid, width: 2.5 });
    const r = this.radiusShown();
    p.line([r, r], [0, top], { color: th.palette.vermillion, width: 2, dash: [6, 4] });
    p.restore();
    this.legend.set([[th.colors.grid, `exact χ with d = ${this.d}`], [colors.rwm, 'random walk'], [colors.hmc, 'HMC'], [th.palette.vermillion, 'radius', true]]);
    this.drawTrace();
  }

  /** x_1 of each sampler's first chain over the last TRACE HMC iterations' evaluations. */
  drawTrace() {
    const p = this.trace;
    if (!p.width) return;
    const th = this.theme;
    const colors = this.colors();
    const L = this.tuned.nLeapfrog;
    const end = this.evaluations();
    const start = Math.max(0, end - TRACE * L);
    p.clear(th);
    p.setDomain([start, Math.max(start + TRACE * L, end)], [-3.5, 3.5]);
    p.axes(th, { xLabel: 'evaluations', yLabel: 'x₁', xCount: 4, yCount: 3 });
    p.clip();
    for (const kind of SAMPLERS) {
      const s = this.x1[kind][0];
      const per = kind === 'hmc' ? L : 1; // evaluations per draw
      const from = Math.floor(start / per);
      const xs = [];
      const ys = [];
      for (let t = from; t < s.length; t += 1) {
        xs.push((t + 1) * per);
        ys.push(s.values[t]);
      }
      p.line(xs, ys, { color: colors[kind], width: 1.5 });
    }
    p.restore();
    this.rightLegend.set([[colors.rwm, 'random walk, chain 1'], [colors.hmc, 'HMC, chain 1']]);
  }

  // --- the hook ------------------------------------------------------------------------------

  pause() {
    super.pause();
    this.refreshDiagnostics();
    this.draw();
  }

  state() {
    return { d: this.d, tuning: this.tuning, seed: this.seed, radius: this.radius };
  }

  set(params) {
    const s = this.s;
    const dims = s.preset_dims;
    const presets = Object.fromEntries(dims.map((d) => [`d${d}`, { d, tuning: 'chapter' }]));
    presets[`untuned${dims[dims.length - 1]}`] = { d: dims[dims.length - 1], tuning: 'd1' };
    const next = withPreset(presets, params);
    const before = { d: this.d, tuning: this.tuning, seed: this.seed };
    const [low, high] = [s.d_values[0], s.d_values[s.d_values.length - 1]];
    if (next.d !== undefined) this.d = Math.min(high, Math.max(low, Math.round(Number(next.d))));
    if (next.tuning !== undefined) {
      if (!TUNINGS.some(([v]) => v === next.tuning)) throw new Error(`unknown tuning "${next.tuning}"`);
      this.tuning = next.tuning;
    }
    if (next.seed !== undefined) this.seed = Number(next.seed);
    if (next.d !== undefined && next.d !== before.d && next.radius === undefined) this.radius = null;
    if (next.radius !== undefined) {
      const [lo, hi] = this.xDomain();
      this.radius = next.radius === null ? null : Math.min(hi, Math.max(lo, Number(next.radius)));
    }
    const c = this.controls;
    c.d.set(this.stop(this.d));
    c.tuning.set(this.tuning);
    if (!params.preset) c.preset.set('');
    // Moving the radius keeps the chains; anything else starts them again.
    if (next.keep) {
      this.showReadouts();
      this.draw();
      this.changed();
      return;
    }
    this.timedUpdate(true, () => this.restart(next));
  }

  run(steps = 1) {
    this.advance(Math.max(0, Math.round(steps)));
    this.refreshDiagnostics();
    this.draw();
    this.changed();
  }

  readout() {
    const per = Object.fromEntries(SAMPLERS.map((kind, k) => [kind, this.samplerReadout(kind, k)]));
    const within = this.within();
    return {
      widget: this.name,
      d: this.d,
      tuning: this.tuning,
      seed: this.seed,
      steps: this.steps,
      evaluations: this.evaluations(),
      playing: this.playing,
      step_size: this.tuned.stepSize,
      n_leapfrog: this.tuned.nLeapfrog,
      rwm_scale: this.tuned.rwmScale,
      chi_mean: this.chi.mean,
      chi_variance: this.chi.variance,
      radius: within.radius,
      within_exact: within.exact,
      within_draws: within.draws,
      rwm: per.rwm,
      hmc: per.hmc,
      update_ms: this.updateMs ?? null,
    };
  }
}
