// <mcp-tool-explorer>'s tab row on a phone (issue 38): every tab in sight inside the row, none
// past its edge or scrolled away, at 390, 320 and 256 px; the arrow keys still walk the tabs.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement } from '../../src/index.js';
import { privateHub, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;

describe('<mcp-tool-explorer> tab row at phone widths', () => {
  for (const width of [390, 320, 256])
    it(`${width} px: every tab in sight, the arrow keys walk them`, async () => {
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
      await hub.connect(s.id);
      const column = await fixture<HTMLElement>(
        html`<div><mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer></div>`,
      );
      column.style.width = `${width}px`;
      const el = column.querySelector('mcp-tool-explorer') as McpToolExplorerElement;
      await el.updateComplete;
      const list = root(el).querySelector<HTMLElement>('[role=tablist]')!;
      const row = list.getBoundingClientRect();
      expect(row.right, 'the row inside the column').to.be.at.most(column.getBoundingClientRect().right + 0.5);
      expect(list.scrollWidth, 'nothing scrolled away').to.be.at.most(list.clientWidth + 0.5);
      const tabs = [...root(el).querySelectorAll<HTMLElement>('[role=tab]')];
      expect(tabs.map((t) => t.id)).to.deep.equal([
        'tab-tools',
        'tab-resources',
        'tab-prompts',
        'tab-skills',
        'tab-log',
      ]);
      for (const t of tabs) {
        const r = t.getBoundingClientRect();
        expect(r.left, `${t.id} left`).to.be.at.least(row.left - 0.5);
        expect(r.right, `${t.id} right`).to.be.at.most(row.right + 0.5);
        expect(r.width, `${t.id} shown`).to.be.greaterThan(0);
      }
      // at 390 px the five fit one row
      if (width === 390) expect(new Set(tabs.map((t) => Math.round(t.getBoundingClientRect().top))).size).to.equal(1);
      // the keyboard: from Tools, ArrowRight to the last tab and around to the first
      tabs[0].focus();
      for (const next of ['tab-resources', 'tab-prompts', 'tab-skills', 'tab-log', 'tab-tools']) {
        root(el).activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        await el.updateComplete;
        expect(root(el).activeElement?.id).to.equal(next);
        expect(root(el).activeElement!.getAttribute('aria-selected')).to.equal('true');
      }
      await expect(el).to.be.accessible();
    });
});
