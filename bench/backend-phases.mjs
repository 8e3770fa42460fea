// Bench: where a call's time goes, per phase, for the raw v2 client, the hub's session client and
// the backend's `hub.runToolCalls` (issue 24): from the call to the fetch that sends it ("before
// sending"), the fetch to the answer's headers (the network and the server: the same for all),
// and the headers to the call's end ("after the answer"). Timestamps around `globalThis.fetch`
// (every path reaches it last), median of each phase over the calls, the three paths taking turns
// in blocks of 50. A phase that is larger than the raw client's is work of ours on the critical
// path; the p50 of bench/backend.mjs is their sum. Needs a build (dist/).
// Run: node bench/backend-phases.mjs (PHASES_ROUNDS, default 30; 50 calls per path and round;
// PHASES_TOOL and PHASES_ARGS (JSON) for another tool of server-everything than echo, e.g.
// PHASES_TOOL=get-structured-content PHASES_ARGS='{"location":"Chicago"}': one with an output schema)
import { realBackend } from './backend.mjs';

const ROUNDS = Number(process.env.PHASES_ROUNDS ?? 30);
const BLOCK = 50;
const TOOL = process.env.PHASES_TOOL ?? 'echo';
const ARGS = process.env.PHASES_ARGS ?? '{"message":"x"}';
const WARMUP_ROUNDS = 3;

const platformFetch = globalThis.fetch;
/** The call being timed: when its POST went out and when its headers came back. */
let current;
globalThis.fetch = async (input, init) => {
  const sent = performance.now();
  const res = await platformFetch(input, init);
  if (current && init?.method === 'POST') Object.assign(current, { sent, headers: performance.now() });
  return res;
};

const { hub, server, client, close } = await realBackend();
try {
  let n = 0;
  // the session client is given the definition as the hub gives it (its output schema checked)
  const tools = new Map((await hub.catalogue(server.id)).tools.map((t) => [t.name, t]));
  const paths = {
    'raw v2 Client.callTool': () => client.callTool({ name: TOOL, arguments: JSON.parse(ARGS) }),
    "the hub's session client": () => hub.client(server.id).callTool(TOOL, JSON.parse(ARGS), { tool: tools.get(TOOL) }),
    "backend: hub.runToolCalls('openai', …)": () =>
      hub.runToolCalls(
        'openai',
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: `c${++n}`, type: 'function', function: { name: 'alpha__echo', arguments: '{"message":"x"}' } },
          ],
        },
        { assistantId: 'bench' },
      ),
  };
  const phases = Object.fromEntries(
    Object.keys(paths).map((k) => [k, { before: [], network: [], after: [], all: [] }]),
  );
  for (let round = 0; round < ROUNDS + WARMUP_ROUNDS; round++)
    for (const [name, call] of Object.entries(paths))
      for (let i = 0; i < BLOCK; i++) {
        current = {};
        const start = performance.now();
        await call();
        const end = performance.now();
        if (round < WARMUP_ROUNDS) continue;
        const p = phases[name];
        p.before.push(current.sent - start);
        p.network.push(current.headers - current.sent);
        p.after.push(end - current.headers);
        p.all.push(end - start);
      }
  current = undefined;
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1] * 1000;
  const rows = Object.entries(phases).map(([name, p]) => [
    name,
    ...['before', 'network', 'after', 'all'].map((k) => median(p[k])),
  ]);
  const [, ...raw] = rows[0];
  console.log(
    `\nper-call phases, µs (median of ${ROUNDS * BLOCK} calls per path; server-everything ${TOOL}, Streamable HTTP, 127.0.0.1)`,
  );
  console.log(
    '| path | before sending | network + server | after the answer | whole call | over raw: before / after |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, before, network, after, all] of rows)
    console.log(
      `| ${name} | ${before.toFixed(0)} | ${network.toFixed(0)} | ${after.toFixed(0)} | ${all.toFixed(0)} | ${(before - raw[0]).toFixed(0)} / ${(after - raw[2]).toFixed(0)} |`,
    );
} finally {
  await close();
}
