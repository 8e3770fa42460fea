// The demo on a phone (issue 25 items 2, 3): nothing wider than the screen at 320 and 390 px,
// conversation or Settings; Settings is a full-screen sheet there and a real dialog everywhere
// (focus moves in, Escape closes, focus returns to the button); the page never grows taller than
// the window (a stray absolutely-positioned status line once made it 1,569 px tall).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDemo, shot, echoToolReady } from '../fixtures/e2e-demo.mjs';

const run = useDemo();

/** Elements (shadow trees included) whose right edge is past the window, and the page's widths. */
function overflow() {
  const width = document.documentElement.clientWidth;
  const wide = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // inside a scroller of its own, what is past the edge is scrolled, not cut
      let scrolled = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') {
          scrolled = p.getBoundingClientRect().right <= width + 0.5;
          break;
        }
      }
      if (!scrolled && r.right > width + 0.5)
        wide.push(
          `${el.localName}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} right=${Math.round(r.right)}`,
        );
    }
  };
  walk(document);
  return {
    width,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    height: innerHeight,
    wide: wide.slice(0, 10),
  };
}

for (const width of [320, 390])
  test(`phone ${width} px: no sideways overflow; Settings a full-screen sheet and a dialog`, async () => {
    const page = await run.browser.newPage({ viewport: { width, height: 844 }, isMobile: true, hasTouch: true });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(run.demo.url);
    await page.locator('#welcome .suggestions button').first().waitFor();
    let m = await page.evaluate(overflow);
    await shot(page, `phone-${width}-chat`);
    assert.equal(m.scrollWidth, m.width, `chat: page ${m.scrollWidth} px wide in a ${m.width} px window`);
    assert.deepEqual(m.wide, [], 'chat: nothing past the right edge');
    // the header's title is whole (it was cut to "m…" at 390 px), its buttons keep their names
    const header = await page.evaluate(() => {
      const title = document.querySelector('.topbar .title');
      return {
        cut: title.scrollWidth > title.clientWidth,
        title: title.innerText,
        names: [...document.querySelectorAll('.topbar button')].map((b) => b.getAttribute('aria-label') ?? b.innerText),
      };
    });
    assert.deepEqual(header, {
      cut: false,
      title: 'mcp-elements',
      names: ['New chat', 'Colour theme: follow the system', 'Settings'],
    });

    // a turn with a card awaiting approval, once the reference server's tools are in
    await echoToolReady(page);
    await page.fill('#prompt', 'echo hello');
    await page.press('#prompt', 'Enter');
    await page.locator('mcp-tool-call [data-action=allow-once]').waitFor();
    m = await page.evaluate(overflow);
    await shot(page, `phone-${width}-approval`);
    assert.deepEqual(m.wide, [], 'approval card: nothing past the right edge');
    await page.locator('mcp-tool-call [data-action=allow-once]').click();
    await page.locator('mcp-tool-call [part=status]').filter({ hasText: 'Done' }).waitFor();

    // Settings: a dialog that takes the whole screen
    await page.click('#open-settings');
    const dialog = page.locator('#settings');
    await dialog.waitFor();
    await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).first().waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x <= 0.5 && box.y <= 0.5, `sheet at ${box?.x},${box?.y}`);
    assert.ok(box.width >= width - 0.5 && box.height >= 843.5, `sheet ${box.width}x${box.height}`);
    // a modal <dialog>: the page behind is inert, the browser's Escape closes it
    assert.ok(await page.evaluate(() => document.querySelector('#settings').matches('dialog:modal')), 'modal');
    assert.ok(
      await page.evaluate(() => document.querySelector('#settings').contains(document.activeElement)),
      'focus moved into Settings',
    );
    m = await page.evaluate(overflow);
    await shot(page, `phone-${width}-settings`);
    assert.equal(m.scrollWidth, m.width, `settings: page ${m.scrollWidth} px wide`);
    assert.deepEqual(m.wide, [], 'settings: nothing past the right edge');
    assert.ok(m.scrollHeight <= m.height + 0.5, `the page is ${m.scrollHeight} px tall in an ${m.height} px window`);
    // the manager's add form, the widest thing there
    await page.click('mcp-server-manager [data-action=add]');
    await page.locator('mcp-server-manager #f-url').waitFor();
    m = await page.evaluate(overflow);
    await shot(page, `phone-${width}-settings-form`);
    assert.deepEqual(m.wide, [], 'add form: nothing past the right edge');
    await page.click('mcp-server-manager [data-action=cancel]');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'open-settings', 'focus back on Settings');
    assert.deepEqual(errors, []);
    await page.close();
  });

test('wide screen: Settings is a dialog beside the conversation; Escape closes it; focus returns', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(run.demo.url);
  await page.click('#open-settings');
  await page.locator('#settings').waitFor();
  assert.equal(await page.locator('.topbar .title').innerText(), 'mcp-elements chat');
  assert.deepEqual(await page.locator('.topbar button').allInnerTexts(), ['New chat', 'Theme: Auto', 'Settings']);
  assert.ok(await page.evaluate(() => document.querySelector('#settings').contains(document.activeElement)));
  const m = await page.evaluate(overflow);
  assert.ok(m.scrollHeight <= m.height + 0.5, `the page is ${m.scrollHeight} px tall in an ${m.height} px window`);
  await shot(page, 'wide-settings');
  await page.keyboard.press('Escape');
  await page.locator('#settings').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'open-settings');
  await page.close();
});
