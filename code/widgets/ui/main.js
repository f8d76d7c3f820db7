// The bundle's entry: mounts every element with data-widget="<name>" once the page has loaded,
// using the data the package wrote (window.BayesCompWidgetData, from bayescomp-widgets-data.js).
// In JupyterLab, anywidget calls mountAnywidget() with the data sent by the kernel instead.
//
// The figures' facts are the manifest's (code/bayescomp/book/figures.json, published in the data as
// data.figures): none is typed here. A figure's entry names the class that draws it; the
// registry maps that name to the class. build.mjs makes the registry from the manifest (the
// module 'bayescomp:registry': the class of each entry, imported from ui/<name>.js), so
// minifying the bundle renames nothing it needs, and a new figure needs no line here.
import { REGISTRY } from 'bayescomp:registry';
import * as engine from '../engine/index.js';
import { injectStyle } from './style.js';

export { REGISTRY };

/** The class that draws the widget `name` by the manifest in `data`, or undefined. */
export function widgetClass(name, data = globalThis.BayesCompWidgetData) {
  const figure = data && (data.figures || []).find((f) => f.name === name);
  return figure ? REGISTRY[figure.class] : undefined;
}

/** Mount the widget named by el.dataset.widget; returns its hook (el.bcWidget). */
export function mount(el, data = globalThis.BayesCompWidgetData, options = {}) {
  if (el.bcWidget) return el.bcWidget;
  const name = el.dataset.widget;
  if (!data) {
    el.textContent = 'This live figure needs bayescomp-widgets-data.js, which did not load.';
    return null;
  }
  const Widget = widgetClass(name, data);
  if (!Widget) {
    el.textContent = `Unknown widget "${name}"; known: ${data.names.join(', ')}.`;
    return null;
  }
  injectStyle();
  // In a reveal.js deck the URL hash belongs to the slide navigation.
  const hash = options.hash ?? !el.closest('.reveal');
  new Widget(el, data, { ...options, hash, name });
  return el.bcWidget;
}

export function mountAll(root = document) {
  root.querySelectorAll('[data-widget]').forEach((el) => mount(el));
}

/** anywidget's render(): the kernel's data and starting parameters; readouts go back to it. */
export function mountAnywidget(el, model) {
  const div = document.createElement('div');
  div.dataset.widget = model.get('widget');
  el.appendChild(div);
  const hook = mount(div, model.get('data'), {
    hash: false,
    onReadout: (readout) => {
      model.set('readout', JSON.parse(JSON.stringify(readout)));
      model.save_changes();
    },
  });
  const params = model.get('params');
  if (hook && params && Object.keys(params).length) hook.set(params);
  const onParams = () => hook && hook.set(model.get('params'));
  model.on('change:params', onParams);
  return () => {
    model.off('change:params', onParams);
    if (hook) hook.widget.destroy();
  };
}

globalThis.BayesCompWidgets = { mount, mountAll, mountAnywidget, engine, widgetClass, REGISTRY };

// Pages that load the data script get their widgets mounted; anywidget mounts its own.
function autoMount() {
  if (globalThis.BayesCompWidgetData) mountAll();
}
if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoMount);
  else autoMount();
}
