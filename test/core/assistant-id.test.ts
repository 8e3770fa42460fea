// One vocabulary (issue 8 item 5): options name the assistant `assistantId`; `gptId`, the old
// name hosts already pass, is still accepted and gives the same result. Stored records written
// before the rename (profiles and calls with `gptId`) still load, and profiles are still stored
// under `gptId` so that an older copy of the bundle on the same origin keeps reading them.
import { expect } from '@open-wc/testing';
import { createStore, set } from 'idb-keyval';
import { McpConfigError, McpHub, type ToolCallRecord } from '../../src/core/index.js';
import { fixtureTenant, nextEvent, privateHub, rawIdb, rejects, unique } from '../helpers.js';

/** A hub on the fixture server with an assistant `narrow` that may use only `echo`, without asking. */
async function narrowHub() {
  const hub = privateHub();
  const server = await hub.servers.add({ name: 'fx', url: fixtureTenant().url });
  await hub.connect(server.id);
  await hub.assistants.setServer('narrow', server.id, ['echo']);
  await hub.assistants.update('narrow', { approval: 'auto' });
  return { hub, server };
}

const echoCall = (id: string, name = 'fx__echo') => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: '{"message":"hi"}' } }],
});

describe('assistantId, and gptId as its old name', () => {
  it('toolsFor and modelTools: gptId gives what assistantId gives', async () => {
    const { hub } = await narrowHub();
    const now = hub.toolsFor('openai', { assistantId: 'narrow' });
    expect((now as any[]).map((t) => t.function.name)).to.deep.equal(['fx__echo']);
    expect(hub.toolsFor('openai', { gptId: 'narrow' })).to.deep.equal(now);
    expect(hub.toolsFor('openai', { gptId: 'narrow', assistantId: 'narrow' })).to.deep.equal(now);
    expect(hub.modelTools({ gptId: 'narrow' })).to.equal(hub.modelTools({ assistantId: 'narrow' }));
    const budget = { query: 'echo a message', maxTools: 1 };
    expect(hub.toolsFor('anthropic', { gptId: 'narrow', ...budget })).to.deep.equal(
      hub.toolsFor('anthropic', { assistantId: 'narrow', ...budget }),
    );
    // and neither is the default assistant's list
    expect(hub.toolsFor('openai')).to.not.deep.equal(now);
  });

  it('callTool, runToolCalls and runConversation: gptId gives what assistantId gives', async () => {
    const { hub } = await narrowHub();
    const viaOld = await hub.callTool({ name: 'fx__echo', gptId: 'narrow', arguments: { message: 'a' } });
    const viaNew = await hub.callTool({ name: 'fx__echo', assistantId: 'narrow', arguments: { message: 'a' } });
    for (const r of [viaOld, viaNew]) {
      expect(r).to.include({ status: 'success', approval: 'auto', assistantId: 'narrow', gptId: 'narrow' });
      expect(r.result?.content).to.deep.equal(viaNew.result?.content);
    }
    for (const who of [{ gptId: 'narrow' }, { assistantId: 'narrow' }]) {
      expect((await rejects(hub.callTool({ name: 'fx__slow', ...who }))).code).to.equal('unknown-tool');
      const out = await hub.runToolCalls('openai', echoCall('c1'), who);
      expect(out.calls.map((c) => [c.status, c.assistantId])).to.deep.equal([['success', 'narrow']]);
      expect(out.messages).to.deep.equal([{ role: 'tool', tool_call_id: 'c1', content: 'Echo: hi' }]);
      // fx__slow is not a tool of `narrow`: handed back to the host either way
      const host = await hub.runToolCalls('openai', echoCall('c2', 'fx__slow'), who);
      expect([host.calls.length, host.unhandled.length]).to.deep.equal([0, 1]);
      const seen: string[][] = [];
      const r = await hub.runConversation({
        provider: 'openai',
        ...who,
        messages: [],
        complete: async (_messages, tools) => {
          seen.push((tools as any[]).map((t) => t.function.name));
          return seen.length === 1 ? echoCall('c3') : { role: 'assistant', content: 'done' };
        },
      });
      expect(seen).to.deep.equal([['fx__echo'], ['fx__echo']]);
      expect(r.stopped).to.equal('done');
    }
  });

  it('calls.list and calls.clear: gptId filters as assistantId does', async () => {
    const { hub } = await narrowHub();
    await hub.assistants.update('default', { approval: 'auto' });
    const mine = await hub.callTool({ name: 'fx__echo', assistantId: 'narrow', arguments: { message: 'n' } });
    const other = await hub.callTool({ name: 'fx__echo', arguments: { message: 'd' } });
    expect(hub.calls.list({ gptId: 'narrow' })).to.deep.equal([mine]);
    expect(hub.calls.list({ assistantId: 'narrow' })).to.deep.equal([mine]);
    await hub.calls.clear({ gptId: 'narrow' });
    expect(hub.calls.list().map((c) => c.id)).to.deep.equal([other.id]);
  });

  it('both names for two different assistants, or a bad id under either, is a McpConfigError naming the field', async () => {
    const { hub } = await narrowHub();
    const both = { assistantId: 'narrow', gptId: 'default' };
    const errors = [
      (() => {
        try {
          hub.toolsFor('openai', both);
        } catch (e) {
          return e;
        }
      })(),
      await rejects(hub.callTool({ name: 'fx__echo', ...both })),
      await rejects(hub.runToolCalls('openai', echoCall('c'), both)),
      await rejects(hub.calls.clear(both)),
    ];
    for (const e of errors) {
      expect(e).to.be.instanceOf(McpConfigError);
      expect((e as McpConfigError).issues[0].path).to.equal('gptId');
    }
    expect(() => hub.calls.list(both)).to.throw(McpConfigError);
    expect(hub.calls.list()).to.deep.equal([]); // nothing ran
    const badOld = await rejects(hub.callTool({ name: 'fx__echo', gptId: 'bad id!' }));
    const badNew = await rejects(hub.callTool({ name: 'fx__echo', assistantId: 'bad id!' }));
    expect([badOld.issues[0].path, badNew.issues[0].path]).to.deep.equal(['gptId', 'assistantId']);
    expect(() => hub.toolsFor('openai', { gptId: 'bad id!' })).to.throw(McpConfigError);
  });

  it('mcp-tool-selection-changed carries assistantId, and gptId with the same value', async () => {
    const hub = privateHub();
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    await hub.assistants.update('writer', { approval: 'auto' });
    const { detail } = await changed;
    expect(detail).to.include({ assistantId: 'writer', gptId: 'writer', source: 'local' });
    expect(detail.profile.assistantId).to.equal('writer');
    expect(detail.profile).to.not.have.property('gptId');
  });
});

