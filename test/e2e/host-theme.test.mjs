// theme="auto" on real host pages (issue 25 item 1): the script-tag drop-in (a light page) with
// the OS in dark mode keeps dark text on its white background, and a dark host page keeps light
// text with the OS light. Before/after screenshots: the "before" forces theme="system" (the old
// default, which followed the OS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

/** The main text colour of the manager and whether it took the dark palette. */
const managerLook = () => {
  const m = document.querySelector('mcp-server-manager');
  return { color: getComputedStyle(m).color, dark: m.matches(':state(host-dark)') };
};

test('drop-in (light page), OS dark: the elements stay light like the page; theme="system" shows what it was', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1000, height: 800 }, colorScheme: 'dark' });
  await page.goto(run.demo.cdnUrl);
  await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).first().waitFor();
  const after = await page.evaluate(managerLook);
  assert.equal(after.dark, false);
  assert.equal(after.color, 'rgb(31, 35, 40)');
  await shot(page, 'host-theme-cdn-os-dark');
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('mcp-server-manager, gpt-tool-selector, mcp-tool-call'))
      el.setAttribute('theme', 'system');
  });
  const before = await page.evaluate(managerLook);
  assert.equal(before.color, 'rgb(230, 237, 243)', 'theme="system" follows the dark OS: light text on the white page');
  await shot(page, 'host-theme-cdn-os-dark-before');
  await page.close();
});

test('a dark host page (background only, like G4F), OS light: the elements turn dark with it, and follow when it switches back', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1000, height: 800 }, colorScheme: 'light' });
  await page.goto(run.demo.cdnUrl);
  await page.locator('mcp-server-manager [part=server]').first().waitFor();
  await page.addStyleTag({ content: 'body.dark { background: #181a1b; color: #e8e6e3; }' });
  await page.evaluate(() => document.body.classList.add('dark'));
  await page.waitForFunction(() => document.querySelector('mcp-server-manager').matches(':state(host-dark)'));
  assert.equal((await page.evaluate(managerLook)).color, 'rgb(230, 237, 243)');
  await shot(page, 'host-theme-dark-page');
  await page.evaluate(() => document.body.classList.remove('dark'));
  await page.waitForFunction(() => !document.querySelector('mcp-server-manager').matches(':state(host-dark)'));
  await page.close();
});
