// The kernel a backend builds (core/kernel.ts, `HubKernel`): memory by default with nothing to
// warn about, no page shell, and calls restored waiting for approval asked about again without
// Web Locks (calls/restore.ts). A page's `McpHub` in the same runtime still picks its shell.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { HubKernel, MemoryStorage } = await import(path.join(root, 'dist/server/index.js'));
const { McpHub } = await import(path.join(root, 'dist/core/index.js'));
const { serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));

let peer;
before(async () => {
  const mcp = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'kernel-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool(
        'echo',
        { description: 'Echo', inputSchema: z.object({ message: z.string() }) },
        async ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }),
      );
      return server;
    },
    { legacy: 'stateless' },
  );
  const served = await serveHandler((request) => mcp.fetch(request));
  peer = { url: `${served.url}/mcp`, close: () => served.close() };
});
after(() => peer?.close());

const quiet = { warn: () => {} };
const next = (target, type) => new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));

test('a kernel keeps its records in memory with no warning; a page hub without IndexedDB warns', async () => {
  const kernel = new HubKernel({ storeName: `kernel-${Math.random()}`, logger: quiet });
  await kernel.ready;
  assert.deepEqual(kernel.store.state.storage, { mode: 'memory' });
  assert.deepEqual(kernel.store.state.warnings, []);
  await kernel.dispose();
  const page = new McpHub({ storeName: `page-${Math.random()}`, broadcast: false, logger: quiet });
  await page.ready;
  assert.equal(page.store.state.storage.mode, 'memory');
  assert.match(page.store.state.storage.warning, /IndexedDB is unavailable/);
  await page.dispose();
});

test(
  'a kernel over a shared storage asks again about a call restored waiting for approval, and runs it once allowed',
  { timeout: 20_000 },
  async () => {
    const storage = new MemoryStorage();
    const storeName = `restore-${Math.random()}`;
    const a = new HubKernel({ storeName, storage, logger: quiet });
    const s = await a.servers.add({ name: 'fx', url: peer.url });
    await a.connect(s.id);
    const waiting = next(a, 'mcp-tool-call-awaiting-approval');
    const first = a.callTool({ name: 'fx__echo', arguments: { message: 'later' } });
    const id = (await waiting).detail.call.id;
    first.catch(() => {}); // the first kernel goes away with the call still waiting
    await a.dispose();

    const b = new HubKernel({ storeName, storage, logger: quiet });
    const asked = next(b, 'mcp-tool-call-awaiting-approval');
    await b.ready;
    assert.equal((await asked).detail.call.id, id);
    assert.equal(b.calls.get(id)?.status, 'awaiting-approval');
    const ended = next(b, 'mcp-tool-call-completed');
    b.calls.approve(id);
    const done = (await ended).detail.call;
    assert.equal(done.id, id);
    assert.equal(done.status, 'success');
    assert.deepEqual(done.result.content, [{ type: 'text', text: 'echo: later' }]);
    await b.dispose();
  },
);
