// Node module hook (see skip-coverage-count.mjs): in a file instrumented by Stryker, the
// coverage counter `cover` (inside the stryCov_9fa48 helper Stryker puts atop each file)
// returns at once. A file without the helper loads unchanged; a file with the helper but
// without the counter (another Stryker version) fails the run rather than running slowly.
const HELPER = 'function stryCov_9fa48()';
const COUNTER = 'function cover() {';

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (result.format !== 'module' || !url.startsWith('file:')) return result;
  const source = String(result.source);
  if (!source.includes(HELPER)) return result;
  if (!source.includes(COUNTER)) throw new Error(`${url}: Stryker's coverage counter not found`);
  return { ...result, source: source.replace(COUNTER, `${COUNTER} return;`) };
}
