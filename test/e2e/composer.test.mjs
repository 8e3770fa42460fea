// The demo's composer during a turn (issue 25 item 7): Enter does not send a second message
// between a tool call and its result (an order real providers reject); the send button is Stop
// while the turn runs, and Stop ends the turn with the waiting call cancelled and answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot, echoToolReady } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

test('composer: no second message while a turn runs; Stop ends it; then sending works again', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(run.demo.url);
  // the reference server's tools are in (the demo model picks echo from them)
  await echoToolReady(page);
  await page.fill('#prompt', 'echo hello');
  await page.press('#prompt', 'Enter');
  const card = page.locator('mcp-tool-call').first();
  await card.locator('[data-action=allow-once]').waitFor();
  assert.equal(await page.getAttribute('#send', 'aria-label'), 'Stop');

  // Enter while the call waits: nothing is sent, the text stays in the box
  await page.fill('#prompt', 'add 2 and 3');
  await page.press('#prompt', 'Enter');
  assert.equal(await page.locator('.msg.user').count(), 1);
  assert.equal(await page.inputValue('#prompt'), 'add 2 and 3');
  await shot(page, 'composer-stop');

  await page.click('#send');
  await page.locator('.msg.error').filter({ hasText: 'Stopped.' }).waitFor();
  assert.match(await card.locator('[part=status]').textContent(), /Cancelled/);
  assert.equal(await page.getAttribute('#send', 'aria-label'), 'Send');

  // the conversation stays well-formed: the next turn runs
  await page.press('#prompt', 'Enter');
  await page.locator('mcp-tool-call').nth(1).locator('[data-action=allow-once]').click();
  await page.locator('.msg.assistant').filter({ hasText: '5' }).last().waitFor();
  assert.equal(await page.locator('.msg.user').count(), 2);
  await page.close();
});

test('a suggestion clicked at first paint is not lost (handed over once the page is ready)', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(run.demo.url, { waitUntil: 'commit' });
  // as soon as the button is there, before the page's main module has run
  await page.locator('[data-prompt="echo hello"]').click();
  await page.locator('.msg.user').filter({ hasText: 'echo hello' }).waitFor();
  assert.equal(await page.locator('.msg.user').count(), 1);
  await page.close();
});

test('a call waiting for approval survives a reload: still waiting, Allow runs it and the turn goes on', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(run.demo.url);
  await page.evaluate(() => document.querySelector('#new-chat').click());
  await echoToolReady(page);
  await page.fill('#prompt', 'echo after the reload');
  await page.press('#prompt', 'Enter');
  await page.locator('mcp-tool-call').first().locator('[data-action=allow-once]').waitFor();
  await shot(page, 'reload-awaiting-before');
  await page.reload();
  // the same call, still asking; the turn waits for it (the composer's button is Stop)
  const card = page.locator('mcp-tool-call').first();
  await card.locator('[data-action=allow-once]').waitFor();
  assert.match(await card.locator('[part=status]').textContent(), /Needs approval/);
  assert.equal(await page.locator('mcp-tool-call').count(), 1);
  await page.waitForFunction(() => document.querySelector('#send').getAttribute('aria-label') === 'Stop');
  await shot(page, 'reload-awaiting-after');
  await card.locator('[data-action=allow-once]').click();
  await page.locator('.msg.assistant').filter({ hasText: 'Echo: after the reload' }).waitFor();
  assert.match(await card.locator('[part=status]').textContent(), /Done/);
  assert.equal(await page.getAttribute('#send', 'aria-label'), 'Send');
  // the conversation is well-formed: one answer for the one tool call, no "interrupted" text
  const messages = await page.evaluate(() => JSON.parse(localStorage.getItem('mcp-demo-conversation')).messages);
  const tools = messages.filter((m) => m.role === 'tool');
  assert.equal(tools.length, 1);
  assert.equal(tools[0].content, 'Echo: after the reload');
  await page.close();
});
