// Bench (issue 24, a companion of bench/backend.mjs): this process's CPU per call with the
// network taken out. tools/call is answered at once by a stub in front of each path's fetch (the
// handshake and listing go to a real server-everything), so what is left is the client side
// alone: the raw v2 Client, the hub's session client, hub.callTool and hub.runToolCalls, in
// alternating rounds of one run, each call followed by a turn of the event loop (the hub's
// history writes run on timers, as they do behind real network calls). The hub is built as
// createChatHandler builds it (memory storage, no events, history limit 50) but its fetch is the
// stub over the guarded fetch, so the guard's own cost is not in these numbers.
// Run: npm run build && node bench/backend-cpu.mjs   (SSE=0: JSON answers instead of an event
// stream; PROMPT=1: a store subscriber that must hear of every change, as on a page; ROUNDS;
// ONLY=<path>: 20,000 calls of one path, for node --cpu-prof)
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';
import { backendHub, stubbedEcho } from './backend-stub.mjs';

const everything = await startEverything('streamableHttp');
const SSE = process.env.SSE !== '0';
const { hub, server } = await backendHub(path.resolve(built('dist/core/index.js'), '../..'), everything.url, {
  sse: SSE,
});
if (process.env.PROMPT === '1') hub.store.subscribe(() => {});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(everything.url), { fetch: stubbedEcho(fetch, { sse: SSE }) }),
);
const check = (text) => {
  if (!String(text).includes('Echo: x')) throw new Error(`unexpected answer: ${text}`);
};
let n = 0;
const paths = {
  raw: async () => check((await client.callTool({ name: 'echo', arguments: { message: 'x' } })).content[0].text),
  session: async () => check((await hub.client(server.id).callTool('echo', { message: 'x' })).content[0].text),
  callTool: async () =>
    check(
      (await hub.callTool({ assistantId: 'bench', name: 'alpha__echo', arguments: { message: 'x' } })).result
        ?.content[0].text,
    ),
  runToolCalls: async () => {
    const call = { id: `c${++n}`, type: 'function', function: { name: 'alpha__echo', arguments: '{"message":"x"}' } };
    const r = await hub.runToolCalls(
      'openai',
      { role: 'assistant', content: null, tool_calls: [call] },
      { assistantId: 'bench' },
    );
    check(r.messages[0]?.content);
  },
};
const turn = () => new Promise((r) => setImmediate(r));
const close = async () => {
  await client.close().catch(() => {});
  await hub.dispose();
  await everything.close();
};
try {
  if (process.env.ONLY) {
    for (let i = 0; i < 20_000; i++) {
      await paths[process.env.ONLY]();
      await turn();
    }
  } else {
    for (const f of Object.values(paths))
      for (let i = 0; i < 500; i++) {
        await f();
        await turn();
      }
    const ROUNDS = Number(process.env.ROUNDS ?? 10);
    const CALLS = 300;
    const cpu = Object.fromEntries(Object.keys(paths).map((k) => [k, 0]));
    for (let r = 0; r < ROUNDS; r++)
      for (const k of r % 2 ? Object.keys(paths).reverse() : Object.keys(paths)) {
        const c = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) {
          await paths[k]();
          await turn();
        }
        const u = process.cpuUsage(c);
        cpu[k] += (u.user + u.system) / (ROUNDS * CALLS);
      }
    console.log(
      `CPU µs per call, network stubbed (${SSE ? 'event stream' : 'JSON'} answers${process.env.PROMPT === '1' ? ', a prompt store subscriber' : ''}):`,
    );
    console.log(
      Object.entries(cpu)
        .map(([k, v]) => `${k} ${v.toFixed(0)} (${(v / cpu.raw).toFixed(2)}×)`)
        .join(' | '),
    );
  }
} finally {
  await close();
}
process.exit(0);
