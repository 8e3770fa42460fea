// The manager's small things (issue 38, low): the mcp.json textareas inside the card, Download a
// button like the others, the Enabled switch in one place whatever the name, no protocol jargon in
// the rows, URL errors that say what to fix, focus after Remove, one wording for a required
// field, and a tool count that says what app-only tools are.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import { privateHub, unique, untilRendered, urls } from '../helpers.js';
import { choose, q, type } from './manager-form.js';

const manager = async (hub = privateHub()) => ({
  hub,
  el: await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`),
});

describe('<mcp-server-manager>: plain rows and forms', function () {
  this.timeout(30000);

  it('the mcp.json textareas stay inside the card; Download looks like the buttons beside it', async () => {
    const { hub, el } = await manager();
    await hub.servers.add({ name: 'One', url: 'http://127.0.0.1:9/mcp', enabled: false });
    (q(el, 'details.io') as HTMLDetailsElement).open = true;
    q(el, '[data-action=export]').click();
    await untilRendered(el, () => q(el, '[data-action=download]'), 'Download');
    const card = q(el, 'details.io').getBoundingClientRect();
    for (const area of el.shadowRoot!.querySelectorAll('textarea'))
      expect(area.getBoundingClientRect().right, area.id).to.be.at.most(card.right + 0.5);
    const link = getComputedStyle(q(el, '[data-action=download]'));
    const button = getComputedStyle(q(el, '[data-action=export]'));
    for (const p of [
      'borderTopStyle',
      'borderTopWidth',
      'paddingLeft',
      'paddingTop',
      'backgroundColor',
      'color',
    ] as const)
      expect(link[p], p).to.equal(button[p]);
    expect(link.textDecorationLine).to.equal('none');
  });

  it('the Enabled switch sits in the same place on every row, whatever the name', async () => {
    const hub = privateHub();
    await hub.servers.add({ name: 'A', url: 'http://127.0.0.1:9/a', enabled: false });
    await hub.servers.add({
      name: 'A much longer server name '.repeat(3),
      url: 'http://127.0.0.1:9/b',
      enabled: false,
    });
    const { el } = await manager(hub);
    el.style.width = '360px';
    await el.updateComplete;
    const places = [...el.shadowRoot!.querySelectorAll('[part=server]')].map((row) => {
      const box = row.querySelector('[data-action=enable]')!.getBoundingClientRect();
      return [Math.round(box.right), Math.round(box.top - row.getBoundingClientRect().top)];
    });
    expect(places[1]).to.deep.equal(places[0]);
  });

  it('URL errors say what to fix', async () => {
    const { el } = await manager();
    el.startAdd();
    await el.updateComplete;
    await type(el, 'name', 'X');
    for (const [url, says] of [
      ['example.com/mcp', 'starting with https://'],
      ['http://example.com/mcp', 'Use an https:// address'],
      ['ftp://example.com/mcp', 'Use an address starting with https://'],
      ['https://me:pw@example.com/mcp', 'enter them under Advanced'],
    ]) {
      await type(el, 'url', url);
      (q(el, 'form') as HTMLFormElement).requestSubmit();
      await untilRendered(el, () => q(el, '#e-url')?.textContent?.includes(says), `the advice for ${url}`);
    }
  });

  it(`every required field left empty says "${REQUIRED_MESSAGE}"`, async () => {
    const { el } = await manager();
    const cases: [string, string][] = [
      ['none', 'name'],
      ['none', 'url'],
      ['bearer', 'token'],
      ['api-key', 'apiKey'],
      ['api-key', 'headerName'],
      ['basic', 'username'],
      ['basic', 'password'],
      ['client-credentials', 'clientId'],
      ['client-credentials', 'clientSecret'],
      ['none', 'header-0-name'],
    ];
    const seen: string[] = [];
    for (const [auth, field] of cases) {
      el.startAdd();
      await el.updateComplete;
      await type(el, 'name', 'N');
      await type(el, 'url', 'http://127.0.0.1:9/mcp');
      await choose(el, 'authType', auth);
      for (const f of ['token', 'apiKey', 'username', 'password', 'clientId', 'clientSecret'])
        if (q(el, `#f-${f}`)) await type(el, f, 'v');
      if (field.startsWith('header-')) {
        q(el, '[data-action=add-header]').click();
        await el.updateComplete;
        await type(el, 'header-0-name', 'x-h');
        await type(el, 'header-0-value', 'v');
      }
      await type(el, field, '');
      (q(el, 'form') as HTMLFormElement).requestSubmit();
      await untilRendered(el, () => q(el, `#e-${field}`), `the error of ${field}`);
      seen.push(`${field}: ${q(el, `#e-${field}`).textContent!.trim()}`);
      el.closeForm();
      await el.updateComplete;
    }
    expect(seen).to.deep.equal(cases.map(([, f]) => `${f}: ${REQUIRED_MESSAGE}`));
  });

  it('after Remove, focus goes to the next row, and after the last one to Add server', async () => {
    const hub = privateHub();
    const a = await hub.servers.add({ name: 'A', url: 'http://127.0.0.1:9/a', enabled: false });
    const b = await hub.servers.add({ name: 'B', url: 'http://127.0.0.1:9/b', enabled: false });
    const { el } = await manager(hub);
    const removeRow = async (id: string) => {
      q(el, `[data-server="${id}"] [data-action=remove]`).click();
      await el.updateComplete;
      q(el, `[data-server="${id}"] [data-action=confirm-remove]`).click();
      await untilRendered(el, () => !q(el, `[data-server="${id}"]`), 'the row gone');
    };
    await removeRow(a.id);
    await untilRendered(el, () => el.shadowRoot!.activeElement, 'focus');
    expect(el.shadowRoot!.activeElement).to.equal(q(el, `[data-server="${b.id}"] [data-action=edit]`));
    await removeRow(b.id);
    await untilRendered(el, () => el.shadowRoot!.activeElement, 'focus');
    expect(el.shadowRoot!.activeElement).to.equal(q(el, '[data-action=add]'));
  });

  it('the tool count is what a model can be offered; app-only tools are counted apart, with why', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'Apps',
      url: `${(urls as unknown as { appsFixture: string }).appsFixture}/t/${unique('count')}/mcp`,
    });
    await hub.connect(s.id);
    const { el } = await manager(hub);
    // the fixture: 8 tools, 3 of them `visibility: ["app"]` (app-only, app-write, report)
    const tools = hub.store.state.catalogues[s.id].tools;
    expect(tools).to.have.length(8);
    const count = q(el, `[data-server="${s.id}"] [part=tool-count]`);
    expect(count.textContent!.replace(/\s+/g, ' ').trim()).to.equal('5 tools · 3 only for app views');
    expect(count.querySelector('[title]')!.getAttribute('title')).to.contain('never offered');
    await expect(el).to.be.accessible();
  });
});
