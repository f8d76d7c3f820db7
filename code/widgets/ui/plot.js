// A small canvas plot: data-to-pixel scales, axes with d3's ticks, contours from d3-contour,
// and pointer positions that stay right under CSS scaling (reveal.js scales whole slides).
import { ticks } from 'd3-array';
import { contours } from 'd3-contour';

import { ellipsePoints } from '../engine/linalg.js';

const FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
// Text painted on a plot, in CSS px: 12 on a page; 22 on a slide, the size of the figure's
// other text there, above the 20 px the back of a hall needs (the plot's margins grow with it).
const FONT_PX = { page: 12, deck: 22 };

/**
 * How many screen pixels one CSS pixel of `element` covers. In a reveal.js deck that is
 * Reveal.getScale(); elsewhere it is measured (any CSS transform or zoom on the way up).
 */
export function pointerScale(element) {
  const reveal = typeof window !== 'undefined' && window.Reveal;
  if (reveal && typeof reveal.getScale === 'function' && element.closest('.reveal')) {
    const scale = reveal.getScale();
    if (scale > 0) return scale;
  }
  const rect = element.getBoundingClientRect();
  return element.offsetWidth ? rect.width / element.offsetWidth : 1;
}

export class Plot {
  /**
   * parent: the element to fill; aspect: height / width (or a fixed height in px);
   * label: the accessible description; margin: {left, right, top, bottom} in CSS px.
   */
  /**
   * deck: the sizes to use on a slide instead ({aspect, height, minHeight, maxHeight}); by
   * default a plot on a slide is 0.72 times as tall at most, so the whole widget fits.
   */
  constructor(parent, { aspect = 0.8, height = null, minHeight = 0, maxHeight = Infinity, label = '', margin = {}, focusable = false, deck = null } = {}) {
    const onSlide = Boolean(parent.closest('.reveal'));
    if (onSlide) ({ aspect = aspect, height = height, minHeight = minHeight, maxHeight = maxHeight * 0.72 } = deck || {});
    this.box = document.createElement('div');
    this.box.className = 'bcw-plot';
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', label);
    if (focusable) this.canvas.tabIndex = 0;
    this.box.appendChild(this.canvas);
    parent.appendChild(this.box);
    this.aspect = aspect;
    this.fixedHeight = height;
    this.minHeight = minHeight;
    this.maxHeight = maxHeight;
    this.onSlide = onSlide;
    this.fontPx = onSlide ? FONT_PX.deck : FONT_PX.page;
    const grow = this.fontPx / FONT_PX.page;
    // (room on the right for half the last tick label)
    const margins = { left: 46, right: 10, top: 10, bottom: 34, ...margin };
    if (onSlide) margins.right = Math.max(margins.right, 16);
    this.margin = Object.fromEntries(Object.entries(margins).map(([side, px]) => [side, Math.round(px * grow)]));
    this.ctx = this.canvas.getContext('2d');
    this.width = 0;
    this.height = 0;
    this.xDomain = [0, 1];
    this.yDomain = [0, 1];
  }

  /** Match the canvas to its box and the device's pixel ratio; true when the size changed. */
  resize() {
    // The box's width in CSS px, unrounded (clientWidth rounds, up as well), so the canvas
    // never gets squeezed below the size its text is set at.
    const boxWidth = this.box.getBoundingClientRect().width / pointerScale(this.box);
    const width = Math.max(120, Math.floor(boxWidth || 300));
    let height = this.fixedHeight || Math.round(width * this.aspect);
    const cap = this.maxHeight;
    height = Math.max(Math.min(this.minHeight, cap), Math.min(cap, height));
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    if (width === this.width && height === this.height && ratio === this.ratio) return false;
    Object.assign(this, { width, height, ratio });
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;   // one canvas px per CSS px: text as large as set
    this.canvas.style.height = `${height}px`;
    this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return true;
  }

