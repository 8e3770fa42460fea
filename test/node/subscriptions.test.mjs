// Resource subscriptions from Node (built core + fake-indexeddb), against the real peers: the
// 2026-07-28 fixture (subscriptions/listen) and our 2025-11-25 fixture (resources/subscribe).
// The hub is an EventTarget in Node too: events are awaited on it, never slept for.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');
const { McpHub, McpConnectionError, McpConfigError } = await import(path.join(root, 'dist/core/index.js'));

const A = 'fixture://watched/a';
const B = 'fixture://watched/b';
const next = (hub, where) =>
  new Promise((resolve) => {
    const on = (e) => {
      if (!where(e.detail)) return;
      hub.removeEventListener('mcp-resource-updated', on);
      resolve(e.detail);
    };
    hub.addEventListener('mcp-resource-updated', on);
  });

const peers = [
  { label: '2026-07-28', url: () => `${urls.modern}/t/node-subs-${process.pid}-${Date.now()}/subs/mcp`, era: 'modern' },
  { label: '2025-11-25', url: () => `${urls.fixture}/subs/node-${process.pid}-${Date.now()}/mcp`, era: 'legacy' },
];

for (const p of peers)
  test(`from Node, ${p.label}: subscribe → change → mcp-resource-updated; unsubscribe stops it`, async () => {
    const hub = new McpHub({ storeName: `node-subs-${p.era}`, broadcast: false, logger: { warn() {} } });
    try {
      const s = await hub.servers.add({ name: `watched ${p.era}`, url: p.url(), retries: 0 });
      await hub.connect(s.id);
      assert.equal(hub.status(s.id).era, p.era);
      await hub.subscribeResource(s.id, A);
      await hub.subscribeResource(s.id, B);
      const got = next(hub, (d) => d.serverId === s.id && d.uri === A);
      await hub.client(s.id).callTool('touch-resource', { uri: A });
      assert.deepEqual(await got, { serverId: s.id, uri: A });

      await hub.unsubscribeResource(s.id, A);
      const seen = [];
      const all = (e) => seen.push(e.detail.uri);
      hub.addEventListener('mcp-resource-updated', all);
      const onB = next(hub, (d) => d.uri === B);
      await hub.client(s.id).callTool('touch-resource', { uri: A });
      await hub.client(s.id).callTool('touch-resource', { uri: B });
      await onB;
      hub.removeEventListener('mcp-resource-updated', all);
      assert.deepEqual(seen, [B], 'A was sent before B if at all');

      await assert.rejects(hub.subscribeResource(s.id, ''), McpConfigError);
      assert.deepEqual(hub.store.state.resourceSubscriptions[s.id], [B]);
    } finally {
      await hub.dispose();
    }
  });

test('from Node: a server without resources.subscribe refuses with a typed error', async () => {
  const hub = new McpHub({ storeName: 'node-subs-plain', broadcast: false, logger: { warn() {} } });
  try {
    const s = await hub.servers.add({
      name: 'plain',
      url: `${urls.modern}/t/node-plain-${process.pid}/mcp`,
      retries: 0,
    });
    await hub.connect(s.id);
    await assert.rejects(
      hub.subscribeResource(s.id, A),
      (e) => e instanceof McpConnectionError && e.code === 'unsupported',
    );
    assert.deepEqual(hub.store.state.resourceSubscriptions, {});
  } finally {
    await hub.dispose();
  }
});
