// @modelcontextprotocol/server-basic-vanillajs from npm (ext-apps' examples/basic-server-vanillajs),
// a real app server the issue names as a peer, through the hub and <mcp-app-view>, in every mode.
// It has one tool, `get-time` (default visibility: model and app; no readOnlyHint), whose view
// (ui://get-time/mcp-app.html, built on the SDK's `App`) logs the tool input to its console, shows
// the result's time in its own document, and has a "Get Server Time" button (its first control)
// that calls `get-time` itself.
//
// What it shows cannot be read from here: its document is opaque, or of the server's own origin,
// and its frame sits in a shadow root, out of every other document's `window.frames` and named
// lookup (tried: a document of the same origin finds no way to it). So the test checks what the
// view tells the host (its `ui/initialize` with its app info), what the host's bridge sends that view
// (input, then result, after `initialized`). A person's use of the view's button is not driven
// here: reaching a control inside a cross-origin frame in a shadow root took a click, Tab and
// Space with polling, which failed in Firefox under a loaded CI run; a view's own call through
// the hub (approval, visibility) is tested with server-debug (apps.test.ts).
import { expect, fixture, html } from '@open-wc/testing';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import '../../src/elements/mcp-app-view/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import { toolUi } from '../../src/core/index.js';
import { nextEvent, privateHub, until } from '../helpers.js';
import { MODES, urls } from './helpers.js';

type Sent = { what: 'input' | 'result'; app: string | undefined; params: unknown };

/** Record what every AppBridge sends to its view as input and result, with the app it initialized as. */
function recordBridges() {
  const sent: Sent[] = [];
  const proto = AppBridge.prototype;
  const { sendToolInput, sendToolResult } = proto;
  proto.sendToolInput = function (this: AppBridge, params) {
    sent.push({ what: 'input', app: this.getAppVersion()?.name, params });
    return sendToolInput.call(this, params);
  };
  proto.sendToolResult = function (this: AppBridge, params) {
    sent.push({ what: 'result', app: this.getAppVersion()?.name, params });
    return sendToolResult.call(this, params);
  };
  return {
    sent,
    restore: () => Object.assign(proto, { sendToolInput, sendToolResult }),
  };
}

describe('MCP Apps: server-basic-vanillajs through the hub (a real peer)', () => {
  it('its one tool keeps the default visibility: in toolsFor, counted as a tool with a view (it has no app-only tool)', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const s = await hub.servers.add({ name: 'Vanilla', url: urls.appsVanilla });
    await hub.connect(s.id);
    const tools = hub.catalogue(s.id)!.tools;
    expect(tools.map((t) => t.name)).to.deep.equal(['get-time']);
    expect(toolUi(tools[0]).resourceUri).to.equal('ui://get-time/mcp-app.html');
    expect(toolUi(tools[0]).visibility).to.deep.equal(['model', 'app']);
    // every tool it has is model-visible, so the model is offered all of them: none is app-only
    const openai = hub.toolsFor('openai') as { function: { name: string } }[];
    expect(openai.map((t) => t.function.name)).to.deep.equal(['Vanilla__get-time']);
    expect(hub.status(s.id).apps).to.deep.include({ mode: 'sandbox', viewTools: 1 });
  });

  for (const mode of MODES)
    it(`shows the view of get-time (${mode.name}): it initialises, is sent input and result, and it is the only call`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const s = await hub.servers.add({ name: 'Vanilla', url: urls.appsVanilla });
      await hub.connect(s.id);
      const bridges = recordBridges();
      try {
        const record = await hub.callTool({ serverId: s.id, tool: 'get-time', source: 'user', arguments: {} });
        expect(record.status).to.equal('success');
        const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
        const view = await fixture<McpAppViewElement>(
          html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`,
        );
        const ev = await initialized;
        expect(ev.detail).to.deep.include({
          callId: record.id,
          serverId: s.id,
          resourceUri: 'ui://get-time/mcp-app.html',
          mode: mode.sandbox() ? 'sandbox' : 'opaque-fallback',
        });
        // the bridge of the view that initialized as the vanilla app sent it the call's input, then
        // its result (the time), once each
        await until(async () => bridges.sent.length >= 2, 'input and result sent');
        expect(bridges.sent.map((x) => [x.what, x.app])).to.deep.equal([
          ['input', 'Get Time App'],
          ['result', 'Get Time App'],
        ]);
        expect(bridges.sent[0]!.params).to.deep.equal({ arguments: {} });
        expect((bridges.sent[1]!.params as { structuredContent: unknown }).structuredContent).to.deep.equal(
          record.result!.structuredContent,
        );
        // the view made no call of its own meanwhile: the call that showed it is the only one
        expect(hub.calls.list().map((c) => c.id)).to.deep.equal([record.id]);
        expect(view.isConnected).to.equal(true);
      } finally {
        bridges.restore();
      }
    });
});
