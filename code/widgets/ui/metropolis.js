// Widget 3, the MCMC chapter: random-walk Metropolis from up to four starts you place.
// The walk is drawn with rejected proposals marked; beside it, per parameter, the traces and
// the running mean +- 2 MCSE against the grid mean; below, acceptance and the chapter's
// production diagnostics (Vehtari et al., 2021): rank-normalized R-hat, bulk and tail ESS, and the
// mean +- 2 MCSE (the MCSE of the mean from the multi-chain ESS). Diagnostics use the draws after warm-up (the first sixth, as the book's 2,000
// of 12,000) and are refreshed about four times a second while the chains run, a job per frame.
import { MetropolisChain, chol2, scale2, rankSummary, rankSummaryJobs, seededSource } from '../engine/index.js';
import { clampPoint, withPreset } from './base.js';
import { ChainsWidget } from './chains.js';
import { buttonRow, button, controlPanel, fmt, fmtPlusMinus, legend, select, slider, tableReadout } from './controls.js';
import { Plot } from './plot.js';
import { TARGET_OPTIONS, paintTarget, targets } from './targets.js';

const WALK = 25; // recent steps drawn as a path, with their rejected proposals
const MAX_STEPS = 200000;
const PRESETS = [
  ['', 'choose…'],
  ['book', 'the book’s run'],
  ['tiny', 'tiny steps'],
  ['huge', 'huge steps'],
  ['two-modes', 'two modes'],
];

/**
 * Random-walk Metropolis from starts the reader places. Another sampler that moves chains from
 * starts with one scale (a gradient-based proposal, an independence sampler) can reuse all of it
 * as a subclass: override the static `text` (title, hint, the scale's label), `newChain()` (its
 * engine's chain) and, through its manifest entry's `settings`, the scale's default `scale` and
 * range `scale_range` (else the Metropolis ones of the package's data).
 */
export class Metropolis extends ChainsWidget {
  static text = {
    title: 'Metropolis: chains, traces and diagnostics, live',
    hint: 'Click the plot to place up to four starts (keyboard: focus it, arrows, Enter). Then Play.',
    scale: 'proposal scale',
  };

