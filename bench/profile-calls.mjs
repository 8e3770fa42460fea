// `npm run build && node bench/profile-calls.mjs`: a CPU profile of benchConcurrentCalls (500
// calls over 5 fixture servers, three rounds, against raw clients too): main-thread time by file,
// then the hub's hottest functions (core and connect chunks) with line:column in the built
// chunk. Not part of `npm run bench` (the profiler slows the page); it found the map copies of
// docs/decisions/033-call-pipeline.md, "Bursts of calls".
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';
import { startFixtureServer } from '../test/fixtures/fixture-server.mjs';
const root = process.cwd();
const iso = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const http = createServer((req, res) => {
  if (req.url === '/bench.html')
    return res
      .writeHead(200, { 'content-type': 'text/html', ...iso })
      .end('<!doctype html><script type="module" src="/bench/page.js"></script>');
  const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!existsSync(p)) return res.writeHead(404).end();
  res
    .writeHead(200, { 'content-type': p.endsWith('.js') ? 'text/javascript' : 'application/octet-stream', ...iso })
    .end(readFileSync(p));
});
await new Promise((r) => http.listen({ port: 0, host: '127.0.0.1' }, r));
const fixtures = await Promise.all(Array.from({ length: 5 }, () => startFixtureServer()));
const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${http.address().port}/bench.html`);
await page.waitForFunction(() => window.benchReady === true);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
const r = await page.evaluate(
  (urls) => window.benchConcurrentCalls(urls, 500, 3),
  fixtures.map((f, i) => `${f.url}/t/prof-${Date.now()}-${i}/mcp`),
);
const { profile } = await cdp.send('Profiler.stop');
console.log(JSON.stringify({ ours: r.ours, raw: r.raw, rawCapped: r.rawCapped }));
const self = new Map();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas;
const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, t] of counts) {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\/(dist|bench|node_modules)\//, '$1/')}:${f.lineNumber}:${f.columnNumber}`;
  self.set(key, (self.get(key) ?? 0) + t);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFile = new Map();
for (const [id, t] of counts) {
  const u =
    byId
      .get(id)
      .callFrame.url.replace(/.*\/(chunks|bench)\//, '')
      .replace(/-[\w-]{8}\.js$/, '') || byId.get(id).callFrame.functionName;
  byFile.set(u, (byFile.get(u) ?? 0) + t);
}
for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log('file', (t / 1000).toFixed(0).padStart(7), 'ms', k);
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 35))
  if (/core|connect/.test(k))
    console.log((t / 1000).toFixed(0).padStart(7), 'ms', ((100 * t) / total).toFixed(1).padStart(5) + '%', k);
await browser.close();
await Promise.all(fixtures.map((f) => f.close()));
http.close();
