import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import { privateHub, urls } from '../helpers.js';

const q = (el: McpServerManagerElement, s: string) => el.shadowRoot!.querySelector(s) as HTMLElement | null;

describe('<mcp-server-manager> and the relay', () => {
  // the relay fixture always runs (test/fixtures/relay-fixture.mjs: without a build the run fails)
  it('a server without CORS: the manager offers the host relay in one sentence, and it connects through it', async () => {
    const hub = privateHub({ relayUrl: urls.relay });
    const s = await hub.servers.add({ name: 'no-cors', url: urls.noCors!, retries: 0, timeout: 10 });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await hub.connect(s.id).catch(() => {});
    await el.updateComplete;
    const offer = q(el, '.relay-offer');
    expect(offer, 'the relay is offered').to.exist;
    expect(offer!.textContent).to.contain('does not allow calls from this page');
    await expect(el).to.be.accessible();
    const connected = new Promise<void>((resolve) =>
      hub.addEventListener('mcp-server-status-changed', (e) => {
        if (e.detail.serverId === s.id && e.detail.status === 'connected') resolve();
      }),
    );
    q(el, '[data-action="use-relay"]')!.click();
    await connected;
    expect(hub.servers.get(s.id)!.relay).to.equal(urls.relay);
    const r = await hub.client(s.id).callTool('echo', { message: 'through the relay' });
    expect(r.content).to.deep.equal([{ type: 'text', text: 'Echo: through the relay' }]);
    await el.updateComplete;
    expect(q(el, '.relay-offer')).to.equal(null);
  });

  it('no relay configured: no offer, the CORS diagnosis stays', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'no-cors', url: urls.noCors!, retries: 0, timeout: 10 });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await hub.connect(s.id).catch(() => {});
    await el.updateComplete;
    expect(q(el, '.last-error')!.textContent).to.contain('CORS');
    expect(q(el, '.relay-offer')).to.equal(null);
  });
});
