// Colours: the figures' Okabe-Ito palette (from the package), on a light or a dark ground.
// The book theme's dark mode is html[data-theme="dark"]; JupyterLab's is
// body[data-jp-theme-light="false"]. Widgets subscribe and redraw when either changes.

const LIGHT = { ground: '#ffffff', ink: '#1b1b1b', muted: '#5f6368', faint: '#e3e5e8', heat: [0, 0, 0] };
const DARK = { ground: '#15181d', ink: '#e8eaed', muted: '#aab0b8', faint: '#30353c', heat: [255, 255, 255] };

export function isDark() {
  const html = document.documentElement;
  if (html.dataset.theme) return html.dataset.theme === 'dark';
  const lab = document.body && document.body.dataset.jpThemeLight;
  if (lab) return lab === 'false';
  return false;
}

/** The colours for the current mode; black methods (the grid, the target) follow the ink. */
export function currentTheme(data) {
  const base = isDark() ? DARK : LIGHT;
  const colors = {};
  for (const [name, value] of Object.entries(data.method_colors)) {
    colors[name] = value.toLowerCase() === '#000000' ? base.ink : value;
  }
  const palette = { ...data.palette, black: base.ink };
  return { ...base, dark: isDark(), colors, palette, chains: data.chain_colors };
}

const listeners = new Set();
let observer = null;

/** Call `redraw` whenever the page switches between light and dark; returns an unsubscribe. */
export function onThemeChange(redraw) {
  listeners.add(redraw);
  if (!observer && typeof MutationObserver !== 'undefined') {
    observer = new MutationObserver(() => listeners.forEach((fn) => fn()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-mode'] });
    if (document.body) observer.observe(document.body, { attributes: true, attributeFilter: ['data-jp-theme-light'] });
  }
  return () => listeners.delete(redraw);
}
