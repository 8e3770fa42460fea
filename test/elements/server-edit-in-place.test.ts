// Edit opens in place (issue 25 item 12): the edit form is inside the server's own row, the row
// stays in view when it opens and when it closes, and focus comes back to the row's Edit button.
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import { fixtureTenant, privateHub, untilRendered } from '../helpers.js';
import { q, type } from './manager-form.js';

/** Twelve servers in a 320 px scroller, the manager inside it. */
async function setup() {
  const hub = privateHub();
  for (let i = 1; i <= 12; i++) await hub.servers.add({ name: `server ${i}`, url: fixtureTenant().url });
  const box = await fixture<HTMLDivElement>(
    html`<div style="height: 320px; overflow: auto"><mcp-server-manager .hub=${hub}></mcp-server-manager></div>`,
  );
  const el = box.querySelector('mcp-server-manager') as McpServerManagerElement;
  await el.updateComplete;
  return { hub, box, el };
}

/** Whether some of the element is inside the scroller's visible part. */
function inView(box: HTMLElement, target: Element) {
  const b = box.getBoundingClientRect();
  const r = target.getBoundingClientRect();
  return r.bottom > b.top && r.top < b.bottom;
}

// by name, not by list position: servers added within one clock tick may list in either order
const byName = (hub: ReturnType<typeof privateHub>, name: string) => hub.servers.list().find((s) => s.name === name)!;
const rowOf = (el: McpServerManagerElement, id: string) => q(el, `[data-server="${id}"]`);

describe('<mcp-server-manager> Edit in place', () => {
  it('opens inside its row, keeps the row in view, and closes back onto its Edit button (keyboard)', async () => {
    const { hub, box, el } = await setup();
    const target = byName(hub, 'server 9');
    const edit = rowOf(el, target.id).querySelector('[data-action=edit]') as HTMLButtonElement;
    edit.focus();
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => q(el, '#f-name'), 'the form');
    const form = q(el, 'form[part=form]');
    expect(form.closest('[data-server]')).to.equal(rowOf(el, target.id));
    expect(q(el, '[data-action=add]'), 'no Add while editing').to.equal(null);
    expect(el.shadowRoot!.activeElement).to.equal(q(el, '#f-name'));
    expect((q(el, '#f-name') as HTMLInputElement).value).to.equal('server 9');
    expect(inView(box, rowOf(el, target.id).querySelector('.name')!), 'the row in view').to.equal(true);
    await expect(el).to.be.accessible();
    // Cancel from the keyboard: focus back on this row's Edit, the row in view
    (q(el, '[data-action=cancel]') as HTMLElement).focus();
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => !q(el, 'form[part=form]'), 'the form closed');
    const again = rowOf(el, target.id).querySelector('[data-action=edit]')!;
    await untilRendered(el, () => el.shadowRoot!.activeElement === again, 'focus on Edit');
    expect(inView(box, again)).to.equal(true);
    expect(q(el, '[data-action=add]')).to.not.equal(null);
  });

  it('Save keeps the row where it was and says the new name; a bad value changes nothing', async () => {
    const { hub, box, el } = await setup();
    const target = byName(hub, 'server 11');
    (rowOf(el, target.id).querySelector('[data-action=edit]') as HTMLElement).click();
    await untilRendered(el, () => q(el, '#f-name'), 'the form');
    await type(el, 'name', '');
    (q(el, '[data-action=save]') as HTMLElement).click();
    await untilRendered(el, () => q(el, '#e-name'), 'the name error');
    expect(q(el, '#e-name').textContent).to.contain(REQUIRED_MESSAGE);
    expect(hub.servers.get(target.id)!.name).to.equal('server 11');
    expect(q(el, 'form[part=form]').closest('[data-server]')).to.equal(rowOf(el, target.id));
    await type(el, 'name', 'renamed');
    const updated = new Promise((r) => window.addEventListener('mcp-server-updated', r, { once: true }));
    (q(el, '[data-action=save]') as HTMLElement).click();
    await updated;
    await untilRendered(el, () => !q(el, 'form[part=form]'), 'the form closed');
    const row = rowOf(el, target.id);
    expect(row.querySelector('.name')!.textContent).to.equal('renamed');
    await untilRendered(el, () => el.shadowRoot!.activeElement === row.querySelector('[data-action=edit]'), 'focus');
    expect(inView(box, row.querySelector('.name')!)).to.equal(true);
  });

  it('the server being edited is removed elsewhere: its form goes, Add comes back', async () => {
    const { hub, el } = await setup();
    const target = byName(hub, 'server 3');
    el.startEdit(target.id);
    await untilRendered(el, () => q(el, '#f-name'), 'the form');
    await hub.servers.remove(target.id);
    await untilRendered(el, () => q(el, '[data-action=add]'), 'Add back');
    expect(q(el, 'form[part=form]')).to.equal(null);
  });
});
