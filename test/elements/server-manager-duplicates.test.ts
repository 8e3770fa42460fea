// Duplicate server names (issue 13 audit): allowed — a name is a label, each server has its own
// id and its tools get distinct model-facing names — but the form says so, visibly and to
// assistive technology, before the user saves.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { privateHub } from '../helpers.js';

const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as T;
async function type(el: McpServerManagerElement, id: string, value: string) {
  const input = q<HTMLInputElement>(el, `#f-${id}`);
  input.value = value;
  input.dispatchEvent(new Event('input'));
  await el.updateComplete;
}

describe('<mcp-server-manager>: duplicate names', () => {
  it('warns while typing a name another server has (any case, spaces around), allows saving, and says nothing otherwise', async () => {
    const hub = privateHub();
    const first = await hub.servers.add({ name: 'Weather', url: 'http://127.0.0.1:9/mcp', enabled: false });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    q(el, '[data-action="add"]').click();
    await el.updateComplete;
    const warning = () => q(el, '#w-name');
    const described = () => q(el, '#f-name').getAttribute('aria-describedby') ?? '';
    await type(el, 'name', 'Other');
    expect(warning().textContent).to.equal('');
    expect(getComputedStyle(warning()).display).to.equal('none');
    expect(described()).not.to.contain('w-name');
    await type(el, 'name', '  wEATHER ');
    expect(warning().textContent).to.contain('Another server already has this name');
    expect(warning().getAttribute('role')).to.equal('status');
    expect(getComputedStyle(warning()).display).not.to.equal('none');
    expect(described().split(' ')).to.include('w-name');
    expect(q(el, '#f-name').getAttribute('aria-invalid')).to.equal('false');
    await expect(el).to.be.accessible();
    // still allowed: both are kept, each with its own id
    await type(el, 'url', 'http://127.0.0.1:9/other');
    const added = new Promise<CustomEvent>((r) =>
      hub.addEventListener('mcp-server-added', (e) => r(e as CustomEvent), { once: true }),
    );
    (q(el, 'form') as HTMLFormElement).requestSubmit();
    const second = (await added).detail.server;
    expect(hub.servers.list()).to.have.length(2);
    expect(hub.servers.list().map((s) => s.name.trim().toLowerCase())).to.deep.equal(['weather', 'weather']);
    expect(second.id).not.to.equal(first.id);
  });

  it('editing a server does not warn about its own name', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Solo', url: 'http://127.0.0.1:9/mcp', enabled: false });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    el.startEdit(s.id);
    await el.updateComplete;
    expect(q(el, '#f-name').getAttribute('aria-describedby') ?? '').not.to.contain('w-name');
    expect(q(el, '#w-name').textContent).to.equal('');
  });
});

describe('<mcp-server-manager>: the same URL twice', () => {
  it('names the server that already has the URL before saving (host case, trailing slash alike); saving still adds', async () => {
    const hub = privateHub();
    await hub.servers.add({ name: 'Weather', url: 'http://127.0.0.1:9/mcp', enabled: false });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    el.startAdd();
    await el.updateComplete;
    const warning = () => q(el, '#w-url');
    await type(el, 'url', 'http://127.0.0.1:9/other');
    expect(warning().textContent).to.equal('');
    await type(el, 'url', 'http://127.0.0.1:9/mcp/');
    expect(warning().textContent).to.contain('“Weather” already uses this URL');
    expect(warning().getAttribute('role')).to.equal('status');
    expect(q(el, '#f-url').getAttribute('aria-describedby')!.split(' ')).to.include('w-url');
    await expect(el).to.be.accessible();
    await type(el, 'name', 'Weather again');
    const added = new Promise((r) => hub.addEventListener('mcp-server-added', r, { once: true }));
    (q(el, 'form') as HTMLFormElement).requestSubmit();
    await added;
    expect(hub.servers.list().map((s) => s.name)).to.deep.equal(['Weather', 'Weather again']);
  });

  it('editing a server does not warn about its own URL', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Solo', url: 'http://127.0.0.1:9/mcp', enabled: false });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    el.startEdit(s.id);
    await el.updateComplete;
    expect(q(el, '#w-url').textContent).to.equal('');
  });
});
