// Cards that stay: G4F re-renders its conversation from storage (the container's innerHTML) when
// a turn ends and when the page loads. The drop-in puts each call's card back after the line G4F
// writes where the call happened ("🔧 Tool Call: `name`"), in the conversation it was made in.
import { expect } from '@open-wc/testing';
import { G4fMcpClient } from '../../src/g4f/index.js';
import type { McpHub } from '../../src/core/index.js';
import { fixtureTenant, privateHub, unique, until } from '../helpers.js';
import { MemoryStore } from './memory-storage.js';

/** G4F's markup for a turn: the user's message, then the assistant's with its tool-call lines. */
function render(container: HTMLElement, calls: { name: string; args: string }[], answer = '') {
  const lines = calls
    .map(
      (c) =>
        `<p>🔧 <strong>Tool Call:</strong> <code>${c.name}</code></p><pre><code class="language-json">${c.args}</code></pre>`,
    )
    .join('');
  container.innerHTML = `<div class="message"><div class="content">hi</div></div><div class="message"><div class="content"><div class="reasoning_text">${lines}<p>✅ <strong>Tool Result:</strong> <code>${calls[0]?.name ?? ''}</code></p></div><div class="content_inner">${answer}</div></div></div>`;
}

const cardFor = (root: ParentNode, id: string) => root.querySelector(`mcp-tool-call[call-id="${id}"]`);

describe('G4F drop-in: cards survive re-renders and reloads', () => {
  let container: HTMLElement;
  beforeEach(() => {
    container = document.createElement('section');
    container.id = unique('chatBody');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  async function setUp(hub: McpHub, storage: Storage, conversation: { id: string }) {
    const c = new G4fMcpClient({ hub, storage, container: `#${container.id}`, conversation: () => conversation.id });
    await c.ready;
    return c;
  }

  it('re-attaches after the line that names the call, in its conversation, and after a reload', async () => {
    const storeName = unique('store');
    const storage = new MemoryStore();
    const conversation = { id: 'conv-1' };
    const hub = privateHub({ storeName });
    const c = await setUp(hub, storage, conversation);
    const fx = (await c.addServer({ name: 'Fx', url: fixtureTenant().url }))!;
    await c.fetchAllTools();
    await hub.assistants.update('default', { approval: 'auto' });
    const calls = [
      { name: 'Fx__echo', args: '{"message":"one"}' },
      { name: 'Fx__echo', args: '{"message":"two"}' },
    ];
    // G4F prints the call, then runs it
    render(container, calls);
    const first = await c.executeToolCall({ id: 'a', function: { name: 'Fx__echo', arguments: calls[0]!.args } });
    const second = await c.executeToolCall({ id: 'b', function: { name: 'Fx__echo', arguments: calls[1]!.args } });
    const ids = [first.call!.id, second.call!.id];
    const pres = () => [...container.querySelectorAll('pre')];
    await until(
      async () => pres()[1]?.nextElementSibling === cardFor(container, ids[1]!),
      'the cards beside their lines',
    );
    expect(pres()[0]!.nextElementSibling).to.equal(cardFor(container, ids[0]!));

    // the turn ends: G4F renders the conversation again from what it stored
    const before = cardFor(container, ids[0]!);
    render(container, calls, 'Done.');
    await until(async () => pres()[1]?.nextElementSibling === cardFor(container, ids[1]!), 'the cards back');
    expect(pres()[0]!.nextElementSibling).to.equal(cardFor(container, ids[0]!));
    expect(cardFor(container, ids[0]!)).to.equal(before); // the same element, with its state
    expect(container.querySelectorAll('mcp-tool-call').length).to.equal(2);

    // another conversation: its lines are not these calls
    conversation.id = 'conv-2';
    render(container, [{ name: 'Fx__echo', args: '{}' }]);
    await new Promise((r) => requestAnimationFrame(r));
    expect(container.querySelectorAll('mcp-tool-call').length).to.equal(0);

    // a reload: a new hub on the same records, a new client, G4F renders conversation 1 again
    c.dispose();
    await hub.dispose();
    container.replaceChildren();
    conversation.id = 'conv-1';
    const again = privateHub({ storeName });
    const c2 = await setUp(again, storage, conversation);
    try {
      render(container, calls, 'Done.');
      await until(async () => pres()[1]?.nextElementSibling?.getAttribute('call-id') === ids[1], 'cards from history');
      expect(pres()[0]!.nextElementSibling!.getAttribute('call-id')).to.equal(ids[0]);
      const card = pres()[0]!.nextElementSibling as HTMLElement & { updateComplete: Promise<unknown> };
      await until(async () => card.shadowRoot?.textContent?.includes('Echo: one'), 'the result in the card');
      expect(fx.id).to.be.a('string');
    } finally {
      c2.dispose();
    }
  });

  it("a finished turn's collapsed reasoning does not hide the card: it goes after the reasoning box", async () => {
    const style = document.createElement('style');
    style.textContent = '.hidden { display: none }';
    document.head.append(style);
    const hub = privateHub();
    const c = await setUp(hub, new MemoryStore(), { id: 'r' });
    try {
      await c.addServer({ name: 'Fx', url: fixtureTenant().url });
      await c.fetchAllTools();
      await hub.assistants.update('default', { approval: 'auto' });
      // as G4F renders a stored turn: the lines inside a collapsed reasoning box
      const finished = (final: boolean) =>
        (container.innerHTML = `<div class="message"><div class="content"><div class="content_inner"><div class="reasoning_body"><div class="reasoning_title"><strong>Reasoning:</strong></div><div class="reasoning_text${final ? ' final hidden' : ''}"><p>🔧 <strong>Tool Call:</strong> <code>Fx__echo</code></p><pre><code>{}</code></pre></div></div><p>Answer.</p></div></div></div>`);
      finished(false);
      const r = await c.executeToolCall({ id: 'r1', function: { name: 'Fx__echo', arguments: '{"message":"r"}' } });
      finished(true);
      const after = () => container.querySelector('.reasoning_body')?.nextElementSibling;
      const card = (await until(async () => after()?.tagName === 'MCP-TOOL-CALL' && after(), 'the card')) as Element;
      expect(card.getAttribute('call-id')).to.equal(r.call!.id);
      expect(card.checkVisibility()).to.equal(true);
      expect(container.querySelector('.reasoning_text')!.checkVisibility()).to.equal(false);
    } finally {
      c.dispose();
      style.remove();
    }
  });

  it('a card waiting for approval that the host re-renders away comes back into the container', async () => {
    const hub = privateHub();
    const c = await setUp(hub, new MemoryStore(), { id: 'x' });
    try {
      await c.addServer({ name: 'Fx', url: fixtureTenant().url });
      await c.fetchAllTools();
      // no line naming the call: the page shows it some other way
      const run = c.executeToolCall({ id: 'w', function: { name: 'Fx__echo', arguments: '{"message":"w"}' } });
      const card = await until(async () => container.querySelector('mcp-tool-call'), 'the card');
      container.innerHTML = '<p>re-rendered</p>';
      await until(async () => card.isConnected && card.parentElement === container, 'the card back');
      hub.calls.deny(card.getAttribute('call-id')!);
      expect(JSON.parse((await run).content).error).to.match(/denied/);
    } finally {
      c.dispose();
    }
  });
});
