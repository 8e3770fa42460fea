// The CDN build as a host page gets it: the entry served from an arbitrary CDN path under a strict
// CSP, elements imported the first time their tag appears, and the one-file build beside it.
import { expect } from '@open-wc/testing';
import { unique, urls } from '../helpers.js';

const TAGS = ['mcp-tool-call', 'gpt-tool-selector', 'mcp-server-manager', 'mcp-tool-explorer'] as const;
const BASE = '/__cdn-copy/some/where/v9.9.9/cdn/';

type Frame = Window & typeof globalThis & { McpElements?: any; violations: string[] };

/**
 * Run `check` against a fresh page that loads a CDN build (`?entry=all` the one-file build).
 * The frame goes away before the test ends.
 */
async function withPage(query: string, check: (win: Frame) => Promise<void>): Promise<void> {
  const frame = document.createElement('iframe');
  frame.src = `/__cdn.html${query}`;
  document.body.append(frame);
  try {
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    const win = frame.contentWindow as Frame;
    for (let i = 0; i < 200 && !win.McpElements; i++) await new Promise((r) => setTimeout(r, 25));
    // booleans only: a failing assertion on a module namespace of another realm makes the
    // runner serialise all of it
    expect(typeof win.McpElements === 'object', 'the entry ran').to.equal(true);
    await check(win);
  } finally {
    frame.remove();
  }
}

/** Script files the frame fetched, relative to the CDN directory (every one must be under it). */
function scripts(win: Frame): string[] {
  return win.performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname)
    .filter((p) => p.endsWith('.js') && !/^\/(test\/|__servers|__web-dev-server)/.test(p))
    .map((p) => {
      expect(p.startsWith(BASE), `${p} is fetched relative to the entry`).to.equal(true);
      return p.slice(BASE.length).replace(/-[\w-]{8}\.js$/, '.js');
    });
}

