// Widget 6, the hierarchical chapter: HMC and random-walk Metropolis on the eight schools, in
// the centred or the non-centred form. The draws are shown as theta_1 against log tau over the
// exact funnel, with the exact marginal of log tau beside it; divergent transitions are marked
// where their trajectories started. The readouts audit E[log tau] and P(tau < 1) against the
// exact reference (the package's 1-D quadrature), with the chapter's rank-normalized R-hat, bulk
// and tail ESS (Vehtari et al., 2021) and the share of divergent transitions after warm-up.
// Defaults and presets are chapter 7's runs.
import { HMCChain, MetropolisChain, densityHistogram, funnelDensityGrid, hierarchicalTarget, rankSummaryJobs, seededSource } from '../engine/index.js';
import { clampPoint, withPreset } from './base.js';
import { ChainsWidget, Series } from './chains.js';
import { bigReadouts, button, buttonRow, controlPanel, fmt, legend, select, slider, tableReadout } from './controls.js';
import { Plot } from './plot.js';

const PRESETS = [
  ['', 'choose…'],
  ['centred-neck', 'centred: divergences in the neck'],
  ['non-centred', 'non-centred: the fix'],
  ['big-step', 'a step size too large'],
];
const SAMPLERS = [['hmc', 'HMC'], ['random-walk', 'random-walk Metropolis']];
const FORMS = [['centred', 'centred'], ['non-centred', 'non-centred']];
const LEVELS = Array.from({ length: 6 }, (_, k) => Math.exp(-(8 - (7.5 * k) / 5))); // the chapter's
const THETA_NODES = 121;

