// What the G4F drop-in hands the model (issue 33, the mutation audit's G4F rows): an image a tool
// returns reaches the model as a description, never as its bytes (the card shows the image to the
// user); and a call under `always-ask` waits for the user, ending `denied` (a named outcome and
// event, the server never reached) when the user refuses it.
import { expect } from '@open-wc/testing';
import { G4fMcpClient } from '../../src/g4f/index.js';
import type { McpHub, ToolCallRecord } from '../../src/core/index.js';
import { fixtureTenant, privateHub } from '../helpers.js';
import { MemoryStore } from './memory-storage.js';

const clients: G4fMcpClient[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.dispose()));

async function clientWithFixture(hub: McpHub) {
  const c = new G4fMcpClient({ hub, storage: new MemoryStore(), container: null });
  clients.push(c);
  await c.ready;
  const server = (await c.addServer({ name: 'Fx', url: fixtureTenant().url }))!;
  await c.fetchAllTools();
  return { c, server };
}

/** The first of a call's lifecycle events (by provider call id): which one, and its record. */
function firstOutcome(hub: McpHub, providerCallId: string, types: readonly string[]) {
  return new Promise<{ type: string; call: ToolCallRecord }>((resolve) => {
    const on = (e: Event) => {
      const call = (e as Event & { detail: { call: ToolCallRecord } }).detail.call;
      if (call.providerCallId !== providerCallId) return;
      for (const t of types) hub.removeEventListener(t, on);
      resolve({ type: e.type, call });
    };
    for (const t of types) hub.addEventListener(t, on);
  });
}

describe('G4F drop-in: what the model is handed', () => {
  it("an image result reaches the model as a description, not as its base64 bytes; the call's record keeps the image for the card", async () => {
    const hub = privateHub();
    await hub.assistants.update('default', { approval: 'auto' });
    const { c } = await clientWithFixture(hub);
    // the fixture's `hostile` tool answers text, an SVG image and a resource link
    const bytes = btoa('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const out = await c.executeToolCall({ id: 'img', function: { name: 'Fx__hostile', arguments: '{}' } });
    expect(out.call!.status).to.equal('success');
    expect(
      out.call!.result!.content.some((x) => x.type === 'image'),
      'the card keeps the image',
    ).to.equal(true);
    expect(out.content, "the image's bytes were sent to the model").not.to.contain(bytes);
    const blocks = JSON.parse(out.content) as { type: string; text?: string }[];
    expect(
      blocks.map((b) => b.type),
      'the model gets text in place of the image',
    ).to.deep.equal(['text', 'text', 'resource_link']);
    expect(blocks[1].text).to.equal(
      `[image image/svg+xml, ${Math.round((bytes.length * 3) / 4)} bytes, shown to the user]`,
    );
  });

  it('a call under always-ask waits for the user; denied, it ends `denied` (event and message), never started', async () => {
    const hub = privateHub();
    expect(hub.assistants.get('default').approval).to.equal('always-ask');
    const { c } = await clientWithFixture(hub);
    const lifecycle = [
      'mcp-tool-call-awaiting-approval',
      'mcp-tool-call-started',
      'mcp-tool-call-completed',
      'mcp-tool-call-failed',
      'mcp-tool-call-denied',
    ];
    const started: string[] = [];
    hub.addEventListener('mcp-tool-call-started', (e) => started.push(e.detail.call.providerCallId ?? ''));
    const asked = firstOutcome(hub, 'ask-1', lifecycle);
    const run = c.executeToolCall({ id: 'ask-1', function: { name: 'Fx__echo', arguments: '{"message":"hi"}' } });
    const first = await asked;
    expect(first.type, 'a G4F call under always-ask ran without approval').to.equal('mcp-tool-call-awaiting-approval');
    expect(first.call.status).to.equal('awaiting-approval');

    const refused = firstOutcome(hub, 'ask-1', lifecycle);
    hub.calls.deny(first.call.id);
    const outcome = await refused;
    expect(outcome.type, 'the refusal is the named denied outcome').to.equal('mcp-tool-call-denied');
    const message = await run;
    expect(message.call!.status).to.equal('denied');
    expect(message.call!.error!.code).to.equal('denied');
    expect(JSON.parse(message.content)).to.deep.equal({
      error: 'The user denied this tool call. Do not retry it unless the user asks.',
    });
    expect(started, 'a denied call started').to.deep.equal([]);
  });
});
