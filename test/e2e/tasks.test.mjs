// End to end: a task started from the demo chat survives a reload. The demo's offline model calls
// the Jobs server's `job` tool (a tool that runs as a task, test/fixtures/tasks-server.mjs); the
// user approves it in the card, the page reloads while the task runs, the job is finished on the
// server, and the card and the task monitor show the result. Screenshots go to test-results/e2e;
// the monitor's replaces the tracked docs/screenshots/task-monitor.png only when asked
// (UPDATE_SCREENSHOTS=1), so a run never leaves the work tree changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useDemo, shot, shots, root } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

test('demo: a task started in the chat survives a reload and its result is shown after it', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(run.demo.url);
  await page.click('#open-settings');
  // the demo's Jobs server (its tools run as tasks) is pre-added and connects
  await page
    .locator('mcp-server-manager [part=server]', { hasText: 'Jobs' })
    .filter({ hasText: 'Connected' })
    .waitFor();

  await page.fill('#prompt', 'start a job weekly report');
  await page.press('#prompt', 'Enter');
  const card = page.locator('mcp-tool-call').first();
  await card.locator('[data-action=allow-once]').click();
  // the server made a task of the call: the card shows its status message, the monitor lists it
  await card.locator('[part~=task]').filter({ hasText: 'Working on "weekly report"' }).waitFor();
  const monitor = page.locator('mcp-task-monitor');
  await monitor.locator('[part~=running] [part~=task]').filter({ hasText: 'job' }).waitFor();
  await shot(page, 'tasks-01-running');

  await page.reload();
  // after the reload the call is still running (not interrupted): the hub follows its task again
  const again = page.locator('mcp-tool-call').first();
  await again.locator('[part~=status][data-status=running]').waitFor();
  if (!(await page.locator('#settings').isVisible())) await page.click('#open-settings');
  await monitor.locator('[part~=running] [part~=task]').waitFor();
  await shot(page, 'tasks-02-after-reload');

  const res = await run.demo.finishTasks();
  assert.equal(res.status, 200);
  await again.locator('[part~=status][data-status=success]').waitFor();
  await again.locator('[part~=result]').filter({ hasText: 'done: weekly report' }).waitFor();
  await monitor.locator('[part~=finished] [data-action=result]').click();
  await monitor.locator('[part~=finished] [part~=result]').filter({ hasText: 'done: weekly report' }).waitFor();
  await shot(page, 'tasks-03-result-after-reload');
  const docShot = process.env.UPDATE_SCREENSHOTS ? path.join(root, 'docs/screenshots') : shots;
  await monitor.screenshot({ path: path.join(docShot, 'task-monitor.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