export class Funnel extends ChainsWidget {
  constructor(root, data, options = {}) {
    super(root, data, {
      ...options,
      // 2 parameters x 6 jobs, as many per frame as fit in 4 ms: HMC's short runs refresh in a
      // frame or two, the random walk's long ones a job per frame.
      diagnostics: { jobsOf: rankSummaryJobs, budget: 4 },
      title: 'The funnel: HMC and Metropolis on eight schools, live',
      hint: 'Choose a sampler and a form, then Play. × marks where a divergent trajectory started. Click the plot to move a chain’s start (keyboard: arrows, Enter).',
    });
    const f = data.funnel_data;
    const s = f.settings;
    this.f = f;
    this.s = s;
    this.sampler = 'hmc';
    this.form = 'centred';
    this.stepSize = s.hmc_step;
    this.nLeapfrog = s.hmc_leapfrog;
    this.scale = s.rwm_scale;
    this.seed = s.first_seed;
    this.starts = f.starts.centred.map((p) => [p[2], p[1]]); // (theta_1, log tau) of each chain
    this.targets = {
      centred: hierarchicalTarget(this.schools(), 'centred'),
      'non-centred': hierarchicalTarget(this.schools(), 'non-centred'),
    };
    this.box = [s.theta_range, s.log_tau_range];
    this.body.classList.add('bcw-funnel');

    const left = this.column();
    const right = this.column();
    const pair = document.createElement('div');
    pair.className = 'bcw-pair';
    left.appendChild(pair);
    const main = document.createElement('div');
    const side = document.createElement('div');
    pair.append(main, side);
    this.chainPlot(new Plot(main, { aspect: 1.05, maxHeight: 430, deck: { aspect: 1.1, maxHeight: 340 }, focusable: true, label: 'Draws of θ₁ against log τ over the exact posterior’s contours; crosses mark where divergent trajectories started. Click to move a chain’s start; with the keyboard, move the cursor with the arrow keys and press Enter.' }), {
      box: () => this.box,
      origin: () => [this.f.reference.mean_theta1, this.f.reference.mean_log_tau],
      place: (point) => this.placeStart(point),
    });
    this.side = this.addPlot(new Plot(side, { aspect: 1.05 * 2.2, maxHeight: 430, deck: { aspect: 1.1 * 2.2, maxHeight: 340 }, margin: { left: 8, right: 8 }, label: 'The exact marginal density of log τ, and a histogram of the kept draws of log τ, on the same log τ axis as the plot beside it.' }));
    this.legend = legend(left, []);

    const panel = controlPanel(right);
    this.controls = {
      sampler: select(panel, { name: 'sampler', label: 'sampler', options: SAMPLERS, value: this.sampler, onChange: (v) => this.set({ sampler: v }) }),
      form: select(panel, { name: 'form', label: 'form', options: FORMS, value: this.form, onChange: (v) => this.set({ form: v }) }),
      step: slider(panel, { name: 'step', label: 'HMC step size', min: s.hmc_step_range[0], max: s.hmc_step_range[1], value: this.stepSize, log: true, steps: 200, format: (v) => fmt(v, 3), onInput: (v) => this.set({ step: v }) }),
      leapfrog: slider(panel, { name: 'leapfrog', label: 'leapfrog steps', min: s.hmc_leapfrog_range[0], max: s.hmc_leapfrog_range[1], value: this.nLeapfrog, step: 1, format: (v) => String(Math.round(v)), onInput: (v) => this.set({ leapfrog: v }) }),
      scale: slider(panel, { name: 'scale', label: 'Metropolis scale', min: s.rwm_scale_range[0], max: s.rwm_scale_range[1], value: this.scale, log: true, steps: 200, format: (v) => `${fmt(v, 2)} ×`, onInput: (v) => this.set({ scale: v }) }),
      preset: select(panel, { name: 'preset', label: 'preset', options: PRESETS, value: '', onChange: (v) => v && this.set({ preset: v }) }),
    };
    this.greySamplerSettings();
    const row = buttonRow(panel);
    this.playButton = button(row, { name: 'play', label: 'Play', toggle: true, onClick: () => (this.playing ? this.pause() : this.play()) });
    button(row, { name: 'step-once', label: 'Step', title: 'One iteration of every chain', onClick: () => this.run(1) });
    button(row, { name: 'reset', label: 'Restart', title: 'Start the chains again from their starts', onClick: () => this.set({}) });
    button(row, { name: 'exact-starts', label: 'Exact starts', title: 'Start from the chapter’s four exact draws', onClick: () => this.set({ starts: null }) });
    button(row, { name: 'new-seed', label: 'New seed', onClick: () => this.set({ seed: this.seed + 10 }) });

    // On a slide, under the legend, where the plots leave room: the audit table then fits beside them.
    this.big = bigReadouts(this.deck ? left : right, [['iterations', 'iterations'], ['accept', 'acceptance'], ['divergent', 'divergent, kept']]);
    this.table = tableReadout(right, 'The audit against the exact posterior');
    this.reset();
    this.start();
  }

  schools() {
    const d = this.f.data;
    return { y: d.y, sigma: d.sigma, muPriorSd: d.mu_prior_sd, tauPriorScale: d.tau_prior_scale };
  }

  get runLength() {
    return this.sampler === 'hmc' ? this.s.hmc_iterations : this.s.rwm_iterations;
  }

  get warmupFraction() {
    return this.sampler === 'hmc' ? this.s.hmc_warmup / this.s.hmc_iterations : this.s.rwm_warmup / this.s.rwm_iterations;
  }

  get speed() {
    return this.sampler === 'hmc' ? this.s.hmc_speed : this.s.rwm_speed;
  }

  /** Chain c's start in the form sampled: the chapter's exact draw with (theta_1, log tau) set. */
  startPoint(c) {
    const point = [...this.f.starts.centred[c]];
    [point[2], point[1]] = this.starts[c];
    if (this.form === 'centred') return point;
    const tau = Math.exp(point[1]);
    return [point[0], point[1], ...point.slice(2).map((theta) => Math.round(((theta - point[0]) / tau) * 1e4) / 1e4)];
  }

  /** (theta_1, log tau) of a point of the form sampled. */
  shown(point) {
    return [this.form === 'centred' ? point[2] : point[0] + Math.exp(point[1]) * point[2], point[1]];
  }

