// A view's approval prompt lasts only as long as the view's request (issue 38): the probe view asks
// to run app-write twice, then gives up on each request in turn (notifications/cancelled, what the
// ext-apps SDK sends when its request times out); the bar counts down and goes, and the calls end
// cancelled. A view that goes (its element removed) takes its waiting calls with it.
import { expect } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import type { McpHub } from '../../src/core/index.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import { privateHub, until } from '../helpers.js';
import { MODES, connectApps, showCall } from './helpers.js';
import { dropWarmFrames } from '../../src/apps/warm-frames.js';

afterEach(() => dropWarmFrames());

const bars = (view: McpAppViewElement) => [...view.shadowRoot!.querySelectorAll<HTMLElement>('[part="approval"]')];
const writes = (hub: McpHub) => hub.calls.list().filter((c) => c.tool === 'app-write');
const statuses = (hub: McpHub) =>
  writes(hub)
    .map((c) => c.status)
    .sort();

/** Wait until the view's bars read `text` (a regexp over all of them; no bar: ''). */
async function barsRead(view: McpAppViewElement, test: (text: string, count: number) => boolean, what: string) {
  await view.updateComplete;
  await until(async () => {
    await view.updateComplete;
    const text = bars(view)
      .map((b) => b.textContent!.replace(/\s+/g, ' ').trim())
      .join(' | ');
    return test(text, bars(view).length) ? true : undefined;
  }, what);
}

for (const mode of MODES)
  describe(`MCP Apps: a view's approval prompt follows its requests (${mode.name})`, () => {
    it('the bar counts down as the view gives up on each call, then goes; the calls end cancelled', async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['abandon'] });
      await t.report('abandon-asked');
      await barsRead(
        view,
        (text, n) => n === 1 && /app-write.*\(2 calls waiting\)/.test(text),
        'one bar for two calls',
      );

      view.theme = 'dark'; // the view's cue to give up on its first call
      await t.report('abandoned-first');
      await barsRead(view, (text, n) => n === 1 && !/calls waiting/.test(text), 'the bar for the one call left');
      expect(statuses(hub)).to.deep.equal(['awaiting-approval', 'cancelled']);

      view.theme = 'light'; // and on its second
      await t.report('abandoned-second');
      await barsRead(view, (_text, n) => n === 0, 'no bar');
      expect(statuses(hub)).to.deep.equal(['cancelled', 'cancelled']);
      expect(writes(hub).every((c) => c.error?.code === 'cancelled')).to.equal(true);
      await hub.dispose();
    });
  });

describe("MCP Apps: a view's waiting calls go with the view", () => {
  for (const mode of [MODES[0], MODES[2]])
    it(`removing the element cancels the calls its view left waiting (${mode.name})`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['ask-write'] });
      await t.report('ask-write');
      await barsRead(view, (text, n) => n === 1 && /app-write/.test(text), 'the bar');
      expect(statuses(hub)).to.deep.equal(['awaiting-approval']);
      view.remove();
      await until(async () => (statuses(hub)[0] === 'cancelled' ? true : undefined), 'the call cancelled');
      expect(hub.calls.list().filter((c) => c.status === 'awaiting-approval')).to.have.length(0);
      await hub.dispose();
    });
});

describe("MCP Apps: a view's waiting calls go with its document", () => {
  // a srcdoc view reloads into itself (the per-server mode writes its view into about:blank: a
  // reload there leaves a blank page that never says hello again)
  for (const mode of [MODES[0], MODES[2]])
    it(`a view that reloads (a new handshake) leaves no prompt of the document before (${mode.name})`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['ask-write', 'reload-on-dark'] });
      await t.report('reload-on-dark');
      await barsRead(view, (text, n) => n === 1 && /app-write/.test(text), 'the bar');
      view.theme = 'dark'; // the view's cue to reload
      await until(async () => (statuses(hub)[0] === 'cancelled' ? true : undefined), 'the call cancelled');
      await barsRead(view, (_text, n) => n === 0, 'no bar');
      await hub.dispose();
    });
});
