// A call on server-everything that asks for a form while it runs, shown in its card: shared by
// the card's tests that need a server's form inside a call.
import { fixture, html } from '@open-wc/testing';
import type { McpHub, McpToolCallElement } from '../../src/index.js';
import { nextEvent, urls } from '../helpers.js';

/** Starts `trigger-elicitation-request` (auto approval) and renders its `<mcp-tool-call>`. */
export async function elicitingCall(hub: McpHub) {
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval: 'auto' });
  const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
  const p = hub.callTool({ serverId: s.id, tool: 'trigger-elicitation-request', arguments: {} });
  const el = await fixture<McpToolCallElement>(
    html`<mcp-tool-call .hub=${hub} call-id=${(await started).detail.call.id}></mcp-tool-call>`,
  );
  return { p, el };
}
