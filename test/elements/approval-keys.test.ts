// The approval box names each argument by its real key (what the server receives), with the
// schema's title beside it when the title says something else: a title is the server's own text
// and alone could call one field by another's name (issue 27 item 5).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import { nextEvent, privateHub, unique, urls } from '../helpers.js';

describe('<mcp-tool-call> approval: real keys beside schema titles', () => {
  it('a titled argument shows its title and its key; an untitled one its key alone', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'Bank',
      url: `${urls.origins.a}/t/${unique('keys')}/jsonrpc`,
      transport: 'jsonrpc',
    });
    await hub.connect(s.id);
    const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    const done = hub.callTool({ serverId: s.id, tool: 'transfer', arguments: { amount: 5, note: 'rent' } });
    const id = (await waiting).detail.call.id;
    const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${id}></mcp-tool-call>`);
    await el.updateComplete;
    const dts = [...el.shadowRoot!.querySelectorAll('dt')];
    expect(dts.map((d) => d.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal(['amount', 'Recipient note']);
    expect(dts[1].querySelector('code.key')!.textContent).to.equal('note');
    expect(dts[0].querySelector('code.key')).to.equal(null);
    await expect(el).to.be.accessible();
    hub.calls.deny(id);
    expect((await done).status).to.equal('denied');
  });
});
