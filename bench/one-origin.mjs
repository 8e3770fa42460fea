// Many MCP servers behind one origin (issue 22 item 9): rows for `npm run bench` (bench/run.mjs
// imports oneOriginRows), or on its own: `node bench/one-origin.mjs` (needs a build: dist/cdn).
// Ten servers of our fixture (/lean tenants: an ordinary tool list) behind one origin, every
// answer and preflight 50 ms late (a remote gateway), connected at once, against one server
// alone behind the same origin, in one Chromium, cases interleaved round by round:
//   - HTTP/1.1 (the fixture itself): the hub with its default budget (6 connections);
//   - HTTP/2 (test/fixtures/h2-front.mjs: TLS, a self-signed certificate, Chromium started with
//     --ignore-certificate-errors for this bench only): the hub with `connectionsPerOrigin: 64`,
//     the hub with the default 6, and raw v2 clients;
//   - the control: ten servers on ten origins (HTTP/1.1), the hub: what this machine allows
//     when no per-origin limit applies;
//   - raw v2 clients over HTTP/1.1, once, given up after 15 s (their GET streams may hold every
//     connection).
// The fixture counts the requests other than GETs in flight at once per case (its peak: what the
// browser let run in parallel). Prints the rows and the load average.
import { build } from 'vite';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startFixtureServer } from '../test/fixtures/fixture-server.mjs';
import { startH2Front } from '../test/fixtures/h2-front.mjs';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';
import { singleFileBuild } from '../scripts/vite-plugins.mjs';
import { row } from './row.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RTT_MS = 50;
const RAISED = 64;
const RAW_H1_GIVE_UP_MS = 15_000;

/** Serve the project root on 127.0.0.1 with the bench page. */
async function servePage() {
  const types = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };
  const server = createServer((req, res) => {
    if (req.url === '/bench.html')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module" src="/bench/page.js"></script>');
    const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!p.startsWith(root) || !existsSync(p)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream' }).end(readFileSync(p));
  });
  await new Promise((r) => server.listen({ port: 0, host: '127.0.0.1' }, r));
  return {
    url: `http://127.0.0.1:${server.address().port}/bench.html`,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Measure every case; returns medians (ms), peaks and the load average before and after. */
export async function measureOneOrigin({ rounds = 7 } = {}) {
  if (!existsSync(path.join(root, 'bench/.build/sdk-bare.js')))
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      build: singleFileBuild({ entry: 'bench/sdk-bare.ts', outDir: 'bench/.build', fileName: 'sdk-bare.js' }),
    });
  const load = [loadavg()[0]];
  const fixture = await startFixtureServer();
  // the control: nine more fixture servers, so ten servers on ten origins (no per-origin limit)
  const others = await Promise.all(Array.from({ length: 9 }, () => startFixtureServer()));
  const front = await startH2Front(fixture.url);
  const page0 = await servePage();
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'],
  });
  const tag = `oo${Date.now()}`;
  const url = (base, name) => `${base}/rtt/${RTT_MS}/lean/${tag}-${name}/mcp`;
  const group = (base, name) => ({
    prefix: `${tag}-${name}-`,
    one: url(base, `${name}-one`),
    ten: Array.from({ length: 10 }, (_, i) => url(base, `${name}-${i}`)),
  });
  const cases = {
    h1: group(fixture.url, 'h1'),
    h2: { ...group(front.url, 'h2'), hubOptions: { connectionsPerOrigin: RAISED } },
    h2default: group(front.url, 'h2d'),
    h2raw: { ...group(front.url, 'h2raw'), raw: true },
    origins: { ...group(fixture.url, 'o10'), ten: [fixture, ...others].map((f, i) => url(f.url, `o10-${i}`)) },
  };
  const rawH1 = group(fixture.url, 'h1raw');
  // the fixture watches each case's tenants from here (GET /control/inflight registers a prefix)
  const inflight = (prefix) => fetch(`${fixture.url}/control/inflight?prefix=${prefix}`).then((r) => r.json());
  for (const c of [...Object.values(cases), rawH1]) await inflight(c.prefix);
  const open = async () => {
    const page = await browser.newPage();
    await page.goto(page0.url);
    await page.waitForFunction(() => window.benchReady === true);
    return page;
  };
  try {
    let page = await open();
    const medians = await page.evaluate(([cs, n]) => window.benchOneOrigin(cs, n), [Object.values(cases), rounds]);
    await page.close();
    page = await open();
    const rawH1Ten = await page.evaluate(
      ([urls, ms]) => window.benchRawWithin(urls, ms),
      [rawH1.ten, RAW_H1_GIVE_UP_MS],
    );
    await page.close();
    const out = { rounds, rttMs: RTT_MS, raised: RAISED, rawH1Ten, rawH1GiveUpMs: RAW_H1_GIVE_UP_MS };
    for (const [i, [name, c]] of Object.entries(cases).entries())
      out[name] = { ...medians[i], peak: (await inflight(c.prefix)).peak };
    out.rawH1Peak = (await inflight(rawH1.prefix)).peak;
    load.push(loadavg()[0]);
    return { ...out, load };
  } finally {
    await browser.close();
    await front.close();
    await Promise.all([fixture, ...others].map((f) => f.close()));
    await page0.close();
  }
}

