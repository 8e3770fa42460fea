// "Find servers" on the demo pages (issue 37): the manager's directory searches the demo's own MCP
// Registry, served by `npm start` on the page's origin (scripts/demo-registry.mjs), never the
// official one: every page here runs under the loopback guard (test/fixtures/loopback-guard.mjs),
// which fails the test on any request off 127.0.0.0/8 — the official registry, or an entry's icon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot } from '../fixtures/e2e-demo.mjs';

const run = useDemo();
/** The directory's entries (their registry names), once they are `expected` (in any order). */
const entries = (page, expected) =>
  page
    .waitForFunction((expected) => {
      const names = [
        ...document
          .querySelector('mcp-server-manager')
          .shadowRoot.querySelector('mcp-server-directory')
          .shadowRoot.querySelectorAll('li.entry'),
      ]
        .map((li) => li.dataset.name)
        .sort();
      return JSON.stringify(names) === JSON.stringify([...expected].sort()) && names;
    }, expected)
    .then((h) => h.jsonValue());

/** Open Find servers and search `query`; the registry requests made. */
async function search(page, query) {
  const registry = [];
  page.on('request', (r) => r.url().includes('/v0.1/') && registry.push(r.url()));
  await page.locator('mcp-server-manager [data-action=find]').click();
  await page.locator('mcp-server-directory li.entry').first().waitFor();
  await page.locator('mcp-server-directory input#q').fill(query);
  return registry;
}

for (const [width, scheme] of [
  [1280, 'light'],
  [390, 'dark'],
])
  test(`demo chat at ${width} px (${scheme}): Find servers lists the demo's own registry, on this machine`, async () => {
    const page = await run.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(run.demo.url);
    await page.click('#open-settings');
    await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).first().waitFor();
    const asked = await search(page, 'demo');
    await entries(page, [
      'io.github.mcp-elements/demo-debug',
      'io.github.mcp-elements/demo-everything',
      'io.github.mcp-elements/demo-jobs',
    ]);
    await shot(page, `find-servers-demo-${width}-${scheme}`);
    // a real published entry (its icon is left out: it would be a request to its publisher)
    await page.locator('mcp-server-directory input#q').fill('airtable');
    await entries(page, ['io.github.domdomegg/airtable-mcp-server']);
    const airtable = page.locator('mcp-server-directory li.entry[data-name="io.github.domdomegg/airtable-mcp-server"]');
    await airtable.scrollIntoViewIfNeeded();
    assert.equal(await airtable.locator('[part=icon]').count(), 0, 'no icon from airtable.com');
    const origin = new URL(run.demo.url).origin;
    assert.ok(asked.length > 0);
    for (const url of asked) assert.ok(url.startsWith(`${origin}/registry/v0.1/servers`), url);
    assert.deepEqual(errors, []);
    await page.close();
  });

test('script-tag drop-in: Find servers lists the demo registry too', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(run.demo.cdnUrl);
  await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).waitFor();
  await search(page, 'jobs');
  await entries(page, ['io.github.mcp-elements/demo-jobs']);
  await page.close();
});
