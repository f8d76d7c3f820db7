// The JavaScript mutation study's score per file (`make mutation-js` runs it after Stryker).
//
// Stryker writes one JSON report (mutation-testing-report-schema) per run; make mutation-js
// runs it once per engine file (or part of one, file:lines) and keeps reports/<run>.json. The
// parts of a file are added up here. A mutant is *killed* when a test
// failed, or when it ran past Stryker's timeout or hit limit (a loop that no longer ends: caught
// too, counted apart as "timed out"); it *survived* when the tests passed; "no coverage" means
// no test reaches its code (counted against the score, as Stryker does). A mutant that crashed
// Stryker's runner ("errors") is left out of the score, as Stryker does.
//
// Usage: node tools/mutation/js/report.mjs _build/mutation-js/reports
// prints a Markdown table (`make mutation-js` writes it to _build/reports/mutation-js.md), then every mutant not killed with its line and diff.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const KILLED = new Set(['Killed', 'Timeout']);
const ERRORS = new Set(['RuntimeError', 'CompileError']);

function counts(mutants) {
  const c = { mutants: mutants.length, killed: 0, timeout: 0, survived: 0, noCoverage: 0, errors: 0 };
  for (const { status } of mutants) {
    if (KILLED.has(status)) c.killed += 1;
    if (status === 'Timeout') c.timeout += 1;
    if (status === 'Survived') c.survived += 1;
    if (status === 'NoCoverage') c.noCoverage += 1;
    if (ERRORS.has(status)) c.errors += 1;
  }
  return c;
}

function row(name, c) {
  const valid = c.killed + c.survived + c.noCoverage;
  const score = valid ? `${((100 * c.killed) / valid).toFixed(1)}%` : '–';
  return `| ${name} | ${c.mutants} | ${c.killed} | ${c.timeout} | ${c.survived} | ${c.noCoverage} | ${c.errors} | ${score} |`;
}

/** The original text a mutant replaces, from the file's source and the mutant's location. */
function original(source, { start, end }) {
  const lines = source.split('\n');
  const text = lines.slice(start.line - 1, end.line).join('\n');
  const stop = text.length - (lines[end.line - 1].length - (end.column - 1));
  return text.slice(start.column - 1, stop);
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

function main(folder) {
  const reports = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  if (!reports.length) {
    console.error(`no Stryker reports in ${folder}: run \`make mutation-js\``);
    process.exit(1);
  }
  const byName = new Map();
  for (const report of reports) {
    const json = JSON.parse(readFileSync(join(folder, report), 'utf8'));
    for (const [path, { source, mutants }] of Object.entries(json.files)) {
      const name = basename(path);
      if (!byName.has(name)) byName.set(name, { name, source, mutants: [] });
      byName.get(name).mutants.push(...mutants);
    }
  }
  const files = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  const lines = ['| file | mutants | killed | of which timed out | survived | no coverage | errors | score |',
    '|---|---:|---:|---:|---:|---:|---:|---:|'];
  const all = [];
  for (const file of files) {
    lines.push(row(file.name, counts(file.mutants)));
    all.push(...file.mutants);
  }
  lines.push(row('**all**', counts(all)));
  console.log(lines.join('\n'));
  for (const file of files) {
    const alive = file.mutants.filter((m) => !KILLED.has(m.status) && !ERRORS.has(m.status))
      .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    if (!alive.length) continue;
    console.log(`\n${file.name}: ${alive.length} not killed`);
    for (const m of alive) {
      const { line, column } = m.location.start;
      console.log(`  ${m.status.padEnd(10)} ${line}:${column} ${m.mutatorName}: `
        + `${oneLine(original(file.source, m.location))}  ->  ${oneLine(m.replacement ?? '')}`);
    }
  }
}

main(process.argv[2] || '_build/mutation-js/reports');
