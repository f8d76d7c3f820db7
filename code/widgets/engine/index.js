// The widgets' numerical engine: no DOM, no global randomness. Everything the widgets show is
// computed here, and tests/engine checks it against the Python package.
export * from './numeric.js';
export * from './random.js';
export * from './linalg.js';
export * from './targets.js';
export * from './grid.js';
export * from './laplace.js';
export * from './importance.js';
export * from './metropolis.js';
export * from './diagnostics.js';
export * from './vi.js';
export * from './portable.js';
export * from './hierarchical.js';
export * from './hmc.js';
export * from './dimension.js';
