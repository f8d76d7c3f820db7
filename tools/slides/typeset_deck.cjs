// A deck's math typeset once, when the deck is built, for tools/slides/build.py (not run by hand).
//
// Usage: node typeset_deck.cjs MATHJAX_ES5_DIR DECK.html [DECK.html ...]   (each rewritten in place)
//
// The deck's browser used to load MathJax 3 (tex-svg-full.js, 2.2 MB) and typeset the slides on
// every view. Here the same MathJax (the npm lock's), with the same TeX settings the deck gave it,
// finds and typesets the formulas of the whole page (slides, tables, speaker notes) as the
// browser's did, through its own page handler on a lite DOM, and writes them into the HTML as
// SVG, with MathJax's styles in the head; the deck then needs no math script at all.
//
// As in the browser, each formula carries its MathML for screen readers (MathJax's
// assistive-mml, hidden from sight). The glyphs are drawn once per page, in one hidden <svg>
// that every formula refers to (the "global" font cache: a "local" one, a copy per formula,
// made a deck 25 % heavier); the deck's script draws the notes' glyphs in place before the
// speaker view copies them to its window. A formula MathJax cannot typeset
// (an unknown macro, a missing brace) fails the build, naming it: no script is left to show red
// text instead.
'use strict';
const fs = require('fs');
const path = require('path');

const {compact, selfClose, COMPACT_CSS} = require('../website/mathjax_svg.cjs');

const [mathjaxDir, ...decks] = process.argv.slice(2).map((p) => path.resolve(p));
// MathJax's scripts as the deck template wrote them; the deck loads neither any more.
const SCRIPTS = /[ \t]*<script>\s*window\.MathJax = [\s\S]*?<\/script>\n?|[ \t]*<script src="[^"]*mathjax[^"]*"><\/script>\n?/g;

async function typesetDeck(file) {
  const page = fs.readFileSync(file, 'utf8');
  const errors = [];
  const MathJax = await require(path.join(mathjaxDir, 'node-main.js')).init({
    loader: {
      paths: {mathjax: mathjaxDir},
      versionWarnings: false,
      load: ['adaptors/liteDOM', 'input/tex-full', 'output/svg', 'a11y/assistive-mml'],
    },
    tex: {
      inlineMath: [['$', '$'], ['\\(', '\\)']],
      displayMath: [['$$', '$$'], ['\\[', '\\]']],
      processEscapes: true,
      processEnvironments: true,
      tags: 'ams',
      packages: {'[-]': ['noundefined']},
      formatError(jax, error) {
        errors.push(error.message);
        return jax.formatError(error);
      },
    },
    svg: {fontCache: 'global'},
    startup: {document: page.replace(SCRIPTS, ''), typeset: false},
  });
  const doc = MathJax.startup.document;
  doc.render();
  const adaptor = MathJax.startup.adaptor;
  // What the page does not need of each formula's SVG (the website's compaction); MathJax's
  // styles, which render() put in the head, then select what is left.
  const items = Array.from(doc.math);
  items.forEach((item) => compact(item.typesetRoot));
  const styles = doc.outputJax.svgStyles;
  if (styles) {
    const css = adaptor.textContent(styles).replace(/use\[data-c\]/g, 'use') + COMPACT_CSS;
    adaptor.childNodes(styles).forEach((child) => adaptor.remove(child));
    adaptor.append(styles, adaptor.text(css));
  }
  const html = adaptor.doctype(doc.document) + '\n' + adaptor.outerHTML(adaptor.root(doc.document));
  return {html: selfClose(html), count: items.length, errors};
}

(async () => {
  let failed = false;
  for (const file of decks) {
    // One MathJax per deck (a fresh page, as a browser has): its TeX labels start afresh.
    const {html, count, errors} = await typesetDeck(file);
    if (errors.length) {
      failed = true;
      console.error(`${path.basename(file)}: MathJax could not typeset ${errors.length} formula(s):\n  ` +
                    errors.join('\n  '));
      continue;
    }
    fs.writeFileSync(file, html);
    console.log(`${path.basename(file)}: ${count} formulas typeset`);
  }
  process.exit(failed ? 1 : 0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
