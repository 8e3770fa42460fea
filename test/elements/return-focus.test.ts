// Focus after an approval decision (issue 25 item 8): the approval box disappears with the
// decision, so without help focus falls to the page's start. `return-focus` names where it goes
// (the host's composer); without it the card leaves focus alone.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import { fixtureTenant, nextEvent, privateHub } from '../helpers.js';

async function waitingCard(returnFocus?: string) {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval: 'always-ask' });
  const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
  const p = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
  const id = (await waiting).detail.call.id as string;
  const root = await fixture<HTMLElement>(
    html`<div>
      <textarea id="composer"></textarea>
      <mcp-tool-call .hub=${hub} call-id=${id} return-focus=${returnFocus ?? ''}></mcp-tool-call>
    </div>`,
  );
  const card = root.querySelector('mcp-tool-call') as McpToolCallElement;
  if (!returnFocus) card.removeAttribute('return-focus');
  await card.updateComplete;
  return { card, p, composer: root.querySelector('#composer') as HTMLTextAreaElement };
}
const button = (el: Element, action: string) =>
  el.shadowRoot!.querySelector(`[data-action=${action}]`) as HTMLButtonElement;

describe('<mcp-tool-call> return-focus', () => {
  it('Allow once: focus goes to the named element', async () => {
    const { card, p, composer } = await waitingCard('#composer');
    button(card, 'allow-once').focus();
    button(card, 'allow-once').click();
    expect(document.activeElement).to.equal(composer);
    expect((await p).status).to.equal('success');
  });

  it('Escape (deny): focus goes to the named element', async () => {
    const { card, p, composer } = await waitingCard('#composer');
    const box = card.shadowRoot!.activeElement as HTMLElement;
    expect(box?.classList.contains('approval')).to.equal(true);
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(document.activeElement).to.equal(composer);
    expect((await p).error?.code).to.equal('denied');
  });

  it('an element as the property; without either, focus is left where it was', async () => {
    const a = await waitingCard();
    a.card.returnFocus = a.composer;
    button(a.card, 'deny').focus();
    button(a.card, 'deny').click();
    expect(document.activeElement).to.equal(a.composer);
    await a.p;
    const b = await waitingCard();
    button(b.card, 'deny').focus();
    button(b.card, 'deny').click();
    expect(document.activeElement).not.to.equal(b.composer);
    await b.p;
  });
});
