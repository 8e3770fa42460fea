// Bench: the backend hub's per-call cost (issue 24). The call path a model's tool call takes in
// `createChatHandler()` (its own hub: memory storage, no events, the SSRF-guarded fetch;
// `hub.runToolCalls('openai', …)`: name lookup, approval policy, argument validation, the call,
// the history record, the provider-format answer) against the raw v2 Client's `callTool` on the
// same server-everything (Streamable HTTP, 127.0.0.1), in the same process and run; between them
// the hub's session client alone and `hub.callTool`, to show where the cost is. Rounds alternate
// the order of the paths (so a busy machine slows all alike), each warmed up first. Reports wall
// p50/p99 per call, this process's CPU time per call, and both as ratios to the raw client
// (goal ≤ 1.10×). Needs a build (dist/). Run: node bench/backend.mjs
// (BACKEND_BENCH_ROUNDS, default 30: with 10 the p50 ratio of one build moved 0.97–1.12× between
// runs, with 30 it read 1.07× four times in a row; BACKEND_BENCH_CALLS per round and path, default 50;
// BACKEND_BENCH_ONLY=raw|session|callTool|runToolCalls: 1300 calls of that path alone, for
// a profile, with BACKEND_BENCH_PROFILE=<file>: the inspector's, of those calls only (after the
// warm-up), compared per function with bench/profile-compare.mjs)
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';
import { mergeRows } from './results-file.mjs';
import { row } from './row.mjs';

const ROUNDS = Number(process.env.BACKEND_BENCH_ROUNDS ?? 30);
const CALLS = Number(process.env.BACKEND_BENCH_CALLS ?? 50);
const WARMUP = 100;
// under 1500 in all: the raw client passes its session's one signal to fetch, and undici keeps a
// listener on it per request (MaxListenersExceededWarning past 1500 would tax the baseline)
const ONLY_CALLS = 1300;

/** The inspector's CPU profiler (100 µs samples) from now on; the function returned writes it. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * The two sides of every backend bench on a real server: server-everything (Streamable HTTP,
 * 127.0.0.1), the hub `createChatHandler()` builds (server "alpha", an `auto` assistant "bench")
 * and a raw v2 client of the same server. `close()` ends all three.
 */
