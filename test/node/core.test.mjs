// The built core runs in Node 20 with fake-indexeddb: proof that src/core is browser-free.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');
const { McpHub, getHub, McpConfigError } = await import(path.join(root, 'dist/core/index.js'));

test('dist/core touches no DOM API and imports no lit or elements code', () => {
  const dir = path.join(root, 'dist/core');
  // every module, the parts in subfolders too
  const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.js'));
  assert.ok(
    files.some((f) => String(f).includes(path.sep)),
    'the parts in subfolders are checked',
  );
  for (const f of files) {
    const src = readFileSync(path.join(dir, String(f)), 'utf8');
    assert.doesNotMatch(src, /\bdocument\.|customElements|from ['"]lit|elements\//, String(f));
  }
});

test('connects to server-everything, lists and calls a tool', async () => {
  const hub = new McpHub({ storeName: 'node-core', broadcast: false });
  const events = [];
  hub.addEventListener('mcp-server-status-changed', (e) => events.push(e.detail.status));
  const s = await hub.servers.add({
    name: 'everything',
    url: urls.everything,
    auth: { type: 'bearer', token: 'node-secret' },
  });
  const cat = await hub.connect(s.id);
  assert.ok(cat.tools.some((t) => t.name === 'echo'));
  assert.equal(cat.protocolVersion, '2025-11-25');
  const r = await hub.client(s.id).callTool('echo', { message: 'from node' });
  assert.deepEqual(r.content, [{ type: 'text', text: 'Echo: from node' }]);
  assert.deepEqual(events, ['connecting', 'connected']);
  await hub.dispose();
});

test('state survives a new hub on the same (fake) IndexedDB, secrets stay sealed', async () => {
  const a = new McpHub({ storeName: 'node-reload', broadcast: false });
  const s = await a.servers.add({
    name: 'x',
    url: 'https://example.com/mcp',
    auth: { type: 'bearer', token: 'sealed-in-node' },
  });
  await a.dispose();
  const b = new McpHub({ storeName: 'node-reload', broadcast: false });
  await b.ready;
  assert.equal(b.servers.get(s.id).name, 'x');
  assert.match(b.servers.get(s.id).auth.token.secretRef, /^sec_/);
  assert.equal(b.store.state.storage.mode, 'indexeddb');
  await b.dispose();
});

test('invalid config is a typed error', async () => {
  const hub = new McpHub({ storeName: 'node-invalid', broadcast: false });
  await assert.rejects(
    hub.servers.add({ name: 'x', url: 'http://example.com' }),
    (e) => e instanceof McpConfigError && e.issues[0].path === 'url',
  );
  assert.equal(hub.servers.list().length, 0);
  await hub.dispose();
});

test('getHub() is one instance per global, even across module copies', () => {
  const hub = getHub();
  assert.equal(getHub(), hub);
  assert.equal(globalThis[Symbol.for('mcp-elements.hub')], hub);
});

test('from Node: every revision the hub speaks, with the revision it negotiated', async () => {
  const tenant = `node-${process.pid}`;
  const peers = [
    { url: `${urls.modern}/t/${tenant}/strict/mcp`, revision: '2026-07-28', era: 'modern', args: { message: 'hi' } },
    { url: urls.everything, revision: '2025-11-25', era: 'legacy', args: { message: 'hi' } },
    { url: `${urls.legacy0326}/t/${tenant}/mcp`, revision: '2025-03-26', era: 'legacy', args: { message: 'hi' } },
    { url: urls.everythingSse, revision: '2025-11-25', era: 'legacy', transport: 'sse', args: { message: 'hi' } },
    { url: urls.jsonrpc, era: 'jsonrpc', args: { text: 'hi' } },
  ];
  const hub = new McpHub({ storeName: 'node-revisions', broadcast: false, logger: { warn() {} } });
  try {
    for (const p of peers) {
      const s = await hub.servers.add({ name: `peer ${p.era} ${p.revision ?? ''}`, url: p.url, retries: 0 });
      const cat = await hub.connect(s.id);
      const st = hub.status(s.id);
      assert.equal(st.status, 'connected', p.url);
      assert.equal(st.era, p.era, p.url);
      assert.equal(st.protocolVersion, p.revision, p.url);
      if (p.transport) assert.equal(st.transport, p.transport, p.url);
      assert.ok(
        cat.tools.some((t) => t.name === 'echo'),
        p.url,
      );
      const r = await hub.client(s.id).callTool('echo', p.args);
      assert.match(JSON.stringify(r.content), /hi/, p.url);
    }
  } finally {
    await hub.dispose();
  }
});
