// The demo server's ports (scripts/demo-server.mjs, which every e2e demo test starts): on port 0
// it listens where the system puts it and reads the port back. It used to be handed a port that
// freePort() had found and closed, and listen on it later with strictPort: on a busy machine
// another process took it first and five demo tests failed with "Port … is already in use".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startDemo } from '../../scripts/demo-server.mjs';

/** Every port this process asks to listen on, while `work` runs. */
async function listensDuring(work) {
  const ports = [];
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (...args) {
    const a = args[0];
    ports.push(typeof a === 'object' && a !== null ? Number(a.port ?? 0) : Number(a ?? 0));
    return listen.apply(this, args);
  };
  try {
    return { result: await work(), ports };
  } finally {
    net.Server.prototype.listen = listen;
  }
}

test('demo on port 0: it listens on port 0 only (no port picked, closed and taken later) and serves where it says', async (t) => {
  const { result: demo, ports } = await listensDuring(() => startDemo({ port: 0, everythingPort: 0, quiet: true }));
  t.after(() => demo.close());
  assert.deepEqual(
    ports.filter((p) => p !== 0),
    [],
    'every server of the demo in this process listened on port 0',
  );
  for (const url of [demo.url, demo.cdnUrl, demo.g4fUrl]) assert.equal((await fetch(url)).status, 200, url);
  // the reference server (a child process) reports the port it got
  const r = await fetch(demo.everythingUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  assert.equal(r.status, 200);
});

test('demo on a taken port: npm start moves to a free one; with strictPort it says the port is in use', async (t) => {
  const holder = net.createServer();
  await new Promise((r) => holder.listen({ port: 0, host: '127.0.0.1' }, r));
  t.after(() => new Promise((r) => holder.close(r)));
  const taken = holder.address().port;
  const demo = await startDemo({ port: taken, everythingPort: 0, quiet: true });
  t.after(() => demo.close());
  assert.notEqual(Number(new URL(demo.url).port), taken);
  assert.equal((await fetch(demo.url)).status, 200);
  await assert.rejects(startDemo({ port: taken, everythingPort: 0, strictPort: true, quiet: true }), {
    message: `Port ${taken} is already in use`,
  });
});
