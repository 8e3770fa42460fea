// Bench: a stdio MCP server (server-everything) behind three stdio → Streamable HTTP relays,
// measured in one run on 127.0.0.1 with the same v2 client: ours (`mcp-elements relay`, the CLI),
// mcp-proxy and supergateway (--stateful), against the direct stdio client as the baseline.
// Made to hold on a busy shared machine: every path is started at once and measured in
// alternating rounds (the order rotates each round, so load drifts hit all alike), each warmed
// up first; every relay and its stdio server run on one core (`taskset -c 1`, where taskset
// exists; the bench client on the other). Per path: sequential echo calls (p50, p99, and what the
// relay adds to the direct path's p50 and p99) and calls per second with 8 in flight (the median
// of the rounds). Needs a build (dist/relay). Run: node bench/relay.mjs
// (RELAY_BENCH_ROUNDS, default 6; RELAY_BENCH_CALLS per round and path, default 100)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mergeRows } from './results-file.mjs';
import { row } from './row.mjs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingEntry, freePort, startEverything } from '../test/fixtures/servers.mjs';
import { cliPath } from '../test/fixtures/stdio-relay-fixture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const loopback = path.join(root, 'test/fixtures/loopback.cjs');
const ROUNDS = Number(process.env.RELAY_BENCH_ROUNDS ?? 6);
const CALLS = Number(process.env.RELAY_BENCH_CALLS ?? 100);
const WARMUP = 50;
const PARALLEL = 8;
const upstream = [process.execPath, everythingEntry, 'stdio'];
// one core for the relays (and the stdio servers they start), the other for this client
const pinned = spawnSync('taskset', ['-c', '1', 'true']).status === 0;
if (pinned) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
/** A command line, on the relays' core when pinning works. */
const onRelayCore = (argv) => (pinned ? ['taskset', '-c', '1', ...argv] : argv);

function start(args, ready) {
  const [cmd, ...argv] = onRelayCore([process.execPath, '-r', loopback, ...args]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const onData = (d) => (out += d);
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    const timer = setInterval(async () => {
      const r = await ready(out).catch(() => null);
      if (r) {
        clearInterval(timer);
        resolve({ ...r, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

async function answers(url) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return r.status > 0;
}

/** A connected client for a path, and its echo call. */
async function client(transport) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(transport);
  return {
    call: async () => {
      const r = await c.callTool({ name: 'echo', arguments: { message: 'x' } });
      if (r.content[0].text !== 'Echo: x') throw new Error('unexpected answer');
    },
    close: () => c.close(),
  };
}

/** Measure every path in alternating rounds; resolves to { [path]: { p50, p99, perSecond } }. */
async function measure(paths) {
  const names = Object.keys(paths);
  const results = Object.fromEntries(names.map((n) => [n, { times: [], perSecond: [] }]));
  for (const p of Object.values(paths)) for (let i = 0; i < WARMUP; i++) await p.call();
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const { call } = paths[name];
      const r = results[name];
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await call();
        r.times.push(performance.now() - t);
      }
      const started = performance.now();
      let sent = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (sent < CALLS) {
            sent++;
            await call();
          }
        }),
      );
      r.perSecond.push((sent / (performance.now() - started)) * 1000);
    }
  }
  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  return Object.fromEntries(
    names.map((n) => {
      const t = results[n].times.sort((x, y) => x - y);
      const ps = results[n].perSecond.sort((x, y) => x - y);
      return [n, { p50: pct(t, 0.5), p99: pct(t, 0.99), perSecond: ps[Math.floor(ps.length / 2)] }];
    }),
  );
}

