// Issue 27 item 3 in the server manager's form: a URL edited to another origin does not take the
// saved token along; the form says so at the token field, and saves once the token is entered.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import { nextEvent, privateHub, unique, untilRendered, urls } from '../helpers.js';
import { q, type } from './manager-form.js';

async function click(el: McpServerManagerElement, action: string) {
  q(el, `[data-action="${action}"]`).click();
  await el.updateComplete;
}

describe('<mcp-server-manager>: a URL edit to another origin', () => {
  it('asks for the saved token again at its field, changes nothing until it is entered', async () => {
    const hub = privateHub();
    const tenant = unique('form');
    const s = await hub.servers.add({
      name: 'Bank',
      url: `${urls.origins.a}/t/${tenant}/jsonrpc`,
      transport: 'jsonrpc',
      auth: { type: 'bearer', token: 'saved-token' },
    });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await click(el, 'edit');
    await type(el, 'url', `${urls.origins.b}/t/${tenant}/jsonrpc`);
    await click(el, 'save');
    await untilRendered(el, () => q(el, '#e-token'), 'the token field error');
    expect(q(el, '#e-token').textContent).to.contain(new URL(urls.origins.b).origin);
    expect(hub.servers.get(s.id)!.url).to.equal(s.url);
    await type(el, 'token', 'new-token-for-b');
    const updated = nextEvent<CustomEvent>(window, 'mcp-server-updated');
    await click(el, 'save');
    const ev = await updated;
    expect(ev.detail.server.url).to.equal(`${urls.origins.b}/t/${tenant}/jsonrpc`);
    expect(ev.detail.server.auth).not.to.deep.equal(s.auth);
  });
});
