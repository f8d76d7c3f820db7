// eslint (the JavaScript linter of `make test`, pinned in tools/npm): ESLint's own rules for
// likely bugs over the live figures (code/widgets), the engine's tests and the build's scripts.
// Only core rules, so the config needs no plugin; the bundles esbuild writes are not linted.
const browser = ['window', 'document', 'console', 'performance', 'requestAnimationFrame',
  'cancelAnimationFrame', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
  'getComputedStyle', 'matchMedia', 'ResizeObserver', 'IntersectionObserver', 'HTMLElement',
  'customElements', 'CustomEvent', 'Event', 'KeyboardEvent', 'Blob', 'URL', 'fetch', 'navigator',
  'devicePixelRatio', 'AbortController', 'MutationObserver', 'queueMicrotask', 'location',
  'history', 'URLSearchParams', 'reportError'];
const node = ['process', 'console', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval',
  'clearInterval', 'URL', 'queueMicrotask', 'structuredClone', 'performance', 'global',
  'globalThis', '__dirname', 'require', 'module'];
const globals = names => Object.fromEntries(names.map(name => [name, 'readonly']));

const likelyBugs = {
  'no-undef': 'error',
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
  'no-dupe-keys': 'error',
  'no-duplicate-case': 'error',
  'no-unreachable': 'error',
  'no-self-assign': 'error',
  'no-self-compare': 'error',
  'no-redeclare': 'error',
  'no-shadow-restricted-names': 'error',
  'no-const-assign': 'error',
  'no-func-assign': 'error',
  'no-import-assign': 'error',
  'use-isnan': 'error',
  'valid-typeof': 'error',
  'no-unsafe-negation': 'error',
  'no-constant-condition': ['error', { checkLoops: false }],
  'no-cond-assign': 'error',
  'no-fallthrough': 'error',
  'eqeqeq': ['error', 'smart'],
  'no-var': 'error',
};

export default [
  { ignores: ['**/node_modules/**', '_build/**', 'code/bayescomp/**/static/**', '.venv*/**'] },
  {
    files: ['code/widgets/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals(browser) },
    rules: likelyBugs,
  },
  {
    // The PDF's print script runs in the page that MathJax typesets.
    files: ['tools/pdf/static/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script',
                       globals: { ...globals(browser), MathJax: 'readonly' } },
    rules: likelyBugs,
  },
  {
    files: ['code/widgets/*.mjs', 'tests/engine/**/*.js', 'tests/engine/**/*.mjs',
      'tools/**/*.mjs', 'tools/**/*.cjs'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals(node) },
    rules: likelyBugs,
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
];
