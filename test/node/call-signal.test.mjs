// A caller's signal on hub.callTool / runToolCalls (a backend passes its request's signal to every
// call of the request): it aborts the call it was given while the call runs, and leaves nothing
// on the signal once the call ended (src/core/calls/pipeline.ts, #drive). Against a real
// server-everything (Streamable HTTP, 127.0.0.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../fixtures/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { McpHub, MemoryStorage } = await import(path.join(root, 'dist/core/index.js'));

test("a caller's signal cancels its call in flight and is left without listeners once calls end", async () => {
  const everything = await startEverything('streamableHttp');
  const hub = new McpHub({
    storeName: 'call-signal',
    storage: new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
  });
  try {
    await hub.ready;
    const server = await hub.servers.add({ name: 'alpha', url: everything.url, retries: 0 });
    await hub.connect(server.id);
    await hub.assistants.update('a', { approval: 'auto', servers: { [server.id]: {} } });
    const signal = new AbortController().signal;
    for (let i = 0; i < 5; i++) {
      const r = await hub.callTool({ assistantId: 'a', name: 'alpha__echo', arguments: { message: `${i}` }, signal });
      assert.equal(r.status, 'success');
    }
    const round = await hub.runToolCalls(
      'openai',
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'alpha__echo', arguments: '{"message":"m"}' } }],
      },
      { assistantId: 'a', signal },
    );
    assert.equal(round.calls[0].status, 'success');
    assert.equal(getEventListeners(signal, 'abort').length, 0, 'no listener left by six finished calls');

    // aborted while it runs at the server (after its first progress notification)
    const outer = new AbortController();
    const progressed = new Promise((resolve) =>
      hub.addEventListener('mcp-tool-call-progress', resolve, { once: true }),
    );
    const p = hub.callTool({
      assistantId: 'a',
      name: 'alpha__trigger-long-running-operation',
      arguments: { duration: 30, steps: 30 },
      signal: outer.signal,
    });
    await progressed;
    outer.abort();
    const r = await p;
    assert.equal(r.status, 'cancelled');
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0);

    // a signal aborted before the call: cancelled, nothing sent
    const r2 = await hub.callTool({
      assistantId: 'a',
      name: 'alpha__echo',
      arguments: { message: 'late' },
      signal: AbortSignal.abort(),
    });
    assert.equal(r2.status, 'cancelled');
  } finally {
    await hub.dispose();
    await everything.close();
  }
});
