// The add-server form (issue 25 item 12): name and URL first, everything else under "Advanced",
// which opens by itself when it holds something — a saved server's own settings, or a problem.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import { privateHub, untilRendered } from '../helpers.js';

const q = (el: Element, s: string) => el.shadowRoot!.querySelector(s) as HTMLElement;

describe('<mcp-server-manager> form: Advanced', () => {
  it('adding: Name and URL shown, the rest folded under Advanced; accessible', async () => {
    const el = await fixture<McpServerManagerElement>(
      html`<mcp-server-manager .hub=${privateHub()}></mcp-server-manager>`,
    );
    el.startAdd();
    await el.updateComplete;
    const details = q(el, 'details.advanced') as HTMLDetailsElement;
    expect(details.open).to.equal(false);
    expect(details.querySelector('summary')!.textContent).to.equal('Advanced: transport, sign-in, headers, timeout');
    expect(q(el, '#f-name').checkVisibility()).to.equal(true);
    expect(q(el, '#f-url').checkVisibility()).to.equal(true);
    for (const id of ['transport', 'revision', 'authType', 'timeout'])
      expect(q(el, `#f-${id}`).checkVisibility(), id).to.equal(false);
    await expect(el).to.be.accessible();
    details.querySelector('summary')!.click();
    await el.updateComplete;
    expect(q(el, '#f-transport').checkVisibility()).to.equal(true);
  });

  it('editing a server with its own settings (bearer auth): Advanced is open', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'Tokened',
      url: 'http://127.0.0.1:9/mcp',
      auth: { type: 'bearer', token: 'x' },
      enabled: false,
    });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    el.startEdit(s.id);
    await el.updateComplete;
    expect((q(el, 'details.advanced') as HTMLDetailsElement).open).to.equal(true);
  });

  it('a problem in a folded field opens Advanced to show it', async () => {
    const el = await fixture<McpServerManagerElement>(
      html`<mcp-server-manager .hub=${privateHub()}></mcp-server-manager>`,
    );
    el.startAdd();
    await el.updateComplete;
    const set = async (id: string, value: string) => {
      const input = q(el, `#f-${id}`) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await el.updateComplete;
    };
    await set('name', 'T');
    await set('url', 'http://127.0.0.1:9/mcp');
    await set('timeout', '-5');
    (q(el, '[data-action=save]') as HTMLButtonElement).click();
    await untilRendered(el, () => q(el, '#f-timeout').getAttribute('aria-invalid') === 'true', 'the field error');
    expect((q(el, 'details.advanced') as HTMLDetailsElement).open).to.equal(true);
    expect(q(el, '#f-timeout').getAttribute('aria-invalid')).to.equal('true');
  });
});
