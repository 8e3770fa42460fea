// Call history on memory storage (a backend hub): records wait longer for their write there
// (src/core/calls/history.ts, MEMORY_WRITE_DELAY), and retention still holds at every write and
// at dispose. Against a real server-everything (Streamable HTTP, 127.0.0.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../fixtures/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { McpHub, MemoryStorage } = await import(path.join(root, 'dist/core/index.js'));

test('memory storage: the newest N calls per assistant are kept, in state and in storage', async () => {
  const everything = await startEverything('streamableHttp');
  const storage = new MemoryStorage();
  const hub = new McpHub({
    storeName: 'history-memory',
    storage,
    eventTarget: null,
    broadcast: false,
    historyLimit: 3,
  });
  try {
    await hub.ready;
    const server = await hub.servers.add({ name: 'alpha', url: everything.url, retries: 0 });
    await hub.connect(server.id);
    await hub.assistants.update('a', { approval: 'auto', servers: { [server.id]: {} } });
    await hub.assistants.update('b', { approval: 'auto', servers: { [server.id]: {} } });
    const ids = [];
    for (let i = 0; i < 6; i++)
      ids.push((await hub.callTool({ assistantId: 'a', name: 'alpha__echo', arguments: { message: `${i}` } })).id);
    const other = (await hub.callTool({ assistantId: 'b', name: 'alpha__echo', arguments: { message: 'b' } })).id;
    await hub.dispose(); // writes what waits, retention applied
    assert.deepEqual(
      hub.calls.list({ assistantId: 'a' }).map((c) => c.id),
      ids.slice(3).reverse(),
    );
    assert.deepEqual(
      hub.calls.list({ assistantId: 'b' }).map((c) => c.id),
      [other],
    );
    const stored = (await storage.entries()).map(([k]) => k).filter((k) => k.startsWith('call:'));
    assert.deepEqual(stored.sort(), [...ids.slice(3), other].map((id) => `call:${id}`).sort());
  } finally {
    await everything.close();
  }
});
