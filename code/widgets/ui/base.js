// What every widget shares: the frame (title, hint, copy-link button, status line), resizing,
// dark mode, the animation loop (paused out of view, calmer under prefers-reduced-motion),
// the URL hash that holds the state, and the test hook el.bcWidget = {set, run, readout}.
import { currentTheme, onThemeChange } from './theme.js';

const OWN_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ', 'Enter', 'Home', 'End', 'PageUp', 'PageDown', 'Backspace', 'Delete']);
// Keys that only move focus or modify another key: they never leave a widget or enter it.
const FOCUS_KEYS = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);
// Key presses a widget in a deck left to the slides (see Widget.deckKeys): its own keyboard
// handlers ignore them (widgetKey), and reveal.js, on the document, acts on them.
const forDeck = new WeakSet();

/** Whether a widget's own keyboard handler may act on `event` (false: the slides have it). */
export function widgetKey(event) {
  return !forDeck.has(event);
}

/** A text field being typed in keeps its keys, in a deck too. */
function typingIn(element) {
  if (!element) return false;
  if (element.isContentEditable || element.tagName === 'TEXTAREA') return true;
  return element.tagName === 'INPUT' && !['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file'].includes(element.type);
}
const prefersReducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Parse "#name?key=value&..." into {key: value}, or null when the hash is another widget's. */
export function readHash(name, hash = location.hash) {
  const prefix = `#${name}?`;
  if (!hash.startsWith(prefix)) return null;
  const state = {};
  for (const [key, value] of new URLSearchParams(hash.slice(prefix.length))) {
    try {
      state[key] = JSON.parse(value);
    } catch {
      state[key] = value;
    }
  }
  return state;
}

export function hashString(name, state) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    params.set(key, typeof value === 'string' ? value : JSON.stringify(roundDeep(value)));
  }
  return `${name}?${params.toString()}`;
}

/** Numbers in links keep 6 significant digits. */
function roundDeep(value) {
  if (typeof value === 'number') return Number(value.toPrecision(6));
  if (Array.isArray(value)) return value.map(roundDeep);
  return value;
}

export class Widget {
  /**
   * root: the element with data-widget; data: the package's widget data; options:
   * {hash: keep the state in the URL (the website), title, hint}.
   */
  constructor(root, data, { name, title, hint = '', hash = false, onReadout = null } = {}) {
    this.root = root;
    this.data = data;
    this.name = name;
    this.useHash = hash;
    this.onReadout = onReadout;
    this.plots = [];
    this.playing = false;
    this.visible = true;
    this.reducedMotion = prefersReducedMotion();
    this.lastSlowTick = 0;
    this.frameStats = { work: [], frames: [] };
    root.classList.add('bcw');
    root.innerHTML = '';
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', title);
    // In a reveal.js deck: no swipe navigation over the widget; the keys belong to the slides
    // until the presenter enters the widget (deckKeys). Elsewhere, and once entered, the keys
    // the widget uses (arrows, space, enter...) stay with it instead of changing slides.
    root.setAttribute('data-prevent-swipe', '');
    this.deck = root.closest('.reveal');
    root.addEventListener('keydown', (event) => {
      if (OWN_KEYS.has(event.key) && widgetKey(event)) event.stopPropagation();
    });
    this.buildFrame(title, hint);
    if (this.deck) this.deckKeys();
    this.theme = currentTheme(data);
    this.applyThemeClass();
    this.unsubscribeTheme = onThemeChange(() => {
      this.theme = currentTheme(data);
      this.applyThemeClass();
      this.invalidate();
      this.draw();
    });
    root.bcWidget = {
      set: (params) => {
        this.set(params);
        return this.readout();
      },
      run: (steps) => {
        this.run(steps);
        return this.readout();
      },
      readout: () => this.readout(),
      widget: this,
    };
  }

