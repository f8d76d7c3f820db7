// What MathJax's SVG output carries that a page typeset in advance does not need: shared by the
// website's typesetter (prerender_math.cjs) and the decks' (tools/slides/typeset_deck.cjs).
'use strict';

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

// SVG's empty elements closed as XML allows inside HTML ("<use .../>", not "<use ...></use>").
const selfClose = (html) => html.replace(/><\/(use|rect|line|path)>/g, '/>');

module.exports = {compact, selfClose, COMPACT_CSS};
