// The demo in backend mode (issue 24), end to end: the page opened with ?backend=<chat URL> sends
// each turn to createChatHandler() (mcp-elements/server, scripts/demo-backend.mjs) with the demo
// model; the backend discovers the page's servers, routes the model's tool call to the reference
// server and streams the answer back. Debian's Chromium through playwright-core.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot } from '../fixtures/e2e-demo.mjs';
import { startDemoBackend } from '../../scripts/demo-backend.mjs';

const run = useDemo();
let backend;
const chats = [];
after(() => backend?.close());

test('backend mode: the turn runs in the backend handler, the tool call is routed there, the answer streams back', async () => {
  // started once the demo is (useDemo's hook): the backend answers CORS for the demo's origin
  backend = await startDemoBackend({
    pageOrigin: new URL(run.demo.url).origin,
    servers: [run.demo.everythingUrl, run.demo.tasksUrl, run.demo.debugUrl],
    quiet: true,
  });
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (r.url() === backend.url) chats.push(JSON.parse(r.postData() ?? '{}'));
  });
  await page.goto(`${run.demo.url}?backend=${encodeURIComponent(backend.url)}`);
  // the page's servers are listed first (seeded on a first visit)
  await page.waitForFunction(() => document.querySelector('mcp-elicitation').hub.servers.list().length >= 3);
  await page.fill('#prompt', 'echo hello from the backend');
  await page.press('#prompt', 'Enter');
  const answer = page.locator('.msg.assistant').filter({ hasText: 'The tool answered: Echo: hello from the backend' });
  await answer.waitFor();
  await shot(page, 'backend-mode');
  // the backend called the tool: the page shows that it did, and ran no call of its own
  assert.equal(
    await page.locator('.msg.assistant').filter({ hasText: 'The backend called Everything__echo.' }).count(),
    1,
  );
  assert.equal(await page.locator('mcp-tool-call').count(), 0);
  const calls = await page.evaluate(() => document.querySelector('mcp-elicitation').hub.calls.list().length);
  assert.equal(calls, 0, 'no tool call ran in the page');
  // one chat request: the conversation and the servers that need no credentials of the page
  assert.equal(chats.length, 1);
  assert.deepEqual(chats[0].messages, [{ role: 'user', content: 'echo hello from the backend' }]);
  const names = chats[0].mcp_servers.map((s) => s.name).sort();
  assert.deepEqual(names, ['Debug', 'Everything', 'Jobs']);
  assert.deepEqual(errors, []);
  await page.close();
});
