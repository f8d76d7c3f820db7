// Loaded by Stryker's tap runner before the engine tests (stryker.config.json, tap.nodeArgs).
// In a mutant run it registers skip-coverage-count-hooks.mjs, which makes the instrumented
// files' coverage counter return at once. Stryker counts every hit of every mutant in every
// run, but keeps the counts only from the first (dry) run: its tap hook deletes them before a
// mutant run ends. On the engine's hot loops the counting is most of the time (a test run of
// an instrumented diagnostics.js took 27-32 s with it, 6-7 s without). The dry run keeps it,
// since Stryker reads which mutants the tests reach, and how often, from that run.
import { register } from 'node:module';

if (process.env.STRYKER_DRY_RUN !== 'true') register('./skip-coverage-count-hooks.mjs', import.meta.url);