  /** New chains from the starts; all draws and diagnostics are dropped. */
  reset() {
    const target = this.targets[this.form];
    const sd = this.f.sd[this.form];
    const mass = sd.map((v) => 1 / (v * v));
    const walkScale = sd.map((v) => ((this.s.rwm_base_scale / Math.sqrt(target.dim)) * v) * this.scale);
    this.chains = this.starts.map((_, c) => {
      const rng = seededSource(this.seed + c);
      return this.sampler === 'hmc'
        ? new HMCChain(target, this.startPoint(c), { stepSize: this.stepSize, nLeapfrog: this.nLeapfrog, mass, keepDraws: false }, rng)
        : new MetropolisChain(target, this.startPoint(c), { scale: walkScale, keepDraws: false }, rng);
    });
    this.logTau = this.chains.map(() => new Series());
    this.theta = this.chains.map(() => new Series());
    this.divergentFlags = this.chains.map(() => new Series());
    this.divergentStarts = [];
    this.paths = this.chains.map(() => null);
    this.forgetChains();
    this.refreshDiagnostics();
    this.draw();
    this.changed();
  }

  get steps() {
    return this.logTau.length ? this.logTau[0].length : 0;
  }

  /** Advance every chain n iterations, recording (theta_1, log tau) and divergences. */
  advance(n) {
    const room = Math.max(0, Math.min(n, this.runLength * 10 - this.steps));
    this.chains.forEach((chain, c) => {
      for (let t = 0; t < room; t += 1) {
        chain.step();
        const here = chain.position || chain.current;
        const [theta, logTau] = this.shown(here);
        this.theta[c].push(theta);
        this.logTau[c].push(logTau);
        if (chain.lastPath) {
          const divergent = chain.lastPath.divergent;
          this.divergentFlags[c].push(divergent ? 1 : 0);
          if (divergent) this.divergentStarts.push(this.shown(chain.lastPath.start));
          if (t === room - 1) this.paths[c] = chain.lastPath;
        }
      }
    });
    if (room < n) this.pause();
  }

  tick(frames) {
    this.advance(this.speed * frames);
    this.live.frame((steps) => this.keptSeries(steps), this.steps);
    const length = this.runLength;
    if (this.steps >= length && this.steps - this.speed * frames < length) {
      this.refreshDiagnostics();
      this.pause();
      this.say(`Ran ${length.toLocaleString('en')} iterations per chain (the chapter’s run); Play continues.`);
    }
    this.draw();
  }

  /** The kept draws (after warm-up) of log tau and of the indicator of tau < 1, or null. */
  keptSeries(steps) {
    const warm = Math.floor(steps * this.warmupFraction);
    if (steps - warm < 4 || !this.chains.length) return null;
    const logTau = this.logTau.map((s) => s.view(warm, steps));
    const below = logTau.map((s) => Float64Array.from(s, (v) => (v < 0 ? 1 : 0)));
    return [logTau, below];
  }

  finishDiagnostics(perParam, steps) {
    this.diagnostics = perParam && perParam[0] ? { steps, params: perParam } : null;
    this.showReadouts();
  }

  refreshDiagnostics() {
    this.finishDiagnostics(this.live.atOnce(this.keptSeries(this.steps)), this.steps);
  }

  /** Share of kept iterations that diverged (HMC), and their number. */
  divergence() {
    if (this.sampler !== 'hmc' || !this.steps) return { share: null, count: 0, all: 0 };
    const warm = Math.floor(this.steps * this.warmupFraction);
    let count = 0;
    for (const flags of this.divergentFlags) for (const v of flags.view(warm)) count += v;
    const kept = (this.steps - warm) * this.chains.length;
    return { share: kept ? count / kept : null, count, all: this.divergentStarts.length };
  }

  acceptRate() {
    if (!this.chains.length || !this.steps) return null;
    return this.chains.reduce((t, c) => t + c.acceptRate(), 0) / this.chains.length;
  }

