// `npm run bench`: sizes and timings, each reported as a ratio against a baseline measured in
// the same run. Prints a table and writes bench/results.json.
import { build } from 'vite';
import { gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startEverything } from '../test/fixtures/servers.mjs';
import { startFixtureServer } from '../test/fixtures/fixture-server.mjs';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';
import { singleFileBuild } from '../scripts/vite-plugins.mjs';
import { readCdnManifest } from '../scripts/cdn-manifest.mjs';
import { rankingRows } from './ranking.mjs';
import { appsRows } from './apps.mjs';
import { appsEntryShare } from './apps-entry.mjs';
import { originLimitRows } from './origin-limit.mjs';
import { oneOriginRows } from './one-origin.mjs';
import { row } from './row.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);

if (!process.env.SKIP_BUILD) {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  // the baseline: the bare v2 client, built the same way (its browser build validates with cfworker)
  build: singleFileBuild({ entry: 'bench/sdk-bare.ts', outDir: 'bench/.build', fileName: 'sdk-bare.js' }),
});
const gz = (f) => gzipSync(readFileSync(path.join(root, f)), { level: 9 }).length;
const bare = gz('bench/.build/sdk-bare.js');
const sizes = firstLoad();

/**
 * Bytes a page fetches (each file gzipped on its own, as served) for the CDN entry plus the
 * chunks of the given elements, following static imports; every element chunk on its own.
 */
function firstLoad() {
  const dir = 'dist/cdn';
  const m = readCdnManifest(path.join(root, dir));
  const { closure } = m;
  const bytes = (files) => [...files].reduce((n, f) => n + gz(`${dir}/${f}`), 0);
  const tags = Object.keys(m.elements);
  const everything = closure([m.entry, ...Object.keys(m.chunks)]);
  // the chunk the hub imports the first time it opens a session (the SDK, src/core/session)
  const connect = Object.keys(m.chunks).find((f) => /^chunks\/connect-/.test(f));
  if (!connect) throw new Error('no connect chunk in dist/cdn/manifest.json');
  const FOUR = ['mcp-server-manager', 'mcp-tool-explorer', 'gpt-tool-selector', 'mcp-tool-call'];
  return {
    entry: bytes(closure([m.entry])),
    chatPage: bytes(closure([m.entry, m.elements['mcp-tool-call']])),
    chatPageConnected: bytes(closure([m.entry, m.elements['mcp-tool-call'], connect])),
    connectChunk: gz(`${dir}/${connect}`),
    fourElements: bytes(closure([m.entry, ...FOUR.map((t) => m.elements[t])])),
    allElements: bytes(closure([m.entry, ...tags.map((t) => m.elements[t])])),
    everything: bytes(everything),
    oneFile: gz(`${dir}/mcp-elements.all.js`),
    // an element's own chunk, and what it adds to a page that has the entry (shared chunks included)
    chunks: Object.fromEntries(
      tags.map((t) => {
        const added = [...closure([m.elements[t]])].filter((f) => !closure([m.entry]).has(f));
        return [t, { own: gz(`${dir}/${m.elements[t]}`), added: bytes(added) }];
      }),
    ),
  };
}

