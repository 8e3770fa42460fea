// <mcp-elicitation> against real servers: server-everything (2025-11-25 server→client requests)
// and the 2026-07-28 fixture (input_required rounds), through the same views the card uses.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { McpElicitationElement, McpHub } from '../../src/index.js';
import type { McpElicitationView as View } from '../../src/internal/elicitation-view.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import {
  expectNoLeakedSubscriptions,
  focused,
  nextEvent,
  privateHub,
  unique,
  untilRendered,
  urls,
} from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
/** The view of the first request, and a query inside it. */
const view = (el: Element, i = 0) =>
  root(el).querySelectorAll('mcp-elicitation-view, mcp-sampling-view')[i] as HTMLElement & {
    updateComplete: Promise<unknown>;
  };
const inView = <T extends Element = HTMLElement>(el: Element, sel: string, i = 0) =>
  view(el, i).shadowRoot!.querySelector(sel) as T;
const text = (r: { content?: unknown[] }) => JSON.stringify(r.content ?? []);
/** A call's text, or its error's message. */
const outcome = (p: Promise<{ content?: unknown[] }>) =>
  p.then(
    (r) => text(r),
    (e: Error) => e.message,
  );
/** The element that has focus, inside shadow roots. */
async function everything(hub: McpHub) {
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
  await hub.connect(s.id);
  return s.id;
}
async function modern(hub: McpHub) {
  const s = await hub.servers.add({ name: 'Modern', url: `${urls.modern}/t/${unique('eli')}/strict/mcp`, retries: 0 });
  await hub.connect(s.id);
  return s.id;
}
/** server-everything with a model that counts how often it is asked, and the element. */
async function countingModel(answer: string) {
  const hub = privateHub();
  let n = 0;
  hub.setSamplingHandler(async () => (n++, { text: answer, model: 'm' }));
  const id = await everything(hub);
  return { hub, id, el: await element(hub), asked: () => n };
}
async function element(hub: McpHub, extra: Partial<McpElicitationElement> = {}) {
  const el = await fixture<McpElicitationElement>(html`<mcp-elicitation .hub=${hub}></mcp-elicitation>`);
  Object.assign(el, extra);
  await el.updateComplete;
  return el;
}
async function shown(el: McpElicitationElement, n = 1) {
  await untilRendered(el, () => el.count === n && view(el, n - 1), `${n} request(s) shown`);
  const v = view(el, n - 1);
  // the views are a chunk of their own, fetched with the first request shown (answer-list.ts)
  await customElements.whenDefined(v.localName);
  await v.updateComplete;
  return v;
}
async function setValue(el: Element, selector: string, value: string) {
  const input = inView<HTMLInputElement>(el, selector);
  input.value = value;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new Event('blur'));
  await view(el).updateComplete;
}

