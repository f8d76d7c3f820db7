// What the widgets that run chains share (Metropolis, the funnel, the dimension widget): a
// layer that keeps every draw drawn so far, a cursor that places chain starts by mouse or
// keyboard, diagnostics refreshed a piece per frame, at least four times a second, and a
// Widget class that holds the three.
import { StagedDiagnostics, summaryJobs } from '../engine/index.js';
import { Widget, clampPoint, widgetKey } from './base.js';
import { fmt, fmtRhat } from './controls.js';


/** A growable array of numbers (a chain's log tau or theta_1). */
export class Series {
  constructor() {
    this.values = new Float64Array(1024);
    this.length = 0;
  }

  push(v) {
    if (this.length === this.values.length) {
      const next = new Float64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length] = v;
    this.length += 1;
  }

  view(from = 0, to = this.length) {
    return this.values.subarray(from, to);
  }
}

/** Draws of several chains as dots on an offscreen layer: each frame paints only new draws. */
export class DotLayer {
  constructor(plot) {
    this.plot = plot;
    this.canvas = null;
    this.drawn = [];
    this.stale = true;
  }

  /** Forget what was painted (new chains, a resize, a theme change). */
  clear() {
    this.stale = true;
  }

  /** Paint draws [from drawn, count) of each chain (xs(c), ys(c): its coordinates), then copy
   * the layer onto the plot (call inside the plot's clip). */
  paint(count, xs, ys, colors) {
    const p = this.plot;
    if (!this.canvas) this.canvas = document.createElement('canvas');
    if (this.stale || this.canvas.width !== p.canvas.width || this.canvas.height !== p.canvas.height) {
      this.canvas.width = p.canvas.width;
      this.canvas.height = p.canvas.height;
      this.drawn = [];
      this.stale = false;
    }
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(p.ratio, 0, 0, p.ratio, 0, 0);
    ctx.globalAlpha = 0.35;
    colors.forEach((color, c) => {
      const x = xs(c);
      const y = ys(c);
      const n = count(c);
      ctx.fillStyle = color;
      for (let t = this.drawn[c] || 0; t < n; t += 1) ctx.fillRect(p.x(x[t]) - 1, p.y(y[t]) - 1, 2, 2);
      this.drawn[c] = n;
    });
    p.ctx.drawImage(this.canvas, 0, 0, p.width, p.height);
  }
}

/**
 * Place points on a plot: a click (not a drag) calls place([x, y]); with the keyboard the arrow
 * keys move a cursor (from origin(), in 1/40 of the box, Shift: 5 times as far) and Enter or
 * Space places it. Returns {cursor}: the cursor's position while the plot has the focus.
 */
export function placingCursor(plot, { box, origin, place, redraw, onKey = null }) {
  const state = { cursor: null };
  let down = null;
  plot.canvas.addEventListener('pointerdown', (event) => {
    down = [event.clientX, event.clientY];
  });
  plot.canvas.addEventListener('pointerup', (event) => {
    if (down && Math.hypot(event.clientX - down[0], event.clientY - down[1]) < 8) place(plot.pointer(event).value);
    down = null;
  });
  plot.canvas.addEventListener('keydown', (event) => {
    if (!widgetKey(event)) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const bounds = box();
    if (moves[event.key]) {
      event.preventDefault();
      const [x, y] = state.cursor || origin();
      const k = event.shiftKey ? 5 : 1;
      const step = bounds.map(([lo, hi]) => ((hi - lo) / 40) * k);
      state.cursor = clampPoint([x + moves[event.key][0] * step[0], y + moves[event.key][1] * step[1]], bounds);
      redraw();
    } else if ((event.key === 'Enter' || event.key === ' ') && state.cursor) {
      event.preventDefault();
      place(state.cursor);
    } else if (onKey) {
      onKey(event);
    }
  });
  plot.canvas.addEventListener('blur', () => {
    state.cursor = null;
    redraw();
  });
  return state;
}

/**
 * Diagnostics while chains run: every `interval` ms (200: at least 4 refreshes a second) a new
 * StagedDiagnostics starts on kept() (each parameter's kept draws per chain, or null), with
 * jobsOf's jobs (the engine's summaryJobs, textbook, or rankSummaryJobs, production). Each frame
 * does `jobsPerFrame` of its jobs, and more while the frame's diagnostics took under `budget` ms,
 * so no frame carries them all; finish(result, steps) gets the summaries. refreshTimes records
 * when each finished (for the benchmark).
 */