export async function realBackend() {
  const { createChatHandler } = await import(built('dist/server/index.js'));
  const everything = await startEverything('streamableHttp');
  const { hub } = createChatHandler({
    model: { baseUrl: 'http://127.0.0.1:9/v1', model: 'unused' },
    servers: { allow: [new URL(everything.url).origin] },
  });
  const client = new Client({ name: 'bench', version: '1' });
  const close = async () => {
    await client.close().catch(() => {});
    await hub.dispose();
    await everything.close();
  };
  try {
    await hub.ready;
    const server = await hub.servers.add({ name: 'alpha', url: everything.url, retries: 0 });
    await hub.connect(server.id);
    await hub.assistants.update('bench', { approval: 'auto', servers: { [server.id]: {} } });
    await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    return { hub, server, client, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Measure each path; resolves to { [path]: { p50, p99, cpu, calls } } (ms). */
export async function benchBackend() {
  const { hub, server, client, close } = await realBackend();
  try {
    let n = 0;
    const expectEcho = (text) => {
      if (!String(text).includes('Echo: x')) throw new Error(`unexpected answer: ${text}`);
    };
    const paths = {
      'raw v2 Client.callTool (baseline)': async () =>
        expectEcho((await client.callTool({ name: 'echo', arguments: { message: 'x' } })).content[0].text),
      "the hub's session client": async () =>
        expectEcho((await hub.client(server.id).callTool('echo', { message: 'x' })).content[0].text),
      'hub.callTool': async () => {
        const r = await hub.callTool({ assistantId: 'bench', name: 'alpha__echo', arguments: { message: 'x' } });
        expectEcho(r.result?.content[0].text);
      },
      "backend: hub.runToolCalls('openai', …)": async () => {
        const call = {
          id: `c${++n}`,
          type: 'function',
          function: { name: 'alpha__echo', arguments: '{"message":"x"}' },
        };
        const r = await hub.runToolCalls(
          'openai',
          { role: 'assistant', content: null, tool_calls: [call] },
          {
            assistantId: 'bench',
          },
        );
        expectEcho(r.messages[0]?.content);
      },
    };
    const names = Object.keys(paths);
    const only = process.env.BACKEND_BENCH_ONLY;
    if (only) {
      const keys = { raw: 0, session: 1, callTool: 2, runToolCalls: 3 };
      const f = paths[names[keys[only]]];
      if (!f) throw new Error(`BACKEND_BENCH_ONLY: one of ${Object.keys(keys).join(', ')}`);
      for (let i = 0; i < WARMUP; i++) await f();
      const profile = process.env.BACKEND_BENCH_PROFILE && (await startProfile());
      const cpu = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < ONLY_CALLS; i++) await f();
      const used = process.cpuUsage(cpu);
      if (profile) await profile(process.env.BACKEND_BENCH_PROFILE);
      console.log(
        `${only}: ${((performance.now() - t) / ONLY_CALLS).toFixed(3)} ms wall, ${((used.user + used.system) / ONLY_CALLS / 1000).toFixed(3)} ms CPU per call`,
      );
      return {};
    }
    const samples = Object.fromEntries(names.map((k) => [k, { wall: [], cpu: 0 }]));
    for (const f of Object.values(paths)) for (let i = 0; i < WARMUP; i++) await f();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const name of order) {
        const f = paths[name];
        const s = samples[name];
        const cpu = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) {
          const t = performance.now();
          await f();
          s.wall.push(performance.now() - t);
        }
        const used = process.cpuUsage(cpu);
        s.cpu += (used.user + used.system) / 1000;
      }
    }
    return Object.fromEntries(
      names.map((k) => {
        const sorted = samples[k].wall.sort((a, b) => a - b);
        return [
          k,
          { p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), cpu: samples[k].cpu / sorted.length, calls: sorted.length },
        ];
      }),
    );
  } finally {
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await benchBackend();
  if (process.env.BACKEND_BENCH_ONLY) process.exit(0);
  const rows = Object.entries(r);
  const [, raw] = rows[0];
  console.log(
    `\nbackend per-call cost: server-everything echo over Streamable HTTP on 127.0.0.1, ${raw.calls} calls per path in ${ROUNDS} alternating rounds (this run)`,
  );
  console.log('| path | p50 ms | p99 ms | CPU ms per call (this process) | p50 vs raw | CPU vs raw |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, x] of rows)
    console.log(
      `| ${name} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.cpu.toFixed(3)} | ${(x.p50 / raw.p50).toFixed(2)}× | ${(x.cpu / raw.cpu).toFixed(2)}× |`,
    );
  const backend = rows[rows.length - 1][1];
  const ratio = backend.p50 / raw.p50;
  console.log(`goal: backend p50 ≤ 1.10× the raw client: ${ratio <= 1.1 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×)`);
  // `npm run bench`: into bench/results.json (and so docs/benchmarks.md)
  if (process.env.BENCH_WRITE) {
    const [, session] = rows[1];
    const baselineName = `raw v2 Client.callTool, same server-everything (echo, Streamable HTTP, 127.0.0.1) and process, ${raw.calls} calls per path in ${ROUNDS} alternating rounds`;
    mergeRows(
      'backend:',
      [
        row(
          "backend: hub.runToolCalls('openai', …) per call, p50 (ms; goal ≤ 1.10×)",
          backend.p50,
          raw.p50,
          baselineName,
        ),
        row(
          "backend: hub.runToolCalls('openai', …) per call, CPU of the calling process (ms)",
          backend.cpu,
          raw.cpu,
          baselineName,
        ),
        row("backend: the hub's session client per call, p50 (ms)", session.p50, raw.p50, baselineName),
      ],
      'backend',
    );
  }
  process.exit(0);
}
