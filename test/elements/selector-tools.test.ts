// <gpt-tool-selector>'s tool rows (issue 25 items 5 and 11): each tool's description and its
// read-only / destructive label, a search across servers, what "Pin" means, and a server that is
// down: a note, and its tools counted nowhere (they are not offered to the model).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { GptToolSelectorElement } from '../../src/index.js';
import { fixtureTenant, privateHub, rejects, unique, untilRendered, urls } from '../helpers.js';

const q = (el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as HTMLElement;
const qa = (el: Element, sel: string) => [...el.shadowRoot!.querySelectorAll(sel)] as HTMLElement[];
const toolRow = (el: Element, serverId: string, tool: string) =>
  q(el, `[data-server="${serverId}"] input[data-tool="${tool}"]`)?.closest('li') as HTMLElement | null;

async function setup() {
  const hub = privateHub();
  const fx = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
  const bank = await hub.servers.add({ name: 'Bank', url: `${urls.origins.a}/t/${unique('sel')}/jsonrpc` });
  await Promise.all([hub.connect(fx.id), hub.connect(bank.id)]);
  const el = await fixture<GptToolSelectorElement>(html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`);
  return { hub, fx, bank, el };
}

describe('<gpt-tool-selector> tool rows', () => {
  it("shows each tool's description (as the checkbox's description) and its read-only / destructive label", async () => {
    const { fx, bank, el } = await setup();
    const echo = toolRow(el, fx.id, 'echo')!;
    const box = echo.querySelector('input')!;
    const desc = el.shadowRoot!.getElementById(box.getAttribute('aria-describedby')!)!;
    expect(desc.textContent).to.equal('Echoes the message back.');
    expect(echo.querySelector('[data-label]')!.getAttribute('data-label')).to.equal('read-only');
    expect(toolRow(el, bank.id, 'transfer')!.querySelector('[data-label]')!.textContent!.trim()).to.equal(
      'destructive',
    );
    // a tool without hints has no label
    expect(toolRow(el, fx.id, 'headers')!.querySelector('[data-label]')).to.equal(null);
    for (const d of qa(el, 'details')) d.setAttribute('open', '');
    await expect(el).to.be.accessible();
  });

  it('explains Pin once, and every pin toggle is described by it', async () => {
    const { el } = await setup();
    const help = q(el, '[part=pin-help]');
    expect(help.textContent).to.match(/always sent to the model/);
    const pins = qa(el, '[data-action=pin]');
    expect(pins.length).to.be.greaterThan(3);
    for (const p of pins) expect(el.shadowRoot!.getElementById(p.getAttribute('aria-describedby')!)).to.equal(help);
  });

  it('searches every server by name, title and description, from the keyboard; no match says so', async () => {
    const { fx, bank, el } = await setup();
    const box = q(el, 'input[type=search]') as HTMLInputElement;
    box.focus();
    await sendKeys({ type: 'echoes' });
    await untilRendered(el, () => !q(el, `[data-server="${bank.id}"]`), 'the search to apply');
    const shown = qa(el, 'input[data-tool]').map((i) => i.getAttribute('data-tool'));
    expect(shown).to.deep.equal(['echo']);
    // the matching server's tools are open, so the match is visible at once
    expect((q(el, `[data-server="${fx.id}"] details`) as HTMLDetailsElement).open).to.equal(true);
    box.select();
    await sendKeys({ type: 'money transfer nothing-like-this' });
    await untilRendered(el, () => q(el, '[role=status]'), 'the no-match line');
    expect(q(el, '[role=status]').textContent).to.contain('No tool matches');
    expect(qa(el, '[part=server]')).to.deep.equal([]);
    await expect(el).to.be.accessible();
    box.select();
    await sendKeys({ press: 'Backspace' });
    await untilRendered(el, () => qa(el, '[part=server]').length === 2, 'both servers back');
    // with the search cleared, the tool lists are closed again
    expect((q(el, `[data-server="${bank.id}"] details`) as HTMLDetailsElement).open).to.equal(false);
  });

  it('a server that is down: a note, and its tools count nowhere in the context cost', async () => {
    const { hub, fx, bank, el } = await setup();
    const before = el.contextCost.characters;
    const bankTokens = Number(q(el, `[data-server="${bank.id}"] .row > .tokens`).getAttribute('data-tokens'));
    expect(bankTokens).to.be.greaterThan(0);
    await hub.servers.update(bank.id, { url: `${urls.origins.dead}/mcp`, retries: 0 });
    await rejects(hub.connect(bank.id));
    await untilRendered(el, () => q(el, `[data-server="${bank.id}"] [part=down]`), 'the down note');
    expect(q(el, `[data-server="${bank.id}"] [part=down]`).textContent).to.contain('until the server is reconnected');
    expect(q(el, `[data-server="${bank.id}"] .tokens`)).to.equal(null);
    expect(el.contextCost.characters).to.be.lessThan(before);
    // the selection itself is kept: the box stays checked, the server comes back when reconnected
    expect((q(el, `[data-server="${bank.id}"] input`) as HTMLInputElement).checked).to.equal(true);
    expect(q(el, `[data-server="${fx.id}"] [part=down]`)).to.equal(null);
    await expect(el).to.be.accessible();
  });
});
