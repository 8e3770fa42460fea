// A/B of the backend hub's client-side CPU per call between two builds, the network stubbed (issue
// 24; bench/backend-cpu.mjs's stub, bench/backend-ab.mjs's two builds): `runToolCalls` of this
// build (dist/) and of a copy of another build, and the other build's session client beside them,
// in alternating rounds of 100 calls (a turn of the event loop after each call), one process.
// Prints the median over rounds of CPU µs per call and B's difference to A. CPU is the measure
// here: on the shared machine the real-network A/B cannot resolve ~10 µs.
//   cp -r dist node_modules/.cache/ab-base; make the change; npm run build
//   AB_BASE=node_modules/.cache/ab-base node bench/backend-cpu-ab.mjs   (ROUNDS, default 40;
//   SIGNAL=1: each call given one long-lived signal, as createChatHandler gives its request's)
import path from 'node:path';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';
import { backendHub } from './backend-stub.mjs';

const base = process.env.AB_BASE;
if (!base) throw new Error('AB_BASE=<a copy of another build of dist/>');
const everything = await startEverything('streamableHttp');
const outer = new AbortController().signal;
async function make(dir) {
  const { hub, server } = await backendHub(dir, everything.url);
  let n = 0;
  return {
    hub,
    call: async () => {
      const c = { id: `c${++n}`, type: 'function', function: { name: 'alpha__echo', arguments: '{"message":"x"}' } };
      const r = await hub.runToolCalls(
        'openai',
        { role: 'assistant', content: null, tool_calls: [c] },
        { assistantId: 'bench', ...(process.env.SIGNAL === '1' ? { signal: outer } : {}) },
      );
      if (!String(r.messages[0]?.content).includes('Echo: x')) throw new Error(`unexpected: ${r.messages[0]?.content}`);
    },
    session: async () => {
      await hub.client(server.id).callTool('echo', { message: 'x' });
    },
  };
}
const A = await make(base);
const B = await make(path.resolve(built('dist/core/index.js'), '../..'));
const paths = { A: A.call, B: B.call, 'A session': A.session };
const turn = () => new Promise((r) => setImmediate(r));
for (const f of Object.values(paths))
  for (let i = 0; i < 500; i++) {
    await f();
    await turn();
  }
const per = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
const ROUNDS = Number(process.env.ROUNDS ?? 40);
for (let r = 0; r < ROUNDS; r++)
  for (const k of r % 2 ? Object.keys(paths).reverse() : Object.keys(paths)) {
    const c = process.cpuUsage();
    for (let i = 0; i < 100; i++) {
      await paths[k]();
      await turn();
    }
    const u = process.cpuUsage(c);
    per[k].push((u.user + u.system) / 100);
  }
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const m = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));
console.log(
  Object.entries(m)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(' | ') + ` µs CPU per call | B−A ${(m.B - m.A).toFixed(0)} µs, B/A ${(m.B / m.A).toFixed(3)}`,
);
await A.hub.dispose();
await B.hub.dispose();
await everything.close();
process.exit(0);
