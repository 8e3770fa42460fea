// A/B of the session's two lowest fetch layers between two builds, in one process (issue 34): the
// explaining fetch of this build (dist/: two layers, session/layers/explain.ts and body-watch.ts)
// and of another build's dist, over a stub below them that answers every POST with a one-event
// stream, each POST on one long-lived signal as a session sends it, the body read to its end.
// Alternating rounds of 2,000 POSTs; prints the median CPU µs per POST and B's difference to A.
//   cp -r dist bench/.build/ab-base; make the change; npm run build
//   AB_BASE=bench/.build/ab-base node bench/fetch-layers-ab.mjs   (ROUNDS, default 30)
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const base = process.env.AB_BASE;
if (!base) throw new Error('AB_BASE=<a copy of another build of dist/>');
const load = (dir) => import(pathToFileURL(path.resolve(dir, 'core/session/fetch.js')).href);
const [{ explainingFetch: A }, { explainingFetch: B }] = await Promise.all([load(base), load('dist')]);
const answer = (id) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n\n`;
const stub = async (_input, init) =>
  new Response(answer(JSON.parse(init.body).id), { headers: { 'content-type': 'text/event-stream' } });
const watch = { max: 16 * 1048576, onExceed: () => {}, onBroken: () => {} };
const session = new AbortController().signal;
const paths = { A: A(stub, {}, watch), B: B(stub, {}, watch) };
let id = 0;
const post = async (f) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call' });
  const res = await f('http://127.0.0.1:9/mcp', { method: 'POST', body, signal: session });
  await res.text();
};
for (const f of Object.values(paths)) for (let i = 0; i < 2000; i++) await post(f);
const per = { A: [], B: [] };
const ROUNDS = Number(process.env.ROUNDS ?? 30);
for (let r = 0; r < ROUNDS; r++)
  for (const k of r % 2 ? ['B', 'A'] : ['A', 'B']) {
    const c = process.cpuUsage();
    for (let i = 0; i < 2000; i++) await post(paths[k]);
    const u = process.cpuUsage(c);
    per[k].push((u.user + u.system) / 2000);
  }
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const m = { A: median(per.A), B: median(per.B) };
console.log(
  `A ${m.A.toFixed(1)} | B ${m.B.toFixed(1)} µs CPU per POST | B−A ${(m.B - m.A).toFixed(1)} µs, B/A ${(m.B / m.A).toFixed(3)}`,
);
