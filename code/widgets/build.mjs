// Build the widgets' bundles, minified, with d3 modules from tools/npm/node_modules (pinned in
// tools/npm/package.json, esbuild included, so a build gives the same bytes on every machine):
// - bayescomp-widgets.js: one classic script (IIFE) for the website and the decks (works from
//   file://, where Chromium blocks ES modules), and for JupyterLab, where
//   bayescomp.book.widgets.anywidget_module() adds the line that makes it anywidget's ES module;
// - bayescomp-question.js: the questions' classic script, inlined by bayescomp.book.questions.
// Also writes a page with every widget for trying them out, OUT_DIR/demo.html.
//
// Usage: node code/widgets/build.mjs [OUT_DIR]   (default _build/widgets)
// `make widgets` copies the bundles into the package (code/bayescomp/book/static/), where they are
// committed: readers get them inside bayescomp with no Node.js, and
// tests/package/test_distribution.py fails when the committed copies differ from a fresh build.
// The data script beside them comes from the package: python -m bayescomp.book.widgets OUT_DIR.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const NPM = resolve(ROOT, 'tools/npm');
const esbuild = createRequire(resolve(NPM, 'package.json'))('esbuild');
const OUT = resolve(process.argv[2] || resolve(ROOT, '_build/widgets'));
const BUNDLE = 'bayescomp-widgets.js';
const QUESTION = 'bayescomp-question.js';
const LIMIT = 200 * 1024;

const banner = `/* bayescomp live figures, built from code/widgets by esbuild (do not edit: \`make widgets\`
   rebuilds it). Includes d3-array and d3-contour, Copyright 2010-2023 Mike Bostock, ISC License. */`;

// The registry of ui classes, made from the manifest: the figure named NAME is drawn by the class
// its entry names, exported by ui/NAME.js. ui/main.js imports it as the module
// 'bayescomp:registry', so adding a figure edits the manifest and its ui file, not main.js.
const MANIFEST = resolve(ROOT, 'code/bayescomp/book/figures.json');

function registrySource(figures, uiDir = resolve(HERE, 'ui')) {
  const lines = figures.map(({ name, class: cls }) => {
    const file = resolve(uiDir, `${name}.js`);
    if (!existsSync(file)) throw new Error(`${MANIFEST}: figure ${name}: no ui file ${file}`);
    if (!new RegExp(`^export class ${cls}\\b`, 'm').test(readFileSync(file, 'utf8'))) {
      throw new Error(`${MANIFEST}: figure ${name}: ${file} exports no class ${cls}`);
    }
    return `import { ${cls} } from ${JSON.stringify(file)};`;
  });
  const classes = figures.map((figure) => figure.class).join(', ');
  return `${lines.join('\n')}\nexport const REGISTRY = Object.freeze({ ${classes} });\n`;
}

const registryPlugin = {
  name: 'bayescomp-registry',
  setup(build) {
    build.onResolve({ filter: /^bayescomp:registry$/ }, () => ({ path: MANIFEST, namespace: 'registry' }));
    build.onLoad({ filter: /.*/, namespace: 'registry' }, () => ({
      contents: registrySource(JSON.parse(readFileSync(MANIFEST, 'utf8')).figures),
      resolveDir: resolve(HERE, 'ui'),
      watchFiles: [MANIFEST],
    }));
  },
};

mkdirSync(OUT, { recursive: true });
const common = {
  plugins: [registryPlugin],
  bundle: true,
  minify: true,
  target: ['es2020'],
  nodePaths: [resolve(NPM, 'node_modules')],
  banner: { js: banner },
  legalComments: 'none',
  logLevel: 'warning',
};
await esbuild.build({ ...common, entryPoints: [resolve(HERE, 'ui/main.js')], format: 'iife',
                      outfile: resolve(OUT, BUNDLE) });
// The questions' script (ui/question.js), a classic script that bayescomp.book.questions inlines
// after each question's HTML: small, and with no library in it.
// keepNames only keeps its bytes as they were: the script is inlined into every question's stored
// output in the chapters, so a change to it means re-executing them (nothing needs the names).
await esbuild.build({ ...common, keepNames: true, entryPoints: [resolve(HERE, 'ui/question.js')], format: 'iife',
                      banner: { js: '/* bayescomp questions, built from code/widgets/ui/question.js (`make widgets`) */' },
                      outfile: resolve(OUT, QUESTION) });
const size = statSync(resolve(OUT, BUNDLE)).size;
for (const name of [BUNDLE, QUESTION]) {
  const bytes = statSync(resolve(OUT, name)).size;
  if (bytes > LIMIT) throw new Error(`${name} is ${bytes} bytes, over the ${LIMIT}-byte budget`);
}

// The demo page lists the widgets the package's data names (no name is typed here).
writeFileSync(resolve(OUT, 'demo.html'), `<!DOCTYPE html>
<html lang="en" data-theme="light"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bayescomp live figures</title>
<style>body { font-family: system-ui, sans-serif; max-width: 52rem; margin: 1.5rem auto; padding: 0 1rem; }
html[data-theme="dark"] body { background: #121212; color: #e8eaed; }</style>
<script src="bayescomp-widgets-data.js"></script>
<script src="${BUNDLE}"></script>
</head><body>
<h1>bayescomp live figures</h1>
<p><button type="button" onclick="document.documentElement.dataset.theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'">Toggle dark mode</button></p>
<script>
for (const name of BayesCompWidgetData.names) {
  const heading = document.createElement('h2');
  heading.textContent = name;
  const placeholder = document.createElement('div');
  placeholder.dataset.widget = name;
  document.body.append(heading, placeholder);
}
</script>
</body></html>
`);
console.log(`${resolve(OUT, BUNDLE)}: ${(size / 1024).toFixed(1)} KB minified`);
