// Where the relay's slowest calls spend their time (issue 24, relay p99): the stdio relay (the
// CLI, in a process of its own, bench/relay-tail-preload.cjs preloaded) in front of stdio
// server-everything; N sequential echo calls from one v2 client, each timed. For the slowest 1%
// it reports how much of their time was spent inside the relay's process, how much of that in
// the stdio server's round trip (the rest is the relay's own code), and which of them overlap a
// GC pause of the relay or of this client. Not part of `npm run bench` (a diagnosis).
// Run: npm run build && node bench/relay-tail.mjs   (N, default 2000)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { everythingEntry } from '../test/fixtures/servers.mjs';
import { cliPath } from '../test/fixtures/stdio-relay-fixture.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.N ?? 2000);
const dir = mkdtempSync(path.join(tmpdir(), 'relay-tail-'));
const out = path.join(dir, 'record.json');
writeFileSync(
  path.join(dir, 'mcp.json'),
  JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, 'stdio'] } } }),
);
const child = spawn(
  process.execPath,
  [
    '-r',
    path.join(here, '../test/fixtures/loopback.cjs'),
    '-r',
    path.join(here, 'relay-tail-preload.cjs'),
    cliPath(),
    'relay',
    '--config',
    path.join(dir, 'mcp.json'),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RELAY_TAIL_OUT: out } },
);
let printed = '';
const served = await new Promise((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`relay exited ${code}`)));
  child.stdout.on('data', (d) => {
    printed += d;
    const i = printed.indexOf('{');
    if (i < 0) return;
    try {
      resolve(JSON.parse(printed.slice(i)).mcpServers.everything);
    } catch {
      // not all printed yet
    }
  });
});
const clientGc = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) clientGc.push([performance.timeOrigin + e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: served.headers } }),
);
const echo = async () => {
  const r = await client.callTool({ name: 'echo', arguments: { message: 'x' } });
  if (r.content[0].text !== 'Echo: x') throw new Error('unexpected answer');
};
for (let i = 0; i < 200; i++) await echo();
const calls = [];
for (let i = 0; i < N; i++) {
  const t = performance.now();
  await echo();
  calls.push([performance.timeOrigin + t, performance.now() - t]);
}
await client.close();
child.removeAllListeners('exit');
await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
const record = JSON.parse(readFileSync(out, 'utf8'));

const start = calls[0][0] - 1;
const ms = (x) => x.toFixed(2);
const stats = (spans) => {
  const s = spans
    .filter(([t]) => t >= start)
    .map(([, d]) => d)
    .sort((a, b) => a - b);
  return `p50 ${ms(s[Math.floor(s.length / 2)])}, p99 ${ms(s[Math.floor(s.length * 0.99)])}, max ${ms(s.at(-1))} ms`;
};
const within = (spans, [t, d]) => spans.filter(([s, sd]) => s < t + d && s + sd > t);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const p99 = calls.map(([, d]) => d).sort((a, b) => a - b)[Math.floor(N * 0.99)];
const slow = calls.filter(([, d]) => d >= p99);
const slowTime = sum(slow.map(([, d]) => d));
const inRelay = sum(slow.map((c) => sum(within(record.served, c).map(([, d]) => d))));
const inStdio = sum(slow.map((c) => sum(within(record.stdio, c).map(([, d]) => d))));
const pct = (x) => `${((x / slowTime) * 100).toFixed(0)}%`;
console.log(`\n${N} sequential echo calls through the stdio relay (this run):`);
console.log(`- seen by the client: ${stats(calls)}`);
console.log(`- inside the relay's process (POST in → response finished): ${stats(record.served)}`);
console.log(`- of which the stdio server's round trip: ${stats(record.stdio)}`);
console.log(
  `- the slowest 1% (${slow.length} calls, ${ms(slowTime / slow.length)} ms mean): ${pct(inRelay - inStdio)} in the relay's own code, ${pct(inStdio)} waiting on the stdio server, ${pct(slowTime - inRelay)} outside the relay (this client, the kernel, loopback)`,
);
console.log(
  `- of those, ${slow.filter((c) => within(record.gc, c).length).length} overlap a GC pause of the relay and ${slow.filter((c) => within(clientGc, c).length).length} one of this client; relay GC pauses in the run: ${record.gc.filter(([t]) => t >= start).length}, ${stats(record.gc)}`,
);
process.exit(0);
