import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { CHAT_ELEMENT_TAGS, nextEvent, privateHub, urls } from '../helpers.js';

const TAGS = CHAT_ELEMENT_TAGS;

describe('all six elements', () => {
  it('run from the build this run asked for (WTR_BUILD=cdn: the CDN entry and its chunks)', async () => {
    // @ts-expect-error served by the test runner (web-test-runner.config.mjs)
    const build = (await import('/__build.js')).default as 'cdn' | 'source';
    const cdn = (globalThis as { McpElements?: unknown }).McpElements !== undefined;
    expect(cdn, 'globalThis.McpElements is set by the CDN entry only').to.equal(build === 'cdn');
    for (const tag of TAGS) expect(customElements.get(tag), tag).to.be.a('function');
  });

  it('every user-visible string can be replaced', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const manager = await fixture<any>(
      html`<mcp-server-manager .hub=${hub} .strings=${{ title: 'Serveurs MCP', add: 'Ajouter' }}></mcp-server-manager>`,
    );
    expect(manager.shadowRoot.textContent).to.contain('Serveurs MCP');
    expect(manager.shadowRoot.querySelector('[data-action=add]').textContent).to.equal('Ajouter');
    const selector = await fixture<any>(
      html`<gpt-tool-selector .hub=${hub} .strings=${{ servers: 'Serveurs' }}></gpt-tool-selector>`,
    );
    expect(selector.shadowRoot.querySelector('h2').textContent).to.equal('Serveurs');
    const explorer = await fixture<any>(
      html`<mcp-tool-explorer .hub=${hub} .strings=${{ tools: 'Outils' }}></mcp-tool-explorer>`,
    );
    expect(explorer.shadowRoot.querySelector('#tab-tools').textContent.trim()).to.equal('Outils');
    const card = await fixture<any>(
      html`<mcp-tool-call .hub=${hub} .strings=${{ noCall: 'Aucun appel.' }}></mcp-tool-call>`,
    );
    expect(card.shadowRoot.textContent).to.contain('Aucun appel.');
    void s;
  });

  it('a server in error is shown accessibly by the manager and the selector', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Broken', url: `${urls.fixture}/status/500/mcp`, retries: 0 });
    await hub.connect(s.id).catch(() => {});
    const manager = await fixture<any>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const selector = await fixture<any>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
    expect(manager.shadowRoot.querySelector('.last-error').textContent).to.contain('HTTP 500');
    expect(selector.shadowRoot.textContent).to.contain('Error');
    await expect(manager).to.be.accessible();
    await expect(selector).to.be.accessible();
  });

  it('a server that is connecting (loading state) is shown accessibly', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const manager = await fixture<any>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const selector = await fixture<any>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
    const started = nextEvent<CustomEvent>(hub, 'mcp-server-status-changed', (e) => e.detail.status === 'connecting');
    const connecting = hub.connect(s.id);
    await started;
    await manager.updateComplete;
    await selector.updateComplete;
    expect(manager.shadowRoot.textContent).to.contain('Connecting');
    await expect(manager).to.be.accessible();
    await expect(selector).to.be.accessible();
    await connecting;
  });
});
