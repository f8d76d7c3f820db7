// The entry of the ES-module bundle that JupyterLab loads through anywidget: its default export
// is anywidget's render() (bayescomp.book.widgets.BayesCompWidget sets _esm to the built file).
import { mountAnywidget } from './main.js';

export default {
  render({ model, el }) {
    return mountAnywidget(el, model);
  },
};