export class LiveDiagnostics {
  constructor(finish, { interval = 200, jobsPerFrame = 1, budget = 0, jobsOf = summaryJobs } = {}) {
    this.finish = finish;
    this.interval = interval;
    this.jobsPerFrame = jobsPerFrame;
    this.budget = budget;
    this.jobsOf = jobsOf;
    this.staged = null;
    this.last = 0;
    this.refreshTimes = [];
  }

  reset() {
    this.staged = null;
    this.last = 0;
  }

  /** One frame's share of the work, for chains `steps` long. */
  frame(kept, steps) {
    const now = performance.now();
    if (!this.staged && now - this.last >= this.interval) {
      this.last = now;
      const draws = kept(steps);
      if (draws) this.staged = { steps, work: new StagedDiagnostics(draws, this.jobsOf) };
    }
    for (let job = 0; this.staged && (job < this.jobsPerFrame || performance.now() - now < this.budget); job += 1) {
      if (this.staged.work.step()) {
        this.finished(this.staged.work.result, this.staged.steps);
        this.staged = null;
      }
    }
  }

  /** Every summary of kept (as kept() returns it, or null) at once: for a pause or a run(). */
  atOnce(kept) {
    if (!kept) return null;
    const staged = new StagedDiagnostics(kept, this.jobsOf);
    while (!staged.step());
    return staged.result;
  }

  finished(result, steps) {
    if (result && result.every(Boolean)) {
      this.refreshTimes.push(performance.now());
      if (this.refreshTimes.length > 1000) this.refreshTimes.splice(0, 500);
    }
    this.finish(result, steps);
  }
}

/** A widget whose chains are drawn on `plot` (set by chainPlot()) and diagnosed while they run:
 * subclasses define finishDiagnostics(result, steps). */
export class ChainsWidget extends Widget {
  /** options.diagnostics: LiveDiagnostics' options (jobsOf, jobsPerFrame, budget). */
  constructor(root, data, options) {
    super(root, data, options);
    this.live = new LiveDiagnostics((result, steps) => this.finishDiagnostics(result, steps),
      options.diagnostics);
    this.histogramCache = null;
  }

  /**
   * make() (a histogram of every draw so far), recomputed when the draws changed, but while
   * playing at most every 150 ms: its cost grows with the draws, a frame's should not.
   */
  throttledHistogram(key, make) {
    const now = performance.now();
    const c = this.histogramCache;
    const fresh = c && c.key === key && (c.steps === this.steps || (this.playing && now - c.at < 150));
    if (!fresh) this.histogramCache = { key, steps: this.steps, at: now, value: make() };
    return this.histogramCache.value;
  }

  /** The plot of the chains' draws, where clicks and the keyboard's cursor place starts
   * (placingCursor's options; none: the subclass handles the plot's pointer and keys). */
  chainPlot(plot, placing = null) {
    this.plot = this.addPlot(plot);
    this.dots = new DotLayer(plot);
    this.placing = placing ? placingCursor(plot, { ...placing, redraw: () => this.draw() }) : { cursor: null };
    return plot;
  }

  /** New chains: no diagnostics, no dots. */
  forgetChains() {
    this.diagnostics = null;
    this.histogramCache = null;
    this.live.reset();
    this.dots.clear();
  }

  invalidate() {
    this.plot.forget();
    this.dots.clear();
  }

  /** When each live refresh of the diagnostics finished (the benchmark reads them). */
  get refreshTimes() {
    return this.live.refreshTimes;
  }

  /** The headings of convergenceCells(); `short` names the R-hat 'R-hat (rank)', for a table
   * beside a plot or on a slide (where headings do not wrap). */
  convergenceNames(short = false) {
    return [short ? 'R-hat (rank)' : 'R-hat (rank-normalized)', 'bulk ESS', 'tail ESS'];
  }

  /**
   * A rankSummary's R-hat, bulk and tail ESS as table cells, coloured by the working rules of the settings:
   * R-hat below rhat_max, bulk and tail ESS (all chains together) at least ess_min. One chain
   * has no R-hat (NaN, shown as –), coloured neither way.
   */
  convergenceCells(p) {
    const { rhat_max: rhatMax, ess_min: essMin } = this.data.widgets;
    const verdict = (ok) => (ok ? 'bcw-good' : 'bcw-warn');
    return [[fmtRhat(p.rhat), Number.isNaN(p.rhat) ? '' : verdict(p.rhat < rhatMax)],
      [fmt(p.essBulk, 0), verdict(p.essBulk >= essMin)], [fmt(p.essTail, 0), verdict(p.essTail >= essMin)]];
  }

  /** The keyboard's cursor on the plot, or null. */
  get cursor() {
    return this.placing.cursor;
  }
}
