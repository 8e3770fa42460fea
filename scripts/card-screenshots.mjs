// Screenshots of the tool-call card in the demo, light and dark (issue 25 items 7 and 9):
// `node scripts/card-screenshots.mjs [dir] [suffix]` (default docs/screenshots, no suffix).
// Run from a checkout of an older commit (same command) for the "before" pictures.
//   card-reload-<scheme>: a call that waited for approval, after a reload
//   card-interrupted-<scheme>: a call running when the page reloaded
//   card-progress-<scheme>: a long call with progress
//   card-results-<scheme>: markdown, JSON and an image result
//   card-image-zoom-<scheme>: the image enlarged
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startDemo } from './demo-server.mjs';
import { CHROMIUM_ARGS, chromePath } from './chromium.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.resolve(root, process.argv[2] ?? 'docs/screenshots');
const suffix = process.argv[3] ? `-${process.argv[3]}` : '';
mkdirSync(dir, { recursive: true });

const MARKDOWN = [
  '## 3 files changed',
  '',
  'The **release notes** are in [CHANGELOG.md](https://example.com/changelog).',
  '',
  '| file | lines |',
  '| --- | --- |',
  '| src/a.ts | +12 −3 |',
  '| src/b.ts | +4 |',
  '',
  '- tests pass',
  '- `npm run check` is green',
].join('\n');

const demo = await startDemo({ port: 0, everythingPort: 0, quiet: true });
const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
const card = (page, i) => page.locator('mcp-tool-call').nth(i);
const status = (page, i, re) =>
  page.waitForFunction(
    ([i, re]) =>
      new RegExp(re).test(
        document.querySelectorAll('mcp-tool-call')[i]?.shadowRoot?.querySelector('[part=status]')?.textContent ?? '',
      ),
    [i, re.source],
  );
const say = async (page, text) => {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
};
try {
  for (const colorScheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 900, height: 760 }, colorScheme });
    const shot = (name) => page.screenshot({ path: path.join(dir, `card-${name}-${colorScheme}${suffix}.png`) });
    await page.goto(demo.url);
    await page.evaluate(() => {
      localStorage.setItem('mcp-demo-settings-open', '');
      document.querySelector('#new-chat').click();
    });
    await page.waitForFunction(() =>
      document
        .querySelector('mcp-elicitation')
        .hub.toolsFor('openai', { assistantId: 'default' })
        .some((t) => /__echo$/.test(t.function.name)),
    );
    // item 7: waiting for approval, then reloaded
    await say(page, 'echo after the reload');
    await card(page, 0).locator('[data-action=allow-once]').waitFor();
    await page.reload();
    await status(page, 0, /Needs approval|Interrupted/);
    await shot('reload');
    // (still waiting: decide, so the turn ends)
    const allow = card(page, 0).locator('[data-action=allow-once]');
    if (await allow.count()) await allow.click();
    await page.waitForFunction(() => document.querySelector('#send').getAttribute('aria-label') !== 'Stop');
    // item 7: running, then reloaded
    await page.evaluate(() => document.querySelector('#new-chat').click());
    await say(page, 'run a long task');
    await card(page, 0).locator('[data-action=allow-once]').click();
    await status(page, 0, /Running/);
    await card(page, 0).locator('progress').waitFor();
    await page.waitForFunction(() => {
      const p = document.querySelector('mcp-tool-call')?.shadowRoot?.querySelector('progress');
      return p && Number(p.getAttribute('value')) >= 2;
    });
    await shot('progress');
    await page.reload();
    await status(page, 0, /Interrupted/);
    await shot('interrupted');
    // item 9: results
    await page.evaluate(() => document.querySelector('#new-chat').click());
    await say(page, 'show me an image');
    await card(page, 0).locator('[data-action=allow-once]').click();
    await status(page, 0, /Done/);
    await page.waitForFunction(() => document.querySelector('#send').getAttribute('aria-label') !== 'Stop');
    await page.evaluate((markdown) => {
      const list = document.querySelector('#conversation');
      const base = {
        assistantId: 'default',
        gptId: 'default',
        serverId: 'x',
        serverName: 'Docs',
        status: 'success',
        source: 'model',
        createdAt: Date.now(),
        durationMs: 42,
      };
      const records = [
        {
          ...base,
          id: 'shot-md',
          tool: 'summarize_changes',
          name: 'Docs__summarize_changes',
          arguments: { since: 'v1.2.0' },
          result: { content: [{ type: 'text', text: markdown }] },
        },
        {
          ...base,
          id: 'shot-json',
          tool: 'get_weather',
          name: 'Docs__get_weather',
          arguments: { city: 'Oslo' },
          result: {
            content: [
              {
                type: 'text',
                text: JSON.stringify({ city: 'Oslo', temperature: 3.5, conditions: ['cloudy', 'wind'] }),
              },
            ],
          },
        },
      ];
      for (const r of records) {
        const li = document.createElement('li');
        li.className = 'call';
        const el = document.createElement('mcp-tool-call');
        el.call = r;
        li.append(el);
        list.prepend(li);
      }
    }, MARKDOWN);
    await page.waitForFunction(
      () => !!document.querySelector('mcp-tool-call')?.shadowRoot?.querySelector('.markdown h2, pre'),
    );
    await shot('results');
    const zoom = page.locator('mcp-tool-call [data-action=enlarge]');
    if (await zoom.count()) {
      await zoom.first().click();
      await page.locator('mcp-tool-call dialog.zoomed[open]').waitFor();
      await shot('image-zoom');
      await page.keyboard.press('Escape');
    }
    await page.close();
  }
} finally {
  await browser.close();
  await demo.close();
}
