// Issue 23 item 3: a G4F-style server (plain JSON-RPC answering `initialize` too, a CORS preflight
// that allows only Content-Type) costs console errors on the first connect only (the probe that
// finds out what it speaks); the hub remembers what it spoke (its stored catalogue), so after a
// reload the page stays quiet. Debian's Chromium through playwright-core, a bare page loading the
// CDN build (dist/cdn), console errors captured.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { guardEach, launchGuarded } from '../fixtures/loopback-guard.mjs';
import { root } from '../fixtures/e2e-demo.mjs';

const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>quiet</title><script type="module" src="/cdn/mcp-elements.js"></script>';
let server;
let base;
let browser;

before(async () => {
  // the page and the CDN files on 127.0.0.1 (another origin than the MCP server)
  server = http.createServer(async (req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    if (p === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    try {
      const file = path.join(root, 'dist', path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen({ port: 0, host: '127.0.0.1' }, r));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launchGuarded();
});
after(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

test('a G4F-style server: console errors on the first load only, none after a reload or an edit that keeps its address', async (t) => {
  const tenant = `quiet-${Date.now().toString(36)}`;
  const url = `${urls.origins.a}/t/${tenant}/g4f/jsonrpc`;
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location()?.url ?? ''}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const connect = (arg) =>
    page.evaluate(async ({ u, sid }) => {
      const hub = globalThis.McpElements.getHub();
      await hub.ready;
      const id = sid ?? (await hub.servers.add({ name: 'G4F style', url: u })).id;
      await hub.connect(id);
      const r = await hub.callTool({ serverId: id, tool: 'echo', arguments: { a: 1 }, source: 'user' });
      return { id, status: r.status, transport: hub.catalogue(id)?.transport };
    }, arg);
  await page.goto(base);
  await page.waitForFunction(() => globalThis.McpElements?.getHub);
  const first = await connect({ u: url });
  assert.equal(first.status, 'success');
  // the first load finds out what the server speaks: the refused preflight shows (what the
  // assertion after the reload would catch)
  assert.ok(errors.length > 0, 'the first connect probes with MCP headers');
  t.diagnostic(`first load: ${errors.length} console errors (${first.transport})`);
  const log = async () => (await fetch(`${urls.origins.a}/t/${tenant}/log`)).json();
  const seen = (await log()).length;

  errors.length = 0;
  await page.reload();
  await page.waitForFunction(() => globalThis.McpElements?.getHub);
  const again = await connect({ sid: first.id });
  assert.equal(again.status, 'success');
  assert.equal(again.transport, first.transport);
  assert.deepEqual(errors, []);
  // after the reload no preflight asked for an MCP header
  const after = (await log()).slice(seen);
  assert.ok(after.length > 0, 'the reload connected again');
  for (const r of after)
    assert.doesNotMatch(String(r.headers['access-control-request-headers'] ?? ''), /mcp-/, JSON.stringify(r));

  // G4F's page switches servers off and on and renames them: edits that do not change how to
  // reach the server keep the remembered answer, so the probe is not repeated
  const seen2 = (await log()).length;
  const edited = await page.evaluate(async (id) => {
    const hub = globalThis.McpElements.getHub();
    await hub.servers.update(id, { enabled: false });
    await hub.servers.update(id, { enabled: true, name: 'G4F style, renamed' });
    await hub.connect(id);
    const r = await hub.callTool({ serverId: id, tool: 'echo', arguments: { a: 2 }, source: 'user' });
    return { status: r.status, transport: hub.catalogue(id)?.transport };
  }, first.id);
  assert.deepEqual(edited, { status: 'success', transport: first.transport });
  assert.deepEqual(errors, []);
  const afterEdit = (await log()).slice(seen2);
  assert.ok(afterEdit.length > 0, 'the edited server connected again');
  for (const r of afterEdit)
    assert.doesNotMatch(String(r.headers['access-control-request-headers'] ?? ''), /mcp-/, JSON.stringify(r));
  await page.close();
});

// no page of the file may send anything off 127.0.0.0/8 (test/fixtures/loopback-guard.mjs)
guardEach(() => browser);
