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

// What a page does not need of MathJax's SVG, which is written once per formula (hundreds on a
// chapter): the names of the MathML nodes and characters (data-*: for MathJax's own menus and
// explorer, which do not run here; the table and error nodes keep theirs, for the styles), the
// groups left with no attribute then, namespaces and attributes the HTML parser supplies or
// only old browsers read, and the colours and position every formula repeats (COMPACT_CSS
// gives them instead). What is drawn, and the MathML for screen readers, stay as they were.
const KEEP_NODE = new Set(['mtable', 'mtr', 'mlabeledtr', 'merror']);
const DROP = ['data-c', 'data-mjx-texclass', 'focusable', 'role', 'xmlns', 'xmlns:xlink', 'unselectable'];
const COMPACT_CSS = `
mjx-container[jax="SVG"] { position: relative; }
mjx-container[jax="SVG"] > svg { stroke: currentColor; fill: currentColor; stroke-width: 0; }
`;

function compact(node, top = true) {
  const attributes = node.attributes || {};
  for (const name of DROP) delete attributes[name];
  if (attributes['data-mml-node'] && !KEEP_NODE.has(attributes['data-mml-node'])) {
    delete attributes['data-mml-node'];
  }
  if (attributes['xlink:href']) {
    attributes.href = attributes['xlink:href'];
    delete attributes['xlink:href'];
  }
  if (node.kind === 'mjx-container') delete attributes.style;
  if (node.kind === 'g' && attributes.fill === 'currentColor' && attributes.stroke === 'currentColor'
      && attributes['stroke-width'] === '0') {
    delete attributes.fill; delete attributes.stroke; delete attributes['stroke-width'];
  }
  if (!node.children) return;
  node.children.forEach((child) => compact(child, false));
  node.children = node.children.flatMap((child) => {
    if (child.kind !== 'g') return [child];
    const keys = Object.keys(child.attributes);
    if (keys.length === 0) {   // a group that does nothing
      child.children.forEach((grandchild) => { grandchild.parent = node; });
      return child.children;
    }
    // A glyph moved by its own group: the move as the glyph's x and y.
    const move = keys.length === 1 && /^translate\(([-\d.]+),([-\d.]+)\)$/.exec(child.attributes.transform || '');
    const only = child.children.length === 1 && child.children[0];
    if (move && only && only.kind === 'use' && !('x' in only.attributes || 'y' in only.attributes
                                                 || 'transform' in only.attributes)) {
      if (move[1] !== '0') only.attributes.x = move[1];
      if (move[2] !== '0') only.attributes.y = move[2];
      only.parent = node;
      return [only];
    }
    return [child];
  });
  if (node.kind === 'mjx-assistive-mml' && attributes.display === 'inline') delete attributes.display;
}

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

// SVG's empty elements closed as XML allows inside HTML ("<use .../>", not "<use ...></use>").
const selfClose = (html) => html.replace(/><\/(use|rect|line|path)>/g, '/>');

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
