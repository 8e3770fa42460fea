// The demo's G4F-style page (demo/g4f.html, the drop-in behind G4F's mcpClient interface), issue 38:
// a server it cannot reach is named in its row with a plain reason, once, after one attempt (not
// four attempts of every transport, 16 red console lines); a tool's result shows once, in its card
// (not again as a raw `tool-result` line and as raw JSON in the answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { useDemo, shot } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

/** A loopback port nothing listens on. */
async function deadPort() {
  const s = net.createServer();
  await new Promise((r) => s.listen({ port: 0, host: '127.0.0.1' }, r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

for (const [width, scheme] of [
  [1280, 'light'],
  [390, 'dark'],
])
  test(`G4F page at ${width} px (${scheme}): an unreachable server is named once; a result shows once`, async () => {
    const page = await run.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(run.demo.g4fUrl);
    await page.locator('body[data-tools-loaded]').waitFor();

    const port = await deadPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const tried = [];
    const consoleLines = [];
    page.on('request', (r) => r.url().startsWith(`http://127.0.0.1:${port}/`) && tried.push(r.method()));
    page.on('console', (m) => m.type() === 'error' && consoleLines.push(m.text()));
    await page.fill('#server-name', 'Gone');
    await page.fill('#server-url', url);
    await page.click('#add-mcp-server-btn');
    const row = page.locator('.mcp-server-item').filter({ hasText: 'Gone' });
    const alert = row.locator('[role=alert]');
    await alert.waitFor();
    assert.match(
      await alert.textContent(),
      new RegExp(`^Could not load its tools: Nothing answered at http://127\\.0\\.0\\.1:${port}\\b`),
    );
    assert.equal(await page.locator('[role=alert]').count(), 1, 'one message, for that server');
    // one attempt (the transports the hub tries in it), not four
    assert.ok(tried.length >= 1 && tried.length <= 4, `${tried.length} requests to the unreachable server`);
    assert.ok(consoleLines.length <= 4, consoleLines.join('\n'));
    await shot(page, `g4f-page-unreachable-${width}-${scheme}`);

    // a call to the reference server: its result once, in the card
    await page.locator('#mcp-tools-list input[data-tool=echo]').check();
    await page.click('#send');
    const card = page.locator('#chatBody mcp-tool-call').first();
    await card.locator('[data-action=allow-once]').click();
    await page.locator('.message.assistant').waitFor();
    await card.locator('[part~=status][data-status=success]').waitFor();
    const shown = await page.evaluate(() => {
      const chat = document.querySelector('#chatBody');
      const inCards = [...chat.querySelectorAll('mcp-tool-call')].map((c) => c.shadowRoot.textContent).join('');
      return { page: chat.innerText, inCards };
    });
    assert.equal(shown.page.split('Echo: hello from a G4F page').length - 1, 0, shown.page);
    assert.match(shown.inCards, /Echo: hello from a G4F page/);
    assert.doesNotMatch(shown.page, /tool-result|"type"\s*:\s*"text"/);
    assert.match(shown.page, /the tool answered/);
    await shot(page, `g4f-page-result-${width}-${scheme}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