  constructor(root, data, options = {}) {
    const text = new.target.text;
    super(root, data, {
      ...options,
      title: options.title ?? text.title,
      hint: options.hint ?? text.hint,
      diagnostics: { jobsOf: rankSummaryJobs },
    });
    const w = data.widgets;
    const lecture = data.lecture;
    this.targets = targets(data);
    this.warmupFraction = lecture.mcmc_warmup / lecture.mcmc_steps;
    this.runLength = lecture.mcmc_steps;
    this.target = 'book';
    this.scale = this.defaultScale;
    this.speed = w.mcmc_speed;
    this.seed = lecture.mcmc_first_seed;
    this.starts = lecture.mcmc_starts.map((s) => [...s]);
    this.body.classList.add('bcw-wide');

    const left = this.column();
    const right = this.column();
    this.chainPlot(new Plot(left, { aspect: 0.8, maxHeight: 400, deck: { aspect: 0.62, maxHeight: 224 }, focusable: true, label: 'The chains’ walk on the target’s contours. Click to place a start; with the keyboard, move the cursor with the arrow keys and press Enter.' }), {
      box: () => this.targets[this.target].bounds,
      origin: () => this.targets[this.target].grid.mean,
      place: (point) => this.addStart(point),
      onKey: (event) => {
        if (event.key === 'Backspace' || event.key === 'Delete') {
          event.preventDefault();
          this.set({ starts: this.starts.slice(0, -1) });
        }
      },
    });
    this.legend = legend(left, []);
    const panel = controlPanel(left);
    this.controls = {
      target: select(panel, { name: 'target', label: 'target', options: TARGET_OPTIONS, value: this.target, onChange: (v) => this.set({ target: v }) }),
      scale: slider(panel, { name: 'scale', label: text.scale, min: this.scaleRange[0], max: this.scaleRange[1], value: this.scale, log: true, steps: 400, format: (v) => `${fmt(v, 2)} ×`, onInput: (v) => this.set({ scale: v }) }),
      speed: slider(panel, { name: 'speed', label: 'steps/frame', min: w.mcmc_speed_range[0], max: w.mcmc_speed_range[1], value: this.speed, log: true, steps: 100, format: (v) => String(Math.round(v)), onInput: (v) => { this.speed = Math.round(v); this.changed(); } }),
      preset: select(panel, { name: 'preset', label: 'preset', options: PRESETS, value: '', onChange: (v) => v && this.set({ preset: v }) }),
    };
    const row = buttonRow(panel);
    this.playButton = button(row, { name: 'play', label: 'Play', toggle: true, onClick: () => (this.playing ? this.pause() : this.play()) });
    button(row, { name: 'step', label: 'Step', title: 'One step of every chain', onClick: () => this.run(1) });
    button(row, { name: 'reset', label: 'Restart', title: 'Start the chains again from their starts', onClick: () => this.set({}) });
    button(row, { name: 'clear', label: 'Clear starts', onClick: () => this.set({ starts: [] }) });
    button(row, { name: 'new-seed', label: 'New seed', onClick: () => this.set({ seed: this.seed + 10 }) });

    const traceLabel = (a) => `Trace of ${'θ₀θ₁'.slice(2 * a, 2 * a + 2)} for every chain, warm-up shaded, with the grid mean`;
    const meanLabel = (a) => `Running mean of ${'θ₀θ₁'.slice(2 * a, 2 * a + 2)} with ±2 MCSE, against the grid mean`;
    const small = { aspect: 0.3, minHeight: 78, maxHeight: 110, margin: { left: 56, right: 18, bottom: 20, top: 6 }, deck: { aspect: 0.3, maxHeight: 120 } };
    this.traces = [0, 1].map((a) => this.addPlot(new Plot(right, { ...small, label: traceLabel(a) })));
    // On a slide there is room for the traces only: the table gives the mean ± 2 MCSE.
    this.means = this.deck ? [] : [0, 1].map((a) => this.addPlot(new Plot(right, { ...small, label: meanLabel(a) })));
    this.rightLegend = legend(right, []);
    const footer = this.deck ? right.appendChild(document.createElement('div')) : this.footer();
    footer.classList.add('bcw-tables');
    this.table = tableReadout(footer, 'Diagnostics per parameter', { transposeOnSlides: true });
    this.acceptance = tableReadout(footer, 'Acceptance rate per chain');
    this.reset();
    this.start();
  }

  /** The scale the figure opens with, and its slider's range: the manifest's, else Metropolis's. */
  get defaultScale() {
    return this.figureSettings.scale ?? this.data.lecture.mcmc_scale;
  }

  get scaleRange() {
    return this.figureSettings.scale_range ?? this.data.widgets.mcmc_scale_range;
  }

  /** One chain of this sampler from `start`: a subclass returns its own engine's chain. */
  newChain(target, start, chol, source) {
    return new MetropolisChain(target, start, { chol, capacity: 4096 }, source);
  }

  get laplaceChol() {
    return chol2(this.targets[this.target].laplace.cov);
  }

  /** New chains from the starts; all draws, diagnostics and history are dropped. */
  reset() {
    const t = this.targets[this.target];
    const chol = scale2(this.laplaceChol, this.scale);
    this.chains = this.starts.map((s, c) => this.newChain(t.target, s, chol, seededSource(this.seed + c)));
    this.history = [];
    this.forgetChains();
    this.refreshDiagnostics(true);
    this.draw();
    this.changed();
  }

  get steps() {
    return this.chains.length ? this.chains[0].length : 0;
  }

  /** Advance every chain `n` steps. */
  advance(n) {
    const room = Math.max(0, Math.min(n, MAX_STEPS - this.steps));
    for (const chain of this.chains) for (let s = 0; s < room; s += 1) chain.step();
    if (room < n) this.pause();
  }

  tick(frames) {
    this.advance(this.speed * frames);
    // Diagnostics at least 4 times a second, spread over frames to keep each frame short
    // (the FFT autocorrelations of two chains per frame, then the summaries).
    this.live.frame((steps) => {
      const kept = [0, 1].map((a) => this.kept(a, steps));
      return kept.every(Boolean) ? kept : null;
    }, this.steps);
    if (this.steps >= this.runLength && this.steps - this.speed * frames < this.runLength) {
      this.refreshDiagnostics(true);
      this.pause();
      this.say(`Ran ${this.runLength.toLocaleString('en')} steps per chain (the book’s run length); Play continues.`);
    }
    this.draw();
  }

