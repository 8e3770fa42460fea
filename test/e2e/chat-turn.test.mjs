// The demo chat's turn, as a user sees it (issue 38): the status line says what the turn waits for
// (the user's approval or a running tool), "Run again" on an interrupted call lets the assistant
// go on from the new result, and the conversation keeps the newest message fully in view while the
// user is at the bottom, also when it grows after it was added.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot, echoToolReady } from '../fixtures/e2e-demo.mjs';

const run = useDemo();
const card = (page, n) => page.locator('mcp-tool-call').nth(n);
const statusLine = (page) => page.locator('#model-status');
async function ask(page, text) {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
}
async function open(width = 1280, height = 800) {
  const page = await run.browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(run.demo.url);
  await echoToolReady(page);
  return { page, errors };
}

test('status line: "Waiting for your approval…" while a call waits for the user, "Running tools…" only while one runs', async () => {
  const { page, errors } = await open();
  await ask(page, 'echo hello');
  await card(page, 0).locator('[data-action=allow-once]').waitFor();
  await statusLine(page)
    .filter({ hasText: /^Waiting for your approval…$/ })
    .waitFor({ timeout: 5000 });
  await shot(page, 'chat-status-approval');
  await card(page, 0).locator('[data-action=allow-once]').click();
  await page.locator('.msg.assistant').filter({ hasText: 'Echo: hello' }).waitFor();
  assert.equal(await statusLine(page).textContent(), '', 'nothing once the turn is over');

  // a long task: waiting for approval first, then running (with its progress bar)
  await ask(page, 'run a long task');
  await card(page, 1).locator('[data-action=allow-once]').waitFor();
  assert.equal(await statusLine(page).textContent(), 'Waiting for your approval…');
  await card(page, 1).locator('[data-action=allow-once]').click();
  await card(page, 1).locator('progress').waitFor();
  await statusLine(page)
    .filter({ hasText: /^Running tools…$/ })
    .waitFor({ timeout: 5000 });
  await shot(page, 'chat-status-running');
  await card(page, 1).locator('[data-action=cancel]').click();
  await page.locator('.msg.assistant').filter({ hasText: 'cancelled' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Run again" on an interrupted call: the model reads the new result and the assistant goes on', async () => {
  const { page, errors } = await open();
  await ask(page, 'run a long task');
  await card(page, 0).locator('[data-action=allow-once]').click();
  await card(page, 0).locator('progress').waitFor();
  // a reload while it runs: interrupted, and the model was told so
  await page.reload();
  await card(page, 0).locator('[part=status]').filter({ hasText: 'Interrupted' }).waitFor();
  assert.equal(await page.locator('.msg.assistant').count(), 0);
  await card(page, 0).locator('[data-action=run-again]').click();
  // the new call asks first (the assistant's policy), the status line says so
  await card(page, 0).locator('[data-action=allow-once]').click();
  // the offline model answers from the tool results it receives: its answer quotes the new result
  const answer = page.locator('.msg.assistant').filter({ hasText: 'The tool answered' });
  await answer.waitFor({ timeout: 30000 });
  assert.match(await answer.textContent(), /Long running operation completed/);
  // what the model was sent: the call's result in place of "interrupted", once
  const messages = await page.evaluate(() => JSON.parse(localStorage.getItem('mcp-demo-conversation')).messages);
  const tool = messages.filter((m) => m.role === 'tool');
  assert.equal(tool.length, 1, JSON.stringify(messages));
  assert.match(tool[0].content, /Long running operation completed/);
  assert.deepEqual(
    messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'assistant'],
  );
  assert.match(await card(page, 0).locator('[part=status]').textContent(), /Done/);
  await shot(page, 'chat-run-again-answered');

  // another interrupted call, and the conversation goes on before "Run again": the new result
  // comes after what followed, as a call of its own (an assistant message naming it, its result)
  await ask(page, 'run a long task');
  await card(page, 1).locator('[data-action=allow-once]').click();
  await card(page, 1).locator('progress').waitFor();
  await page.reload();
  await card(page, 1).locator('[part=status]').filter({ hasText: 'Interrupted' }).waitFor();
  await ask(page, 'echo after');
  await card(page, 2).locator('[data-action=allow-once]').click();
  await page.locator('.msg.assistant').filter({ hasText: 'Echo: after' }).waitFor();
  await page.waitForFunction(() => document.querySelector('#model-status').textContent === '');
  await card(page, 1).locator('[data-action=run-again]').click();
  await card(page, 1).locator('[data-action=allow-once]').click();
  await page.locator('.msg.assistant').nth(2).filter({ hasText: 'Long running operation completed' }).waitFor({
    timeout: 30000,
  });
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem('mcp-demo-conversation')).messages);
  assert.deepEqual(
    after.slice(4).map((m) => m.role),
    ['user', 'assistant', 'tool', 'user', 'assistant', 'tool', 'assistant', 'assistant', 'tool', 'assistant'],
  );
  assert.match(after[6].content, /interrupted/, 'what the model was told then stays as it was');
  const again = after[11];
  assert.equal(again.tool_calls[0].function.name, after[5].tool_calls[0].function.name);
  assert.equal(after[12].tool_call_id, again.tool_calls[0].id);
  assert.match(after[12].content, /Long running operation completed/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** How far the scroller's end is below what it shows (0: at the bottom), once a frame was drawn. */
const belowView = (page) =>
  page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const s = document.querySelector('#scroller');
    return Math.round(s.scrollHeight - s.scrollTop - s.clientHeight);
  });
