// Labelled, keyboard-operable controls built from native elements (range inputs, selects,
// buttons), so arrow keys, Home/End and Tab work everywhere and screen readers name them.

let counter = 0;
const uid = (stem) => `bcw-${stem}-${(counter += 1)}`;

/** A <div class="bcw-controls"> grid: label | control | value. */
export function controlPanel(parent) {
  const panel = document.createElement('div');
  panel.className = 'bcw-controls';
  parent.appendChild(panel);
  return panel;
}

/**
 * A slider. With log: true the thumb moves on log(value) in `steps` even steps; the value shown
 * and returned is always the real one. onInput fires while dragging, onChange on release.
 */
export function slider(panel, { label, min, max, value, step = null, log = false, steps = 200, format = String, onInput, onChange, name }) {
  const id = uid(name || 'slider');
  const labelEl = document.createElement('label');
  labelEl.htmlFor = id;
  labelEl.textContent = label;
  const input = document.createElement('input');
  input.type = 'range';
  input.id = id;
  input.dataset.control = name || label;
  const output = document.createElement('output');
  output.htmlFor = id;
  const toValue = (position) => (log ? Math.exp(Math.log(min) + (position / steps) * (Math.log(max) - Math.log(min))) : position);
  const toPosition = (v) => (log ? (steps * (Math.log(v) - Math.log(min))) / (Math.log(max) - Math.log(min)) : v);
  if (log) {
    input.min = 0;
    input.max = steps;
    input.step = 1;
  } else {
    input.min = min;
    input.max = max;
    input.step = step ?? (max - min) / steps;
  }
  let current = value;
  const show = () => {
    output.textContent = format(current);
    input.setAttribute('aria-valuetext', format(current));
  };
  const read = () => {
    current = toValue(Number(input.value));
    if (!log && step) current = Math.round(current / step) * step;
    show();
    return current;
  };
  input.value = toPosition(value);
  show();
  input.addEventListener('input', () => onInput && onInput(read()));
  input.addEventListener('change', () => onChange && onChange(read()));
  panel.append(labelEl, input, output);
  return {
    input,
    get value() {
      return current;
    },
    set(v) {
      current = Math.min(max, Math.max(min, v));
      input.value = toPosition(current);
      show();
    },
    /** Grey the slider out while it has no effect (the other sampler's setting). */
    enable(on) {
      input.disabled = !on;
      for (const el of [labelEl, output]) el.classList.toggle('bcw-off', !on);
    },
  };
}

/** A labelled <select>; options are [value, text] pairs. */
export function select(panel, { label, options, value, onChange, name }) {
  const id = uid(name || 'select');
  const labelEl = document.createElement('label');
  labelEl.htmlFor = id;
  labelEl.textContent = label;
  const el = document.createElement('select');
  el.id = id;
  el.dataset.control = name || label;
  for (const [v, text] of options) {
    const option = document.createElement('option');
    option.value = v;
    option.textContent = text;
    el.appendChild(option);
  }
  el.value = value;
  el.addEventListener('change', () => onChange(el.value));
  panel.append(labelEl, el); // a drop-down has no readout: it spans that column too (style.js)
  return {
    el,
    get value() {
      return el.value;
    },
    set(v) {
      el.value = v;
    },
  };
}

/** A row of buttons spanning the panel. */
export function buttonRow(panel) {
  const row = document.createElement('div');
  row.className = 'bcw-buttons';
  panel.appendChild(row);
  return row;
}

export function button(row, { label, onClick, name, toggle = false, title = '' }) {
  const el = document.createElement('button');
  el.type = 'button';
  el.textContent = label;
  el.dataset.control = name || label;
  if (title) el.title = title;
  if (toggle) el.setAttribute('aria-pressed', 'false');
  el.addEventListener('click', onClick);
  row.appendChild(el);
  return el;
}

/** Big-number readouts: a grid of labelled values. Returns {set(key, text, className)}. */
export function bigReadouts(parent, items) {
  const box = document.createElement('div');
  box.className = 'bcw-big';
  box.setAttribute('aria-live', 'polite');
  const cells = {};
  for (const [key, label] of items) {
    const cell = document.createElement('div');
    const name = document.createElement('span');
    name.textContent = label;
    const value = document.createElement('b');
    value.dataset.readout = key;
    cell.append(name, value);
    box.appendChild(cell);
    cells[key] = value;
  }
  parent.appendChild(box);
  return {
    set(key, text, className = '') {
      cells[key].textContent = text;
      cells[key].className = className;
    },
  };
}

/**
 * A table readout: header row and rows of cells, rewritten in place. With transposeOnSlides,
 * on a slide (narrow columns at a large size) the rows become the columns.
 */
export function tableReadout(parent, caption, { transposeOnSlides = false } = {}) {
  const box = document.createElement('div');
  box.className = 'bcw-readout';
  // The box scrolls sideways when the table is wider than a phone: keyboard users reach it too.
  box.tabIndex = 0;
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', caption);
  const table = document.createElement('table');
  table.setAttribute('aria-label', caption);
  box.appendChild(table);
  parent.appendChild(box);
  const transpose = transposeOnSlides && Boolean(parent.closest('.reveal'));
  return {
    box,
    set(header, rows) {
      if (transpose) {
        const text = (cell) => (Array.isArray(cell) ? cell[0] : cell);
        [header, rows] = [[header[0], ...rows.map((row) => text(row[0]))],
          header.slice(1).map((name, j) => [name, ...rows.map((row) => row[j + 1])])];
      }
      const html = ['<thead><tr>'];
      // An empty corner is a plain cell: an empty header would name nothing for a screen reader.
      for (const h of header) html.push(h === '' ? '<td></td>' : `<th scope="col">${h}</th>`);
      html.push('</tr></thead><tbody>');
      for (const row of rows) {
        html.push('<tr>');
        row.forEach((cell, i) => {
          const [text, cls] = Array.isArray(cell) ? cell : [cell, ''];
          html.push(i === 0 ? `<th scope="row">${text}</th>` : `<td class="${cls}">${text}</td>`);
        });
        html.push('</tr>');
      }
      html.push('</tbody>');
      table.innerHTML = html.join('');
    },
  };
}

/** A legend line: [colour, text, dashed] entries. */
export function legend(parent, entries) {
  const box = document.createElement('div');
  box.className = 'bcw-legend';
  parent.appendChild(box);
  const set = (items) => {
    box.innerHTML = '';
    for (const [color, text, dashed] of items) {
      const item = document.createElement('span');
      const swatch = document.createElement('i');
      swatch.style.borderTopColor = color;
      if (dashed) swatch.className = 'bcw-dash';
      item.append(swatch, document.createTextNode(text));
      box.appendChild(item);
    }
  };
  set(entries);
  return { set };
}

/** Format a number with d significant decimals, a true minus sign and no "-0". */
export function fmt(value, digits = 3) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text.replace('-', '−');
}

/** An R-hat for a table: three decimals near 1; above 10 only "> 10", since chains that never
 * moved give values with fifteen digits that say nothing more and would widen the table. */
export function fmtRhat(value) {
  return value > 10 ? '> 10' : fmt(value, 3);
}

/** "mean ± spread" for a table; a spread of 100 or more (chains that barely moved make the MCSE
 * explode) prints as "> 100", which says as much in fewer characters. */
export function fmtPlusMinus(mean, spread, digits = 2) {
  return `${fmt(mean, digits)} ± ${spread >= 100 ? '> 100' : fmt(spread, digits)}`;
}
