// Compare two `node --cpu-prof` profiles per function (issue 24, per-call cost): self and total
// time per call, B minus A, largest differences first. Profiles of one path each, e.g.
//   BACKEND_BENCH_ONLY=raw node --cpu-prof --cpu-prof-dir=/tmp/p/raw bench/backend.mjs
//   BACKEND_BENCH_ONLY=runToolCalls node --cpu-prof --cpu-prof-dir=/tmp/p/hub bench/backend.mjs
//   node bench/profile-compare.mjs /tmp/p/raw/*.cpuprofile /tmp/p/hub/*.cpuprofile 1300 [rows]
// (the third argument: calls in each profile, so the numbers are µs per call)
import { readFileSync } from 'node:fs';

const [a, b, calls = '1', rows = '40'] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: profile-compare.mjs A.cpuprofile B.cpuprofile [calls] [rows]');

/** µs per function key (name file:line), self and total (a function counted once per stack). */
function perFunction(file) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => {
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules|dist|src|bench)\//, '$1/')}:${f.lineNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'} ${where}`.trim();
  };
  const self = new Map();
  const total = new Map();
  const dt = new Map();
  for (let i = 0; i < p.samples.length; i++) dt.set(i, p.timeDeltas[i + 1] ?? 0);
  for (let i = 0; i < p.samples.length; i++) {
    const t = dt.get(i);
    let n = byId.get(p.samples[i]);
    self.set(key(n), (self.get(key(n)) ?? 0) + t);
    const seen = new Set();
    for (; n; n = byId.get(parent.get(n.id))) {
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + t);
    }
  }
  return { self, total };
}

const A = perFunction(a);
const B = perFunction(b);
const n = Number(calls);
for (const kind of ['self', 'total']) {
  const keys = new Set([...A[kind].keys(), ...B[kind].keys()]);
  const diff = [...keys]
    .map((k) => [k, (A[kind].get(k) ?? 0) / n, (B[kind].get(k) ?? 0) / n])
    .filter(([k]) => !/^\((root|program|idle)\)/.test(k) || kind === 'self')
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]))
    .slice(0, Number(rows));
  console.log(`\n${kind} µs per call: A | B | B−A`);
  for (const [k, x, y] of diff)
    console.log(`${x.toFixed(1).padStart(8)} ${y.toFixed(1).padStart(8)} ${(y - x).toFixed(1).padStart(8)}  ${k}`);
}
