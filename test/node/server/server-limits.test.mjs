// The backend chat handler's edges (issue 33): the Origin check, the request body read with a cap
// and a deadline, the rate limit, the bound on the tools sent to the model, and the per-origin
// connection budget that a page needs and a backend must not share between its users.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../../fixtures/fixture-server.mjs';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { readChatStream } from './chat-stream.mjs';
import { startFront } from './server-front.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createChatHandler } = await import(path.join(root, 'dist/server/index.js'));

let fixture, model;
const handlers = [];
before(async () => {
  [fixture, model] = await Promise.all([startFixtureServer(), startFakeOpenAI({ wants: [] })]);
});
after(async () => {
  await Promise.all(handlers.map((h) => h.hub.dispose()));
  await Promise.all([fixture?.close(), model?.close()]);
});

/** A chat handler for the fixture server's origin; closed after the file. */
function handlerWith(extra = {}) {
  const h = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [fixture.url] },
    ...extra,
  });
  handlers.push(h);
  return h;
}
const chatBody = (servers = [], content = 'hi') =>
  JSON.stringify({ messages: [{ role: 'user', content }], mcp_servers: servers });

test('a request from an Origin not allowed gets 403 and the model endpoint is never called', async () => {
  const h = handlerWith({ origins: ['https://chat.example'] });
  const before = model.requests.length;
  const r = await h(
    new Request('http://backend/chat', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: chatBody(),
    }),
  );
  assert.equal(r.status, 403, 'a disallowed Origin is refused');
  assert.match((await r.json()).error, /origin not allowed/);
  assert.equal(r.headers.get('access-control-allow-origin'), null, 'no CORS grant for that origin');
  assert.equal(model.requests.length, before, 'the model endpoint was not called');
  // the allowed origin is served (the refusal is about the origin, not the request)
  const ok = await h(
    new Request('http://backend/chat', {
      method: 'POST',
      headers: { origin: 'https://chat.example' },
      body: chatBody(),
    }),
  );
  assert.equal(ok.status, 200);
  assert.ok((await readChatStream(ok)).some((e) => e.event === 'done'));
  assert.equal(model.requests.length, before + 1);
});