describe('<mcp-elicitation>', () => {
  it('empty: renders nothing, :state(empty), accessible', async () => {
    const el = await element(privateHub());
    expect(el.count).to.equal(0);
    expect(root(el).querySelector('ul')).to.equal(null);
    expect(el.matches(':state(empty)')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  // issue 38: the demo puts it in a scrolling box (overflow: auto) that is 0 px tall while empty;
  // its status line (1 px, placed at the top) overflowed it, and Chromium gave the box a Tab stop
  it('empty in a scrolling box: no Tab stop, nothing to scroll', async () => {
    const wrap = await fixture<HTMLElement>(
      html`<div>
        <button id="before">before</button>
        <mcp-elicitation
          .hub=${privateHub()}
          style="overflow: auto; max-height: 50vh; padding: 0 1rem"
        ></mcp-elicitation>
        <button id="after">after</button>
      </div>`,
    );
    const el = wrap.querySelector('mcp-elicitation')!;
    await el.updateComplete;
    expect(el.scrollHeight, 'the empty element overflows its box').to.be.at.most(el.clientHeight);
    (wrap.querySelector('#before') as HTMLElement).focus();
    await sendKeys({ press: 'Tab' });
    expect(focused()?.id, 'Tab from the button before goes to the button after').to.equal('after');
  });

  it('form: every restricted field kind, the server named, errors after touch and submit, then Accept sends typed content', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    const el = await element(hub);
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    await shown(el);
    expect(el.matches(':state(pending)')).to.equal(true);
    const v = view(el).shadowRoot!;
    expect(v.textContent).to.contain('Everything asks for information');
    expect(v.textContent).to.contain('Please provide inputs for the following fields:');
    // kinds: text, checkbox, formats, numbers with limits, titled and legacy enums, multi-selects
    expect(inView<HTMLInputElement>(el, '#f-name').type).to.equal('text');
    expect(inView<HTMLInputElement>(el, '#f-name').required).to.equal(true);
    expect(inView<HTMLInputElement>(el, '#f-check').type).to.equal('checkbox');
    expect(inView<HTMLInputElement>(el, '#f-firstLine').value).to.equal('It was a dark and stormy night.');
    expect(inView<HTMLInputElement>(el, '#f-email').type).to.equal('email');
    expect(inView<HTMLInputElement>(el, '#f-homepage').type).to.equal('url');
    expect(inView<HTMLInputElement>(el, '#f-birthdate').type).to.equal('date');
    expect(inView<HTMLInputElement>(el, '#f-integer').value).to.equal('42');
    expect(inView<HTMLInputElement>(el, '#f-integer').max).to.equal('100');
    const hero = inView<HTMLSelectElement>(el, '#f-titledSingleSelectEnum');
    expect([...hero.options].map((o) => o.textContent)).to.include('Superman');
    expect(hero.value).to.equal('hero-1');
    expect([...inView<HTMLSelectElement>(el, '#f-legacyTitledEnum').options].map((o) => o.textContent)).to.include(
      'Cats',
    );
    const fish = v.querySelector('[data-group=titledMultipleSelectEnum]')!;
    expect(fish.tagName).to.equal('FIELDSET');
    expect(fish.textContent).to.contain('Tuna');
    expect((fish.querySelector('input') as HTMLInputElement).checked).to.equal(true); // default ["fish-1"]
    await expect(el).to.be.accessible();

    // nothing is shown as wrong before the user touched it
    expect(v.querySelector('.field-error')).to.equal(null);
    // touch: a bad email shows its error once the field is left
    await setValue(el, '#f-email', 'not-an-email');
    expect(inView(el, '#f-email-error').textContent).to.contain('email address');
    expect(inView(el, '#f-email').getAttribute('aria-invalid')).to.equal('true');
    expect(inView(el, '#f-email').getAttribute('aria-describedby')).to.contain('f-email-error');
    // submit: the required name is missing; nothing is sent, focus goes to it
    inView<HTMLButtonElement>(el, '[data-action=accept]').click();
    await view(el).updateComplete;
    expect(inView(el, '#f-name-error').textContent!.trim()).to.equal(REQUIRED_MESSAGE);
    expect(inView(el, '[role=alert]').textContent).to.contain('Check the highlighted fields.');
    expect(focused()?.id).to.equal('f-name');
    expect(Object.values(hub.store.state.elicitations)[0]!.status).to.equal('pending');
    await expect(el).to.be.accessible(); // the error state
    await setValue(el, '#f-name', 'Ada Lovelace');
    await setValue(el, '#f-email', 'ada@example.com');
    inView<HTMLButtonElement>(el, '[data-action=accept]').click();
    const r = await call;
    expect(text(r)).to.contain('Ada Lovelace');
    expect(text(r)).to.contain('ada@example.com');
    expect(text(r)).to.contain('Favorite Integer: 42');
    await untilRendered(el, () => el.count === 0, 'the answered request leaves');
    expect(el.matches(':state(empty)')).to.equal(true);
    expect(root(el).querySelector('[role=status]')!.textContent).to.contain('You answered Everything.');
    expect(JSON.stringify(hub.store.state.elicitations)).to.not.contain('ada@example.com');
  });

  it('Decline and Cancel answer the server', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    const el = await element(hub);
    let call = hub.client(id).callTool('trigger-elicitation-request', {});
    await shown(el);
    inView<HTMLButtonElement>(el, '[data-action=decline]').click();
    expect(text(await call)).to.contain('declined');
    call = hub.client(id).callTool('trigger-elicitation-request', {});
    await untilRendered(el, () => el.count === 1, 'the second request');
    await view(el).updateComplete;
    inView<HTMLButtonElement>(el, '[data-action=cancel]').click();
    expect(text(await call)).to.contain('cancelled');
  });

  it('password-like field names are password inputs', async () => {
    const hub = privateHub();
    // no test server asks for a password: the view is given a record as the hub would make it
    // the registered class (from the build under test: with WTR_BUILD=cdn, its chunk)
    const McpElicitationView = customElements.get('mcp-elicitation-view') as typeof View;
    const v = new McpElicitationView();
    v.hub = hub;
    v.serverName = 'S';
    v.record = {
      id: 'eli_x',
      serverId: 's',
      mode: 'form',
      message: 'Sign in',
      requestedSchema: {
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string' }, api_key: { type: 'string' } },
      },
      status: 'pending',
      host: false,
      createdAt: 0,
    };
    document.body.append(v);
    await v.updateComplete;
    const types = ['user', 'password', 'api_key'].map(
      (n) => (v.shadowRoot!.querySelector(`#f-${n}`) as HTMLInputElement).type,
    );
    v.remove();
    expect(types).to.deep.equal(['text', 'password', 'password']);
  });

  it('keyboard only: focus comes to the request, Tab to the field, Space, Tab, Enter accepts', async () => {
    const hub = privateHub();
    const id = await modern(hub);
    const el = await element(hub);
    const call = hub.client(id).callTool('ask', { question: 'Ship it?' });
    await shown(el);
    await untilRendered(el, () => focused()?.hasAttribute('data-request'), 'focus on the request');
    await sendKeys({ press: 'Tab' });
    expect(focused()?.id).to.equal('f-confirm');
    await sendKeys({ press: ' ' }); // Space (Firefox's driver knows the key only by its character)
    await sendKeys({ press: 'Tab' });
    expect((focused() as HTMLElement).dataset.action).to.equal('accept');
    await sendKeys({ press: 'Enter' });
    expect(text(await call)).to.contain('confirmed');
  });

  it('Escape cancels a form', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    const el = await element(hub);
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    await shown(el);
    await untilRendered(el, () => focused()?.hasAttribute('data-request'), 'focus on the request');
    await sendKeys({ press: 'Escape' });
    expect(text(await call)).to.contain('cancelled');
    expect(Object.values(hub.store.state.elicitations)[0]!.status).to.equal('cancelled');
  });

  it('URL mode: the domain prominent, the full URL visible, never opened until Open, then noopener and accept', async () => {
    const hub = privateHub();
    const id = await modern(hub);
    const opened: unknown[][] = [];
    const open = window.open;
    window.open = (...args: unknown[]) => (opened.push(args), null);
    try {
      const el = await element(hub);
      const call = hub.client(id).callTool('ask-url', {});
      await shown(el);
      expect(inView(el, '[part=domain]').textContent).to.equal('accounts.example.com');
      expect(inView(el, '[part=url]').textContent).to.equal('https://accounts.example.com/link?x=1');
      expect(view(el).shadowRoot!.textContent).to.contain('Modern asks you to open a page');
      expect(inView(el, '[data-action=open]').textContent!.trim()).to.equal('Open accounts.example.com');
      await expect(el).to.be.accessible();
      expect(opened).to.deep.equal([]);
      inView<HTMLButtonElement>(el, '[data-action=open]').click();
      expect(opened).to.deep.equal([['https://accounts.example.com/link?x=1', '_blank', 'noopener,noreferrer']]);
      expect(text(await call)).to.contain('url elicitation: accept');
    } finally {
      window.open = open;
    }
  });

  it('a host that takes the request over (preventDefault) sees it left alone', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    const el = await element(hub);
    const veto = (e: Event) => e.preventDefault();
    window.addEventListener('mcp-elicitation-request', veto, { once: true });
    const asked = nextEvent<CustomEvent>(window, 'mcp-elicitation-request');
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    const e = (await asked).detail.elicitation;
    await el.updateComplete;
    expect(hub.store.state.elicitations[e.id]!.host).to.equal(true);
    expect(el.count).to.equal(0);
    hub.respondToElicitation(e.id, { action: 'decline' });
    await call;
  });

  it('a request linked to a call shows in that call’s card, here only when no card shows it (or show-all)', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    await hub.assistants.update('default', { approval: 'auto' });
    const el = await element(hub);
    const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
    const asked = nextEvent<CustomEvent>(hub, 'mcp-elicitation-request');
    const p = hub.callTool({ serverId: id, tool: 'trigger-elicitation-request', arguments: {} });
    const callId = (await started).detail.call.id;
    expect((await asked).detail.elicitation.callId).to.equal(callId);
    await shown(el); // no card yet: shown here
    const card = await fixture<HTMLElement>(html`<mcp-tool-call .hub=${hub} call-id=${callId}></mcp-tool-call>`);
    await untilRendered(el, () => el.count === 0, 'the card takes it');
    el.showAll = true;
    await untilRendered(el, () => el.count === 1, 'show-all shows it too');
    el.showAll = false;
    card.remove();
    await untilRendered(el, () => el.count === 1, 'back here when the card goes');
    await view(el).updateComplete;
    inView<HTMLButtonElement>(el, '[data-action=decline]').click();
    expect((await p).status).to.equal('success');
  });

  it('server-id shows one server’s requests; strings are replaceable; the theme reaches the views', async () => {
    const hub = privateHub();
    const id = await everything(hub);
    const el = await element(hub, { serverId: 'another' });
    const el2 = await fixture<McpElicitationElement>(
      html`<mcp-elicitation
        .hub=${hub}
        server-id=${id}
        .strings=${{ accept: 'Envoyer', formTitle: '{server} demande' }}
      ></mcp-elicitation>`,
    );
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    await shown(el2);
    expect(el.count).to.equal(0);
    expect(inView(el2, '[data-action=accept]').textContent!.trim()).to.equal('Envoyer');
    expect(inView(el2, '.title').textContent).to.equal('Everything demande');
    // the theme reaches the views
    el2.setAttribute('theme', 'dark');
    await el2.updateComplete;
    expect(view(el2).getAttribute('theme')).to.equal('dark');
    inView<HTMLButtonElement>(el2, '[data-action=cancel]').click();
    await call;
  });

  it('sampling: what the server asks, approve, the model working (loading), review with an edit, send', async () => {
    const hub = privateHub();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    hub.setSamplingHandler(async (req) => {
      await gate;
      return { text: `model answer to ${req.messages.length} message(s)`, model: 'test-model' };
    });
    const id = await everything(hub);
    const el = await element(hub);
    const call = hub.client(id).callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 50 });
    await shown(el);
    const v = view(el).shadowRoot!;
    expect(v.textContent).to.contain('Everything asks your model for an answer');
    expect(v.textContent).to.contain('Say hi');
    expect(v.querySelector('.meta')!.textContent).to.contain('50');
    expect(v.textContent).to.contain('System prompt');
    await expect(el).to.be.accessible();
    inView<HTMLButtonElement>(el, '[data-action=approve]').click();
    await untilRendered(view(el) as never, () => inView(el, 'progress'), 'the loading state');
    expect(inView(el, '[role=status]').textContent).to.contain('Waiting for your model');
    await expect(el).to.be.accessible();
    release();
    await untilRendered(view(el) as never, () => inView(el, 'textarea'), 'the review');
    const answer = inView<HTMLTextAreaElement>(el, 'textarea');
    expect(answer.value).to.equal('model answer to 1 message(s)');
    expect(view(el).shadowRoot!.textContent).to.contain('Answer from test-model');
    await expect(el).to.be.accessible();
    answer.value = 'edited answer';
    answer.dispatchEvent(new Event('input'));
    inView<HTMLButtonElement>(el, '[data-action=send]').click();
    expect(text(await call)).to.contain('edited answer');
    await untilRendered(el, () => el.count === 0, 'the request leaves');
    expect(root(el).querySelector('[role=status]')!.textContent).to.contain('Sent the answer to Everything.');
  });

  it('sampling: Deny never asks the model; Don’t send keeps the answer from the server', async () => {
    const { hub, id, el, asked } = await countingModel('secret draft');
    let call = outcome(hub.client(id).callTool('trigger-sampling-request', { prompt: 'a', maxTokens: 5 }));
    await shown(el);
    inView<HTMLButtonElement>(el, '[data-action=deny]').click();
    expect(await call).to.match(/declined/i);
    expect(asked()).to.equal(0);
    call = outcome(hub.client(id).callTool('trigger-sampling-request', { prompt: 'b', maxTokens: 5 }));
    await untilRendered(el, () => el.count === 1, 'the second request');
    await view(el).updateComplete;
    inView<HTMLButtonElement>(el, '[data-action=approve]').click();
    await untilRendered(view(el) as never, () => inView(el, '[data-action=dont-send]'), 'the review');
    inView<HTMLButtonElement>(el, '[data-action=dont-send]').click();
    const r = await call;
    expect(r).to.match(/did not send/i);
    expect(r).to.not.contain('secret draft');
  });

  it('sampling by keyboard: focus comes to the request, Escape denies', async () => {
    const { hub, id, el, asked } = await countingModel('x');
    const call = outcome(hub.client(id).callTool('trigger-sampling-request', { prompt: 'k', maxTokens: 5 }));
    await shown(el);
    await untilRendered(el, () => focused()?.hasAttribute('data-request'), 'focus on the request');
    await sendKeys({ press: 'Escape' });
    expect(await call).to.match(/declined/i);
    expect(asked()).to.equal(0);
  });

  it('leaves no subscription behind after 10 attach/detach cycles', async () => {
    await expectNoLeakedSubscriptions('mcp-elicitation');
  });
});