  setDomain(xDomain, yDomain) {
    this.xDomain = xDomain;
    this.yDomain = yDomain;
  }

  get inner() {
    const m = this.margin;
    return { left: m.left, top: m.top, right: this.width - m.right, bottom: this.height - m.bottom };
  }

  x(value) {
    const { left, right } = this.inner;
    return left + ((value - this.xDomain[0]) / (this.xDomain[1] - this.xDomain[0])) * (right - left);
  }

  y(value) {
    const { top, bottom } = this.inner;
    return bottom - ((value - this.yDomain[0]) / (this.yDomain[1] - this.yDomain[0])) * (bottom - top);
  }

  invert(px, py) {
    const { left, right, top, bottom } = this.inner;
    return [
      this.xDomain[0] + ((px - left) / (right - left)) * (this.xDomain[1] - this.xDomain[0]),
      this.yDomain[0] + ((bottom - py) / (bottom - top)) * (this.yDomain[1] - this.yDomain[0]),
    ];
  }

  /** Pointer event -> CSS pixels in the canvas and data coordinates. */
  pointer(event) {
    const rect = this.canvas.getBoundingClientRect();
    const scale = pointerScale(this.canvas);
    const px = (event.clientX - rect.left) / scale;
    const py = (event.clientY - rect.top) / scale;
    return { px, py, value: this.invert(px, py) };
  }

  clear(theme) {
    const { ctx } = this;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = theme.ground;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.restore();
  }

  /** Clip later drawing to the plotting area (call restore() after). */
  clip() {
    const { left, right, top, bottom } = this.inner;
    this.ctx.save();
    this.ctx.beginPath();
    this.ctx.rect(left, top, right - left, bottom - top);
    this.ctx.clip();
  }

  restore() {
    this.ctx.restore();
  }

  /**
   * At most `count` ticks on x whose labels, as painted, keep a font size's gap between them
   * (the rough count above cannot know that "1400" is wider than "0.5").
   */
  xTicks(count) {
    const gapPx = this.fontPx;
    for (let n = count; ; n -= 1) {
      const ts = ticks(this.xDomain[0], this.xDomain[1], n);
      if (n <= 2 || ts.length < 2) return ts;
      const apart = Math.abs(this.x(ts[1]) - this.x(ts[0]));
      const widest = Math.max(...ts.map((t) => this.ctx.measureText(formatTick(t)).width));
      if (widest + gapPx <= apart) return ts;
    }
  }

  get font() {
    return `${this.fontPx}px ${FAMILY}`;
  }

  axes(theme, { xLabel = '', yLabel = '', xCount = 6, yCount = 5, gridLines = false, yTickLabels = true } = {}) {
    const { ctx } = this;
    const { left, right, top, bottom } = this.inner;
    const gap = Math.round(this.fontPx / 2);
    // No more ticks than their labels have room for (at most 4 characters' width apart on x,
    // two lines apart on y).
    xCount = Math.max(2, Math.min(xCount, Math.floor((right - left) / (this.fontPx * 3.2))));
    yCount = Math.max(2, Math.min(yCount, Math.floor((bottom - top) / (this.fontPx * 1.6))));
    ctx.save();
    ctx.font = this.font;
    // Tick labels in the ink colour on a slide, where a projector washes out grey.
    ctx.fillStyle = this.onSlide ? theme.ink : theme.muted;
    ctx.strokeStyle = theme.muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(left + 0.5, top + 0.5, right - left - 1, bottom - top - 1);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of this.xTicks(xCount)) {
      const px = Math.round(this.x(t)) + 0.5;
      if (gridLines) this.gridLine(theme, px, top, px, bottom);
      ctx.beginPath();
      ctx.moveTo(px, bottom);
      ctx.lineTo(px, bottom + 4);
      ctx.stroke();
      ctx.fillText(formatTick(t), px, bottom + gap);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of ticks(this.yDomain[0], this.yDomain[1], yCount)) {
      const py = Math.round(this.y(t)) + 0.5;
      if (gridLines) this.gridLine(theme, left, py, right, py);
      ctx.beginPath();
      ctx.moveTo(left - 4, py);
      ctx.lineTo(left, py);
      ctx.stroke();
      if (yTickLabels) ctx.fillText(formatTick(t), left - gap, py);
    }
    ctx.fillStyle = theme.ink;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    if (xLabel) ctx.fillText(xLabel, (left + right) / 2, this.height - 2);
    if (yLabel) {
      ctx.translate(this.fontPx, (top + bottom) / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textBaseline = 'middle';
      ctx.fillText(yLabel, 0, 0);
    }
    ctx.restore();
  }