  /** Each chain's draws of parameter a kept after warm-up, of the first `steps`; or null. */
  kept(a, steps) {
    const warm = Math.floor(steps * this.warmupFraction);
    if (steps - warm < 4 || !this.chains.length) return null;
    return this.chains.map((c) => c.draws[a].subarray(warm, steps));
  }

  /** Summaries of parameter a over the kept draws of the first `steps` steps, or null. */
  diagnose(a, steps) {
    const kept = this.kept(a, steps);
    return kept && rankSummary(kept);
  }

  finishDiagnostics(perParam, steps) {
    if (!perParam[0] || !perParam[1]) {
      this.diagnostics = null;
      return;
    }
    this.diagnostics = { steps, params: perParam };
    this.history.push({ steps, mean: perParam.map((d) => d.mean), mcse: perParam.map((d) => d.mcse) });
    if (this.history.length > 600) this.history = this.history.filter((_, i) => i % 2 === 0);
    this.showReadouts();
  }

  refreshDiagnostics() {
    this.finishDiagnostics([0, 1].map((a) => this.diagnose(a, this.steps)), this.steps);
    if (!this.diagnostics) this.showReadouts();
  }

  showReadouts() {
    const t = this.targets[this.target];
    const d = this.diagnostics;
    const { error_mcse_max: errorMax } = this.data.widgets;
    const rows = [0, 1].map((a) => {
      if (!d) return [`θ${'₀₁'[a]}`, '–', '–', '–', '–', fmt(t.grid.mean[a], 3), '–'];
      const p = d.params[a];
      const z = (p.mean - t.grid.mean[a]) / p.mcse;
      return [`θ${'₀₁'[a]}`, ...this.convergenceCells(p), fmtPlusMinus(p.mean, 2 * p.mcse, 3),
        fmt(t.grid.mean[a], 3), [fmt(z, 1), Math.abs(z) <= errorMax ? 'bcw-good' : 'bcw-warn']];
    });
    this.table.set(['', ...this.convergenceNames(Boolean(this.deck)), 'mean ± 2 MCSE', 'grid', 'error / MCSE'], rows);
    this.acceptance.set(['chain', ...this.chains.map((_, c) => String(c + 1))],
      [['acceptance', ...this.chains.map((c) => fmt(c.acceptRate(), 3))]]);
    if (!this.chains.length) this.say('No chains: click the plot to place up to four starts.');
    else if (!d) this.say(`${this.steps} steps per chain. Diagnostics start after a few kept draws (warm-up: the first sixth).`);
    else this.say(`${this.steps.toLocaleString('en')} steps per chain; diagnostics on the last ${(this.steps - Math.floor(this.steps * this.warmupFraction)).toLocaleString('en')}, warm-up dropped.`);
  }

  // --- placing starts ----------------------------------------------------------------------

  addStart(point) {
    const t = this.targets[this.target];
    const starts = [...this.starts, clampPoint(point, t.bounds)];
    this.set({ starts: starts.slice(-this.data.widgets.mcmc_max_chains) });
  }

  // --- drawing -------------------------------------------------------------------------------

  draw() {
    const p = this.plot;
    if (!p.width || !this.chains) return;
    const th = this.theme;
    const c = th.colors;
    const t = this.targets[this.target];
    const colors = this.theme.chains;
    paintTarget(p, t, th);
    p.clip();
    const chains = this.chains;
    this.dots.paint((k) => chains[k].length, (k) => chains[k].draws[0], (k) => chains[k].draws[1], colors.slice(0, chains.length));
    this.chains.forEach((chain, k) => {
      const from = Math.max(0, chain.length - WALK);
      const xs = [from === 0 ? chain.start[0] : chain.draws[0][from - 1]];
      const ys = [from === 0 ? chain.start[1] : chain.draws[1][from - 1]];
      for (let s = from; s < chain.length; s += 1) {
        xs.push(chain.draws[0][s]);
        ys.push(chain.draws[1][s]);
      }
      p.line(xs, ys, { color: colors[k], width: 2 });
      for (let s = from; s < chain.length; s += 1) {
        if (!chain.accepted[s]) p.marker(chain.proposals[0][s], chain.proposals[1][s], { shape: 'cross', size: 4, color: th.palette.vermillion, width: 1.8 });
      }
    });
    p.marker(t.grid.mean[0], t.grid.mean[1], { shape: 'plus', size: 9, color: c.grid, width: 3 });
    this.chains.forEach((chain, k) => {
      p.marker(chain.start[0], chain.start[1], { shape: 'square', size: 5, color: colors[k] });
      p.marker(chain.current[0], chain.current[1], { shape: 'circle', size: 5, color: colors[k] });
      p.marker(chain.current[0], chain.current[1], { shape: 'circle', size: 5, color: th.ground, fill: false, width: 1.5 });
    });
    if (this.cursor) p.marker(this.cursor[0], this.cursor[1], { shape: 'plus', size: 12, color: th.palette.vermillion, width: 2 });
    p.restore();
    this.legend.set([
      [c.target, 'target; + grid mean'], [colors[0], '■ start, ● now, path: last 25 steps'], [th.palette.vermillion, '× rejected proposal'],
    ]);
    this.drawTraces();
    this.drawMeans();
  }