  buildFrame(title, hint) {
    const head = document.createElement('div');
    head.className = 'bcw-head';
    const h = document.createElement('p');
    h.className = 'bcw-title';
    h.textContent = title;
    const hintEl = document.createElement('span');
    hintEl.className = 'bcw-hint';
    hintEl.textContent = hint;
    head.append(h, hintEl);
    if (this.useHash) {
      const copy = document.createElement('button');
      copy.type = 'button';
      copy.textContent = 'Copy link';
      copy.dataset.control = 'copy-link';
      copy.title = 'Copy a link that reopens this figure in its current state';
      copy.addEventListener('click', () => this.copyLink());
      head.appendChild(copy);
    }
    this.body = document.createElement('div');
    this.body.className = 'bcw-body';
    this.status = document.createElement('div');
    this.status.className = 'bcw-status';
    this.status.setAttribute('role', 'status');
    this.root.append(head, this.body, this.status);
  }

  // --- in a deck: the presenter's keys -------------------------------------------------------

  /**
   * On a slide the keyboard belongs to the deck: whatever in the widget has the focus (a
   * button just clicked, a drop-down, a slider, the plot), the presenter's keys and a
   * clicker's (arrows, Page Up/Down, Space, B, ...) go to reveal.js, and the control neither
   * changes nor keeps the focus. Enter on the focused widget hands the keys to the widget, as
   * on a web page, until Esc (or the focus leaves the widget, or the slide changes). A line
   * on the widget says which of the two holds. Leaving the slide pauses the animation, and
   * coming back resumes nothing.
   */
  deckKeys() {
    const root = this.root;
    this.engaged = false;
    root.tabIndex = 0;
    this.keysLine = document.createElement('p');
    this.keysLine.className = 'bcw-keys';
    this.keysLine.setAttribute('aria-live', 'polite');
    root.insertBefore(this.keysLine, this.body);
    root.addEventListener('keydown', (event) => {
      if (typingIn(event.target) || FOCUS_KEYS.has(event.key)) return;
      const plain = !(event.altKey || event.ctrlKey || event.metaKey || event.shiftKey);
      if (this.engaged) {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          this.engage(false);
          return;
        }
        // A clicker has no Esc: its Page Down/Up leave the figure and move the deck at once.
        if (event.key !== 'PageDown' && event.key !== 'PageUp') return;
        this.engage(false);
      }
      if (event.key === 'Enter' && plain) {
        event.preventDefault();
        event.stopPropagation();
        this.engage(true);
        return;
      }
      // Leave the key to the slides: no default action here (a select or slider would
      // change), none of the widget's handlers, and the focus out of the widget, so that
      // reveal.js (which ignores keys while a form field has the focus) acts on it.
      forDeck.add(event);
      event.preventDefault();
      if (root.contains(document.activeElement)) document.activeElement.blur();
    }, true);
    root.addEventListener('focusout', (event) => {
      if (!root.contains(event.relatedTarget)) this.engage(false);
    });
    root.addEventListener('focusin', () => this.showKeys());
    this.deck.addEventListener('slidechanged', (event) => {
      if (event.currentSlide && event.currentSlide.contains(root)) return;
      this.engage(false);
      if (this.playing) this.pause();
    });
    this.showKeys();
  }

  engage(on) {
    if (!this.deck || this.engaged === on) return;
    this.engaged = on;
    this.showKeys();
  }

  showKeys() {
    if (!this.keysLine) return;
    this.root.classList.toggle('bcw-engaged', this.engaged);
    this.keysLine.textContent = this.engaged
      ? 'Keys work the figure · Esc or Page Down/Up: back to the slides'
      : 'Keys move the slides · Enter: keys to the figure';
  }

  applyThemeClass() {
    this.root.classList.toggle('bcw-dark', this.theme.dark);
  }

  column() {
    const col = document.createElement('div');
    col.className = 'bcw-col';
    this.body.appendChild(col);
    return col;
  }

  /** A full-width row below the columns. */
  footer() {
    const row = document.createElement('div');
    row.className = 'bcw-footer';
    this.root.insertBefore(row, this.status);
    return row;
  }

  addPlot(plot) {
    this.plots.push(plot);
    return plot;
  }

  /** Start observing size and visibility; subclasses call this at the end of their constructor. */
  start() {
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => this.layout());
      this.resizeObserver.observe(this.root);
    }
    if (typeof IntersectionObserver !== 'undefined') {
      this.intersection = new IntersectionObserver((entries) => {
        this.visible = entries[entries.length - 1].isIntersecting;
        if (this.visible && this.playing) this.loop();
      });
      this.intersection.observe(this.root);
    }
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && this.playing) this.loop();
    });
    const fromHash = this.useHash ? readHash(this.name) : null;
    if (fromHash) {
      try {
        this.set(fromHash);
      } catch (error) {
        this.say(`Could not restore the link's state: ${error.message}`);
      }
      requestAnimationFrame(() => this.root.scrollIntoView({ block: 'center' }));
    }
    this.layout();
  }

  layout() {
    let changed = false;
    for (const plot of this.plots) changed = plot.resize() || changed;
    if (changed) {
      this.invalidate();
      this.draw();
    }
  }

  /** Forget cached drawings (after a resize or a theme change). */
  invalidate() {}

  say(text) {
    this.status.textContent = text;
    this.status.classList.remove('bcw-error');
  }

  /**
   * Run `fn`, showing an error in the status line instead of breaking the page; the error is
   * also reported as uncaught (the console shows it, and the browser tests fail on it).
   */
  guard(fn) {
    try {
      return fn();
    } catch (error) {
      this.say(`Error: ${error.message}`);
      this.status.classList.add('bcw-error');
      if (typeof reportError === 'function') reportError(error);
      return undefined;
    }
  }

  /** Run an update under guard(), time it (this.updateMs), and report it when it is final. */
  timedUpdate(final, update) {
    this.guard(() => {
      const started = performance.now();
      update();
      this.updateMs = performance.now() - started;
      if (final) this.changed();
    });
  }

  // --- animation ---------------------------------------------------------------------------

  play() {
    this.playing = true;
    this.showPlaying();
    this.loop();
    this.changed();
  }

  pause() {
    this.playing = false;
    this.showPlaying();
    this.changed();
  }

  /** A Play/Pause toggle button, if the widget made one (this.playButton), shows the state. */
  showPlaying() {
    if (!this.playButton) return;
    this.playButton.textContent = this.playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-pressed', String(this.playing));
  }

  /**
   * The frame loop. Out of view (or in a hidden tab) it stops; the observers restart it.
   * Under prefers-reduced-motion it redraws twice a second, doing the same work per second.
   */
  loop() {
    if (this.raf) return;
    const frame = (time) => {
      this.raf = null;
      if (!this.playing || !this.visible || document.hidden) return;
      const started = performance.now();
      if (this.reducedMotion) {
        if (time - this.lastSlowTick >= 500) {
          this.lastSlowTick = time;
          this.guard(() => this.tick(30));
        }
      } else {
        this.guard(() => this.tick(1));
      }
      // Frame timings for the benchmark (tools/benchmarks/widgets.py): work per frame, frame times.
      const stats = this.frameStats;
      stats.work.push(performance.now() - started);
      stats.frames.push(time);
      if (stats.work.length > 4000) {
        stats.work.splice(0, 2000);
        stats.frames.splice(0, 2000);
      }
      if (this.playing) this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  /** One animation frame doing `frames` frames' worth of work (subclasses). */
  tick() {}

  // --- state -------------------------------------------------------------------------------

  /** Call after any change of state: refresh the hash and tell a listener (anywidget). */
  changed() {
    if (this.useHash) {
      clearTimeout(this.hashTimer);
      this.hashTimer = setTimeout(() => {
        try {
          history.replaceState(null, '', `#${hashString(this.name, this.state())}`);
        } catch {
          // file:// pages in some browsers refuse replaceState; the copy-link button still works.
        }
      }, 300);
    }
    if (this.onReadout) {
      clearTimeout(this.readoutTimer);
      this.readoutTimer = setTimeout(() => this.onReadout(this.readout()), 250);
    }
  }

  link() {
    return `${location.href.split('#')[0]}#${hashString(this.name, this.state())}`;
  }

  async copyLink() {
    const url = this.link();
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      const area = document.createElement('textarea');
      area.value = url;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
      area.remove();
    }
    try {
      history.replaceState(null, '', url);
    } catch {
      // ignore: see changed()
    }
    this.say(copied ? 'Link copied: it reopens this figure as it is now.' : `Copy this link: ${url}`);
    this.lastLink = url;
  }

  /** Stop everything (anywidget calls this when the cell's output is cleared). */
  destroy() {
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    if (this.resizeObserver) this.resizeObserver.disconnect();
    if (this.intersection) this.intersection.disconnect();
    this.unsubscribeTheme();
  }

  // --- the hook ----------------------------------------------------------------------------

  /**
   * After set(next): reset() the widget, and keep playing if it was (unless next.playing is
   * false), or start when next.playing is true.
   */
  restart(next) {
    const wasPlaying = this.playing;
    this.reset();
    if (wasPlaying && next.playing !== false) this.play();
    if (next.playing === true) this.play();
    if (next.playing === false && this.playing) this.pause();
  }

  /** Subclasses: state() -> JSON-able state, set(params), run(steps), readout(), draw(). */
  state() {
    return {};
  }

  run() {}

  /** This widget's manifest entry (bayescomp/book/figures.json, published as data.figures), or undefined. */
  get figure() {
    return (this.data.figures || []).find((f) => f.name === this.name);
  }

  /**
   * The figure's own settings: its manifest entry's optional "settings" object (ranges,
   * defaults, presets that no other code needs), else {}. Settings the package shares with a
   * figure (thresholds, the lecture's run lengths) stay in data.widgets.
   */
  get figureSettings() {
    return (this.figure && this.figure.settings) || {};
  }

  /**
   * The state a still image of the widget shows (the decks' stills, RISE, the PDF) and the
   * checks run it to: the figure's whole run, as many steps as its manifest entry says
   * (bayescomp/book/figures.json, published as data.figures[].still_steps), else the state it opens
   * in. Returns the number of steps run.
   */
  still() {
    const steps = this.figure ? this.figure.still_steps : 0;
    if (steps) this.run(steps);
    return steps;
  }

  readout() {
    return {};
  }

  draw() {}
}