describe('records stored before the rename', () => {
  it('an old profile and old call records load, nothing is set aside, and profiles keep their stored form', async () => {
    const name = unique('store');
    const records = createStore(name, 'records');
    // exactly as the first version wrote them: the assistant named `gptId`, no `pinned` yet
    const oldProfile = {
      gptId: 'legacy',
      servers: { srv_1: { tools: ['echo'] } },
      approval: 'trusted-only',
      trusted: [{ serverId: 'srv_1', tool: 'echo' }],
      updatedAt: 5,
    };
    const oldCall = {
      id: 'call_old1',
      gptId: 'legacy',
      serverId: 'srv_1',
      serverName: 'fx',
      tool: 'echo',
      name: 'fx__echo',
      arguments: { message: 'then' },
      status: 'success',
      source: 'model',
      approval: 'trusted',
      createdAt: 1000,
      endedAt: 1010,
      result: { content: [{ type: 'text', text: 'Echo: then' }] },
    };
    await set('assistant:legacy', oldProfile, records);
    await set('call:call_old1', oldCall, records);
    await set('call:call_old2', { ...oldCall, id: 'call_old2', status: 'running', createdAt: 2000 }, records);
    // and one only in the page-hide journal (localStorage)
    const journalKey = `mcp-elements:${name}:journal`;
    localStorage.setItem(journalKey, JSON.stringify({ call_old3: { ...oldCall, id: 'call_old3', createdAt: 3000 } }));

    const hub = new McpHub({ storeName: name, eventTarget: null });
    await hub.ready;
    expect(hub.store.state.warnings).to.deep.equal([]);
    expect(hub.assistants.get('legacy')).to.deep.equal({
      assistantId: 'legacy',
      servers: { srv_1: { tools: ['echo'] } },
      approval: 'trusted-only',
      trusted: [{ serverId: 'srv_1', tool: 'echo' }],
      pinned: [],
      updatedAt: 5,
    });
    const calls = hub.calls.list({ assistantId: 'legacy' });
    expect(calls.map((c) => [c.id, c.status])).to.deep.equal([
      ['call_old3', 'success'],
      ['call_old2', 'interrupted'],
      ['call_old1', 'success'],
    ]);
    for (const c of calls) expect(c).to.include({ assistantId: 'legacy', gptId: 'legacy' });
    expect(hub.calls.get('call_old1')?.result).to.deep.equal(oldCall.result);
    expect(hub.calls.list({ gptId: 'legacy' })).to.deep.equal(calls);

    // a change keeps the stored form an older copy of the bundle reads (strict, `gptId`)
    await hub.assistants.update('legacy', { approval: 'auto' });
    await hub.dispose();
    const raw = await rawIdb(name);
    expect(raw.map((r) => r.key).filter((k) => k.startsWith('quarantine:'))).to.deep.equal([]);
    const stored = raw.find((r) => r.key === 'assistant:legacy')!.value as Record<string, unknown>;
    expect(stored).to.not.have.property('assistantId');
    expect(stored).to.deep.include({ gptId: 'legacy', approval: 'auto', trusted: oldProfile.trusted });
    // the interrupted call was written back with both names
    const rewritten = raw.find((r) => r.key === 'call:call_old2')!.value as ToolCallRecord;
    expect(rewritten).to.include({ status: 'interrupted', assistantId: 'legacy', gptId: 'legacy' });

    const again = new McpHub({ storeName: name, eventTarget: null });
    await again.ready;
    expect(again.assistants.get('legacy')).to.include({ assistantId: 'legacy', approval: 'auto' });
    expect(again.calls.list({ assistantId: 'legacy' })).to.have.length(3);
    await again.dispose();
  });
});