  showReadouts() {
    const ref = this.f.reference;
    const d = this.diagnostics;
    const { error_mcse_max: errorMax } = this.data.widgets;
    const div = this.divergence();
    this.big.set('iterations', this.steps.toLocaleString('en'));
    const accept = this.acceptRate();
    this.big.set('accept', accept === null ? '–' : fmt(accept, 2));
    this.big.set('divergent', div.share === null ? '–' : `${fmt(100 * div.share, 1)} % (${div.count})`,
      div.share ? 'bcw-warn' : (div.share === 0 ? 'bcw-good' : ''));
    const exact = [ref.mean_log_tau, ref.prob_tau_below_1];
    // One column per audited quantity, every cell one short number: two columns fit beside the
    // plot, on a slide too (an "estimate ± 2 MCSE" cell made the second column run off it).
    const cells = [0, 1].map((a) => {
      const p = d && d.params[a];
      if (!p) return ['–', '–', '–', '–', '–', fmt(exact[a], 3), '–'];
      const mcse = this.mcse(p);
      const z = (p.mean - exact[a]) / mcse;
      return [...this.convergenceCells(p), fmt(p.mean, 3), fmt(2 * mcse, 3), fmt(exact[a], 3),
        [fmt(z, 1), Number.isNaN(z) ? '' : (Math.abs(z) <= errorMax ? 'bcw-good' : 'bcw-warn')]];
    });
    const names = [...this.convergenceNames(true), 'estimate', '± 2 MCSE', 'exact', 'error / MCSE'];
    this.table.set(['', 'E[log τ]', 'P(τ < 1)'], names.map((name, k) => [name, cells[0][k], cells[1][k]]));
    // One short line (on a slide the status holds one line of 20 px text).
    const sampler = this.sampler === 'hmc' ? `HMC h ${fmt(this.stepSize, 3)}, L ${this.nLeapfrog}` : `Metropolis ${fmt(this.scale, 2)} ×`;
    const head = `${sampler}, ${this.form}: ${this.steps.toLocaleString('en')} iterations`;
    if (!d) this.say(`${head}; warm-up: first ${this.sampler === 'hmc' ? 'quarter' : 'tenth'}.`);
    else this.say(`${head}; ${div.all} divergent in all.`);
  }

  /** The MCSE of the mean, undefined (NaN) when every kept draw is equal (sd exactly 0, as for
   * an indicator that is 0 throughout), as in chapter 7's audit: a run that never visits
   * tau < 1 cannot estimate its own error, and 0 would claim certainty. */
  mcse(p) {
    return p.sd === 0 ? NaN : p.mcse;
  }

  // --- moving a chain's start --------------------------------------------------------------

  placeStart(point) {
    const [theta, logTau] = clampPoint(point, this.box);
    const starts = this.starts.map((p) => [...p]);
    this.nextStart = ((this.nextStart ?? -1) + 1) % starts.length;
    starts[this.nextStart] = [theta, logTau];
    this.set({ starts });
  }

  // --- drawing -------------------------------------------------------------------------------

  exactGrid() {
    if (!this.grid) {
      const [lo, hi] = this.s.theta_range;
      const theta = Array.from({ length: THETA_NODES }, (_, i) => lo + ((hi - lo) * i) / (THETA_NODES - 1));
      this.grid = funnelDensityGrid(this.f.reference, theta);
    }
    return this.grid;
  }

  paintTarget() {
    const p = this.plot;
    const th = this.theme;
    p.setDomain(...this.box);
    p.cached(`eight-schools:${th.dark}:${p.width}x${p.height}`, () => {
      p.clear(th);
      p.density(this.exactGrid(), th, { levels: LEVELS, color: th.colors.grid });
      p.axes(th, { xLabel: 'θ₁', yLabel: 'log τ', xCount: 5, yCount: 6 });
    });
  }