  gridLine(theme, x0, y0, x1, y1) {
    const { ctx } = this;
    ctx.save();
    ctx.strokeStyle = theme.faint;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.restore();
  }

  /** A polyline through data points [[x, y], ...] or parallel arrays xs, ys. */
  line(xs, ys, { color, width = 1.5, dash = [], alpha = 1 } = {}) {
    const { ctx } = this;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.globalAlpha = alpha;
    ctx.setLineDash(dash);
    ctx.beginPath();
    for (let i = 0; i < xs.length; i += 1) {
      const px = this.x(xs[i]);
      const py = this.y(ys[i]);
      if (i === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    ctx.stroke();
    ctx.restore();
  }

  polyline(points, style) {
    this.line(points.map((p) => p[0]), points.map((p) => p[1]), style);
  }

  ellipse(mean, cov, style, nSd = 2) {
    this.polyline(ellipsePoints(mean, cov, nSd), style);
  }

  /** A marker: 'circle', 'square', 'diamond', 'cross' (x) or 'plus'. */
  marker(x, y, { shape = 'circle', size = 5, color, fill = true, width = 2 } = {}) {
    const { ctx } = this;
    const px = this.x(x);
    const py = this.y(y);
    ctx.save();
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = width;
    ctx.beginPath();
    if (shape === 'circle') ctx.arc(px, py, size, 0, 2 * Math.PI);
    else if (shape === 'square') ctx.rect(px - size, py - size, 2 * size, 2 * size);
    else if (shape === 'diamond') {
      ctx.moveTo(px, py - size * 1.3);
      ctx.lineTo(px + size, py);
      ctx.lineTo(px, py + size * 1.3);
      ctx.lineTo(px - size, py);
      ctx.closePath();
    } else if (shape === 'cross') {
      ctx.moveTo(px - size, py - size);
      ctx.lineTo(px + size, py + size);
      ctx.moveTo(px - size, py + size);
      ctx.lineTo(px + size, py - size);
    } else if (shape === 'plus') {
      ctx.moveTo(px - size, py);
      ctx.lineTo(px + size, py);
      ctx.moveTo(px, py - size);
      ctx.lineTo(px, py + size);
    }
    if (fill && shape !== 'cross' && shape !== 'plus') ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  /** A draggable handle: a ring with a dot, larger when focused. */
  handle(x, y, color, theme, active = false) {
    this.marker(x, y, { shape: 'circle', size: active ? 11 : 9, color: theme.ground, fill: true, width: 1 });
    this.marker(x, y, { shape: 'circle', size: active ? 11 : 9, color, fill: false, width: 3 });
    this.marker(x, y, { shape: 'circle', size: 2.5, color, fill: true, width: 1 });
  }

  /** The density as a translucent image, then contour lines at the given levels. */
  density(grid, theme, { levels = [], color, heat = true } = {}) {
    const [a0, a1] = grid.axes;
    const m0 = a0.length;
    const m1 = a1.length;
    const values = new Float64Array(m0 * m1); // x fastest, y upward, for d3-contour and the image
    let top = 0;
    for (let i = 0; i < m0; i += 1) {
      for (let j = 0; j < m1; j += 1) {
        const w = grid.weights[i * m1 + j];
        values[j * m0 + i] = w;
        if (w > top) top = w;
      }
    }
    const step0 = a0[1] - a0[0];
    const step1 = a1[1] - a1[0];
    this.clip();
    if (heat && top > 0) this.heat(values, m0, m1, top, theme, [a0[0] - step0 / 2, a0[m0 - 1] + step0 / 2], [a1[0] - step1 / 2, a1[m1 - 1] + step1 / 2]);
    const { ctx } = this;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.2;
    for (const shape of contours().size([m0, m1]).thresholds(levels.map((l) => l * top))(values)) {
      ctx.beginPath();
      for (const polygon of shape.coordinates) {
        for (const ring of polygon) {
          ring.forEach(([gx, gy], k) => {
            const px = this.x(a0[0] + (gx - 0.5) * step0);
            const py = this.y(a1[0] + (gy - 0.5) * step1);
            if (k === 0) ctx.moveTo(px, py);
            else ctx.lineTo(px, py);
          });
        }
      }
      ctx.stroke();
    }
    this.restore();
  }

  heat(values, m0, m1, top, theme, xSpan, ySpan) {
    if (!this.heatCanvas) this.heatCanvas = document.createElement('canvas');
    const off = this.heatCanvas;
    off.width = m0;
    off.height = m1;
    const octx = off.getContext('2d');
    const image = octx.createImageData(m0, m1);
    const [r, g, b] = theme.heat;
    for (let j = 0; j < m1; j += 1) {
      for (let i = 0; i < m0; i += 1) {
        const k = 4 * ((m1 - 1 - j) * m0 + i);
        image.data[k] = r;
        image.data[k + 1] = g;
        image.data[k + 2] = b;
        image.data[k + 3] = Math.round(70 * Math.sqrt(values[j * m0 + i] / top));
      }
    }
    octx.putImageData(image, 0, 0);
    const { ctx } = this;
    ctx.imageSmoothingEnabled = true;
    const x0 = this.x(xSpan[0]);
    const y0 = this.y(ySpan[1]);
    ctx.drawImage(off, x0, y0, this.x(xSpan[1]) - x0, this.y(ySpan[0]) - y0);
  }

  /**
   * Draw the background once and reuse it: `paint` draws on the canvas the first time for a
   * given key (and after a resize or forget()); later calls copy the saved pixels back.
   */
  cached(key, paint) {
    const fresh = this.cacheKey === key && this.saved && this.saved.width === this.canvas.width
      && this.saved.height === this.canvas.height;
    if (fresh) {
      this.ctx.save();
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      this.ctx.drawImage(this.saved, 0, 0);
      this.ctx.restore();
      return;
    }
    paint();
    if (!this.saved) this.saved = document.createElement('canvas');
    this.saved.width = this.canvas.width;
    this.saved.height = this.canvas.height;
    this.saved.getContext('2d').drawImage(this.canvas, 0, 0);
    this.cacheKey = key;
  }

  forget() {
    this.cacheKey = null;
  }

  /** Text in CSS pixels, e.g. a corner note. */
  text(string, px, py, { color, align = 'left', baseline = 'top' } = {}) {
    const { ctx } = this;
    ctx.save();
    ctx.font = this.font;
    ctx.fillStyle = color;
    ctx.textAlign = align;
    ctx.textBaseline = baseline;
    ctx.fillText(string, px, py);
    ctx.restore();
  }
}

function formatTick(value) {
  const rounded = Math.round(value * 1e6) / 1e6;
  if (Math.abs(rounded) >= 1e4 && rounded % 1000 === 0) return `${rounded / 1000}k`;
  return String(rounded).replace('-', '−');
}

/** Contour levels at the densities of a Gaussian's 1, 2 and 3 sd ellipses, relative to the peak. */
export const SD_LEVELS = [3, 2, 1].map((k) => Math.exp(-0.5 * k * k));