  drawTraces() {
    const th = this.theme;
    const colors = this.theme.chains;
    const t = this.targets[this.target];
    const n = Math.max(this.steps, 10);
    this.traces.forEach((p, a) => {
      if (!p.width) return;
      const lo = t.bounds[a][0];
      const hi = t.bounds[a][1];
      p.clear(th);
      p.setDomain([0, n], [lo, hi]);
      const warm = Math.floor(this.steps * this.warmupFraction);
      p.ctx.fillStyle = th.faint;
      p.ctx.fillRect(p.x(0), p.inner.top, p.x(warm) - p.x(0), p.inner.bottom - p.inner.top);
      p.axes(th, { yLabel: `θ${'₀₁'[a]}`, xCount: 4, yCount: 3 });
      p.clip();
      // Min-max decimation: one vertical stroke per pixel column and chain.
      const { ctx } = p;
      const columns = Math.max(1, Math.floor(p.inner.right - p.inner.left));
      this.chains.forEach((chain, k) => {
        ctx.strokeStyle = colors[k];
        ctx.globalAlpha = 0.85;
        ctx.lineWidth = 1;
        ctx.beginPath();
        const series = chain.draws[a];
        const per = chain.length / columns;
        for (let col = 0; col < columns && chain.length; col += 1) {
          const s0 = Math.floor(col * per);
          const s1 = Math.max(s0 + 1, Math.floor((col + 1) * per));
          let min = Infinity;
          let max = -Infinity;
          for (let s = s0; s < Math.min(s1, chain.length); s += 1) {
            if (series[s] < min) min = series[s];
            if (series[s] > max) max = series[s];
          }
          if (min === Infinity) continue;
          const px = p.x(s0);
          ctx.moveTo(px, p.y(min));
          ctx.lineTo(px + Math.max(1, p.x(s1) - p.x(s0)), p.y(max));
        }
        ctx.stroke();
      });
      ctx.globalAlpha = 1;
      p.line([0, n], [t.grid.mean[a], t.grid.mean[a]], { color: th.colors.grid, width: 1.5, dash: [5, 4] });
      p.restore();
    });
  }

  drawMeans() {
    const th = this.theme;
    const t = this.targets[this.target];
    const h = this.history;
    this.means.forEach((p, a) => {
      if (!p.width) return;
      p.clear(th);
      const truth = t.grid.mean[a];
      let spread = t.grid.sd[a] * 0.5;
      for (const e of h) spread = Math.max(spread, Math.abs(e.mean[a] - truth) + 2 * e.mcse[a]);
      spread = Math.min(spread, (t.bounds[a][1] - t.bounds[a][0]) / 2);
      p.setDomain([0, Math.max(this.steps, 10)], [truth - spread * 1.1, truth + spread * 1.1]);
      p.axes(th, { yLabel: `mean θ${'₀₁'[a]}`, xCount: 4, yCount: 3 });
      p.clip();
      if (h.length) {
        const { ctx } = p;
        ctx.fillStyle = th.colors.mcmc;
        ctx.globalAlpha = 0.25;
        ctx.beginPath();
        h.forEach((e, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, p.x(e.steps), p.y(e.mean[a] + 2 * e.mcse[a])));
        for (let i = h.length - 1; i >= 0; i -= 1) ctx.lineTo(p.x(h[i].steps), p.y(h[i].mean[a] - 2 * h[i].mcse[a]));
        ctx.closePath();
        ctx.fill();
        ctx.globalAlpha = 1;
        p.line(h.map((e) => e.steps), h.map((e) => e.mean[a]), { color: th.colors.mcmc, width: 2 });
      }
      p.line(p.xDomain, [truth, truth], { color: th.colors.grid, width: 1.5, dash: [5, 4] });
      p.restore();
    });
    this.rightLegend.set(this.deck
      ? [[th.colors.grid, 'grid mean (warm-up shaded)', true]]
      : [[th.colors.mcmc, 'running mean ± 2 MCSE (after warm-up)'], [th.colors.grid, 'grid mean', true]]);
  }

