// TeX to SVG with MathJax 3 in Node, for tools/website/prerendered_math.py (not run by hand).
//
// Usage: node prerender_math.cjs MATHJAX_ES5_DIR < request.json > answer.json
//   request: {"tex": {TeX configuration: macros, ...}, "pages": [[{"tex": "...", "display": bool}, ...], ...]}
//   answer:  {"css": "...", "pages": [{"math": ["<mjx-container ...>", ...], "cache": "<svg ...>",
//            "errors": ["...", ...]}, ...]}
//
// MathJax is the npm lock's `mathjax` package (tools/npm), the same build the pages loaded
// before, with the same input (TeX, every extension) and output (SVG). Each page is typeset as
// the browser would: TeX's labels start afresh for each page (macros a page defined with
// \newcommand would carry over to the next; the book's pages define none), and the glyphs a page uses are defined once, in one hidden <svg> per page (the "global" font cache)
// that every formula of the page refers to. Every formula carries its MathML for assistive
// technology (MathJax's assistive-mml extension), hidden from sight, and its SVG is hidden from
// screen readers. Undefined macros are errors here (not red text on the page).
'use strict';
const fs = require('fs');
const path = require('path');

const {compact, selfClose, COMPACT_CSS} = require('./mathjax_svg.cjs');

// A page's glyphs renamed from MathJax's ids ("MJX-TEX-I-1D462", each written wherever the
// glyph is used) to short ones ("MJ2k"), in the order they are defined: unique in the page,
// since Sphinx's own ids are lower case.
function shortIds(defs) {
  const names = new Map();
  for (const [, id] of defs.matchAll(/ id="(MJX-[^"]+)"/g)) names.set(id, `MJ${names.size.toString(36)}`);
  const rename = (html) => html.replace(/( id="|href="#)(MJX-[^"]+)"/g,
    (all, before, id) => (names.has(id) ? `${before}${names.get(id)}"` : all));
  return {text: defs, rename};
}

const mathjaxDir = path.resolve(process.argv[2]);
const request = JSON.parse(fs.readFileSync(0, 'utf8'));
const errors = [];

require(path.join(mathjaxDir, 'node-main.js')).init({
  loader: {
    paths: {mathjax: mathjaxDir},
    load: ['adaptors/liteDOM', 'input/tex-full', 'output/svg', 'a11y/assistive-mml'],
  },
  tex: {
    ...request.tex,
    packages: {'[-]': ['noundefined']},
    formatError(jax, error) {
      errors.push(error.message);
      return jax.formatError(error);
    },
  },
  svg: {fontCache: 'global'},
  startup: {typeset: false},
}).then((MathJax) => {
  const adaptor = MathJax.startup.adaptor;
  const typesetOne = ({tex, display}) => {
    const node = MathJax.tex2svg(tex, {display});
    compact(node);
    return selfClose(adaptor.outerHTML(node));
  };
  const fontCache = MathJax.startup.document.outputJax.fontCache;
  const pages = request.pages.map((formulas) => {
    MathJax.texReset();
    fontCache.clearCache();
    errors.length = 0;
    const long = formulas.map(typesetOne);
    const ids = shortIds(selfClose(adaptor.outerHTML(fontCache.getCache())));
    const defs = ids.rename(ids.text);
    const math = long.map(ids.rename);
    const cache = formulas.length === 0 ? '' :
      '<svg id="MJX-SVG-global-cache" style="display: none;" aria-hidden="true" ' +
      `xmlns="http://www.w3.org/2000/svg">${defs}</svg>`;
    return {math, cache, errors: [...errors]};
  });
  const css = adaptor.textContent(MathJax.svgStylesheet())
    .replace(/use\[data-c\]/g, 'use') + COMPACT_CSS;
  process.stdout.write(JSON.stringify({css, pages}));
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
