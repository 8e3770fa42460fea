// The explorer's tool list before a choice (issue 25 item 11): no row looks chosen until the
// list has focus (the keyboard's row is outlined only then); each name carries its full text as
// a tooltip, since long names are cut with an ellipsis.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement } from '../../src/index.js';
import { privateHub, untilRendered, urls } from '../helpers.js';

describe('<mcp-tool-explorer> list look', () => {
  it('no row outlined before the list has focus; names have a tooltip', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.connect(s.id);
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    const root = el.shadowRoot!;
    await untilRendered(el, () => root.querySelector('.row.active'), 'the rows');
    const first = root.querySelector('.row.active') as HTMLElement;
    expect(getComputedStyle(first).outlineStyle).to.equal('none');
    expect(root.querySelectorAll('[role=option][aria-selected=true]').length).to.equal(0);
    (root.querySelector('[role=listbox]') as HTMLElement).focus();
    expect(getComputedStyle(first).outlineStyle).to.equal('solid');
    const name = first.querySelector('.title') as HTMLElement;
    expect(name.title).to.contain(first.dataset.tool!);
  });
});