/**
 * Keyboard and pointer handling for one draggable point on a plot. get() returns [x, y];
 * move([x, y], final) is called while dragging (final=false) and on release (final=true).
 * Arrow keys move by `step` data units (Shift: 5 times as far) when the canvas has focus.
 */
export function draggablePoint(plot, { get, move, step = () => [0.05, 0.05], grab = 28, jump = true }) {
  const canvas = plot.canvas;
  let dragging = false;
  const near = (event) => {
    const { px, py } = plot.pointer(event);
    const [x, y] = get();
    return Math.hypot(plot.x(x) - px, plot.y(y) - py) <= grab;
  };
  canvas.addEventListener('pointerdown', (event) => {
    if (!jump && !near(event)) return;
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    move(plot.pointer(event).value, false);
    event.preventDefault();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (dragging) move(plot.pointer(event).value, false);
  });
  const release = (event) => {
    if (!dragging) return;
    dragging = false;
    move(plot.pointer(event).value, true);
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('keydown', (event) => {
    const keys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const d = keys[event.key];
    if (!d || !widgetKey(event)) return;
    event.preventDefault();
    const [sx, sy] = step();
    const k = event.shiftKey ? 5 : 1;
    const [x, y] = get();
    move([x + d[0] * sx * k, y + d[1] * sy * k], true);
  });
}

/** set()'s parameters with a named preset's values under them (an unknown name is an error). */
export function withPreset(presets, params) {
  if (!params.preset) return { ...params };
  if (!presets[params.preset]) throw new Error(`unknown preset "${params.preset}"; known: ${Object.keys(presets).join(', ')}`);
  return { ...presets[params.preset], ...params };
}

/** Clamp a point into a box [[x0, x1], [y0, y1]]. */
export function clampPoint([x, y], box) {
  return [Math.min(box[0][1], Math.max(box[0][0], x)), Math.min(box[1][1], Math.max(box[1][0], y))];
}
