// Full screen by keyboard alone (issue 38): Tab reaches the view's Full screen button, Enter opens
// it; while full screen Tab and Shift+Tab stay in the view and its own controls (its approval bar
// shows above it, not behind), never reaching the page's controls behind it; Escape goes back
// inline with the focus on the Full screen button. In the sandbox and the opaque fallback.
import { expect } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import { sendKeys } from '@web/test-runner-commands';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import { privateHub, until } from '../helpers.js';
import { MODES, connectApps, showCall } from './helpers.js';
import { dropWarmFrames } from '../../src/apps/warm-frames.js';

afterEach(() => dropWarmFrames());

/** The focused element, through shadow roots (a frame's own focus shows as its <iframe>). */
function deepActive(): Element | null {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Where the focus is, in words the assertions read. */
function where(view: McpAppViewElement, page: HTMLElement[]): string {
  const el = deepActive();
  if (!el || el === document.body || el === document.documentElement) return 'nowhere';
  if (page.includes(el as HTMLElement)) return `page:${el.id}`;
  if (el.localName === 'iframe' && view.shadowRoot!.contains(el)) return 'view:frame';
  if (view.shadowRoot!.contains(el)) return `view:${el.getAttribute('data-action') ?? el.localName}`;
  return `other:${el.localName}`;
}

/** WebKit's driver (WebDriver classic) takes only `press` and `type`: Shift+Tab as WebDriver's key codes, typed. */
const webdriver = !/Chrome|Firefox/.test(navigator.userAgent);

async function press(key: string, shift = false) {
  if (shift && webdriver)
    await sendKeys({ type: '\uE008\uE004' }); // Shift, Tab (released together)
  else if (shift) {
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: key });
    await sendKeys({ up: 'Shift' });
  } else await sendKeys({ press: key });
  // the focus moves in the key's own task; one frame lets a frame's document hand it back
  await new Promise((r) => requestAnimationFrame(r));
}

/** Tab (keyboard only, through the view's frame if need be) until the focus is on `target`. */
async function tabTo(view: McpAppViewElement, target: string) {
  for (let i = 0; i < 12 && where(view, []) !== target; i++) await press('Tab');
  expect(where(view, []), `Tab to ${target}`).to.equal(target);
}

for (const mode of MODES)
  describe(`MCP Apps: full screen by keyboard (${mode.name})`, () => {
    it('Tab stays inside the full-screen view and its controls; Escape returns inline to the Full screen button', async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const before = Object.assign(document.createElement('button'), { id: 'before', textContent: 'before' });
      const after = Object.assign(document.createElement('button'), { id: 'after', textContent: 'after' });
      document.body.prepend(before);
      try {
        // the view asks to run a tool: its approval bar is one of its own controls
        const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['ask-write'] });
        view.after(after);
        await t.report('ask-write');
        await until(async () => view.shadowRoot!.querySelector('[part="approval"]'), 'the approval bar');
        await until(async () => view.shadowRoot!.querySelector('[data-action="fullscreen"]'), 'the toolbar');

        // keyboard only from the page's first control to the view's Full screen button
        before.focus();
        for (let i = 0; i < 12 && where(view, [before, after]) !== 'view:fullscreen'; i++) await press('Tab');
        expect(where(view, [before, after])).to.equal('view:fullscreen');
        await press('Enter');
        await until(async () => (view.displayMode === 'fullscreen' ? true : undefined), 'full screen');
        await view.updateComplete;
        expect(where(view, [before, after]), 'the focus on the way back').to.equal('view:inline');
        expect(before.inert && after.inert, 'the page behind is inert').to.equal(true);
        // the approval bar is on top, not behind the view
        const allow = view.shadowRoot!.querySelector<HTMLElement>('[data-action="allow-once"]')!;
        const r = allow.getBoundingClientRect();
        expect(view.shadowRoot!.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)).to.equal(allow);

        // Tab and Shift+Tab: every stop is the view's, round and round
        const stops: string[] = [];
        for (let i = 0; i < 12; i++) {
          await press('Tab');
          stops.push(where(view, [before, after]));
        }
        for (let i = 0; i < 12; i++) {
          await press('Tab', true);
          stops.push(where(view, [before, after]));
        }
        expect(
          stops.filter((w) => !w.startsWith('view:')),
          `stops: ${stops.join(', ')}`,
        ).to.deep.equal([]);
        for (const control of ['view:allow-once', 'view:deny', 'view:inline'])
          expect(stops, `stops: ${stops.join(', ')}`).to.include(control);

        // from the last control Tab wraps to the first, Shift+Tab goes back (to the frame or the bar)
        await tabTo(view, 'view:inline');
        await press('Tab');
        expect(where(view, [before, after]), 'Tab after the last control').to.equal('view:allow-once');
        await press('Tab', true);
        expect(where(view, [before, after]), 'Shift+Tab before the first control').to.equal('view:inline');
        await press('Tab', true);
        expect(['view:frame', 'view:deny'], 'Shift+Tab from the way back').to.include(where(view, [before, after]));

        // Escape from one of the view's controls: inline again, the focus on Full screen
        await tabTo(view, 'view:inline');
        await press('Escape');
        await until(async () => (view.displayMode === 'inline' ? true : undefined), 'inline again');
        await view.updateComplete;
        expect(where(view, [before, after])).to.equal('view:fullscreen');
        expect(before.inert || after.inert, 'the page is back').to.equal(false);
        expect(hub.calls.list().find((c) => c.tool === 'app-write')?.status).to.equal('awaiting-approval');
      } finally {
        before.remove();
        after.remove();
        await hub.dispose();
      }
    });
  });
