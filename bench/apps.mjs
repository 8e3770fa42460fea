// MCP Apps rows for `npm run bench` (bench/run.mjs imports appsRows), or on its own:
// `node bench/apps.mjs` (needs a build: dist/cdn, dist/sandbox).
// Time from a tool's result (and from the call) to its view's `initialized`, ours (hub +
// <mcp-tool-call>/<mcp-app-view> + our sandbox page) vs a host built as the ext-apps example host
// is (bench/apps-baseline.ts: the official AppBridge with the client, its own proxy page), both
// against the same server-debug from npm, in one Chromium, rounds interleaved. Each round is a
// fresh page: its first view is "cold" (ours fetches the card, view and apps chunks then), the
// next ones "warm". A control side runs the baseline with its view in an opaque srcdoc frame (no
// allow-same-origin), as ours is with one sandbox origin (docs/decisions/059-apps-sandbox.md):
// Chromium gives such a frame a process of its own, and the control shows what that alone costs.
// A fourth side is ours with a sandbox origin per server (the `{server}` template on
// *.localhost), where the view is same-origin with its proxy as the example host's is.
import { build } from 'vite';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startExample, startSandbox } from '../test/fixtures/apps-server.mjs';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';
import { singleFileBuild } from '../scripts/vite-plugins.mjs';
import { mergeRows } from './results-file.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOL = 'debug-tool';
/** The spec's restrictive default policy (no csp declared): the baseline proxy's header, as the example's server sets it. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; object-src 'none'; connect-src 'none'";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function serve(handler) {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1' }, () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections?.();
          }),
      }),
    ),
  );
}

/** `{ fromCall, fromResult }` medians (ms) of the cold (first of a page) and warm samples, per side. */
export async function measureApps({ rounds = 5, views = 10 } = {}) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: singleFileBuild({
      entry: 'bench/apps-baseline.ts',
      outDir: 'bench/.build',
      fileName: 'apps-baseline.js',
      emptyOutDir: false,
    }),
  });
  const types = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };
  const pages = await serve((req, res) => {
    const url = new URL(req.url, 'http://x');
    const page = { '/ours.html': '/bench/apps-page.js', '/baseline.html': '/bench/.build/apps-baseline.js' }[
      url.pathname
    ];
    if (page)
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><body><script type="module" src="${page}"></script></body>`);
    const p = path.join(root, decodeURIComponent(url.pathname));
    if (!p.startsWith(root) || !existsSync(p)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream' }).end(readFileSync(p));
  });
  const baselineSandbox = await serve((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': DEFAULT_CSP })
      .end(readFileSync(path.join(root, 'bench/apps-baseline-sandbox.html'))),
  );
  const [debug, sandbox] = await Promise.all([startExample('@modelcontextprotocol/server-debug'), startSandbox()]);
  // Every page and sandbox by a name under bench.localhost (loopback in Chromium; the servers
  // listen on 127.0.0.1): the host page and each sandbox are then same-site and different
  // origins, as the ext-apps example host runs (localhost:8080, its sandbox localhost:8081), for
  // every side alike — a sandbox origin per server included ({server}.bench.localhost), which on
  // *.localhost alone would be a site of its own, a process of its own in Chromium.
  const named = (origin, name) => origin.replace('127.0.0.1', name);
  const host = named(pages.origin, 'bench.localhost');
  const sandboxPort = new URL(sandbox.url).port;
  const oursSandbox = `http://sandbox.bench.localhost:${sandboxPort}/index.html`;
  const perServerSandbox = `http://{server}.bench.localhost:${sandboxPort}/index.html`;
  const baselineSandboxUrl = `${named(baselineSandbox.origin, 'sandbox.bench.localhost')}/sandbox.html`;
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  const samples = {
    ours: { cold: [], warm: [] },
    perServer: { cold: [], warm: [] },
    baseline: { cold: [], warm: [] },
    opaque: { cold: [], warm: [] },
  };
  async function side(name, file, fn, sandboxUrl) {
    const page = await browser.newPage();
    try {
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${host}/${file}`);
      await page.waitForFunction((f) => typeof window[f] === 'function', fn);
      const xs = await page.evaluate(([f, a]) => window[f](...a), [fn, [debug.url, sandboxUrl, TOOL, views + 1]]);
      if (errors.length) throw new Error(`${name}: ${errors.join('; ')}`);
      samples[name].cold.push(xs[0]);
      samples[name].warm.push(...xs.slice(1));
    } finally {
      await page.close();
    }
  }
  /**
   * APPS_BENCH_APPROVAL: a model's call allowed after a second, a page's first view: readied while
   * the call waited (the card on the page) vs not (the card added once allowed); per-server origins.
   */
  async function approvalRun() {
    const think = Number(process.env.APPS_BENCH_THINK_MS ?? 1000);
    const got = { readied: [], not: [] };
    for (let r = 0; r < rounds * 2; r++) {
      for (const readied of r % 2 ? [false, true] : [true, false]) {
        const page = await browser.newPage();
        await page.goto(`${host}/ours.html`);
        await page.waitForFunction(() => typeof window.benchApproval === 'function');
        got[readied ? 'readied' : 'not'].push(
          await page.evaluate((a) => window.benchApproval(...a), [debug.url, perServerSandbox, TOOL, think, readied]),
        );
        await page.close();
      }
    }
    const a = median(got.readied);
    const b = median(got.not);
    console.log(
      `a model's call allowed after ${think} ms, a page's first view, allowed → initialized (median of ${got.readied.length}): ` +
        `readied while waiting ${a.toFixed(1)} ms, not readied ${b.toFixed(1)} ms: ${(a / b).toFixed(2)}×`,
    );
  }
  try {
    if (process.env.APPS_BENCH_APPROVAL) return await approvalRun();
    for (let r = 0; r < rounds; r++) {
      // alternate which side goes first, so neither always inherits a warmer machine
      const order = [
        () => side('ours', 'ours.html', 'benchOurHost', oursSandbox),
        () => side('perServer', 'ours.html', 'benchOurHost', perServerSandbox),
        () => side('baseline', 'baseline.html', 'benchExampleHost', baselineSandboxUrl),
        () => side('opaque', 'baseline.html', 'benchExampleHost', `${baselineSandboxUrl}?opaque`),
      ];
      if (r % 2) order.reverse();
      for (const run of order) await run();
    }
  } finally {
    await browser.close();
    await Promise.all([debug.close(), sandbox.close(), pages.close(), baselineSandbox.close()]);
  }
  if (process.env.APPS_BENCH_PHASES)
    for (const name of ['ours', 'perServer', 'baseline']) {
      const warm = samples[name].warm.map((s) => s.phases);
      const keys = ['frame', 'proxyReady', 'initialize', 'result', 'init', 'busy'];
      console.log(
        `phases after the call (ms, median of warm views), ${name}: ` +
          keys.map((k) => `${k} ${median(warm.map((p) => p[k] ?? NaN)).toFixed(0)}`).join(', '),
      );
    }
  const sum = (xs) => ({
    fromCall: median(xs.map((s) => s.fromCall)),
    fromResult: median(xs.map((s) => s.fromResult)),
  });
  return {
    ours: { cold: sum(samples.ours.cold), warm: sum(samples.ours.warm) },
    perServer: { cold: sum(samples.perServer.cold), warm: sum(samples.perServer.warm) },
    baseline: { cold: sum(samples.baseline.cold), warm: sum(samples.baseline.warm) },
    opaque: { cold: sum(samples.opaque.cold), warm: sum(samples.opaque.warm) },
    rounds,
    views,
  };
}

/** The rows bench/run.mjs prints and stores. */
export async function appsRows(options) {
  const m = await measureApps(options);
  const BASE = 'host built as the ext-apps example host (AppBridge + client, its proxy page), same server';
  const row = (measure, ours, baseline, baselineName = BASE) => ({
    measure,
    ours,
    baseline,
    baselineName,
    ratio: ours / baseline,
  });
  const OPAQUE = 'the same example-style host with its view in an opaque srcdoc frame, as ours';
  const n = `${m.rounds} pages`;
  return [
    row(
      `MCP Apps, a sandbox origin per server: tool result → view initialized, server-debug, later views of a page, median of ${m.rounds * m.views} (ms)`,
      m.perServer.warm.fromResult,
      m.baseline.warm.fromResult,
    ),
    row(
      `MCP Apps, a sandbox origin per server: call sent → view initialized, later views of a page, median of ${m.rounds * m.views} (ms)`,
      m.perServer.warm.fromCall,
      m.baseline.warm.fromCall,
    ),
    row(
      `MCP Apps, a sandbox origin per server: tool result → view initialized, a page's first view, median of ${n} (ms)`,
      m.perServer.cold.fromResult,
      m.baseline.cold.fromResult,
    ),
    row(
      `MCP Apps: tool result → view initialized, server-debug, later views of a page, median of ${m.rounds * m.views} (ms)`,
      m.ours.warm.fromResult,
      m.baseline.warm.fromResult,
    ),
    row(
      `MCP Apps: call sent → view initialized, server-debug, later views of a page, median of ${m.rounds * m.views} (ms)`,
      m.ours.warm.fromCall,
      m.baseline.warm.fromCall,
    ),
    row(
      `MCP Apps: tool result → view initialized, a page's first view (ours fetches its chunks), median of ${n} (ms)`,
      m.ours.cold.fromResult,
      m.baseline.cold.fromResult,
    ),
    row(
      `MCP Apps: call sent → view initialized, a page's first view, median of ${n} (ms)`,
      m.ours.cold.fromCall,
      m.baseline.cold.fromCall,
    ),
    row(
      `MCP Apps control: the example-style host with an opaque view frame, tool result → initialized, later views (ms)`,
      m.opaque.warm.fromResult,
      m.baseline.warm.fromResult,
    ),
    row(
      `MCP Apps: tool result → view initialized, later views, ours vs the opaque-frame control (ms)`,
      m.ours.warm.fromResult,
      m.opaque.warm.fromResult,
      OPAQUE,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}` && process.env.APPS_BENCH_APPROVAL) {
  await measureApps({ rounds: Number(process.env.APPS_BENCH_ROUNDS ?? 5) });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const { appsEntryShare } = await import('./apps-entry.mjs');
  const share = await appsEntryShare();
  const rows = await appsRows({
    rounds: Number(process.env.APPS_BENCH_ROUNDS ?? 5),
    views: Number(process.env.APPS_BENCH_VIEWS ?? 10),
  });
  rows.unshift({
    measure: 'MCP Apps share of the CDN entry (entry minus the entry with apps stubbed out) (KB)',
    ours: share.share / 1024,
    baseline: 0.5,
    baselineName: 'goal: 0.5 KB',
    ratio: share.share / 1024 / 0.5,
  });
  console.log('\n| measure | ours | baseline | ratio |\n|---|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.measure} | ${r.ours.toFixed(2)} | ${r.baseline.toFixed(2)} | ${r.ratio.toFixed(2)} |`);
  // APPS_BENCH_WRITE=1: put these rows into bench/results.json (same measures replaced) without
  // measuring everything else again
  if (process.env.APPS_BENCH_WRITE) mergeRows('MCP Apps', rows, 'apps');
}
