// `npm run bench` (after bench/run.mjs), or `node bench/heap-hour.mjs` alone: a page with 50
// connected servers through a simulated hour of list changes — every server's tool list changes
// once a "minute" and the hub re-lists it (60 × 50 = 3,000 re-lists, as fast as they go) — and
// its JS heap after GC at the start and every 15 minutes. The heap should stay flat.
// BENCH_HEAP_MINUTES and BENCH_HEAP_SERVERS change the size. Needs `npm run build` first
// (SKIP_BUILD=1 skips it).
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startFaultServer } from '../test/fixtures/fault-server.mjs';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MINUTES = Number(process.env.BENCH_HEAP_MINUTES ?? 60);
const SERVERS = Number(process.env.BENCH_HEAP_SERVERS ?? 50);

if (!process.env.SKIP_BUILD) {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}
const types = { '.js': 'text/javascript', '.html': 'text/html' };
const http = createServer((req, res) => {
  const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (req.url === '/heap.html')
    return res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><script type="module" src="/bench/heap-page.js"></script>');
  if (!p.startsWith(root) || !existsSync(p)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream' }).end(readFileSync(p));
});
await new Promise((r) => http.listen({ port: 0, host: '127.0.0.1' }, r));
// servers spread over origins, 4 per origin: a browser has 6 connections per origin and the hub
// lets long-lived streams take 4 of them (docs/decisions/006-connections.md, "the per-origin budget")
const faults = await startFaultServer(Math.ceil(SERVERS / 4) - 1);
const bases = [faults.url, ...faults.aliases];
const browser = await chromium.launch({
  executablePath: chromePath,
  args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
});
let result;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  page.on('crash', () => console.error('page crashed'));
  page.on('console', (m) => m.type() === 'log' && console.log(`page: ${m.text()}`));
  await page.goto(`http://127.0.0.1:${http.address().port}/heap.html`);
  await page.waitForFunction(() => window.benchReady === true);
  const urls = Array.from(
    { length: SERVERS },
    (_, i) => `${bases[i % bases.length]}/f/heap-${Date.now()}-${i}/churn/mcp`,
  );
  result = await page.evaluate(([u, m]) => window.benchListChanges(u, m, 15), [urls, MINUTES]);
} finally {
  await browser.close();
  await faults.close();
  http.close();
}
const MB = 1024 * 1024;
const first = result.samples[0].bytes;
const last = result.samples.at(-1).bytes;
console.log(
  `\nheap, ${result.connected} of ${result.servers} servers connected, ${MINUTES} simulated minutes ` +
    `(${MINUTES * result.servers} list changes re-listed, ${result.seconds.toFixed(0)} s of wall time, ` +
    `${result.tools} tools at the end)`,
);
console.log('| minute | JS heap after GC (MB) |\n|---:|---:|');
for (const s of result.samples) console.log(`| ${s.minute} | ${(s.bytes / MB).toFixed(2)} |`);
console.log(
  `heap before ${(first / MB).toFixed(2)} MB, after ${(last / MB).toFixed(2)} MB, ratio ${(last / first).toFixed(2)}`,
);