/** The table of one measurement, the first path as the baseline. */
function table(title, stats) {
  const rows = Object.entries(stats);
  const [, base] = rows[0];
  console.log(`\n${title}`);
  console.log('| path | p50 ms | p99 ms | added p50 ms | added p99 ms | calls/s (8 in flight, median of rounds) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [n, r] of rows)
    console.log(
      `| ${n} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 - base.p50).toFixed(2)} | ${(r.p99 - base.p99).toFixed(2)} | ${r.perSecond.toFixed(0)} |`,
    );
}

// every path up at once
const dir = mkdtempSync(path.join(tmpdir(), 'relay-bench-'));
writeFileSync(
  path.join(dir, 'mcp.json'),
  JSON.stringify({ mcpServers: { everything: { command: upstream[0], args: upstream.slice(1) } } }),
);
const [proxyPort, gwPort] = [await freePort(), await freePort()];
const [ours, proxy, gateway] = await Promise.all([
  // ours: the CLI, reading what it prints
  start([cliPath(), 'relay', '--config', path.join(dir, 'mcp.json')], async (out) => {
    const i = out.indexOf('{');
    return i < 0 ? null : JSON.parse(out.slice(i)).mcpServers.everything;
  }),
  start(
    [
      path.join(root, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs'),
      '--host',
      '127.0.0.1',
      '--port',
      String(proxyPort),
      '--server',
      'stream',
      '--',
      ...upstream,
    ],
    async () =>
      (await answers(`http://127.0.0.1:${proxyPort}/mcp`)) ? { url: `http://127.0.0.1:${proxyPort}/mcp` } : null,
  ),
  start(
    [
      path.join(root, 'node_modules/supergateway/dist/index.js'),
      '--stdio',
      upstream.map((a) => JSON.stringify(a)).join(' '),
      '--outputTransport',
      'streamableHttp',
      '--stateful',
      '--port',
      String(gwPort),
      '--logLevel',
      'none',
    ],
    async () => ((await answers(`http://127.0.0.1:${gwPort}/mcp`)) ? { url: `http://127.0.0.1:${gwPort}/mcp` } : null),
  ),
]);
const [directCmd, ...directArgs] = onRelayCore(upstream);
const paths = {
  'direct stdio (baseline)': await client(
    new StdioClientTransport({ command: directCmd, args: directArgs, stderr: 'ignore' }),
  ),
  'mcp-elements relay': await client(
    new StreamableHTTPClientTransport(new URL(ours.url), { requestInit: { headers: ours.headers } }),
  ),
  'mcp-proxy 6.7.19': await client(new StreamableHTTPClientTransport(new URL(proxy.url))),
  'supergateway 4.0.0 (--stateful)': await client(new StreamableHTTPClientTransport(new URL(gateway.url))),
};
const stdioStats = await measure(paths);
await Promise.all(Object.values(paths).map((p) => p.close().catch(() => {})));
await Promise.all([ours.stop(), proxy.stop(), gateway.stop()]);

table(
  `stdio server-everything behind a relay: ${ROUNDS} alternating rounds × ${CALLS} echo calls per path, one client, 127.0.0.1, ${pinned ? 'each relay and its server on one core (taskset -c 1)' : 'not pinned (no taskset)'} (this run)`,
  stdioStats,
);

// the HTTP relay (createNodeRelay, the relay a page uses) in front of server-everything over
// Streamable HTTP, in a process of its own on the relays' core, against the direct HTTP path
const httpUpstream = await startEverything('streamableHttp');
const relayModule = JSON.stringify(path.join(root, 'dist/relay/node/index.js'));
const httpRelay = await start(
  [
    '--input-type=module',
    '-e',
    `const { createNodeRelay, serveHandler } = await import(${relayModule});
const s = await serveHandler(createNodeRelay({ allow: [${JSON.stringify(new URL(httpUpstream.url).origin)}], rateLimit: false }));
console.log('RELAY ' + s.url);`,
  ],
  async (out) => {
    const m = /RELAY (\S+)/.exec(out);
    return m ? { url: m[1] } : null;
  },
);
const viaRelay = `${httpRelay.url}/http/${new URL(httpUpstream.url).host}/mcp`;
const httpPaths = {
  'direct Streamable HTTP (baseline)': await client(new StreamableHTTPClientTransport(new URL(httpUpstream.url))),
  'mcp-elements HTTP relay (createNodeRelay)': await client(new StreamableHTTPClientTransport(new URL(viaRelay))),
};
const httpStats = await measure(httpPaths);
await Promise.all(Object.values(httpPaths).map((p) => p.close().catch(() => {})));
await Promise.all([httpRelay.stop(), httpUpstream.close()]);
table(
  `server-everything over Streamable HTTP, direct and through the relay: ${ROUNDS} alternating rounds × ${CALLS} echo calls per path, 127.0.0.1, ${pinned ? 'the relay on one core' : 'not pinned'} (this run)`,
  httpStats,
);
// `npm run bench`: into bench/results.json (and so docs/benchmarks.md); the goal: ahead of both
if (process.env.BENCH_WRITE) {
  const s = Object.values(stdioStats);
  const [direct, mine] = s;
  const added = (x) => x.p50 - direct.p50;
  const where = `stdio server-everything, ${ROUNDS} × ${CALLS} echo calls per path, 127.0.0.1${pinned ? ', each relay on one core' : ''}`;
  const others = Object.keys(stdioStats).slice(2);
  const [h, hv] = Object.values(httpStats);
  mergeRows(
    'relay:',
    [
      ...others.map((name) =>
        row(`relay: added p50 latency per call, ours vs ${name} (ms)`, added(mine), added(stdioStats[name]), where),
      ),
      ...others.map((name) =>
        row(
          `relay: calls per second, 8 in flight, ours vs ${name} (higher is better)`,
          mine.perSecond,
          stdioStats[name].perSecond,
          where,
        ),
      ),
      row(
        'relay: Streamable HTTP through createNodeRelay, p50 per call (ms)',
        hv.p50,
        h.p50,
        'server-everything over Streamable HTTP, direct, same run',
      ),
    ],
    'relay',
  );
}
process.exit(0);
