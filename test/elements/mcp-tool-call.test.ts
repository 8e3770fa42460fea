import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import {
  acceptNameForm,
  fixtureTenant,
  nextEvent,
  privateHub,
  expectNoLeakedSubscriptions,
  until,
  untilRendered,
  urls,
} from '../helpers.js';

async function setup(approval: 'auto' | 'always-ask' = 'always-ask') {
  const t = fixtureTenant();
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Fixture', url: t.url });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval });
  return { hub, server: s, t };
}

async function card(hub: any, callId?: string) {
  return fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${callId ?? ''}></mcp-tool-call>`);
}
const shadow = (el: Element) => el.shadowRoot!;
/** A call on server-everything (auto approval) and its card, once it runs. */
async function everythingCall(hub: any, tool: string, args: Record<string, unknown> = {}) {
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval: 'auto' });
  const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
  const p = hub.callTool({ serverId: s.id, tool, arguments: args });
  const el = await card(hub, (await started).detail.call.id);
  return { p, el };
}
/** Wait for an internal view inside the card and return it. */
async function inCard(el: Element, tag: string) {
  await untilRendered(el as never, () => shadow(el).querySelector(tag), tag);
  const v = shadow(el).querySelector(tag) as HTMLElement & { updateComplete: Promise<unknown> };
  // the views are a chunk of their own, fetched with the first request shown (answer-list.ts)
  await customElements.whenDefined(tag);
  await v.updateComplete;
  return v;
}
const button = (el: Element, action: string) =>
  shadow(el).querySelector(`[data-action="${action}"]`) as HTMLButtonElement;

describe('<mcp-tool-call>', () => {
  it('is accessible when empty', async () => {
    const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${privateHub()}></mcp-tool-call>`);
    expect(shadow(el).textContent).to.contain('No tool call.');
    await expect(el).to.be.accessible();
  });

  it('awaiting approval: the question in plain words, what it does, the details, warnings, focus on the decision; Allow once drives hub.calls', async () => {
    const { hub } = await setup();
    const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    const p = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
    const id = (await waiting).detail.call.id;
    const el = await card(hub, id);
    await el.updateComplete;
    expect(el.matches(':state(awaiting-approval)')).to.equal(true);
    const text = shadow(el).textContent!;
    expect(text).to.contain('Needs approval');
    expect(shadow(el).querySelector('.ask')!.textContent).to.equal('Allow the assistant to use “slow” on Fixture?');
    expect(shadow(el).querySelector('.what')!.textContent).to.contain('Waits `ms` milliseconds, then answers.');
    expect([...shadow(el).querySelectorAll('dt, dd')].map((e) => e.textContent)).to.deep.equal(['ms', '1']);
    expect(text).to.contain('It may change or delete your data.');
    expect(text).to.contain('It may reach websites or services outside this server.');
    // the raw JSON is still there for whoever wants it
    expect(shadow(el).querySelector('details[part=arguments] pre')!.textContent).to.contain('"ms": 1');
    expect(shadow(el).activeElement?.classList.contains('approval')).to.equal(true);
    await expect(el).to.be.accessible();
    button(el, 'allow-once').click();
    const r = await p;
    expect(r.status).to.equal('success');
    expect(r.approval).to.equal('user-once');
    await el.updateComplete;
    expect(el.matches(':state(success)')).to.equal(true);
    expect(el.dataset.status).to.equal('success');
    expect(shadow(el).textContent).to.contain('waited 1 ms');
    await expect(el).to.be.accessible();
  });

  it('awaiting approval: a long value is shown in full up to 20,000 characters, scrollable, and a longer one says how much is not shown', async () => {
    const { hub } = await setup();
    for (const [length, shown, marker] of [
      [5_000, 5_000, false],
      [25_000, 20_000, true],
    ] as const) {
      const message = 'abcdefghij'.repeat(length / 10);
      const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({ name: 'Fixture__echo', arguments: { message } });
      const el = await card(hub, (await waiting).detail.call.id);
      await el.updateComplete;
      const dd = shadow(el).querySelector('dd')!;
      const value = dd.querySelector('.value')!.textContent!;
      expect(value).to.equal(message.slice(0, shown));
      const cut = dd.querySelector('.cut');
      if (marker) expect(cut?.textContent).to.contain('5,000 more characters not shown');
      else expect(cut).to.equal(null);
      expect(getComputedStyle(dd).overflowY).to.equal('auto');
      await expect(el).to.be.accessible();
      button(el, 'deny').click();
      await p;
    }
  });

  it('Always allow trusts the tool; Deny and Escape deny', async () => {
    const { hub, server } = await setup();
    let waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    let p = hub.callTool({ name: 'Fixture__echo', arguments: { message: 'a' } });
    let el = await card(hub, (await waiting).detail.call.id);
    // echo is annotated read-only and titled: said in the server's words, not as a warning
    expect(shadow(el).querySelector('.ask')!.textContent).to.equal('Allow the assistant to use “Echo” on Fixture?');
    expect(shadow(el).textContent).to.contain('The server says it only reads information.');
    expect(shadow(el).textContent).to.not.contain('It may change');
    button(el, 'always-allow').click();
    expect((await p).approval).to.equal('user-always');
    // bound to the server's origin and the definition shown (assistants/trust.ts)
    expect(hub.assistants.get().trusted).to.have.length(1);
    expect(hub.assistants.get().trusted[0]).to.include({
      serverId: server.id,
      tool: 'echo',
      origin: new URL(server.url).origin,
    });
    // not asked again for that tool; other tools still ask
    expect(hub.assistants.get().approval).to.equal('trusted-only');
    expect((await hub.callTool({ name: 'Fixture__echo', arguments: { message: 'b' } })).approval).to.equal('trusted');

    waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    p = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
    el = await card(hub, (await waiting).detail.call.id);
    button(el, 'deny').click();
    expect((await p).error?.code).to.equal('denied');

    waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    p = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
    el = await card(hub, (await waiting).detail.call.id);
    await el.updateComplete;
    (shadow(el).activeElement as HTMLElement).dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    expect((await p).error?.code).to.equal('denied');
    await el.updateComplete;
    expect(el.matches(':state(denied)')).to.equal(true);
    expect(shadow(el).querySelector('[part=status]')!.textContent).to.equal('Denied');
    expect(shadow(el).querySelector('[part=error]')!.textContent).to.equal('You denied this call, so it did not run.');
    await expect(el).to.be.accessible();
  });

  it('running: progress and Cancel; the server sees the cancellation', async () => {
    const { hub, t } = await setup('auto');
    const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
    const progressed = nextEvent<CustomEvent>(hub, 'mcp-tool-call-progress');
    const p = hub.callTool({ name: 'Fixture__hang' });
    const el = await card(hub, (await started).detail.call.id);
    await progressed;
    // the server's one progress notification (1 of 2), shown as the bar
    await untilRendered(el, () => shadow(el).querySelector('[part=progress] progress'), 'the progress bar');
    const bar = shadow(el).querySelector('[part=progress] progress') as HTMLProgressElement;
    expect([bar.value, bar.max]).to.deep.equal([1, 2]);
    expect(el.matches(':state(running)')).to.equal(true);
    await expect(el).to.be.accessible();
    expect(await t.stats()).to.deep.include({ running: 1, cancelled: [] });
    button(el, 'cancel').click();
    expect((await p).status).to.equal('cancelled');
    await el.updateComplete;
    expect(shadow(el).querySelector('[part=status]')!.textContent).to.equal('Cancelled');
    // the server was told: its handler saw the abort (notifications/cancelled) and ended
    const seen = await until(async () => {
      const s = await t.stats();
      return s.cancelled.length ? s : null;
    }, 'the server to see the cancellation');
    expect(seen).to.deep.include({ running: 0 });
    expect(seen.cancelled).to.have.length(1);
  });

  it('shows a failure as an error, accessibly', async () => {
    const { hub } = await setup('auto');
    const r = await hub.callTool({ name: 'Fixture__fail' });
    const el = await card(hub, r.id);
    expect(el.matches(':state(error)')).to.equal(true);
    expect(shadow(el).textContent).to.contain('it broke on purpose');
    await expect(el).to.be.accessible();
  });

  it('renders a .call property without a hub record', async () => {
    const el = await fixture<McpToolCallElement>(
      html`<mcp-tool-call
        .hub=${privateHub()}
        .call=${{ id: 'x', assistantId: 'default', serverId: 's', serverName: 'S', tool: 't', name: 'S__t', arguments: { a: 1 }, status: 'success', source: 'model', createdAt: 0, durationMs: 1200, result: { content: [{ type: 'text', text: 'hello' }], structuredContent: { n: 1 } } }}
      ></mcp-tool-call>`,
    );
    expect(shadow(el).textContent).to.contain('hello');
    expect(shadow(el).textContent).to.contain('1.2 s');
    expect(shadow(el).querySelector('[role=tree]')).to.exist;
  });

  it('renders hostile server strings inert', async () => {
    const { hub } = await setup('auto');
    (window as any).__pwned = 0;
    const r = await hub.callTool({ name: 'Fixture__hostile' });
    const el = await card(hub, r.id);
    const root = shadow(el);
    expect(root.querySelector('script')).to.equal(null);
    expect(root.querySelector('img[onerror]')).to.equal(null);
    expect([...root.querySelectorAll('a')].every((a) => !a.getAttribute('href')?.startsWith('javascript:'))).to.equal(
      true,
    );
    expect(
      [...root.querySelectorAll('img')].every((i) => !i.getAttribute('src')?.startsWith('data:image/svg')),
    ).to.equal(true);
    expect(root.textContent).to.contain('<script>window.__pwned=1</script>');
    // shown without the bidi override (internal/bidi.ts): it reads as written
    expect(root.textContent).to.contain('exe.txt').and.not.contain('\u202e');
    expect((window as any).__pwned).to.equal(0);
  });

  it('what the server asks during the call is shown inside the card: a form, answered there', async () => {
    const hub = privateHub();
    const { p, el } = await everythingCall(hub, 'trigger-elicitation-request', {});
    const form = await inCard(el, 'mcp-elicitation-view');
    expect(shadow(el).querySelector('[part=requests]')).to.exist;
    expect(form.shadowRoot!.textContent).to.contain('Everything asks for information');
    await expect(el).to.be.accessible();
    await acceptNameForm(form, 'Grace Hopper');
    const r = await p;
    expect(r.status).to.equal('success');
    expect(JSON.stringify(r.result)).to.contain('Grace Hopper');
    await el.updateComplete;
    await form.updateComplete;
    // the question stays in the card as a one-line outcome; what was typed is gone
    expect(form.shadowRoot!.querySelector('[part=done]')!.textContent).to.equal('You answered Everything.');
    expect(form.shadowRoot!.querySelector('input')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('a sampling request during the call: approve in the card, review, send; the result carries the answer', async () => {
    const hub = privateHub();
    hub.setSamplingHandler(async (req) => ({ text: `answer to ${req.messages[0]!.text}`, model: 'card-model' }));
    const { p, el } = await everythingCall(hub, 'trigger-sampling-request', { prompt: 'Hi', maxTokens: 9 });
    const view = await inCard(el, 'mcp-sampling-view');
    expect(view.shadowRoot!.textContent).to.contain('Everything asks your model for an answer');
    await expect(el).to.be.accessible();
    (view.shadowRoot!.querySelector('[data-action=approve]') as HTMLButtonElement).click();
    await untilRendered(view, () => view.shadowRoot!.querySelector('[data-action=send]'), 'the review');
    expect((view.shadowRoot!.querySelector('textarea') as HTMLTextAreaElement).value).to.contain('answer to');
    (view.shadowRoot!.querySelector('[data-action=send]') as HTMLButtonElement).click();
    const r = await p;
    expect(JSON.stringify(r.result)).to.contain('card-model');
    await untilRendered(view, () => view.shadowRoot!.querySelector('[part=done]'), 'the outcome line');
    expect(view.shadowRoot!.textContent).to.contain('Sent the answer to Everything.');
  });

  // issue 38: the timer counted on while the server only waited on the user's answer
  it('while the server waits on the user inside the call, "waiting for you" replaces the timer; while the model works, the timer shows', async () => {
    const hub = privateHub();
    let answer!: (text: string) => void;
    hub.setSamplingHandler(() => new Promise((resolve) => (answer = (text) => resolve({ text, model: 'slow' }))));
    const { p, el } = await everythingCall(hub, 'trigger-sampling-request', { prompt: 'Hi', maxTokens: 9 });
    const elapsed = () => (shadow(el).querySelector('[part=elapsed]')?.textContent ?? '').trim();
    const view = await inCard(el, 'mcp-sampling-view');
    // the approval: the user's turn
    await untilRendered(el, () => elapsed() === 'waiting for you', '"waiting for you" while the approval waits');
    expect(elapsed()).not.to.match(/\d+ s/);
    (view.shadowRoot!.querySelector('[data-action=approve]') as HTMLButtonElement).click();
    // the model's turn: the call's time runs
    await untilRendered(el, () => /^for \d+ s$/.test(elapsed()), 'the timer while the model works');
    answer('done');
    // the review: the user's turn again
    await untilRendered(view, () => view.shadowRoot!.querySelector('[data-action=send]'), 'the review');
    await untilRendered(el, () => elapsed() === 'waiting for you', '"waiting for you" while the review waits');
    await expect(el).to.be.accessible();
    (view.shadowRoot!.querySelector('[data-action=send]') as HTMLButtonElement).click();
    expect((await p).status).to.equal('success');
    await untilRendered(el, () => !shadow(el).querySelector('[part=elapsed]'), 'no timer once done');
  });

  it('a failed sampling stays in the card as an error, accessibly', async () => {
    const hub = privateHub();
    hub.setSamplingHandler(async () => {
      throw new Error('no model today');
    });
    const { p, el } = await everythingCall(hub, 'trigger-sampling-request', { prompt: 'x', maxTokens: 5 });
    const view = await inCard(el, 'mcp-sampling-view');
    (view.shadowRoot!.querySelector('[data-action=approve]') as HTMLButtonElement).click();
    await p;
    await untilRendered(view, () => view.shadowRoot!.querySelector('[part=done]'), 'the failure');
    expect(view.shadowRoot!.textContent).to.contain('The model failed: no model today');
    await expect(el).to.be.accessible();
  });

  it('leaves no subscription behind after 10 attach/detach cycles', () => expectNoLeakedSubscriptions('mcp-tool-call'));
});
