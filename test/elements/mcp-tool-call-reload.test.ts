// The card after a reload (issue 25 item 7): a call that only waited for approval still waits and
// Allow runs it; an interrupted call offers "Run again", which starts the same call anew through
// approval and the card follows it; a Run again that cannot start says why and changes nothing.
// "Reload": a second hub on the same IndexedDB store, after the first stored the call's state.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement, ToolCallRecord } from '../../src/index.js';
import { fixtureTenant, nextEvent, privateHub, rawIdb, unique, until, untilRendered } from '../helpers.js';

const shadow = (el: Element) => el.shadowRoot!;
const button = (el: Element, action: string) =>
  shadow(el).querySelector(`[data-action="${action}"]`) as HTMLButtonElement | null;

/** A page that started a call and went away once the call's `status` was stored; the next page's hub. */
async function reloadedWith(status: 'awaiting-approval' | 'running', tool: string) {
  const storeName = unique('store');
  const before = privateHub({ storeName, eventTarget: null });
  const s = await before.servers.add({ name: 'fx', url: fixtureTenant().url });
  await before.connect(s.id);
  await before.assistants.update('default', { approval: status === 'running' ? 'auto' : 'always-ask' });
  const event = status === 'running' ? 'mcp-tool-call-started' : 'mcp-tool-call-awaiting-approval';
  const seen = nextEvent<CustomEvent>(before, event);
  void before.callTool({ name: `fx__${tool}`, arguments: tool === 'echo' ? { message: 'later' } : { ms: 1500 } });
  const id = ((await seen).detail.call as ToolCallRecord).id;
  await until(
    async () =>
      (await rawIdb(storeName)).some((r) => r.key === `call:${id}` && (r.value as ToolCallRecord).status === status),
    `the ${status} record to be stored`,
  );
  const hub = privateHub({ storeName });
  await hub.ready;
  return { hub, id, serverId: s.id };
}

async function cardFor(hub: unknown, id: string) {
  return fixture<McpToolCallElement>(
    html`<mcp-tool-call .hub=${hub} call-id=${id} return-focus="#after"></mcp-tool-call><input id="after" />`,
  );
}

describe('<mcp-tool-call> after a reload', () => {
  it('a call that waited for approval still waits; Allow once runs it and the card shows the result', async () => {
    const { hub, id } = await reloadedWith('awaiting-approval', 'echo');
    expect(hub.calls.get(id)?.status).to.equal('awaiting-approval');
    const el = await cardFor(hub, id);
    await untilRendered(el, () => button(el, 'allow-once'), 'the approval buttons');
    expect(el.matches(':state(awaiting-approval)')).to.equal(true);
    expect(button(el, 'run-again')).to.equal(null);
    await expect(el).to.be.accessible();
    const done = nextEvent<CustomEvent>(hub, 'mcp-tool-call-completed');
    button(el, 'allow-once')!.click();
    expect(((await done).detail.call as ToolCallRecord).id).to.equal(id);
    await untilRendered(el, () => el.matches(':state(success)'), 'success');
    expect(shadow(el).querySelector('[part=result]')!.textContent).to.contain('Echo: later');
  });

  it('an interrupted call offers Run again: the same call anew (asked first), followed by the card', async () => {
    const { hub, id } = await reloadedWith('running', 'slow');
    await hub.assistants.update('default', { approval: 'always-ask' });
    expect(hub.calls.get(id)?.status).to.equal('interrupted');
    const el = await cardFor(hub, id);
    await untilRendered(el, () => button(el, 'run-again'), 'Run again');
    expect(shadow(el).textContent).to.contain('Interrupted');
    await expect(el).to.be.accessible();
    const requested = nextEvent<CustomEvent>(hub, 'mcp-tool-call-request');
    button(el, 'run-again')!.click();
    const fresh = (await requested).detail.call as ToolCallRecord;
    expect(fresh.rerunOf).to.equal(id);
    expect(fresh.id).to.not.equal(id);
    await untilRendered(el, () => el.getAttribute('call-id') === fresh.id && button(el, 'allow-once'), 'the new call');
    expect(button(el, 'run-again')).to.equal(null);
    button(el, 'allow-once')!.click();
    await untilRendered(el, () => el.matches(':state(success)'), 'success');
    expect(hub.calls.get(id)?.status).to.equal('interrupted'); // the old record stays what it was
  });

  it('Run again that cannot start (the server was removed) says why; the card stays on the old call', async () => {
    const { hub, id, serverId } = await reloadedWith('running', 'slow');
    await hub.servers.remove(serverId);
    const el = await cardFor(hub, id);
    await untilRendered(el, () => button(el, 'run-again'), 'Run again');
    const count = hub.calls.list().length;
    button(el, 'run-again')!.click();
    await untilRendered(el, () => shadow(el).querySelector('[part=rerun] [role=alert]'), 'the reason');
    expect(shadow(el).querySelector('[part=rerun] [role=alert]')!.textContent).to.contain(serverId);
    expect(el.getAttribute('call-id')).to.equal(id);
    expect(hub.calls.list().length).to.equal(count);
    await expect(el).to.be.accessible();
  });
});
