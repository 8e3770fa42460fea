// The card after a reload (issue 25 item 7): a call that only waited for approval still waits and
// Allow runs it; an interrupted call offers "Run again", which starts the same call anew through
// approval and the card follows it; a Run again that cannot start says why and changes nothing.
// "Reload": a second hub on the same IndexedDB store, after the first stored the call's state.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { McpHub, type McpToolCallElement, type ToolCallRecord } from '../../src/index.js';
import { fixtureTenant, nextEvent, privateHub, rawIdb, unique, until, untilRendered, untilStored } from '../helpers.js';

const shadow = (el: Element) => el.shadowRoot!;
const button = (el: Element, action: string) =>
  shadow(el).querySelector(`[data-action="${action}"]`) as HTMLButtonElement | null;

/**
 * A page (a frame) that started a call and was closed once the call's `status` was stored; then
 * this page's hub on the same store, as the next page would be.
 */
async function reloadedWith(status: 'awaiting-approval' | 'running', tool: string) {
  const storeName = unique('store');
  const seed = new McpHub({ storeName, eventTarget: null });
  const s = await seed.servers.add({ name: 'fx', url: fixtureTenant().url });
  await seed.connect(s.id); // the catalogue is kept: the next page can ask before it reconnects
  await seed.assistants.update('default', { approval: status === 'running' ? 'auto' : 'always-ask' });
  await seed.dispose();
  const args = tool === 'echo' ? { message: 'later' } : { ms: 1500 };
  const frame = document.createElement('iframe');
  frame.srcdoc = `<script type="module">
    import { McpHub } from '/src/core/index.ts';
    const hub = new McpHub({ storeName: ${JSON.stringify(storeName)} });
    await hub.ready;
    hub.callTool({ name: ${JSON.stringify(`fx__${tool}`)}, arguments: ${JSON.stringify(args)} });
  </script>`;
  document.body.append(frame);
  const stored = await until(
    async () =>
      (await rawIdb(storeName)).find((r) => r.key.startsWith('call:') && (r.value as ToolCallRecord).status === status),
    `the ${status} record to be stored`,
  );
  frame.remove(); // the page is gone (its locks with it)
  const hub = privateHub({ storeName });
  await hub.ready;
  return { hub, id: (stored.value as ToolCallRecord).id, serverId: s.id };
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

  it('a call another tab still asks about: Allow here says so; the card shows the outcome once that tab decided', async () => {
    const storeName = unique('store');
    const a = privateHub({ storeName, eventTarget: null });
    const s = await a.servers.add({ name: 'fx', url: fixtureTenant().url });
    await a.connect(s.id);
    const asked = nextEvent<CustomEvent>(a, 'mcp-tool-call-awaiting-approval');
    const p = a.callTool({ name: 'fx__echo', arguments: { message: 'from the other tab' } });
    const id = ((await asked).detail.call as ToolCallRecord).id;
    await untilStored(storeName, id, 'awaiting-approval');
    const hub = privateHub({ storeName });
    await hub.ready;
    const el = await cardFor(hub, id);
    await untilRendered(el, () => button(el, 'allow-once'), 'the approval buttons');
    // once this hub found the call's lock taken (a moment after load)
    await until(async () => {
      try {
        hub.calls.deny(id);
      } catch (e) {
        return /another tab/.test((e as Error).message);
      }
      throw new Error('denied here: the call was not left to the other tab');
    }, 'the hub to leave the call to the other tab');
    button(el, 'allow-once')!.click();
    await untilRendered(el, () => shadow(el).querySelector('[part=approval] [role=alert]'), 'the reason');
    expect(shadow(el).querySelector('[part=approval] [role=alert]')!.textContent).to.contain('another tab');
    expect(hub.calls.get(id)?.status).to.equal('awaiting-approval');
    await expect(el).to.be.accessible();
    a.calls.approve(id);
    expect((await p).status).to.equal('success');
    await untilRendered(el, () => el.matches(':state(success)'), 'the outcome from the other tab');
    expect(shadow(el).querySelector('[part=result]')!.textContent).to.contain('Echo: from the other tab');
  });
});
