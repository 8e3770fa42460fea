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
import { rankingRows } from './ranking.mjs';

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
const ours = gz('dist/cdn/mcp-elements.js');
const bare = gz('bench/.build/sdk-bare.js');

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
const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
let connect, calls, explorer;
const fixture = await startFixtureServer();
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/bench.html`);
  await page.waitForFunction(() => window.benchReady === true);
  if (!(await page.evaluate(() => crossOriginIsolated)))
    console.warn('bench page is not cross-origin isolated: timings are coarse (100 µs)');
  connect = await page.evaluate(([url, n]) => window.benchConnect(url, n), [everything.url, ROUNDS]);
  // BENCH_HUB_OPTIONS='{"maxResponseBytes":0}' explores what a hub option costs
  await page.evaluate((o) => (window.benchHubOptions = o), JSON.parse(process.env.BENCH_HUB_OPTIONS ?? '{}'));
  calls = await page.evaluate(([url, n]) => window.benchCalls(url, n), [everything.url, CALLS]);
  explorer = await page.evaluate(([url, n]) => window.benchExplorer(url, n), [`${fixture.url}/many/mcp`, 60]);
} finally {
  await browser.close();
  await everything.close();
  await fixture.close();
  http.close();
}

const rows = [
  {
    measure: 'CDN bundle, min+gzip -9 (KB)',
    ours: ours / 1024,
    baseline: bare / 1024,
    baselineName: 'bare SDK client, default validator',
    ratio: ours / bare,
  },
  {
    measure: `connect + list tools, median of ${ROUNDS} (ms)`,
    ours: connect.ours,
    baseline: connect.raw,
    baselineName: 'raw SDK Client: connect + tools/list',
    ratio: connect.ours / connect.raw,
  },
  {
    measure: `connect + list tools, in-memory store, median of ${ROUNDS} (ms)`,
    ours: connect.oursMem,
    baseline: connect.raw,
    baselineName: 'raw SDK Client: connect + tools/list',
    ratio: connect.oursMem / connect.raw,
  },
  {
    measure: `connect + full discovery, median of ${ROUNDS} (ms)`,
    ours: connect.ours,
    baseline: connect.rawFull,
    baselineName: 'raw SDK Client: connect + tools, resources, templates, prompts',
    ratio: connect.ours / connect.rawFull,
  },
  {
    measure: `tool call (echo), auto approval + validation + history, median of ${CALLS} (ms)`,
    ours: calls.ours,
    baseline: calls.raw,
    baselineName: 'raw SDK client.callTool, same server, interleaved',
    ratio: calls.ours / calls.raw,
  },
  {
    measure: `<mcp-tool-explorer> with ${explorer.tools} tools: first render (ms)`,
    ours: explorer.firstRender,
    baseline: NaN,
    baselineName: 'absolute (no baseline)',
    ratio: NaN,
  },
  {
    measure: `<mcp-tool-explorer> with ${explorer.tools} tools: filter per keystroke, median (ms)`,
    ours: explorer.keystroke,
    baseline: NaN,
    baselineName: 'absolute (no baseline)',
    ratio: NaN,
  },
];
rows.push(...(await rankingRows(ROUNDS)));
console.log('\n| measure | ours | baseline | baseline is | ratio |\n|---|---:|---:|---|---:|');
for (const r of rows)
  console.log(
    `| ${r.measure} | ${r.ours.toFixed(1)} | ${Number.isNaN(r.baseline) ? '—' : r.baseline.toFixed(1)} | ${r.baselineName} | ${Number.isNaN(r.ratio) ? '—' : r.ratio.toFixed(2)} |`,
  );
writeFileSync(
  path.join(root, 'bench/results.json'),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2) + '\n',
);
