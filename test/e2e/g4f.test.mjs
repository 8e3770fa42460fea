// End to end on a G4F-style chat page (test/fixtures/g4f-chat.html: our own page, written from
// G4F's public markup and its mcp-client.js interface) with the one documented script tag, and
// MCP servers written like G4F's own (test/fixtures/g4f-server.mjs): plain JSON-RPC, results
// without `content`, one whose CORS preflight allows only Content-Type (G4F's) and one that
// allows the MCP headers. The model receives each tool's object; the cards stay in the
// conversation after G4F re-renders it and after a reload; names are <Server>__tool.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { guardEach, launchGuarded } from '../fixtures/loopback-guard.mjs';
import { startG4fServer } from '../fixtures/g4f-server.mjs';
import { root, shot } from '../fixtures/e2e-demo.mjs';

let g4f, site, browser, page;
/** Console errors and page errors, with the phase they happened in. */
const errors = [];
let phase = 'first load';

/** The fixture page and the CDN build on one origin (the MCP servers are on another). */
function startSite() {
  const files = {
    '/g4f-chat.html': [path.join(root, 'test/fixtures/g4f-chat.html'), 'text/html; charset=utf-8'],
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    let file = files[url];
    if (!file && url.startsWith('/dist/cdn/') && !url.includes('..'))
      file = [path.join(root, url), 'text/javascript; charset=utf-8'];
    try {
      if (!file) throw new Error('not found');
      const body = await readFile(file[0]);
      res.writeHead(200, { 'content-type': file[1] }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1' }, () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/g4f-chat.html`,
        close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
      }),
    ),
  );
}

before(async () => {
  [g4f, site] = await Promise.all([startG4fServer(), startSite()]);
  browser = await launchGuarded();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && errors.push({ phase, text: m.text() }));
  page.on('pageerror', (e) => errors.push({ phase, text: e.message }));
});
after(async () => {
  await browser?.close();
  await Promise.all([g4f?.close(), site?.close()]);
});

const tenant = `e2e-${Date.now()}`;
const strictUrl = () => `${g4f.url}/${tenant}/strict/mcp`;
const openUrl = () => `${g4f.url}/${tenant}/open/mcp`;
const apiNames = () => page.evaluate(() => window.mcpClient.getSelectedToolsForAPI().map((t) => t.function.name));
const toolsLoaded = (n) => page.waitForFunction((n) => Number(document.body.dataset.toolsLoaded) >= n, n);

async function addServer(name, url) {
  const loaded = await page.evaluate(() => Number(document.body.dataset.toolsLoaded || 0));
  await page.fill('#mcp-server-name', name);
  await page.fill('#mcp-server-url', url);
  await page.click('#add-mcp-server-btn');
  await toolsLoaded(loaded + 1);
}

/** One turn: the model asks for `name`, the user allows it in the card, the turn ends. */
async function turn(name, args) {
  const turns = await page.evaluate(() => Number(document.body.dataset.turns || 0));
  await page.fill('#message-input', `call ${name} ${JSON.stringify(args)}`);
  await page.click('#send-button');
  const card = page.locator('#chatBody mcp-tool-call').nth(turns);
  await card.locator('[data-action=allow-once]').click();
  await page.waitForFunction((n) => Number(document.body.dataset.turns) > n, turns);
  // what the model was sent after the call: the tool message
  return page.evaluate(() => {
    const last = window.modelRequests.at(-1).messages.at(-1);
    return { role: last.role, name: last.name, content: JSON.parse(last.content) };
  });
}

const eraOf = (url) =>
  page.evaluate((url) => {
    const hub = window.McpElements.getHub();
    return hub.status(hub.servers.list().find((s) => s.url === url).id).era;
  }, url);

