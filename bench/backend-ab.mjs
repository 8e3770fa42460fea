// A/B of the backend hub's per-call cost between two builds in one process (issue 24): the
// `runToolCalls` path of createChatHandler()'s hub from this build (dist/) and from a copy of
// another build, against the same server-everything (Streamable HTTP, 127.0.0.1), with the raw
// v2 client beside them, in alternating rounds (the order rotates each round, so a busy machine
// slows all alike). Prints CPU µs and wall p50 per call for each, and B's ratio to A.
//   cp -r dist node_modules/.cache/ab-base   # A: the build before a change (inside the repo, so
//   # it resolves node_modules); make the change; npm run build
//   AB_BASE=node_modules/.cache/ab-base node bench/backend-ab.mjs   (AB_ROUNDS, AB_CALLS, AB_INTERLEAVE=1)
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';
import { echoBackend } from './backend-echo.mjs';

const base = process.env.AB_BASE;
if (!base) throw new Error('AB_BASE=<a copy of another build of dist/>');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 12);
const CALLS = Number(process.env.AB_CALLS ?? 40);
/** AB_INTERLEAVE=1: the paths take turns call by call instead of block by block. */
const INTERLEAVE = process.env.AB_INTERLEAVE === '1';
const everything = await startEverything('streamableHttp');

async function backend(serverModule) {
  const { createChatHandler } = await import(serverModule);
  const { hub, call } = await echoBackend(createChatHandler, everything.url);
  return { call, close: () => hub.dispose() };
}

// a raw client per round: undici keeps a listener per request on the session's one signal, and
// past ~1500 its warnings would tax the baseline
async function rawClient() {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  return client;
}
let raw = await rawClient();
const paths = {
  raw: async () => {
    const r = await raw.callTool({ name: 'echo', arguments: { message: 'x' } });
    if (!r.content[0].text.includes('Echo: x')) throw new Error('unexpected');
  },
  A: null,
  B: null,
};
const closers = [];
for (const [k, module] of [
  ['A', path.resolve(base, 'server/index.js')],
  ['B', built('dist/server/index.js')],
]) {
  const b = await backend(module);
  paths[k] = b.call;
  closers.push(b.close);
}
const names = Object.keys(paths);
const cpu = Object.fromEntries(names.map((k) => [k, 0]));
const wall = Object.fromEntries(names.map((k) => [k, []]));
for (const f of Object.values(paths)) for (let i = 0; i < 100; i++) await f();
for (let r = 0; r < ROUNDS; r++) {
  await raw.close();
  raw = await rawClient();
  const order = names.map((_, i) => names[(i + r) % names.length]);
  if (INTERLEAVE)
    // one call of each path in turn: a busy spell slows all three alike
    for (let i = 0; i < CALLS; i++)
      for (const k of i % 2 ? [...order].reverse() : order) {
        const c = process.cpuUsage();
        const t = performance.now();
        await paths[k]();
        wall[k].push(performance.now() - t);
        const u = process.cpuUsage(c);
        cpu[k] += (u.user + u.system) / (ROUNDS * CALLS);
      }
  else
    for (const k of order) {
      const c = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await paths[k]();
        wall[k].push(performance.now() - t);
      }
      const u = process.cpuUsage(c);
      cpu[k] += (u.user + u.system) / (ROUNDS * CALLS);
    }
}
const p50 = (k) => wall[k].sort((a, b) => a - b)[Math.floor(wall[k].length / 2)];
await Promise.all([raw.close(), ...closers.map((c) => c())]).catch(() => {});
await everything.close(); // the server is a child process: left running, it would outlive this
console.log(
  names.map((k) => `${k} ${cpu[k].toFixed(0)} µs CPU, p50 ${p50(k).toFixed(2)} ms`).join(' | ') +
    ` | B/A CPU ${(cpu.B / cpu.A).toFixed(3)}, p50 ${(p50('B') / p50('A')).toFixed(3)}`,
);
process.exit(0);
