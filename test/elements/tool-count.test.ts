// Issue 22 item 8: "1 tools". Each element that counts tools says "1 tool" for one and "2 tools"
// for two, against real servers with that many tools (the fixture's /many/:n/mcp).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { GptToolSelectorElement, McpServerManagerElement, McpToolExplorerElement } from '../../src/index.js';
import { modelVisible } from '../../src/core/index.js';
import { privateHub, untilRendered, urls, unique } from '../helpers.js';

const text = (el: Element) => (el.shadowRoot!.textContent ?? '').replace(/\s+/g, ' ');

for (const [n, label] of [
  [1, '1 tool'],
  [2, '2 tools'],
] as const) {
  describe(`tool counts: ${label}`, () => {
    async function hubWith() {
      const hub = privateHub();
      const s = await hub.servers.add({ name: `Many ${n}`, url: `${urls.fixture}/many/${n}/mcp` });
      await hub.connect(s.id);
      return { hub, s };
    }
    it('<mcp-server-manager> lists the server with its count', async () => {
      const { hub } = await hubWith();
      const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
      await untilRendered(el, () => / \d+ tools? /.test(text(el)), 'the count');
      expect(text(el)).to.contain(` ${label} `);
      if (n === 1) expect(text(el)).not.to.contain('1 tools');
    });
    it('<gpt-tool-selector> counts the server’s tools', async () => {
      const { hub } = await hubWith();
      const el = await fixture<GptToolSelectorElement>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
      await untilRendered(el, () => /\d+ tools?/.test(text(el)), 'the count');
      expect(text(el)).to.contain(label);
      if (n === 1) expect(text(el)).not.to.contain('1 tools');
    });
    it('<mcp-tool-explorer> counts the tools listed', async () => {
      const { hub, s } = await hubWith();
      const el = await fixture<McpToolExplorerElement>(
        html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
      );
      await untilRendered(el, () => /\d+ tools?/.test(text(el)), 'the count');
      expect(text(el)).to.contain(label);
      if (n === 1) expect(text(el)).not.to.contain('1 tools');
    });
  });
}

// Issue 38: the manager and the selector disagreed on a server with app-only tools (MCP Apps,
// `visibility: ["app"]`). The count is the tools a model can be offered; the app-only ones are
// said apart, with a title that explains them.
describe('tool counts: app-only tools', () => {
  it('<gpt-tool-selector> counts the model\'s tools and adds " · M only for app views"', async () => {
    const hub = privateHub();
    const apps = (urls as typeof urls & { appsFixture: string }).appsFixture;
    const s = await hub.servers.add({ name: 'Apps', url: `${apps}/t/${unique('count')}/mcp` });
    await hub.connect(s.id);
    const tools = hub.catalogue(s.id)!.tools;
    const n = tools.filter(modelVisible).length;
    const m = tools.length - n;
    expect(m, 'the fixture has app-only tools').to.equal(3);
    const el = await fixture<GptToolSelectorElement>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
    await untilRendered(el, () => /\d+ tools?/.test(text(el)), 'the count');
    const count = el.shadowRoot!.querySelector(`[data-server="${s.id}"] .count`)!;
    expect(count.textContent!.replace(/\s+/g, ' ').trim()).to.equal(`${n}/${n} tools · ${m} only for app views`);
    const suffix = count.querySelector('[title]')!;
    expect(suffix.getAttribute('title')).to.contain('only its own app views may call: 3');
    expect(suffix.getAttribute('title')).to.contain('never offered');
  });

  it('a server without app-only tools has no such note', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Many 2', url: `${urls.fixture}/many/2/mcp` });
    await hub.connect(s.id);
    const el = await fixture<GptToolSelectorElement>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
    await untilRendered(el, () => /\d+ tools?/.test(text(el)), 'the count');
    expect(text(el)).to.contain('2/2 tools');
    expect(text(el)).not.to.contain('only for app views');
  });
});
