// The 2025-11-25 URL-elicitation-required error (-32042): a tool call the server refuses until the
// user has been to a page becomes URL requests linked to the call (its card shows them); once the
// user opened it the call runs again, and a declined request ends the call without a retry.
// Against the tasks peer's need-url tool (test/fixtures/tasks-server.mjs).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import type { McpElicitationRequestEvent } from '../../src/events/index.js';
import { nextEvent, privateHub, unique, untilRendered, urls } from '../helpers.js';

async function setup() {
  const base = `${urls.tasks}/t/${unique('url')}`;
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Accounts', url: `${base}/mcp`, revision: '2025-11-25', retries: 0 });
  await hub.connect(s.id);
  const toolCalls = async () =>
    (
      (await fetch(`${base}/seen`).then((r) => r.json())) as {
        requests: { rpc?: { method?: string; name?: string } }[];
      }
    ).requests.filter((r) => r.rpc?.method === 'tools/call' && r.rpc.name === 'need-url').length;
  return { base, hub, serverId: s.id, toolCalls };
}

describe('2025-11-25 URL elicitation required (-32042)', () => {
  it('becomes a URL request in the call’s card; once opened, the call runs again and succeeds', async () => {
    const { base, hub, serverId, toolCalls } = await setup();
    const asked = nextEvent<McpElicitationRequestEvent>(hub, 'mcp-elicitation-request');
    let callId = '';
    const done = hub.callTool({ serverId, tool: 'need-url', source: 'user', onCall: (r) => (callId = r.id) });
    const { detail } = await asked;
    const e = detail.elicitation;
    expect(e.mode).to.equal('url');
    expect(e.callId, 'linked to the refused call').to.equal(callId);
    expect(e.url).to.equal(`${base}/url-done`);
    expect(e.domain).to.equal('127.0.0.1');
    expect(e.elicitationId).to.equal(`url-${base.split('/t/')[1]}`);
    expect(hub.calls.get(callId)!.status).to.equal('running');

    // the call's card shows the request (the same view as <mcp-elicitation>)
    const card = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${callId}></mcp-tool-call>`);
    await untilRendered(
      card,
      () => card.shadowRoot!.querySelector('mcp-elicitation-view'),
      'the URL request in the card',
    );

    // the user goes there (the page marks the account connected), and says so
    await fetch(e.url!);
    hub.respondToElicitation(e.id, { action: 'accept' });
    const record = await done;
    expect(record.status).to.equal('success');
    expect(JSON.stringify(record.result?.content)).to.contain('url done');
    expect(await toolCalls(), 'sent again once').to.equal(2);
  });

  it('declined: the call ends with url-required and is not sent again', async () => {
    const { hub, serverId, toolCalls } = await setup();
    const asked = nextEvent<McpElicitationRequestEvent>(hub, 'mcp-elicitation-request');
    const done = hub.callTool({ serverId, tool: 'need-url', source: 'user' });
    hub.respondToElicitation((await asked).detail.elicitation.id, { action: 'decline' });
    const record = await done;
    expect(record.status).to.equal('error');
    expect(record.error?.code).to.equal('url-required');
    expect(await toolCalls()).to.equal(1);
  });

  it('cancelling the call while the request waits cancels both', async () => {
    const { hub, serverId } = await setup();
    const asked = nextEvent<McpElicitationRequestEvent>(hub, 'mcp-elicitation-request');
    let callId = '';
    const done = hub.callTool({ serverId, tool: 'need-url', source: 'user', onCall: (r) => (callId = r.id) });
    const { detail } = await asked;
    hub.calls.cancel(callId);
    expect((await done).status).to.equal('cancelled');
    expect(hub.store.state.elicitations[detail.elicitation.id]!.status).to.equal('cancelled');
  });
});
