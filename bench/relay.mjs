// Bench: a stdio MCP server (server-everything) behind three stdio → Streamable HTTP relays,
// measured in one run on 127.0.0.1 with the same v2 client: ours (`mcp-elements relay`, the CLI),
// mcp-proxy and supergateway (--stateful), against the direct stdio client as the baseline.
// Per relay: sequential echo calls (p50, p99, added p50 over direct) and calls per second with 8
// in flight. Needs a build (dist/relay). Run: node bench/relay.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingEntry, freePort } from '../test/fixtures/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const loopback = path.join(root, 'test/fixtures/loopback.cjs');
const CALLS = Number(process.env.RELAY_BENCH_CALLS ?? 300);
const PARALLEL = 8;
const upstream = [process.execPath, everythingEntry, 'stdio'];

function start(args, ready) {
  const child = spawn(process.execPath, ['-r', loopback, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

async function measure(connect) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(await connect());
  const call = () => client.callTool({ name: 'echo', arguments: { message: 'x' } });
  for (let i = 0; i < 30; i++) await call();
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (done < CALLS) {
        done++;
        await call();
      }
    }),
  );
  const perSecond = (done / (performance.now() - started)) * 1000;
  await client.close();
  return { p50: times[Math.floor(CALLS * 0.5)], p99: times[Math.floor(CALLS * 0.99)], perSecond };
}

const rows = [];
const direct = await measure(
  async () => new StdioClientTransport({ command: upstream[0], args: upstream.slice(1), stderr: 'ignore' }),
);
rows.push(['direct stdio (baseline)', direct]);

// ours: the CLI, reading what it prints
const dir = mkdtempSync(path.join(tmpdir(), 'relay-bench-'));
writeFileSync(
  path.join(dir, 'mcp.json'),
  JSON.stringify({ mcpServers: { everything: { command: upstream[0], args: upstream.slice(1) } } }),
);
const ours = await start(
  [path.join(root, 'dist/relay/node/cli.js'), 'relay', '--config', path.join(dir, 'mcp.json')],
  async (out) => {
    const i = out.indexOf('{');
    if (i < 0) return null;
    const cfg = JSON.parse(out.slice(i)).mcpServers.everything;
    return cfg;
  },
);
rows.push([
  'mcp-elements relay',
  await measure(
    async () => new StreamableHTTPClientTransport(new URL(ours.url), { requestInit: { headers: ours.headers } }),
  ),
]);
await ours.stop();

const proxyPort = await freePort();
const proxy = await start(
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
);
rows.push(['mcp-proxy 6.7.19', await measure(async () => new StreamableHTTPClientTransport(new URL(proxy.url)))]);
await proxy.stop();

const gwPort = await freePort();
const gateway = await start(
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
);
rows.push([
  'supergateway 4.0.0 (--stateful)',
  await measure(async () => new StreamableHTTPClientTransport(new URL(gateway.url))),
]);
await gateway.stop();

console.log(`\nstdio server-everything behind a relay, ${CALLS} echo calls, one client, 127.0.0.1 (this run)`);
console.log('| path | p50 ms | p99 ms | added p50 ms | calls/s (8 in flight) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of rows)
  console.log(
    `| ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 - direct.p50).toFixed(2)} | ${r.perSecond.toFixed(0)} |`,
  );
process.exit(0);
