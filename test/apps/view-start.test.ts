// When a view starts (docs/decisions/064-apps-view-start.md): a person's
// own call (source 'user') shows its view at once, even while the call still waits to run; a
// model's call shows nothing of the server's code until the user allowed it.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-tool-call/define.js';
import '../../src/elements/mcp-app-view/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import { nextEvent, privateHub, unique } from '../helpers.js';
import { approveAppCalls, connectApps, urls } from './helpers.js';

describe('MCP Apps: when a view starts', () => {
  it("a model's call shows no view while it awaits approval (nor in <mcp-tool-call>); once allowed, it does", async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandboxPerServer });
    const { t } = await connectApps(hub);
    const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    const done = hub.callTool({ name: 'Apps__show-probe', arguments: { text: 'allowed' } });
    const id = (await waiting).detail.call.id as string;
    const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${id}></mcp-app-view>`);
    const card = await fixture(html`<mcp-tool-call .hub=${hub} call-id=${id}></mcp-tool-call>`);
    // a view that started would say "Loading the view…" from its next render on
    await view.updateComplete;
    await view.updateComplete;
    expect(view.shadowRoot!.textContent).not.to.contain('Loading the view');
    expect(view.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect(card.shadowRoot!.querySelector('mcp-app-view')).to.equal(null);
    const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized', (e) => e.detail.callId === id);
    hub.calls.approve(id);
    await initialized;
    expect((await done).status).to.equal('success');
    expect((await t.report('input')).text).to.equal('allowed');
  });

  it("a person's own call shows its view while the call still waits to run (pending)", async () => {
    // one call at a time per server: the second waits, pending, while the first runs 4 s
    const hub = privateHub({ sandboxUrl: urls.appsSandboxPerServer, callConcurrency: 1 });
    const stop = approveAppCalls(hub);
    const s = await hub.servers.add({ name: 'Debug', url: urls.appsDebug });
    await hub.connect(s.id);
    const first = hub.callTool({
      serverId: s.id,
      tool: 'debug-tool',
      source: 'user',
      arguments: { largeInput: unique('first'), delayMs: 4000 },
    });
    let secondId = '';
    const initialized = nextEvent<McpAppInitializedEvent>(
      window,
      'mcp-app-initialized',
      (e) => !!secondId && e.detail.callId === secondId,
    );
    const second = hub.callTool({
      serverId: s.id,
      tool: 'debug-tool',
      source: 'user',
      arguments: { largeInput: unique('second') },
      onCall: (r) => {
        secondId = r.id;
        void fixture(html`<mcp-tool-call .hub=${hub} call-id=${r.id}></mcp-tool-call>`);
      },
    });
    await initialized;
    expect(hub.calls.get(secondId)!.status).to.equal('pending');
    expect((await first).status).to.equal('success');
    expect((await second).status).to.equal('success');
    stop();
  });
});
