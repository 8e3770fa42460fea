// A bench script's rows put into bench/results.json beside bench/run.mjs's: the rows whose measure
// starts with `prefix` are replaced, the rest kept, and `results[part]` says when this part ran.
// For the parts of `npm run bench` that run in processes of their own (BENCH_WRITE=1 there), so
// docs/benchmarks.md shows them too.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('./results.json', import.meta.url);

export function mergeRows(prefix, rows, part) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  results.rows = [...results.rows.filter((r) => !r.measure.startsWith(prefix)), ...rows];
  results[part] = { date: new Date().toISOString(), node: process.version };
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}
