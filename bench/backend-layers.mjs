// Bench (issue 24): what the hub's fetch layers cost against a real server, in one process. The
// raw v2 Client calls server-everything's echo over Streamable HTTP with four fetches in
// alternating rounds: the platform fetch (baseline), the SSRF-guarded fetch (src/edge/guard.ts),
// the session's watching fetch (src/core/session/fetch.ts: body cap, dropped-stream diagnosis),
// and both stacked as the backend hub stacks them. SET=e compares the watching fetch's parts
// instead (no watch, the cap only, cap and answer scan). Prints CPU µs per call (this process).
// Run: npm run build && node bench/backend-layers.mjs   (ROUNDS, default 24; 40 calls each)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';

const { explainingFetch } = await import(built('dist/core/session/fetch.js'));
const { guardedFetch, createGuard } = await import(built('dist/edge/guard.js'));
const everything = await startEverything('streamableHttp');
const guard = createGuard({ allow: [new URL(everything.url).origin] });
const MAX = 16 * 1048576;
const watch = { max: MAX, onExceed: () => {}, onBroken: () => {} };
// as createChatHandler says: the session gives each POST a signal of its own
const hubSignals = { ownSignal: (init) => init.method === 'POST' };
const fetches =
  process.env.SET === 'e'
    ? {
        raw: fetch,
        'no watch': explainingFetch(fetch, {}, undefined),
        'cap only': explainingFetch(fetch, {}, { max: MAX, onExceed: () => {} }),
        'cap and scan': explainingFetch(fetch, {}, watch),
      }
    : {
        raw: fetch,
        guarded: guardedFetch(guard),
        watching: explainingFetch(fetch, {}, watch),
        'watching over guarded (the hub)': explainingFetch(guardedFetch(guard, hubSignals), {}, watch),
      };
const names = Object.keys(fetches);
const clients = {};
// fresh clients every few rounds: undici keeps a listener per request on a session's one signal
// (the platform fetch's case), and past ~1500 its warnings would tax that path
async function fresh() {
  for (const k of names) {
    await clients[k]?.close();
    clients[k] = new Client({ name: 'bench', version: '1' });
    await clients[k].connect(new StreamableHTTPClientTransport(new URL(everything.url), { fetch: fetches[k] }));
  }
}
const call = async (k) => {
  const r = await clients[k].callTool({ name: 'echo', arguments: { message: 'x' } });
  if (!r.content[0].text.includes('Echo: x')) throw new Error(`unexpected answer: ${r.content[0].text}`);
};
try {
  await fresh();
  for (const k of names) for (let i = 0; i < 100; i++) await call(k);
  const ROUNDS = Number(process.env.ROUNDS ?? 24);
  const CALLS = 40;
  const cpu = Object.fromEntries(names.map((k) => [k, 0]));
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 4 === 0) await fresh();
    for (const k of names.map((_, i) => names[(i + r) % names.length])) {
      const c = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await call(k);
      const u = process.cpuUsage(c);
      cpu[k] += (u.user + u.system) / (ROUNDS * CALLS);
    }
  }
  console.log(
    'CPU µs per call (raw v2 Client, real server): ' +
      names.map((k) => `${k} ${cpu[k].toFixed(0)} (${(cpu[k] / cpu.raw).toFixed(2)}×)`).join(' | '),
  );
} finally {
  for (const c of Object.values(clients)) await c.close().catch(() => {});
  await everything.close();
}
process.exit(0);
