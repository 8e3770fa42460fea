// "Find servers" end to end in Chromium at phone width, keyboard only, from the CDN build
// (dist/cdn, elements autoloaded): the manager opens the directory, a search against the fixture
// registry, Add on the suite's fixture server entry, its workspace and secret API key typed,
// Enter saves, the server connects; a package-only entry shows its relay command. Screenshots
// in test-results/e2e/registry-*.png. Needs a build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { guardEach, launchGuarded } from '../fixtures/loopback-guard.mjs';
import { startEverything } from '../fixtures/servers.mjs';
import { startFixtureServer } from '../fixtures/fixture-server.mjs';
import { startRegistryServer } from '../fixtures/registry-server.mjs';
import { root, shots } from '../fixtures/e2e-demo.mjs';

/** What the phone's screen shows (the list is long: a full-page shot is a strip). */
const shot = (page, name) => page.screenshot({ path: path.join(shots, `${name}.png`) });

const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };
let run;

function page(registry) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Find servers</title></head><body style="margin:8px;font-family:system-ui">
<main><mcp-server-manager></mcp-server-manager></main>
<script type="module">
  import { loadElements } from '/dist/cdn/mcp-elements.js';
  await loadElements('mcp-server-manager');
  document.querySelector('mcp-server-manager').directory = { registries: [${JSON.stringify(registry)}] };
  document.body.dataset.ready = 'yes';
</script></body></html>`;
}

before(async () => {
  const [everything, sse, fixture] = await Promise.all([
    startEverything('streamableHttp'),
    startEverything('sse'),
    startFixtureServer(),
  ]);
  const registry = await startRegistryServer({
    everything: everything.url,
    everythingSse: sse.url,
    fixture: fixture.url,
  });
  const site = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(page(registry.url));
    }
    const file = path.join(root, path.normalize(url.pathname));
    if (!file.startsWith(path.join(root, 'dist/cdn'))) return res.writeHead(404).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  const browser = await launchGuarded();
  run = {
    url: `http://127.0.0.1:${site.address().port}/`,
    fixture: fixture.url,
    browser,
    close: () =>
      Promise.all([
        browser.close(),
        new Promise((r) => site.close(r)),
        registry.close(),
        everything.close(),
        sse.close(),
        fixture.close(),
      ]),
  };
});
after(() => run?.close());
// every page of this file: nothing beyond 127.0.0.0/8 (an entry's https icon, a repository link)
guardEach(() => run?.browser);

test('phone width, keyboard only: Find servers → search → Add → secret header → Enter saves → connected', async () => {
  const page = await run.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const outside = [];
  page.on('request', (r) => {
    if (!/^https?:\/\/127\.0\.0\.1[:/]/.test(r.url()) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  await page.goto(run.url);
  await page.locator('body[data-ready=yes]').waitFor();
  await page.locator('mcp-server-manager [data-action=find]').focus();
  await page.keyboard.press('Enter');
  await page.locator('mcp-server-directory li.entry').first().waitFor();
  await shot(page, 'registry-01-directory');
  await page.keyboard.type('mcp-elements/fixture');
  await page.locator('mcp-server-directory li.entry[data-name="io.github.mcp-elements/fixture"]').waitFor();
  await page.waitForFunction(
    () =>
      document
        .querySelector('mcp-server-manager')
        .shadowRoot.querySelector('mcp-server-directory')
        .shadowRoot.querySelectorAll('li.entry').length === 1,
  );
  await page.keyboard.press('Tab'); // the repository link
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator('mcp-server-directory form.add').waitFor();
  await shot(page, 'registry-02-add-form');
  const tenant = `e2e-${Date.now()}`;
  await page.keyboard.type(tenant);
  await page.keyboard.press('Tab');
  await page.keyboard.type('sk-e2e-1');
  await shot(page, 'registry-03-filled');
  await page.keyboard.press('Enter');
  await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).waitFor();
  await shot(page, 'registry-04-connected');
  const stats = await (await fetch(`${run.fixture}/t/${tenant}/control/stats`)).json();
  assert.equal(stats.lastHeaders.authorization, 'Bearer sk-e2e-1');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.equal(wide, 390, 'nothing wider than the phone');
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, [], 'nothing left 127.0.0.1');
  await page.close();
});

test('a package-only entry shows its relay command (shown, never run)', async () => {
  const page = await run.browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(run.url);
  await page.locator('body[data-ready=yes]').waitFor();
  await page.locator('mcp-server-manager [data-action=find]').click();
  await page.locator('mcp-server-directory input#q').fill('airtable');
  const entry = page.locator('mcp-server-directory li.entry[data-name="io.github.domdomegg/airtable-mcp-server"]');
  await entry.waitFor();
  await entry.locator('[data-action=relay]').click();
  const command = page.locator('mcp-server-directory [data-relay=command]');
  await command.waitFor();
  assert.equal(
    await command.textContent(),
    `npx mcp-chat-elements relay --config mcp.json --origin ${new URL(run.url).origin}`,
  );
  await shot(page, 'registry-05-relay-command');
  await page.close();
});