  draw() {
    const p = this.plot;
    if (!p.width || !this.chains) return;
    const th = this.theme;
    const colors = this.theme.chains;
    this.paintTarget();
    p.clip();
    this.dots.paint((c) => this.theta[c].length, (c) => this.theta[c].values, (c) => this.logTau[c].values, colors.slice(0, this.chains.length));
    // Each chain's last trajectory (HMC), in the coordinates shown.
    this.paths.forEach((path, c) => {
      if (!path) return;
      const points = path.path.map((q) => this.shown(q));
      p.polyline(points, { color: colors[c], width: 1.5, alpha: path.accepted ? 0.9 : 0.45, dash: path.accepted ? [] : [4, 3] });
    });
    for (const [theta, logTau] of this.divergentStarts) {
      p.marker(theta, logTau, { shape: 'cross', size: 5, color: th.palette.vermillion, width: 2 });
    }
    this.chains.forEach((chain, c) => {
      const [theta, logTau] = this.shown(chain.position || chain.current);
      p.marker(this.starts[c][0], this.starts[c][1], { shape: 'square', size: 5, color: colors[c] });
      p.marker(theta, logTau, { shape: 'circle', size: 5, color: colors[c] });
      p.marker(theta, logTau, { shape: 'circle', size: 5, color: th.ground, fill: false, width: 1.5 });
    });
    if (this.cursor) p.marker(this.cursor[0], this.cursor[1], { shape: 'plus', size: 12, color: th.palette.vermillion, width: 2 });
    p.restore();
    this.legend.set([
      [th.colors.grid, 'exact posterior'], [colors[0], '■ start, ● now, line: last trajectory'],
      [th.palette.vermillion, '× divergent (warm-up included)'],
    ]);
    this.drawMarginal();
  }

  /** The exact density of log tau against a histogram of the kept draws, on the same axis. */
  drawMarginal() {
    const p = this.side;
    if (!p.width) return;
    const th = this.theme;
    const ref = this.f.reference;
    const [lo, hi] = this.s.log_tau_range;
    const warm = Math.floor(this.steps * this.warmupFraction);
    const hist = this.throttledHistogram(`${this.form}:${this.sampler}:${this.seed}`, () => {
      const values = new Float64Array(this.logTau.reduce((n, s) => n + s.length - warm, 0));
      let at = 0;
      for (const s of this.logTau) {
        values.set(s.view(warm), at);
        at += s.length - warm;
      }
      return densityHistogram(values, lo, hi, 40);
    });
    const top = Math.max(Math.max(...ref.density), Math.max(...hist.density)) * 1.05;
    p.clear(th);
    p.setDomain([0, top], [lo, hi]);
    p.axes(th, { xLabel: 'density', xCount: 2, yCount: 6, yTickLabels: false });
    p.clip();
    const { ctx } = p;
    if (this.steps > warm) {
      ctx.fillStyle = th.colors.mcmc;
      ctx.globalAlpha = 0.45;
      hist.density.forEach((v, k) => {
        const y0 = p.y(lo + k * hist.width);
        const y1 = p.y(lo + (k + 1) * hist.width);
        ctx.fillRect(p.x(0), y1, p.x(v) - p.x(0), y0 - y1);
      });
      ctx.globalAlpha = 1;
    }
    p.line(ref.density, ref.log_tau, { color: th.colors.grid, width: 2 });
    p.line([0, top], [0, 0], { color: th.muted, width: 1, dash: [3, 3] });
    p.restore();
  }

  // --- the hook ------------------------------------------------------------------------------

  pause() {
    super.pause();
    this.refreshDiagnostics();
    this.draw();
  }

  state() {
    return { sampler: this.sampler, form: this.form, step: this.stepSize, leapfrog: this.nLeapfrog, scale: this.scale, seed: this.seed, starts: this.starts };
  }

