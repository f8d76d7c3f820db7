// Re-tries the mutants that Stryker left alive against the current tests, one at a time, without
// Stryker: each mutant (from the JSON reports of `make mutation-js`) is written into a copy of
// the engine, and tests/engine/engine.test.mjs runs on it under plain node. So a new test can be
// checked to kill the mutants it was written for, without the whole study. A mutant is killed
// when the test file fails (or runs past 30 s: ten times a normal run). With --timeouts, the
// mutants re-tried are instead those that Stryker counted as timed out without reaching its hit
// limit (on a busy machine a slow run can pass for a hung one).
//
// Usage (from the repository's top folder, with the golden inputs of `make golden widgets`, or
// BAYESCOMP_GOLDEN and BAYESCOMP_DATA set):
//   node tools/mutation/js/recheck.mjs [--timeouts] _build/mutation-js/reports [file.js ...]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

const args = process.argv.slice(2);
const timeouts = args[0] === '--timeouts';
const [folder = '_build/mutation-js/reports', ...only] = timeouts ? args.slice(1) : args;
const retried = timeouts
  ? (m) => m.status === 'Timeout' && !/Hit limit/.test(m.statusReason ?? '')
  : (m) => m.status === 'Survived' || m.status === 'NoCoverage';
const root = process.cwd();
const env = {
  ...process.env,
  BAYESCOMP_GOLDEN: process.env.BAYESCOMP_GOLDEN || resolve(root, '_build/widgets/golden.json'),
  BAYESCOMP_DATA: process.env.BAYESCOMP_DATA || resolve(root, '_build/widgets/bayescomp-widgets-data.js'),
};

/** The source with the mutant's replacement put in at its location (1-based lines and columns). */
function mutate(source, { location: { start, end }, replacement }) {
  const lines = source.split('\n');
  const offset = ({ line, column }) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
  return source.slice(0, offset(start)) + replacement + source.slice(offset(end));
}

const work = mkdtempSync(join(tmpdir(), 'recheck-'));
cpSync(resolve(root, 'code/widgets/engine'), join(work, 'code/widgets/engine'), { recursive: true });
cpSync(resolve(root, 'code/widgets/package.json'), join(work, 'code/widgets/package.json'));
cpSync(resolve(root, 'tests/engine/engine.test.mjs'), join(work, 'tests/engine/engine.test.mjs'));

let killed = 0;
let alive = 0;
try {
  for (const report of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
    const json = JSON.parse(readFileSync(join(folder, report), 'utf8'));
    for (const [path, file] of Object.entries(json.files)) {
      const name = basename(path);
      if (only.length && !only.includes(name)) continue;
      const target = join(work, 'code/widgets/engine', name);
      const current = readFileSync(resolve(root, 'code/widgets/engine', name), 'utf8');
      if (current !== file.source) throw new Error(`${name} changed since ${report} was written: run make mutation-js`);
      for (const m of file.mutants.filter(retried)) {
        writeFileSync(target, mutate(file.source, m));
        const run = spawnSync('node', ['tests/engine/engine.test.mjs'], { cwd: work, env, timeout: 30000, encoding: 'utf8' });
        const dead = run.status !== 0;
        if (dead) killed += 1;
        else alive += 1;
        const failed = (run.stdout || '').split('\n').find((l) => l.startsWith('not ok')) || (run.error ? 'timed out' : '');
        console.log(`${dead ? 'killed' : 'ALIVE '} ${m.status.padEnd(10)} ${name}:${m.location.start.line}:${m.location.start.column} `
          + `${m.mutatorName} -> ${m.replacement.replace(/\s+/g, ' ')}${dead ? `  (${failed.replace(/^not ok \d+ - /, '')})` : ''}`);
      }
      writeFileSync(target, current);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${killed} killed, ${alive} alive`);