/** Grow the newest message by `px` (as a card's result or an MCP App view does), after two frames. */
const growNewest = (page, px) =>
  page.evaluate(
    (px) =>
      new Promise((resolve) => {
        const last = document.querySelector('#conversation > li:last-child');
        last.style.paddingBottom = `${(parseFloat(last.style.paddingBottom) || 0) + px}px`;
        requestAnimationFrame(() => requestAnimationFrame(resolve));
      }),
    px,
  );

for (const [width, height] of [
  [1280, 700],
  [390, 700],
])
  test(`autoscroll at ${width} px: the newest message fully in view, also when it grows; not after the user scrolled up`, async () => {
    const { page, errors } = await open(width, height);
    // enough turns to fill the window (the offline model answers anything with its help text)
    const full = () =>
      page.evaluate(() => {
        const s = document.querySelector('#scroller');
        return s.scrollHeight > s.clientHeight + 300;
      });
    let turns = 0;
    while (!(await full()) && turns < 12) {
      await ask(page, `hello ${++turns}`);
      await page
        .locator('.msg.assistant')
        .nth(turns - 1)
        .waitFor();
    }
    await page.waitForFunction(() => document.querySelector('#model-status').textContent === '');
    assert.equal(await belowView(page), 0, 'at the very bottom after the answer (it was 16 px short)');
    // the newest message grows after it was scrolled to: still at the bottom
    await growNewest(page, 240);
    assert.equal(await belowView(page), 0, 'followed the growing message');
    // content that grows between the scroll to the end and that scroll's event (a loaded machine):
    // nobody scrolled up, so the view still follows
    await page.evaluate(() => {
      const last = document.querySelector('#conversation > li:last-child');
      last.style.paddingBottom = `${(parseFloat(last.style.paddingBottom) || 0) + 200}px`;
      document.querySelector('#scroller').dispatchEvent(new Event('scroll'));
    });
    assert.equal(await belowView(page), 0, 'still following after a scroll event that came late');
    await shot(page, `chat-autoscroll-${width}`);
    // the user scrolls up to read: a growing message no longer moves the view
    await page.mouse.move(width / 2, 200);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => {
      const s = document.querySelector('#scroller');
      return s.scrollHeight - s.scrollTop - s.clientHeight > 300;
    });
    const top = await page.evaluate(() => document.querySelector('#scroller').scrollTop);
    await growNewest(page, 120);
    assert.equal(
      await page.evaluate(() => document.querySelector('#scroller').scrollTop),
      top,
      'left where the user is',
    );
    // and what the user sends is followed again
    await ask(page, 'hello again');
    await page.locator('.msg.assistant').nth(turns).waitFor();
    await page.waitForFunction(() => document.querySelector('#model-status').textContent === '');
    assert.equal(await belowView(page), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
