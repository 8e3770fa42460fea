import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import { privateHub, unique, until, untilRendered, urls } from '../helpers.js';

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

  // issue 33 item 2: a relay sees every request, credentials included; the user must see it
  it("a relayed server's row and its edit form show the relay; a direct one shows none", async () => {
    const hub = privateHub({ relayUrl: urls.relay });
    const relayHost = new URL(urls.relay!).host;
    const viaRelay = await hub.servers.add({ name: 'relayed', url: urls.noCors!, relay: urls.relay });
    const direct = await hub.servers.add({ name: 'direct', url: urls.noCors! });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const shown = row(el, viaRelay.id).querySelector('[part=relay]');
    expect(shown, "the relayed server's row names its relay").to.exist;
    expect(shown!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(`via the relay ${relayHost}`);
    expect(row(el, direct.id).querySelector('[part=relay]'), 'a direct server names no relay').to.equal(null);
    await expect(el).to.be.accessible();

    el.startEdit(viaRelay.id);
    await untilRendered(el, () => q(el, '#f-name'), 'the form');
    const line = q(el, 'form[part=form] [part=relay]');
    expect(line, 'the edit form names the relay').to.exist;
    expect(line!.textContent).to.contain(`Reached via the relay ${relayHost}`);
    expect(line!.textContent).to.contain('saved credentials included');
    await expect(el).to.be.accessible();
    el.closeForm();
    el.startEdit(direct.id);
    await untilRendered(el, () => q(el, '#f-name'), 'the form');
    expect(q(el, 'form[part=form] [part=relay]'), 'the form of a direct server names no relay').to.equal(null);
  });

  it('an import naming a relay the page does not allow: the manager lists it as not imported, with why', async () => {
    const hub = privateHub({ relayUrl: urls.relay });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const other = `${urls.origins.b}/t/${unique('relay')}`;
    el._io = {
      ...el._io,
      importText: JSON.stringify({ mcpServers: { Elsewhere: { url: urls.noCors, relay: other } } }),
    };
    await el.updateComplete;
    q(el, '[data-action="import"]')!.click();
    await untilRendered(el, () => q(el, '.import-errors'), 'the import result');
    expect(q(el, '.import-errors')!.textContent)
      .to.contain('Elsewhere')
      .and.contain('relay: is not a relay this page allows');
    expect(hub.servers.list()).to.deep.equal([]);
  });

  it('"Use the relay" on a server with a saved token says the token goes through it too; the click moves the server', async () => {
    const hub = privateHub({ relayUrl: urls.relay });
    const s = await hub.servers.add({
      name: 'no-cors, keyed',
      url: urls.noCors!,
      auth: { type: 'bearer', token: 'a-saved-token' },
      retries: 0,
      timeout: 10,
    });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await hub.connect(s.id).catch(() => {});
    await el.updateComplete;
    expect(q(el, '.relay-offer')!.textContent).to.contain('Its saved credentials will go through the relay too.');
    q(el, '[data-action="use-relay"]')!.click();
    await until(async () => hub.servers.get(s.id)!.relay === urls.relay, 'the click to move the server to the relay');
    await until(async () => hub.status(s.id).status === 'connected', 'the server to connect through the relay');
    await el.updateComplete;
    expect(row(el, s.id).querySelector('[part=relay]')!.textContent).to.contain('via the relay');
  });
});

const row = (el: McpServerManagerElement, id: string) => q(el, `[data-server="${id}"]`)!;