test('G4F page: both CORS settings, the model gets the object, cards stay after the turn and a reload, a quiet console after it', async (t) => {
  await page.goto(site.url);
  await toolsLoaded(1);

  // a lone echo is <Server>__echo: no suffix
  await addServer('G4F', strictUrl());
  assert.deepEqual((await apiNames()).sort(), ['G4F__echo', 'G4F__get-sum']);
  // a second server with the same name and tools: distinct names, and the first keeps its own
  await addServer('G4F', openUrl());
  const names = await apiNames();
  assert.equal(new Set(names).size, 4);
  assert.ok(names.includes('G4F__echo') && names.includes('G4F__get-sum'), names.join());
  const second = names.find((n) => /^G4F__get-sum_[a-z0-9]{8}$/.test(n));
  assert.ok(second, names.join());
  // both speak the full 2025 protocol: a 2025 server gets none of the later revision's headers, so
  // a Content-Type-only preflight passes too (the plain JSON-RPC path: test/g4f/results.test.ts)
  assert.equal(await eraOf(strictUrl()), 'legacy');
  assert.equal(await eraOf(openUrl()), 'legacy');

  // the model receives the tool's object, whichever way the hub spoke to the server
  assert.deepEqual(await turn('G4F__get-sum', { a: 2, b: 3 }), {
    role: 'tool',
    name: 'G4F__get-sum',
    content: { sum: 5 },
  });
  assert.deepEqual(await turn(second, { a: 4, b: 5 }), { role: 'tool', name: second, content: { sum: 9 } });

  // the turn ended and the page rendered #chatBody again from storage, its reasoning collapsed as
  // G4F does: each card is back in its call's message, after the reasoning box that names the
  // call, and visible
  const placed = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('#chatBody mcp-tool-call')].map((card) => {
        let prev = card.previousElementSibling;
        while (prev?.tagName === 'MCP-TOOL-CALL') prev = prev.previousElementSibling;
        return {
          box: prev?.className,
          line: [...(prev?.querySelectorAll('p') ?? [])].find((p) => p.textContent.includes('Tool Call'))?.textContent,
          visible: card.checkVisibility(),
          status: card.shadowRoot?.querySelector('[part~=status]')?.dataset.status,
        };
      }),
    );
  const check = async () => {
    await page.locator('#chatBody mcp-tool-call [part~=status][data-status=success]').nth(1).waitFor();
    assert.deepEqual(await placed(), [
      { box: 'reasoning_body', line: '🔧 Tool Call: G4F__get-sum', visible: true, status: 'success' },
      { box: 'reasoning_body', line: `🔧 Tool Call: ${second}`, visible: true, status: 'success' },
    ]);
    // the result the server sent is in the card, not "no content"
    // (shown once: as the structured tree, or as its JSON text)
    const card = page.locator('#chatBody mcp-tool-call').first();
    await card.filter({ hasText: /"?sum"?\W{0,12}5\b/ }).waitFor();
    assert.equal(await card.filter({ hasText: 'returned no content' }).count(), 0);
  };
  await check();
  const logs = await page.evaluate(() => {
    const hub = window.McpElements.getHub();
    return hub.servers
      .list()
      .map((s) => (hub.store.state.logs[s.id] ?? []).filter((e) => /non-conformant/.test(e.text)).length);
  });
  assert.deepEqual(logs, [1, 1], 'each server has one non-conformant result flagged in its log');
  await shot(page, 'g4f-01-after-turns');

  // a reload: G4F renders the stored conversation; the cards come back from history
  phase = 'after reload';
  await page.reload();
  await toolsLoaded(1);
  await check();
  // names given once stay (G4F's stored conversation still says these)
  assert.deepEqual((await apiNames()).sort(), names.sort());
  await shot(page, 'g4f-02-after-reload');
  assert.deepEqual(
    errors.filter(
      (e) => e.phase === 'first load' && !/ERR_FAILED|CORS|not allowed|Failed to load resource/.test(e.text),
    ),
    [],
    'no page errors on the first load other than the CORS probes (issue 23 item 3)',
  );
  // after the reload (which ran: its cards and names were checked above) nothing from our script
  // or its requests reaches the console: what each server spoke is remembered with its catalogue
  assert.deepEqual(
    errors.filter((e) => e.phase === 'after reload'),
    [],
  );
  const first = errors.filter((e) => e.phase === 'first load');
  t.diagnostic(`console errors: ${first.length} on the first load, 0 after the reload`);
  for (const e of first) t.diagnostic(`first load: ${e.text.slice(0, 200)}`);
});

// no page of the file may send anything off 127.0.0.0/8 (test/fixtures/loopback-guard.mjs)
guardEach(() => browser);
