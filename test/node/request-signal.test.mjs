// Each POST of a session follows the session's long-lived signal through a signal of its own,
// unhooked once its body is over (src/core/request-signal.ts, src/core/session/fetch.ts): Node's
// fetch keeps a listener on the signal it is given until the request is collected, and the
// AbortSignal.any shield used before left a WeakRef per request on the long-lived signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { explainingFetch } = await import(path.join(root, 'dist/core/session/fetch.js'));
const { requestSignal } = await import(path.join(root, 'dist/core/request-signal.js'));
const { guardedFetch } = await import(path.join(root, 'dist/relay/index.js'));

const answer = (id) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n\n`;
const post = (id, signal) => ({ method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }), signal });
const listeners = (signal) => getEventListeners(signal, 'abort').length;

/** A fetch below the session's: records the signal each request came with, answers as told. */
function below(answerWith) {
  const seen = [];
  const fetch = async (_input, init) => {
    seen.push(init.signal);
    return answerWith(init);
  };
  return { seen, fetch };
}
const sse = (text) => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
const watch = { max: 1024 * 1024, onExceed: () => {}, onBroken: () => {} };

test('50 POSTs on one long-lived signal: each goes with a signal of its own, none left listening after its body', async () => {
  const session = new AbortController();
  const { seen, fetch } = below((init) => sse(answer(JSON.parse(init.body).id)));
  const f = explainingFetch(fetch, {}, watch);
  for (let i = 0; i < 50; i++) {
    const res = await f('http://127.0.0.1:9/mcp', post(i, session.signal));
    assert.equal(listeners(session.signal), 1, 'followed while the body is read');
    assert.equal(await res.text(), answer(i));
    assert.equal(listeners(session.signal), 0, 'unhooked once the body is over');
  }
  assert.equal(new Set(seen).size, 50);
  assert.ok(seen.every((s) => s !== session.signal && !s.aborted));
});

test('aborting the long-lived signal cuts off a POST whose body is still coming', async () => {
  const session = new AbortController();
  const { seen, fetch } = below(
    (init) =>
      new Response(
        new ReadableStream({
          start(ctrl) {
            ctrl.enqueue(new TextEncoder().encode(': still working\n\n'));
            init.signal.addEventListener('abort', () => ctrl.error(init.signal.reason));
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  );
  const res = await explainingFetch(fetch, {}, watch)('http://127.0.0.1:9/mcp', post(1, session.signal));
  const reading = res.text();
  session.abort(new Error('the session closed'));
  await assert.rejects(reading, /the session closed/);
  assert.equal(seen[0].reason.message, 'the session closed');
  assert.equal(listeners(session.signal), 0);
});

test('an error answer once read, a failed fetch and a cancelled body leave no listener', async () => {
  const session = new AbortController();
  const failing = explainingFetch(async () => new Response('no', { status: 500 }), {}, watch);
  const res = await failing('http://127.0.0.1:9/mcp', post(1, session.signal));
  assert.equal(res.status, 500);
  assert.equal(listeners(session.signal), 1, 'an error answer is followed while its body comes');
  assert.equal(await res.text(), 'no');
  assert.equal(listeners(session.signal), 0, 'an error answer, read');
  const unreachable = explainingFetch(
    async () => {
      throw new TypeError('fetch failed');
    },
    {},
    watch,
  );
  await assert.rejects(unreachable('http://127.0.0.1:9/mcp', post(2, session.signal)), TypeError);
  assert.equal(listeners(session.signal), 0, 'a failed fetch');
  const endless = explainingFetch(async () => sse(new ReadableStream({ pull() {} })), {}, watch);
  const open = await endless('http://127.0.0.1:9/mcp', post(3, session.signal));
  assert.equal(listeners(session.signal), 1);
  await open.body.cancel();
  assert.equal(listeners(session.signal), 0, 'a cancelled body');
});

test("guardedFetch passes a request's own signal through when its caller says so (ownSignal), and still shields a caller's", async () => {
  const upstream = [];
  const options = {
    allow: ['http://127.0.0.1:9'],
    fetch: async (_url, init) => {
      upstream.push(init.signal);
      return new Response('ok');
    },
  };
  // the backend hub's: every POST comes with a signal of its own (the session's requestSignal)
  const f = guardedFetch(options, { ownSignal: (init) => init.method === 'POST' });
  const session = new AbortController();
  const own = requestSignal(session.signal);
  await f('http://127.0.0.1:9/mcp', post(1, own.signal));
  assert.equal(upstream[0], own.signal, 'a one-request signal goes as it is');
  await f('http://127.0.0.1:9/mcp', { method: 'GET', signal: session.signal });
  assert.notEqual(upstream[1], session.signal, "the caller's long-lived signal is not given to fetch");
  // told nothing, the guard shields every signal: no handshake with core says which are whose
  await guardedFetch(options)('http://127.0.0.1:9/mcp', post(2, own.signal));
  assert.notEqual(upstream[2], own.signal, 'shielded by default');
  own.done();
});
