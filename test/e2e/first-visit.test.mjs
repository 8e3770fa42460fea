// A first visit to each demo page, before the user does anything: no script error and no console
// error, except the two kinds the browser itself logs for a failed HTTP status, which no page
// script can silence (docs/decisions/010-discover-probe.md):
// - 400 to the hub's 2026-07-28 `server/discover` probe, from a server that speaks 2025 only
//   (one per such server, on the first connect only: the hub remembers what it spoke);
// - 401 from the Protected demo server, which needs a sign-in (its row says "Sign-in needed").
// Any other console error, a page error, a second probe to a server or a probe after a reload fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

/** Open `url` in a fresh context (a first visit); resolves to what the console and network said. */
async function visit(context, url, ready) {
  const page = await context.newPage();
  const seen = { console: [], pageErrors: [], statuses: [] };
  page.on('console', (m) => m.type() === 'error' && seen.console.push({ text: m.text(), url: m.location()?.url }));
  page.on('pageerror', (e) => seen.pageErrors.push(e.message));
  page.on('response', (r) => {
    if (r.status() < 400) return;
    let method;
    try {
      method = JSON.parse(r.request().postData() ?? 'null')?.method;
    } catch {
      method = undefined;
    }
    seen.statuses.push({ status: r.status(), url: r.url(), method });
  });
  await page.goto(url);
  await ready(page);
  return { page, seen };
}

/** The console errors that are not the browser's line for an explained failed status. */
function unexplained(seen, protectedUrl) {
  return seen.console
    .filter((c) => {
      const status = Number(/status of (\d{3})/.exec(c.text)?.[1]);
      if (!/^Failed to load resource/.test(c.text)) return true;
      const why = seen.statuses.find((s) => s.url === c.url && s.status === status);
      if (!why) return true;
      if (status === 400 && why.method === 'server/discover') return false;
      if (status === 401 && why.url === protectedUrl) return false;
      return true;
    })
    .map((c) => `${c.text} (${c.url})`);
}

const connected = (name) => async (page) => {
  // the demo opens Settings again after a reload when they were open (a click would close them)
  if (!(await page.locator('#settings').isVisible())) await page.click('#open-settings');
  await page
    .locator('mcp-server-manager [part=server]')
    .filter({ hasText: name })
    .filter({ hasText: 'Connected' })
    .waitFor();
  await page
    .locator('mcp-server-manager [part=server]')
    .filter({ hasText: 'Protected demo server' })
    .filter({ hasText: 'Sign-in needed' })
    .waitFor();
};

const pages = [
  ['the demo chat', () => run.demo.url, connected('Jobs')],
  [
    'the script-tag drop-in',
    () => run.demo.cdnUrl,
    (page) => page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).first().waitFor(),
  ],
  [
    'the G4F-style page',
    () => run.demo.g4fUrl,
    // its tool list, from the reference server
    (page) => page.locator('#mcp-tools-list input[type=checkbox]').first().waitFor(),
  ],
];

for (const [name, url, ready] of pages)
  test(`first visit to ${name}: no console error but the browser's lines for the discover probe and the sign-in 401`, async () => {
    const context = await run.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, seen } = await visit(context, url(), ready);
    await shot(page, `first-visit-${name.replace(/\W+/g, '-')}`);
    assert.deepEqual(seen.pageErrors, [], 'no script error');
    assert.deepEqual(unexplained(seen, run.demo.protectedUrl), [], 'no console error but the explained ones');
    const probes = seen.statuses.filter((s) => s.method === 'server/discover' && s.status === 400).map((s) => s.url);
    assert.equal(new Set(probes).size, probes.length, `one discover probe per server: ${probes.join(', ')}`);
    // the hub remembers what each server spoke: a reload probes none again
    seen.console.length = 0;
    seen.statuses.length = 0;
    await page.reload();
    await ready(page);
    assert.deepEqual(
      seen.statuses.filter((s) => s.method === 'server/discover' && s.status === 400),
      [],
      'no discover probe after a reload',
    );
    assert.deepEqual(unexplained(seen, run.demo.protectedUrl), []);
    await context.close();
  });