// serve the project root on 127.0.0.1 for the page
const types = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };
// cross-origin isolation gives performance.now() 5 µs resolution instead of 100 µs
const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const http = createServer((req, res) => {
  const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (req.url === '/bench.html')
    return res
      .writeHead(200, { 'content-type': 'text/html', ...isolation })
      .end('<!doctype html><script type="module" src="/bench/page.js"></script>');
  if (!p.startsWith(root) || !existsSync(p)) return res.writeHead(404).end();
  res
    .writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream', ...isolation })
    .end(readFileSync(p));
});
await new Promise((r) => http.listen({ port: 0, host: '127.0.0.1' }, r));
const origin = `http://127.0.0.1:${http.address().port}`;
const everything = await startEverything('streamableHttp');
// gc() and exact heap sizes for the heap row
const browser = await chromium.launch({
  executablePath: chromePath,
  args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
});
let firstConnect, connect, calls, explorer, many, remote, remoteHeavy, concurrent, concurrentRemote, toolsFor;
// ten fixture servers: ten origins (the first also serves the one-origin and explorer cases)
const fixtures = await Promise.all(Array.from({ length: 10 }, () => startFixtureServer()));
const fixture = fixtures[0];
const tenant = (f, i) => `${f.url}/t/bench-${Date.now()}-${i}/mcp`;
// an ordinary server for discovery: the fixture's tools without the hostile one, whose 1 MB
// description makes every tools/list 2 MB (a parse-and-copy benchmark of its own, kept below)
const lean = (f, i) => `${f.url}/lean/bench-${Date.now()}-${i}/mcp`;
const RTT_MS = 50;
const rtt = (route) => (f, i) => `${f.url}/rtt/${RTT_MS}${new URL(route(f, i)).pathname}`;
/** Run one bench function of bench/page.js in a fresh page, so no measurement inherits another's heap. */
async function measure(fn, args, before) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/bench.html`);
    await page.waitForFunction(() => window.benchReady === true);
    if (!(await page.evaluate(() => crossOriginIsolated)))
      console.warn('bench page is not cross-origin isolated: timings are coarse (100 µs)');
    if (before) await page.evaluate(before[0], before[1]);
    return await page.evaluate(([name, a]) => window[name](...a), [fn, args]);
  } finally {
    await page.close();
  }
}
try {
  firstConnect = await measure('benchFirstConnect', [everything.url, Math.max(5, Math.round(ROUNDS / 2))]);
  connect = await measure('benchConnect', [everything.url, ROUNDS]);
  // BENCH_HUB_OPTIONS='{"maxResponseBytes":0}' explores what a hub option costs
  calls = await measure(
    'benchCalls',
    [everything.url, CALLS],
    [(o) => (window.benchHubOptions = o), JSON.parse(process.env.BENCH_HUB_OPTIONS ?? '{}')],
  );
  const manyServers = (route) =>
    measure('benchManyServers', [
      fixtures.map((f, i) => route(f, i)),
      fixtures.map((_, i) => route(fixture, 100 + i)),
      Math.max(5, Math.round(ROUNDS / 2)),
    ]);
  many = await manyServers(lean);
  // the same with a remote server's round trip (50 ms before every answer, preflights too): on
  // loopback the 2 cores serving and running everything are the limit, not the hub's parallelism
  remote = await manyServers(rtt(lean));
  remoteHeavy = await manyServers(rtt(tenant));
  concurrent = await measure('benchConcurrentCalls', [fixtures.slice(0, 5).map((f, i) => tenant(f, 200 + i)), 500, 5]);
  // the same calls to servers a round trip away: the hub's own work overlaps the waiting
  concurrentRemote = await measure('benchConcurrentCalls', [
    fixtures.slice(5, 10).map((f, i) => rtt(lean)(f, 300 + i)),
    500,
    3,
  ]);
  explorer = await measure('benchExplorer', [Array.from({ length: 50 }, () => `${fixture.url}/many/400/mcp`), 60]);
  toolsFor = await measure('benchToolsFor', [`${fixture.url}/many/2000/mcp`, 200, ROUNDS]);
} finally {
  await browser.close();
  await everything.close();
  await Promise.all(fixtures.map((f) => f.close()));
  http.close();
}

const KB = 1024;
const absolute = (measure, ours) => row(measure, ours, NaN, 'absolute (no baseline)');
const BARE = 'bare v2 client (Client + Streamable HTTP + SSE), same build settings';
const rows = [
  row(
    'first load, chat page: CDN entry + <mcp-tool-call> chunks, min+gzip -9 (KB)',
    sizes.chatPage / KB,
    bare / KB,
    BARE,
  ),
  row(
    'chat page once a server is connected: + the connection chunk (SDK, session layer) (KB)',
    sizes.chatPageConnected / KB,
    bare / KB,
    BARE,
  ),
  row(
    'first load, the four elements (manager, explorer, selector, tool call): entry + their chunks (KB)',
    sizes.fourElements / KB,
    bare / KB,
    BARE,
  ),
  row('first load, all six elements: entry + their chunks (KB)', sizes.allElements / KB, bare / KB, BARE),
  row('everything: entry + every chunk (KB)', sizes.everything / KB, bare / KB, BARE),
  row('one-file build mcp-elements.all.js (KB)', sizes.oneFile / KB, bare / KB, BARE),
  row('CDN entry alone (core + autoloader) (KB)', sizes.entry / KB, bare / KB, BARE),
  row('the connection chunk, own file (KB)', sizes.connectChunk / KB, bare / KB, BARE),
  ...Object.entries(sizes.chunks).map(([tag, c]) =>
    row(
      `<${tag}> chunk, own file (KB; with the shared chunks it adds: ${(c.added / KB).toFixed(1)})`,
      c.own / KB,
      8,
      'goal: 8 KB',
    ),
  ),
  row(
    `connect → tools available, median of ${ROUNDS} (ms)`,
    connect.ours,
    connect.raw,
    'raw v2 Client: connect + tools/list',
  ),
  row(
    `connect → tools available, in-memory store, median of ${ROUNDS} (ms)`,
    connect.oursMem,
    connect.raw,
    'raw v2 Client: connect + tools/list',
  ),
  row(
    "a page's first connect (add + connect), the connection chunk fetched from the bench's local server and compiled (ms)",
    firstConnect.first,
    firstConnect.later,
    'the same page, later servers (median)',
  ),
  row(
    `connect + full discovery, median of ${ROUNDS} (ms)`,
    connect.oursFull,
    connect.rawFull,
    'raw v2 Client: connect + tools, resources, templates, prompts',
  ),
  row('10 servers on 10 origins connected in parallel, loopback, median (ms)', many.parallel, many.one, 'one server'),
  row('10 servers behind one origin connected in parallel, loopback, median (ms)', many.shared, many.one, 'one server'),
  row(
    'raw v2 clients: 10 servers on 10 origins in parallel, loopback, median (ms)',
    many.rawTen,
    many.rawOne,
    'one raw client (what this machine allows at all)',
  ),
  row(
    '10 servers on 10 origins in parallel, loopback: hub vs raw clients (ms)',
    many.parallel,
    many.rawTen,
    'raw v2 clients, the same 10',
  ),
  row(
    `10 servers on 10 origins in parallel, each answering after ${RTT_MS} ms (a remote server), median (ms)`,
    remote.parallel,
    remote.one,
    `one server, same ${RTT_MS} ms`,
  ),
  row(
    `10 servers behind one origin in parallel, ${RTT_MS} ms each answer, median (ms)`,
    remote.shared,
    remote.one,
    `one server, same ${RTT_MS} ms`,
  ),
  row(
    `raw v2 clients: 10 servers on 10 origins in parallel, ${RTT_MS} ms each answer, median (ms)`,
    remote.rawTen,
    remote.rawOne,
    'one raw client, same server',
  ),
  row(
    `10 servers on 10 origins in parallel, ${RTT_MS} ms each answer: hub vs raw clients (ms)`,
    remote.parallel,
    remote.rawTen,
    'raw v2 clients, the same 10',
  ),
  row(
    `10 servers with a 2 MB tool list each (the hostile fixture), 10 origins, ${RTT_MS} ms each answer, median (ms)`,
    remoteHeavy.parallel,
    remoteHeavy.one,
    `one such server, same ${RTT_MS} ms`,
  ),
  row(
    `raw v2 clients: 10 servers with a 2 MB tool list each, ${RTT_MS} ms each answer, median (ms)`,
    remoteHeavy.rawTen,
    remoteHeavy.rawOne,
    'one raw client, same server',
  ),
  row(
    `tool call (echo), auto approval + validation + history, median of ${CALLS} (ms)`,
    calls.ours,
    calls.raw,
    'raw v2 client.callTool, same server, interleaved',
  ),
  row(
    '500 concurrent calls across 5 servers (cap 10 per server), loopback, wall time, median of 5 (ms)',
    concurrent.ours,
    concurrent.raw,
    'raw v2 clients, the same 500 calls, all sent at once',
  ),
  row(
    '500 concurrent calls across 5 servers, loopback, wall time vs capped raw, median of 5 (ms)',
    concurrent.ours,
    concurrent.rawCapped,
    'raw v2 clients, the same 500 calls, capped at 10 in flight per server as the hub',
  ),
  row(
    `500 concurrent calls across 5 servers, ${RTT_MS} ms each answer, wall time, median of 3 (ms)`,
    concurrentRemote.ours,
    concurrentRemote.raw,
    'raw v2 clients, the same 500 calls, all sent at once',
  ),
  row(
    `500 concurrent calls across 5 servers, ${RTT_MS} ms each answer, wall time vs capped raw, median of 3 (ms)`,
    concurrentRemote.ours,
    concurrentRemote.rawCapped,
    'raw v2 clients, the same 500 calls, capped at 10 in flight per server as the hub',
  ),
  absolute('500 concurrent calls: calls lost (no record) over 8 rounds', concurrent.lost + concurrentRemote.lost),
  row(
    '500 concurrent calls: JS heap after GC, history cleared (MB)',
    concurrent.after / KB / KB,
    concurrent.before / KB / KB,
    'before the 5 rounds',
  ),
  absolute(
    `<mcp-tool-explorer> with ${explorer.tools} tools over ${explorer.servers} servers: first render (ms)`,
    explorer.firstRender,
  ),
  absolute(
    `<mcp-tool-explorer> with ${explorer.tools} tools over ${explorer.servers} servers: filter per keystroke, median (ms)`,
    explorer.keystroke,
  ),
  row(
    `toolsFor('openai') with ${toolsFor.tools} tools, memoised, median of 200 (ms)`,
    toolsFor.memo,
    toolsFor.changed,
    `the first call after a list change (median of ${ROUNDS})`,
  ),
  absolute(`toolsFor('openai') with ${toolsFor.tools} tools after a list change, median (ms)`, toolsFor.changed),
];
if (concurrent.failed + concurrentRemote.failed)
  console.warn(`500 concurrent calls: ${concurrent.failed + concurrentRemote.failed} calls did not succeed`);
rows.push(...(await rankingRows(ROUNDS)));
// MCP Apps: what views add to the entry (goal 0.5 KB), and result → view initialized vs the
// ext-apps example host's way (bench/apps.mjs)
const share = await appsEntryShare();
rows.push(
  row(
    'MCP Apps share of the CDN entry (entry minus the entry with apps stubbed out) (KB)',
    share.share / KB,
    0.5,
    'goal: 0.5 KB',
  ),
);
rows.push(...(await appsRows({ rounds: Math.max(3, Math.round(ROUNDS / 4)), views: 10 })));
// many servers behind one origin: what the browser allows (HTTP/1.1's 6 connections), and ten
// servers behind one origin over HTTP/1.1 and HTTP/2, hub and raw clients (issue 22 item 9)
rows.push(...(await originLimitRows({ rounds: Math.max(5, Math.round(ROUNDS / 2)) })));
rows.push(...(await oneOriginRows({ rounds: Math.max(5, Math.round(ROUNDS / 3)) })));
const fmt = (n) => (Math.abs(n) < 1 && n !== 0 ? n.toFixed(3) : n.toFixed(1));
console.log('\n| measure | ours | baseline | baseline is | ratio |\n|---|---:|---:|---|---:|');
for (const r of rows)
  console.log(
    `| ${r.measure} | ${fmt(r.ours)} | ${Number.isNaN(r.baseline) ? '—' : fmt(r.baseline)} | ${r.baselineName} | ${Number.isNaN(r.ratio) ? '—' : r.ratio.toFixed(2)} |`,
  );
writeFileSync(
  path.join(root, 'bench/results.json'),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2) + '\n',
);
