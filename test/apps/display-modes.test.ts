// A view's `ui/request-display-mode`: fullscreen and pip cover the host's own page, so a view gets
// them only in the user's click (a real click in the view activates the host page too); without
// one the request is answered with the mode it keeps, and the refusal is logged. Inline, an
// undeclared mode and the host's own toolbar are as before. In the sandbox and the opaque fallback.
import { expect } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import { sendMouse } from '@web/test-runner-commands';
import { privateHub, recordEvents } from '../helpers.js';
import { MODES, clickInto, connectApps, showCall } from './helpers.js';
import { dropWarmFrames } from '../../src/apps/warm-frames.js';

afterEach(() => dropWarmFrames());

const logText = (seen: Event[]) =>
  seen.map((e) => (e as CustomEvent<{ entry: { text: string } }>).detail.entry.text).join('\n');
const active = () => (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation?.isActive;

// every test without a click first: a click leaves the page activated for a few seconds
for (const mode of MODES)
  describe(`MCP Apps: display modes a view asks for, without a click (${mode.name})`, () => {
    it('fullscreen on its own say-so is refused and logged; an undeclared pip is not granted; inline is', async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const logged = recordEvents(hub, ['mcp-server-log']);
      expect(active(), 'no user activation before the test').not.to.equal(true);
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['fullscreen', 'pip', 'inline'] });
      expect((await t.report('fullscreen')).r, 'the answer to fullscreen without a click').to.deep.equal({
        mode: 'inline',
      });
      expect((await t.report('pip')).r).to.deep.equal({ mode: 'inline' });
      expect((await t.report('inline')).r).to.deep.equal({ mode: 'inline' });
      expect(view.displayMode).to.equal('inline');
      logged.stop();
      expect(logText(logged.seen)).to.match(
        /Refused fullscreen: a view may change its display mode only right after the user's click in it\./,
      );
      await hub.dispose();
    });
  });

for (const mode of MODES)
  describe(`MCP Apps: display modes a view asks for, in the user's click (${mode.name})`, () => {
    it('fullscreen asked in a real click in the view is granted', async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['fullscreen-on-click'] });
      await t.report('fullscreen-button');
      const answered = t.report('fullscreen-on-click');
      await clickInto(view.shadowRoot!.querySelector('iframe')!, answered, 'the view');
      expect((await answered).r).to.deep.equal({ mode: 'fullscreen' });
      expect(view.displayMode).to.equal('fullscreen');
      await hub.dispose();
    });
  });

for (const mode of MODES)
  describe(`MCP Apps: display modes a view asks for while the user types in the host (${mode.name})`, () => {
    it("fullscreen is refused after a click in the host's own input (the page is activated, the view is not focused)", async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const input = document.createElement('input');
      input.setAttribute('aria-label', 'the chat box');
      document.body.prepend(input);
      try {
        input.scrollIntoView({ block: 'center' });
        const r = input.getBoundingClientRect();
        await sendMouse({ type: 'click', position: [Math.round(r.x + 5), Math.round(r.y + 5)] });
        expect(active(), 'the click in the host activated the page').to.equal(true);
        const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['fullscreen'] });
        expect(
          (await t.report('fullscreen')).r,
          "the answer to fullscreen after a click in the host's input",
        ).to.deep.equal({
          mode: 'inline',
        });
        expect(view.displayMode).to.equal('inline');
        expect(active(), 'the page was still activated when the view asked (not refused for a stale click)').to.equal(
          true,
        );
      } finally {
        input.remove();
        await hub.dispose();
      }
    });
  });