describe('CDN entry and autoloader', () => {
  it('loads nothing for an element until its tag appears, then only its chunk, relative to the entry', () =>
    withPage('', async (win) => {
      for (const t of TAGS) expect(win.customElements.get(t) === undefined, t).to.equal(true);
      expect(scripts(win).filter((s) => TAGS.some((t) => s.includes(t)))).to.deep.equal([]);
      // a card appended later, nested, as a chat page does
      const wrapper = win.document.createElement('section');
      wrapper.innerHTML = '<article><mcp-tool-call></mcp-tool-call></article>';
      win.document.body.append(wrapper);
      await win.customElements.whenDefined('mcp-tool-call');
      const card = wrapper.querySelector('mcp-tool-call') as any;
      await card.updateComplete;
      expect(card.shadowRoot.textContent).to.contain('No tool call.');
      const loaded = scripts(win);
      expect(loaded).to.include('chunks/mcp-tool-call.js');
      for (const other of ['gpt-tool-selector', 'mcp-server-manager', 'mcp-tool-explorer'])
        expect(loaded, other).not.to.include(`chunks/${other}.js`);
      expect(win.violations).to.deep.equal([]);
    }));

  it('defines tags already in the markup when the entry runs', () =>
    withPage('?tags=gpt-tool-selector,mcp-server-manager', async (win) => {
      await win.customElements.whenDefined('gpt-tool-selector');
      await win.customElements.whenDefined('mcp-server-manager');
      expect(win.customElements.get('mcp-tool-explorer') === undefined).to.equal(true);
      expect(win.violations).to.deep.equal([]);
    }));

  it("a host's shadow root is searched with discover(); loadElements() loads the rest; unknown tags reject", () =>
    withPage('', async (win) => {
      const host = win.document.createElement('div');
      win.document.body.append(host);
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<gpt-tool-selector></gpt-tool-selector>';
      // a control in the light DOM after it: once the observer's reaction to the control has
      // come all the way to a defined element, a reaction to the shadow root's tag (started in
      // the same callback, for a smaller chunk) would have fetched that chunk too
      win.document.body.append(win.document.createElement('mcp-tool-explorer'));
      await win.customElements.whenDefined('mcp-tool-explorer');
      expect(scripts(win)).to.include('chunks/mcp-tool-explorer.js');
      expect(scripts(win), 'the observer cannot see into shadow roots').not.to.include('chunks/gpt-tool-selector.js');
      expect(
        win.customElements.get('gpt-tool-selector') === undefined,
        'the observer cannot see into shadow roots',
      ).to.equal(true);
      await win.McpElements.discover(root);
      expect(typeof win.customElements.get('gpt-tool-selector')).to.equal('function');
      await win.McpElements.loadElements();
      for (const t of TAGS) expect(typeof win.customElements.get(t), t).to.equal('function');
      let error: unknown;
      await win.McpElements.loadElements('mcp-nope').catch((e: unknown) => (error = e));
      expect(String(error)).to.contain('unknown element <mcp-nope>');
      expect(win.violations).to.deep.equal([]);
    }));

  it('fetches the connection chunk (the SDK) and the validator the first time the hub connects, not for cards or history', () =>
    withPage('', async (win) => {
      const hub = new win.McpElements.McpHub({ storeName: unique('cdn-connect') });
      await hub.ready;
      const card = win.document.createElement('mcp-tool-call') as any;
      card.call = {
        id: 'c1',
        serverId: 's',
        serverName: 'Shown from history',
        tool: 'echo',
        args: { message: 'hi' },
        status: 'success',
        result: { content: [{ type: 'text', text: 'hi' }] },
        createdAt: Date.now(),
        source: 'model',
      };
      win.document.body.append(card);
      await win.customElements.whenDefined('mcp-tool-call');
      await card.updateComplete;
      expect(card.shadowRoot.textContent).to.contain('Shown from history');
      const server = await hub.servers.add({ name: 'Everything', url: urls.everything, enabled: false });
      expect(
        scripts(win).filter((s) => /^chunks\/(connect|validator)/.test(s)),
        'before connect',
      ).to.deep.equal([]);
      await hub.servers.update(server.id, { enabled: true });
      const catalogue = await hub.connect(server.id);
      expect(catalogue.tools.length).to.be.greaterThan(0);
      expect(
        scripts(win)
          .filter((s) => /^chunks\/(connect|validator)/.test(s))
          .sort(),
        'after connect',
      ).to.deep.equal(['chunks/connect.js', 'chunks/validator.js']);
      await hub.disconnect(server.id);
      expect(win.violations).to.deep.equal([]);
    }));

  it('the G4F drop-in is a chunk: nothing of it is fetched until install(), which resolves with the page client', () =>
    withPage('', async (win) => {
      const g4fChunks = () => scripts(win).filter((f) => f.startsWith('chunks/g4f'));
      expect(g4fChunks()).to.deep.equal([]);
      expect(win.McpElements.g4f.installed() === undefined, 'nothing installed yet').to.equal(true);
      const pending = win.McpElements.g4f.install({ container: null, importStorage: false });
      expect(pending instanceof win.Promise, 'install() returns a promise in the chunked entry').to.equal(true);
      const client = await pending;
      expect(g4fChunks()).to.deep.equal(['chunks/g4f.js']);
      expect((win as unknown as { mcpClient: unknown }).mcpClient === client, 'window.mcpClient').to.equal(true);
      expect(win.McpElements.g4f.installed() === client, 'installed()').to.equal(true);
      // a second install is the same client, and fetches nothing more
      expect((await win.McpElements.g4f.install()) === client).to.equal(true);
      expect(g4fChunks()).to.deep.equal(['chunks/g4f.js']);
      client.dispose();
      expect(win.violations).to.deep.equal([]);
    }));

  it('the one-file build defines every element on load and fetches nothing more', () =>
    withPage('?entry=all', async (win) => {
      for (const t of TAGS) expect(typeof win.customElements.get(t), t).to.equal('function');
      expect(win.McpElements.McpToolCallElement === win.customElements.get('mcp-tool-call')).to.equal(true);
      await win.McpElements.loadElements();
      expect(scripts(win)).to.deep.equal(['mcp-elements.all.js']);
      expect(win.violations).to.deep.equal([]);
    }));
});
