// <mcp-tool-explorer>'s "Watch" on resources: a toggle on each resource of a server that offers
// resource subscriptions; an update marks the resource and re-reads it when open. Against the
// real 2026-07-28 fixture (subscriptions/listen) and our 2025-11-25 fixture (resources/subscribe).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { McpResourceUpdatedEvent, type McpHub, type McpToolExplorerElement } from '../../src/index.js';
import { nextEvent, privateHub, unique, untilRendered, urls } from '../helpers.js';

const A = 'fixture://watched/a';
const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;

const PEERS = [
  { label: '2026-07-28', url: () => `${urls.modern}/t/${unique('watch')}/subs/mcp` },
  { label: '2025-11-25', url: () => `${urls.fixture}/subs/${unique('watch')}/mcp` },
];

async function explorer(url: string, strings = {}) {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Watched', url, retries: 0 });
  await hub.connect(s.id, { discovery: 'complete' });
  const el = await fixture<McpToolExplorerElement>(
    html`<mcp-tool-explorer .hub=${hub} server-id=${s.id} .strings=${strings}></mcp-tool-explorer>`,
  );
  q(el, '#tab-resources').click();
  await el.updateComplete;
  return { hub, s, el };
}

const watchButton = (el: Element, uri: string) =>
  root(el).querySelector<HTMLButtonElement>(`button[data-action=watch][data-uri="${uri}"]`)!;
const readButton = (el: Element, uri: string) =>
  root(el).querySelector<HTMLButtonElement>(`button[data-action=read][data-uri="${uri}"]`)!;

for (const peer of PEERS)
  describe(`<mcp-tool-explorer> Watch: ${peer.label}`, () => {
    it('watch, update: marked and the open resource re-read; unwatch; accessible', async () => {
      const { hub, s, el } = await explorer(peer.url());
      const watch = watchButton(el, A);
      expect(watch.tagName).to.equal('BUTTON'); // a native button: Tab reaches it, Enter and Space press it
      expect(watch.disabled).to.equal(false);
      watch.focus();
      expect(root(el).activeElement, 'focusable').to.equal(watch);
      expect(watch.getAttribute('aria-pressed')).to.equal('false');
      expect(watch.getAttribute('aria-label')).to.equal('Watch watched-a');
      await expect(el).to.be.accessible();

      readButton(el, A).click();
      await untilRendered(el, () => root(el).textContent!.includes('touched 0 times'), 'the first read');
      watch.click();
      await untilRendered(el, () => hub.store.state.resourceSubscriptions[s.id]?.includes(A), 'the subscription');
      await untilRendered(el, () => watchButton(el, A).getAttribute('aria-pressed') === 'true', 'pressed');
      expect(q(el, '[part=updated]')).to.equal(null);
      await expect(el).to.be.accessible();

      const updated = nextEvent(
        window,
        'mcp-resource-updated',
        (e: McpResourceUpdatedEvent) => e.detail.serverId === s.id,
      );
      await hub.client(s.id).callTool('touch-resource', { uri: A });
      await updated;
      await untilRendered(el, () => q(el, '[part=updated]'), 'the Updated mark');
      expect(q(el, '[part=updated]').textContent!.trim()).to.equal('Updated');
      await untilRendered(el, () => root(el).textContent!.includes('touched 1 times'), 'the open resource re-read');
      await expect(el).to.be.accessible();

      // reading it clears the mark; unwatching unpresses
      readButton(el, A).click();
      await untilRendered(el, () => !q(el, '[part=updated]'), 'the mark cleared');
      watchButton(el, A).click();
      await untilRendered(el, () => hub.store.state.resourceSubscriptions[s.id] === undefined, 'unsubscribed');
      await untilRendered(el, () => watchButton(el, A).getAttribute('aria-pressed') === 'false', 'unpressed');
    });
  });

describe('<mcp-tool-explorer> Watch', () => {
  it('a toggle only while the server is connected and offers subscriptions', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
    await hub.connect(s.id, { discovery: 'complete' });
    // server-everything offers them: the toggle is there
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-resources').click();
    await el.updateComplete;
    expect(root(el).querySelectorAll('button[data-action=watch]').length).to.equal(
      hub.catalogue(s.id)!.resources.length,
    );
    // disconnected: no toggle (nothing to subscribe on)
    await hub.disconnect(s.id);
    await untilRendered(el, () => !root(el).querySelector('button[data-action=watch]'), 'toggles gone');
  });

  it('a failure shows as text beside the resource; strings are replaceable', async () => {
    const hub = privateHub({ connectionsPerOrigin: 2 }); // no stream to spare: subscribing fails
    const s = await hub.servers.add({ name: 'Watched', url: PEERS[0]!.url(), retries: 0 });
    await hub.connect(s.id, { discovery: 'complete' });
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer
        .hub=${hub}
        server-id=${s.id}
        .strings=${{ watch: 'Beobachten', watchFailed: 'Fehlgeschlagen:' }}
      ></mcp-tool-explorer>`,
    );
    q(el, '#tab-resources').click();
    await el.updateComplete;
    const watch = watchButton(el, A);
    expect(watch.textContent!.trim()).to.equal('Beobachten');
    watch.click();
    await untilRendered(el, () => q(el, '[role=alert]'), 'the error');
    expect(q(el, '[role=alert]').textContent).to.contain('Fehlgeschlagen:').and.contain('No stream');
    expect(watchButton(el, A).getAttribute('aria-pressed')).to.equal('false');
    expect(hub.store.state.resourceSubscriptions[s.id]).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('follows its hub and leaves no listener behind when detached', async () => {
    const hub = privateHub() as McpHub;
    const el = document.createElement('mcp-tool-explorer') as McpToolExplorerElement;
    el.hub = hub;
    for (let i = 0; i < 5; i++) {
      document.body.append(el);
      await el.updateComplete;
      el.remove();
    }
    hub.dispatchEvent(new McpResourceUpdatedEvent({ serverId: 'x', uri: A }));
    expect(el._updated).to.deep.equal({});
    document.body.append(el);
    await el.updateComplete;
    hub.dispatchEvent(new McpResourceUpdatedEvent({ serverId: 'x', uri: A }));
    expect(Object.values(el._updated)).to.deep.equal([1]);
    const other = privateHub();
    el.hub = other;
    await el.updateComplete;
    hub.dispatchEvent(new McpResourceUpdatedEvent({ serverId: 'x', uri: A }));
    other.dispatchEvent(new McpResourceUpdatedEvent({ serverId: 'x', uri: A }));
    expect(Object.values(el._updated)).to.deep.equal([2]);
    el.remove();
  });
});
