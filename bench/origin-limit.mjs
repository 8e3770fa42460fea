// `node bench/origin-limit.mjs`: what the browser itself allows behind one origin, measured in
// Debian's Chromium (issue 22 item 9). Eleven plain HTTP/1.1 servers on 127.0.0.1 (each its own
// origin: another port), every answer (CORS preflights too) 50 ms late, as a remote server's
// round trip; the page sends N requests at once with an MCP-like preflighted POST, either all to
// one origin or one per origin, and each server counts the requests in flight at the same moment.
// Prints the ratios against one request, measured in the same run; nothing is asserted.
// `npm run bench` takes its rows (bench/run.mjs imports originLimitRows).
import http from 'node:http';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromePath } from '../scripts/chromium.mjs';

const RTT = Number(process.env.BENCH_RTT ?? 50);

function startServer() {
  let open = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    // requests in flight at once: what the browser lets run in parallel on this origin
    peak = Math.max(peak, ++open);
    res.on('finish', () => open--);
    setTimeout(() => {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'content-type, mcp-protocol-version',
        'access-control-allow-methods': 'POST',
      };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      req.resume();
      req.on('end', () => res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{}'));
    }, RTT);
  });
  return new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1' }, () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        peak: () => peak,
        reset: () => (peak = open),
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

/** Measure what the browser allows behind one origin (ratios against one request). */
export async function measureOriginLimit({ rounds = 9 } = {}) {
  const load = [loadavg()[0]];
  const servers = await Promise.all(Array.from({ length: 11 }, startServer));
  const page0 = servers[10];
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  try {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(page0.url);
    /** N preflighted POSTs at once (a fresh header value each round: no preflight cache), ms. */
    const burst = (targets, round) =>
      page.evaluate(
        async ({ targets, round }) => {
          const t0 = performance.now();
          await Promise.all(
            targets.map((u, i) =>
              // a URL of its own: a preflight is cached per URL, and every MCP request of a connect
              // that is not cached costs one
              fetch(`${u}?${round}-${i}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'mcp-protocol-version': `r${round}-${i}` },
                body: '{}',
              }).then((r) => r.text()),
            ),
          );
          return performance.now() - t0;
        },
        { targets, round },
      );
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const rows = { one: [], tenOneOrigin: [], tenTenOrigins: [], twentyOneOrigin: [] };
    let peakOne = 0;
    let peakTen = 0;
    const reset = () => servers.forEach((s) => s.reset());
    // warm: every origin's connections open once (as a page that already talks to its servers)
    await burst(
      servers.slice(0, 10).map((s) => s.url),
      'warm',
    );
    await burst(Array(20).fill(servers[0].url), 'warm0');
    for (let r = 0; r < rounds; r++) {
      rows.one.push(await burst([servers[0].url], `${r}a`));
      reset();
      rows.tenOneOrigin.push(await burst(Array(10).fill(servers[0].url), `${r}b`));
      peakOne = Math.max(peakOne, servers[0].peak());
      reset();
      rows.tenTenOrigins.push(
        await burst(
          servers.slice(0, 10).map((s) => s.url),
          `${r}c`,
        ),
      );
      peakTen = Math.max(peakTen, ...servers.slice(0, 10).map((s) => s.peak()));
      rows.twentyOneOrigin.push(await burst(Array(20).fill(servers[0].url), `${r}d`));
    }
    load.push(loadavg()[0]);
    const one = median(rows.one);
    const out = {
      rttMs: RTT,
      rounds,
      oneRequestMs: Math.round(one),
      tenBehindOneOriginX: +(median(rows.tenOneOrigin) / one).toFixed(2),
      tenOnTenOriginsX: +(median(rows.tenTenOrigins) / one).toFixed(2),
      twentyBehindOneOriginX: +(median(rows.twentyOneOrigin) / one).toFixed(2),
      peakInFlightOneOrigin: peakOne,
      peakInFlightPerOriginTenOrigins: peakTen,
      load,
      protocol: await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.nextHopProtocol),
    };
    return out;
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** The bench rows: N preflighted requests at once against one, measured in the same run. */
export async function originLimitRows(options) {
  const m = await measureOriginLimit(options);
  const what = `preflighted POSTs at once, each answer ${m.rttMs} ms late, load ${m.load.map((l) => l.toFixed(1)).join('→')}`;
  const row = (measure, ratio) => ({
    measure,
    ours: ratio * m.oneRequestMs,
    baseline: m.oneRequestMs,
    baselineName: 'one such request',
    ratio,
  });
  return [
    row(
      `the browser's limit: 10 ${what}, behind one HTTP/1.1 origin (peak ${m.peakInFlightOneOrigin} in flight) (ms)`,
      m.tenBehindOneOriginX,
    ),
    row(
      `the browser's limit: 10 ${what}, on 10 origins (peak ${m.peakInFlightPerOriginTenOrigins} per origin) (ms)`,
      m.tenOnTenOriginsX,
    ),
    row(`the browser's limit: 20 ${what}, behind one HTTP/1.1 origin (ms)`, m.twentyBehindOneOriginX),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(JSON.stringify(await measureOriginLimit({ rounds: Number(process.env.BENCH_ROUNDS ?? 9) }), null, 2));