/** A request body that counts what is pulled from it; `chunks` of 64 KB, or endless when null. */
function countingBody(chunks, { stallAfter } = {}) {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  counter.stream = new ReadableStream({
    pull(controller) {
      if (stallAfter !== undefined && sent >= stallAfter) return new Promise(() => {}); // never more
      if (chunks !== null && sent >= chunks) return controller.close();
      sent++;
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return counter;
}
const post = (h, body, headers = {}) =>
  h(new Request('http://backend/chat', { method: 'POST', headers, body, duplex: 'half' }));
/** The handler's answer, or a failure naming what it waited on (never a sleep: a guard). */
async function answerWithin(promise, ms, what) {
  let timer;
  const guard = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

test('a body over maxRequestBytes gets 413 without being read whole', async () => {
  const h = handlerWith({ maxRequestBytes: 256 * 1024 });
  const body = countingBody(256); // 16 MB offered, no Content-Length
  const r = await answerWithin(post(h, body.stream), 10_000, 'the body was read to its end');
  assert.equal(r.status, 413);
  assert.match((await r.json()).error, /over 262144 bytes/);
  assert.ok(
    body.pulled < 2 * 1024 * 1024,
    `read ${body.pulled} bytes of a 16 MB body before refusing it (the cap is 256 KB)`,
  );
  // a declared Content-Length over the cap is refused before a byte is read
  const declared = countingBody(256);
  const r2 = await post(h, declared.stream, { 'content-length': String(16 * 1024 * 1024) });
  assert.equal(r2.status, 413);
  assert.ok(declared.pulled <= 128 * 1024, `read ${declared.pulled} bytes of a body declared too large`);
});

test('a body that never finishes gets 408 at requestTimeoutMs', async () => {
  const h = handlerWith({ requestTimeoutMs: 200 });
  const body = countingBody(null, { stallAfter: 1 });
  const started = Date.now();
  const r = await answerWithin(post(h, body.stream), 5_000, 'a stalled body held the request with no deadline');
  assert.equal(r.status, 408);
  assert.match((await r.json()).error, /within 200 ms/);
  assert.ok(Date.now() - started < 4_000);
});

test('the rate limit: past `requests` per window a client gets 429, another client is still served', async () => {
  const h = handlerWith({ rateLimit: { requests: 2, perMs: 60_000 } });
  const one = { clientAddress: '127.0.0.10' };
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const r = await h(new Request('http://backend/chat', { method: 'POST', body: chatBody() }), one);
    statuses.push(r.status);
    if (r.ok) await readChatStream(r); // to its end: no model request of this test left running
  }
  assert.deepEqual(statuses, [200, 200, 429]);
  const limited = await h(new Request('http://backend/chat', { method: 'POST', body: chatBody() }), one);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '60');
  assert.match((await limited.json()).error, /too many requests/);
  const other = await h(new Request('http://backend/chat', { method: 'POST', body: chatBody() }), {
    clientAddress: '127.0.0.11',
  });
  assert.equal(other.status, 200, 'the budget is per client');
  await readChatStream(other);
  // Cloudflare's header counts only on Workers: on Node a client could set it to get a fresh bucket
  const spoofed = await h(
    new Request('http://backend/chat', {
      method: 'POST',
      headers: { 'cf-connecting-ip': '1.2.3.4' },
      body: chatBody(),
    }),
    one,
  );
  assert.equal(spoofed.status, 429, 'a CF-Connecting-IP header sent from outside Cloudflare is not a new client');
  // rateLimit: false turns it off
  const open = handlerWith({ rateLimit: false });
  for (let i = 0; i < 3; i++) {
    const r = await open(new Request('http://backend/chat', { method: 'POST', body: chatBody() }), one);
    assert.equal(r.status, 200);
    await readChatStream(r);
  }
});

test('bad numeric options are refused when the handler is made', () => {
  for (const bad of [{ maxTools: -1 }, { maxToolTokens: 1.5 }, { requestTimeoutMs: 0 }, { maxRequestBytes: NaN }])
    assert.throws(
      () =>
        createChatHandler({
          model: { baseUrl: model.url, model: 'fake-1' },
          servers: { allow: [fixture.url] },
          ...bad,
        }),
      (e) => e instanceof TypeError && new RegExp(Object.keys(bad)[0]).test(e.message),
    );
  assert.throws(
    () => handlerWith({ rateLimit: { requests: 0, perMs: 1000 } }),
    (e) => e instanceof TypeError && /rateLimit/.test(e.message),
  );
});

test('a catalogue past maxTools: the model gets at most maxTools tools, the most relevant kept, and a server event warns', async () => {
  const h = handlerWith({ maxTools: 32 });
  const before = model.requests.length;
  const events = await readChatStream(
    await post(h, chatBody([{ name: 'many', url: `${fixture.url}/many/4000/mcp` }], 'please run tool_3999')),
  );
  const many = events.find((e) => e.event === 'server' && e.data.name === 'many').data;
  assert.equal(many.status, 'ready');
  assert.equal(many.tools, 4000);
  const sent = model.requests[before].body.tools ?? [];
  assert.equal(sent.length, 32, `the model was offered ${sent.length} of 4000 tools (maxTools 32)`);
  assert.ok(
    sent.some((t) => t.function.name === 'many__tool_3999'),
    'the tool the user named is among those kept (ranked by the last user message)',
  );
  assert.ok(JSON.stringify(model.requests[before].body).length < 64 * 1024, 'the model request stays small');
  const warning = events.find((e) => e.event === 'server' && e.data.status === 'trimmed');
  assert.ok(warning, 'a server event says tools were left out');
  assert.equal(warning.data.tools, 4000);
  assert.equal(warning.data.offered, 32);
  assert.match(warning.data.warning, /4000 tools.*32/);
  assert.ok(events.some((e) => e.event === 'done'));

  // the default (128) holds without any option, and the token bound too
  const d = handlerWith({ maxToolTokens: 2_000 });
  const at = model.requests.length;
  await readChatStream(await post(d, chatBody([{ name: 'many', url: `${fixture.url}/many/4000/mcp` }])));
  const offered = model.requests[at].body.tools;
  assert.ok(offered.length > 0 && offered.length <= 128, `${offered.length} tools offered by default`);
  assert.ok(JSON.stringify(offered).length / 4 <= 2_000 + offered.length, 'within maxToolTokens');
  // within the budget nothing is said and every tool is offered
  const small = handlerWith();
  const at2 = model.requests.length;
  const quiet = await readChatStream(await post(small, chatBody([{ name: 'few', url: `${fixture.url}/many/5/mcp` }])));
  assert.equal(model.requests[at2].body.tools.length, 5);
  assert.ok(!quiet.some((e) => e.event === 'server' && e.data.status === 'trimmed'));
});

/**
 * A front for the fixture server that holds the first request of each path until `n` such are
 * in flight at once (or, failing that, `giveUpMs` passed): `peak` is how many were held together.
 */
async function startGate(n, giveUpMs) {
  const gate = { peak: 0, held: [], seen: new Set() };
  const release = () => gate.held.splice(0).forEach((go) => go());
  let timer;
  const served = await startFront(fixture.url, async (req) => {
    if (req.method !== 'POST' || gate.seen.has(req.url)) return false;
    gate.seen.add(req.url);
    await new Promise((go) => {
      gate.held.push(go);
      gate.peak = Math.max(gate.peak, gate.held.length);
      if (gate.held.length >= n) release();
      else timer ??= setTimeout(release, giveUpMs); // the failure case: fewer ever arrive together
    });
    return false;
  });
  gate.url = served.url;
  gate.close = () => (clearTimeout(timer), served.close());
  return gate;
}

test("one request's connections do not queue behind another's: no page-sized budget per origin", async () => {
  const n = 8;
  const gate = await startGate(n, 3_000);
  const h = handlerWith({ servers: { allow: [gate.url] } });
  try {
    // each request names one server on the same origin: a page's budget (6) lets 6 connect at once
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(h, chatBody([{ name: 's', url: `${gate.url}/t/budget-${process.pid}-${i}/mcp` }])).then(readChatStream),
      ),
    );
    assert.equal(
      gate.peak,
      n,
      `${n} requests connected ${gate.peak} at a time: one request's connections queued behind the others'`,
    );
    for (const events of results) assert.equal(events.find((e) => e.event === 'server').data.status, 'ready');
  } finally {
    await gate.close();
  }
});