/** The bench rows (ratios against one server behind the same origin, measured in the same run). */
export async function oneOriginRows(options) {
  const m = await measureOneOrigin(options);
  const ms = `${m.rttMs} ms each answer`;
  const load = `load ${m.load.map((l) => l.toFixed(1)).join('→')}`;
  const one = `one server behind the same origin, same ${m.rttMs} ms`;
  return [
    row(
      `10 servers behind one HTTP/1.1 origin in parallel, ${ms}, hub (default connectionsPerOrigin 6; peak ${m.h1.peak} requests in flight; ${load}), median (ms)`,
      m.h1.ten,
      m.h1.one,
      one,
    ),
    row(
      `control: 10 servers on 10 HTTP/1.1 origins in parallel, ${ms}, hub (no per-origin limit applies), median (ms)`,
      m.origins.ten,
      m.origins.one,
      'one server, same 50 ms',
    ),
    row(
      `10 servers behind one HTTP/2 origin (TLS front) in parallel, ${ms}, hub with connectionsPerOrigin ${m.raised} (peak ${m.h2.peak} in flight), median (ms)`,
      m.h2.ten,
      m.h2.one,
      one,
    ),
    row(
      `10 servers behind one HTTP/2 origin in parallel, ${ms}, hub with the default connectionsPerOrigin 6 (peak ${m.h2default.peak} in flight), median (ms)`,
      m.h2default.ten,
      m.h2default.one,
      one,
    ),
    row(
      `raw v2 clients: 10 servers behind one HTTP/2 origin in parallel, ${ms} (peak ${m.h2raw.peak} in flight), median (ms)`,
      m.h2raw.ten,
      m.h2raw.one,
      'one raw client, same origin',
    ),
    row(
      `10 servers behind one HTTP/2 origin, ${ms}: hub (connectionsPerOrigin ${m.raised}) vs raw clients (ms)`,
      m.h2.ten,
      m.h2raw.ten,
      'raw v2 clients, the same 10',
    ),
    row(
      Number.isNaN(m.rawH1Ten)
        ? `raw v2 clients: 10 servers behind one HTTP/1.1 origin, ${ms}: not connected within ${m.rawH1GiveUpMs / 1000} s (peak ${m.rawH1Peak} in flight; their GET streams hold the connections) (ms)`
        : `raw v2 clients: 10 servers behind one HTTP/1.1 origin, ${ms} (peak ${m.rawH1Peak} in flight), once (ms)`,
      Number.isNaN(m.rawH1Ten) ? m.rawH1GiveUpMs : m.rawH1Ten,
      m.h1.ten,
      'the hub, the same 10 (median)',
    ),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await oneOriginRows({ rounds: Number(process.env.BENCH_ROUNDS ?? 7) });
  console.log('| measure | ours | baseline | baseline is | ratio |\n|---|---:|---:|---|---:|');
  for (const r of rows)
    console.log(
      `| ${r.measure} | ${r.ours.toFixed(0)} | ${r.baseline.toFixed(0)} | ${r.baselineName} | ${r.ratio.toFixed(2)} |`,
    );
}
