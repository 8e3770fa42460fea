// The directory's search over 5,000 entries (issue 37): a registry on 127.0.0.1 holding 5,000
// server.json entries answers each search with a page of 100, and the host's curated list holds
// 5,000 more that the directory filters itself. Measured in Chromium from the CDN build: the time
// from the registry's answer (the fetch's responseEnd) to the results on screen (the frame after
// the render), beside a baseline in the same run: the same answer rendered as a plain list
// (no validation, no lit). Not part of the tests: `npm run build && node bench/registry.mjs`.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = 5000;
const ROUNDS = 25;
const words = ['weather', 'files', 'git', 'search', 'calendar', 'mail', 'maps', 'notes', 'sql', 'docs'];
const entry = (i, ns) => ({
  name: `io.bench.${ns}/server-${i}`,
  title: `${words[i % words.length]} server ${i}`,
  description: `Works with ${words[(i * 7) % words.length]} and ${words[(i * 3) % words.length]} (${i}).`,
  version: `1.${i % 10}.0`,
  repository: { url: `https://github.com/bench/server-${i}`, source: 'github' },
  remotes: [
    {
      type: 'streamable-http',
      url: `https://server-${i}.bench.example/mcp`,
      headers: [{ name: 'X-Key', isSecret: true }],
    },
  ],
});
const registryEntries = Array.from({ length: N }, (_, i) => ({
  server: entry(i, 'reg'),
  _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2025-11-20T10:00:00Z' } },
}));
const curated = Array.from({ length: N }, (_, i) => entry(i, 'own'));

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/v0.1/servers') {
    const q = (url.searchParams.get('search') ?? '').toLowerCase();
    const limit = Math.min(100, Number(url.searchParams.get('limit')) || 30);
    // the search itself is the registry's work: every name is looked at
    const found = registryEntries.filter((e) => e.server.name.toLowerCase().includes(q) || /^(round|base)\d+$/.test(q));
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    return res.end(JSON.stringify({ servers: found.slice(0, limit), metadata: { nextCursor: 'MTAw', count: limit } }));
  }
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end('<!doctype html><html lang="en"><body><main id="m"></main></body></html>');
  }
  try {
    const file = path.join(root, path.normalize(url.pathname));
    if (!file.startsWith(path.join(root, 'dist/cdn'))) throw new Error('outside');
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(base);
  const result = await page.evaluate(
    async ({ base, curated, rounds }) => {
      const { loadElements, MemoryStorage } = await import('/dist/cdn/mcp-elements.js');
      await loadElements('mcp-server-directory');
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const answerEnd = (url) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name === url)
          .at(-1).responseEnd;
      const el = document.createElement('mcp-server-directory');
      el.registries = [base];
      el.curated = curated;
      el.storage = new MemoryStorage();
      document.querySelector('#m').append(el);
      await el.updateComplete;
      const directory = [];
      const baseline = [];
      const list = document.createElement('ul');
      document.body.append(list);
      for (let i = 0; i < rounds; i++) {
        // the directory: search (a query no cache holds), the registry answers, the 100 rows show
        const q = `round${i}`;
        await el.search(q);
        await el.updateComplete;
        await frame();
        const url = `${base}/v0.1/servers?version=latest&limit=30&search=${q}`;
        const shown = performance.now();
        directory.push(shown - answerEnd(url));
        // the baseline: the same kind of answer, parsed and shown as plain text rows
        const bq = `base${i}`;
        const burl = `${base}/v0.1/servers?version=latest&limit=30&search=${bq}&round=1`;
        const body = await (await fetch(burl)).json();
        list.replaceChildren(
          ...body.servers.map((s) => {
            const li = document.createElement('li');
            li.textContent = `${s.server.title}: ${s.server.description}`;
            return li;
          }),
        );
        await frame();
        baseline.push(performance.now() - answerEnd(burl));
      }
      return { directory, baseline, rows: el.shadowRoot.querySelectorAll('li.entry').length };
    },
    { base, curated, rounds: ROUNDS },
  );
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const d = median(result.directory.slice(3));
  const b = median(result.baseline.slice(3));
  console.log(
    JSON.stringify(
      {
        what: 'directory search: registry answer → results shown (median ms, first 3 rounds warm-up)',
        entries: { registry: N, curated: N },
        rowsShown: result.rows,
        directoryMs: Math.round(d * 10) / 10,
        baselineMs: Math.round(b * 10) / 10,
        ratio: Math.round((d / b) * 10) / 10,
        within100ms: d <= 100,
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  server.close();
}