  // --- the hook ------------------------------------------------------------------------------

  play() {
    if (!this.chains.length) {
      this.say('Place at least one start first: click the plot.');
      return;
    }
    if (this.steps >= this.runLength) this.runLength = this.steps + this.data.lecture.mcmc_steps;
    super.play();
  }

  pause() {
    super.pause();
    this.refreshDiagnostics();
    this.draw();
  }

  state() {
    return { target: this.target, scale: this.scale, speed: this.speed, starts: this.starts, seed: this.seed };
  }

  set(params) {
    const w = this.data.widgets;
    const lecture = this.data.lecture;
    const presets = {
      book: { target: 'book', scale: this.defaultScale, starts: lecture.mcmc_starts },
      tiny: { target: 'book', scale: w.mcmc_tiny_scale, starts: lecture.mcmc_starts },
      huge: { target: 'book', scale: w.mcmc_huge_scale, starts: lecture.mcmc_starts },
      'two-modes': { target: 'two-modes', scale: this.defaultScale, starts: w.mcmc_two_mode_starts },
    };
    const next = withPreset(presets, params);
    if (next.target && next.target !== this.target) {
      if (!this.targets[next.target]) throw new Error(`unknown target "${next.target}"`);
      this.target = next.target;
      if (!next.starts) next.starts = next.target === 'book' ? lecture.mcmc_starts : w.mcmc_two_mode_starts;
      this.plot.forget();
    }
    if (next.scale !== undefined) this.scale = Number(next.scale);
    if (next.speed !== undefined) this.speed = Math.round(Number(next.speed));
    if (next.seed !== undefined) this.seed = Number(next.seed);
    if (next.starts) this.starts = next.starts.slice(0, w.mcmc_max_chains).map((s) => [Number(s[0]), Number(s[1])]);
    const c = this.controls;
    c.target.set(this.target);
    c.scale.set(this.scale);
    c.speed.set(this.speed);
    if (!params.preset) c.preset.set('');
    this.runLength = lecture.mcmc_steps;
    this.restart(next);
  }

  /** run(k): k more steps of every chain, at once, with diagnostics along the way. */
  run(steps = 1) {
    let left = Math.max(0, Math.round(steps));
    const chunk = Math.max(200, Math.ceil(left / 16));
    while (left > 0) {
      const n = Math.min(chunk, left);
      this.advance(n);
      left -= n;
      if (left > 0) this.refreshDiagnostics();
    }
    this.refreshDiagnostics();
    this.draw();
    this.changed();
  }

  readout() {
    const d = this.diagnostics;
    const t = this.targets[this.target];
    return {
      widget: this.name,
      target: this.target,
      scale: this.scale,
      speed: this.speed,
      seed: this.seed,
      starts: this.starts,
      steps: this.steps,
      playing: this.playing,
      warmup: Math.floor(this.steps * this.warmupFraction),
      accept_rate: this.chains.map((c) => c.acceptRate()),
      grid_mean: t.grid.mean,
      rhat: d ? d.params.map((p) => p.rhat) : null,
      ess_bulk: d ? d.params.map((p) => p.essBulk) : null,
      ess_tail: d ? d.params.map((p) => p.essTail) : null,
      mcse: d ? d.params.map((p) => p.mcse) : null,
      mean: d ? d.params.map((p) => p.mean) : null,
      diagnostics_at: d ? d.steps : null,
      diagnostics_refreshes: this.history.length,
    };
  }
}