  set(params) {
    const s = this.s;
    const presets = {
      'centred-neck': { sampler: 'hmc', form: 'centred', step: s.hmc_step, leapfrog: s.hmc_leapfrog, starts: null },
      'non-centred': { sampler: 'hmc', form: 'non-centred', step: s.hmc_step, leapfrog: s.hmc_leapfrog, starts: null },
      'big-step': { sampler: 'hmc', form: 'non-centred', step: s.big_step, leapfrog: s.big_step_leapfrog, starts: null },
    };
    const next = withPreset(presets, params);
    if (next.sampler !== undefined) {
      if (!SAMPLERS.some(([v]) => v === next.sampler)) throw new Error(`unknown sampler "${next.sampler}"`);
      this.sampler = next.sampler;
    }
    if (next.form !== undefined) {
      if (!FORMS.some(([v]) => v === next.form)) throw new Error(`unknown form "${next.form}"`);
      this.form = next.form;
    }
    if (next.step !== undefined) this.stepSize = Math.min(s.hmc_step_range[1], Math.max(s.hmc_step_range[0], Number(next.step)));
    if (next.leapfrog !== undefined) this.nLeapfrog = Math.min(s.hmc_leapfrog_range[1], Math.max(s.hmc_leapfrog_range[0], Math.round(Number(next.leapfrog))));
    if (next.scale !== undefined) this.scale = Math.min(s.rwm_scale_range[1], Math.max(s.rwm_scale_range[0], Number(next.scale)));
    if (next.seed !== undefined) this.seed = Number(next.seed);
    if (next.starts === null) {
      this.starts = this.f.starts.centred.map((q) => [q[2], q[1]]);
      this.nextStart = -1;
    } else if (next.starts) {
      this.starts = this.f.starts.centred.map((q, c) => (next.starts[c] ? [Number(next.starts[c][0]), Number(next.starts[c][1])] : [q[2], q[1]]));
    }
    const c = this.controls;
    c.sampler.set(this.sampler);
    c.form.set(this.form);
    c.step.set(this.stepSize);
    c.leapfrog.set(this.nLeapfrog);
    c.scale.set(this.scale);
    this.greySamplerSettings();
    if (!params.preset) c.preset.set('');
    this.restart(next);
  }

  /** Only the chosen sampler's settings act: grey the others out rather than ignore them silently. */
  greySamplerSettings() {
    const c = this.controls;
    const hmc = this.sampler === 'hmc';
    for (const [control, on] of [[c.step, hmc], [c.leapfrog, hmc], [c.scale, !hmc]]) control.enable(on);
  }

  /** run(k): k more iterations of every chain, at once. */
  run(steps = 1) {
    let left = Math.max(0, Math.round(steps));
    const chunk = Math.max(100, Math.ceil(left / 8));
    while (left > 0) {
      const n = Math.min(chunk, left);
      this.advance(n);
      left -= n;
    }
    this.refreshDiagnostics();
    this.draw();
    this.changed();
  }

  readout() {
    const d = this.diagnostics;
    const ref = this.f.reference;
    const div = this.divergence();
    return {
      widget: this.name,
      sampler: this.sampler,
      form: this.form,
      step: this.stepSize,
      leapfrog: this.nLeapfrog,
      scale: this.scale,
      seed: this.seed,
      starts: this.starts,
      steps: this.steps,
      playing: this.playing,
      warmup: Math.floor(this.steps * this.warmupFraction),
      accept_rate: this.chains.map((chain) => chain.acceptRate()),
      divergent_share: div.share,
      divergent_kept: div.count,
      divergent_all: div.all,
      exact_mean_log_tau: ref.mean_log_tau,
      exact_prob_tau_below_1: ref.prob_tau_below_1,
      mean_log_tau: d ? d.params[0].mean : null,
      prob_tau_below_1: d && d.params[1] ? d.params[1].mean : null,
      rhat: d ? d.params.map((q) => q && q.rhat) : null,
      ess_bulk: d ? d.params.map((q) => q && q.essBulk) : null,
      ess_tail: d ? d.params.map((q) => q && q.essTail) : null,
      mcse: d ? d.params.map((q) => q && this.mcse(q)) : null,
      lowest_log_tau: this.steps ? Math.min(...this.logTau.map((s) => s.view().reduce((a, b) => Math.min(a, b), Infinity))) : null,
      diagnostics_at: d ? d.steps : null,
    };
  }
}
