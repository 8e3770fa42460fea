// The stdio relay renumbers request ids (two pages share one server), so a client's
// `notifications/cancelled` must reach the server with the id the server saw for that request,
// and only for that client's request. A real stdio server (test/fixtures/stdio-cancel-server.mjs)
// logs the ids it saw; the clients are plain HTTP, one session each, both using id 1.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { startStdioRelay } = await import(path.resolve(here, '../../../dist/relay/node/index.js'));
const fixture = path.resolve(here, '../../fixtures/stdio-cancel-server.mjs');

let relay, url, auth;
before(async () => {
  relay = await startStdioRelay({
    config: { mcpServers: { slow: { command: process.execPath, args: [fixture] } } },
    timeoutMs: 20_000,
  });
  url = relay.servers[0].url;
  auth = { authorization: `Bearer ${relay.token}` };
});
after(() => relay?.close());

const post = (message, session) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth, ...(session ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });

/** A client: initialize, and the session the relay gave it. */
async function connect() {
  const r = await post({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  });
  assert.equal(r.status, 200);
  await r.json();
  return r.headers.get('mcp-session-id');
}

let logId = 100;
/** What the server saw (read through the relay, after everything sent before it). */
async function seen() {
  const r = await post({ id: ++logId, method: 'tools/call', params: { name: 'log', arguments: {} } });
  return JSON.parse((await r.json()).result.content[0].text);
}

test("a client's cancellation reaches the server with the id the server saw, and cancels no other client's request", async () => {
  const [a, b] = await Promise.all([connect(), connect()]);
  const wait = (session, who) =>
    post({ id: 1, method: 'tools/call', params: { name: 'wait', arguments: { who } } }, session);
  const callA = wait(a, 'A');
  const callB = wait(b, 'B');
  // both requests are at the server once its log shows them (each log call is a round trip after them)
  let log = await seen();
  for (let i = 0; i < 500 && log.waits.length < 2; i++) log = await seen();
  const idOf = Object.fromEntries(log.waits.map((w) => [w.who, w.id]));
  assert.ok(idOf.A !== undefined && idOf.B !== undefined, JSON.stringify(log));
  assert.notEqual(idOf.A, 1, 'the relay renumbers ids (else this test proves nothing)');

  const cancel = await post({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } }, a);
  assert.equal(cancel.status, 202);
  log = await seen();
  assert.deepEqual(
    log.cancelled,
    [idOf.A],
    `the server saw A's request as ${JSON.stringify(idOf.A)} but its cancellation as ${JSON.stringify(log.cancelled)}`,
  );
  // A's HTTP request is answered (the server sends nothing for a cancelled request), by its own id
  const answerA = await (await callA).json();
  assert.equal(answerA.id, 1);
  assert.match(answerA.error.message, /cancelled/);

  // another client (no session, or B's) naming id 1, or naming the server's id itself: not forwarded
  assert.match(a ?? '', /^[\w-]{16,}$/, 'the relay names a session for each initialize');
  assert.notEqual(a, b);
  for (const [session, requestId] of [
    [undefined, 1],
    [undefined, idOf.B],
    [a, idOf.B],
  ])
    assert.equal((await post({ method: 'notifications/cancelled', params: { requestId } }, session)).status, 202);
  assert.deepEqual(
    (await seen()).cancelled,
    [idOf.A],
    'a cancellation reached the server for a request not of its client',
  );

  // B's request is still in flight: its own cancellation still works
  await post({ method: 'notifications/cancelled', params: { requestId: 1 } }, b);
  assert.deepEqual((await seen()).cancelled, [idOf.A, idOf.B]);
  assert.equal((await (await callB).json()).id, 1);
  // a request answered or cancelled is no longer in flight: cancelling it again sends nothing
  await post({ method: 'notifications/cancelled', params: { requestId: 1 } }, a);
  assert.equal((await seen()).cancelled.length, 2);
});
