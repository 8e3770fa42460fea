// The backend hub (dist/server) in Node: the seed's flow against real MCP servers on 127.0.0.1 and
// a fake OpenAI-compatible model (test/fixtures/fake-openai.mjs), through the chat handler.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../../fixtures/servers.mjs';
import { startModernServer } from '../../fixtures/modern-server.mjs';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { readChatStream } from './chat-stream.mjs';
import { startFront as passThrough } from './server-front.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createChatHandler, createGuard, guardedFetch, McpHub, MemoryStorage } = await import(
  path.join(root, 'dist/server/index.js')
);
const { DiscoveryCache } = await import(path.join(root, 'dist/server/discovery.js'));
const { createRelay } = await import(path.join(root, 'dist/relay/index.js'));
const { nodeUpstreamFetch } = await import(path.join(root, 'dist/relay/node/index.js'));

let everything, modern, model, handler;
const tenant = `server-${process.pid}`;

before(async () => {
  [everything, modern, model] = await Promise.all([
    startEverything('streamableHttp'),
    startModernServer(),
    startFakeOpenAI({ wants: ['alpha__echo', 'beta__add', 'clock'] }),
  ]);
  handler = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1', apiKey: 'sk-model-secret' },
    servers: { allow: [new URL(everything.url).origin, new URL(modern.url).origin] },
    tools: [
      { name: 'clock', description: 'The time', parameters: { type: 'object', properties: {} }, run: () => 'noon' },
    ],
  });
});
after(async () => {
  await handler?.hub.dispose();
  await Promise.all([everything?.close(), modern?.close(), model?.close()]);
});

const servers = () => [
  { name: 'alpha', url: everything.url },
  { name: 'beta', url: `${modern.url}/t/${tenant}/mcp`, headers: { Authorization: 'Bearer per-request-secret' } },
  { name: 'broken', url: `${modern.url}/nowhere/mcp` },
];
const chat = (body) =>
  handler(
    new Request('http://backend/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );

test('the seed flow: discovery, merged tools, routed calls, a failing server skipped, the answer streamed', async () => {
  const r = await chat({ messages: [{ role: 'user', content: 'hi' }], mcp_servers: servers() });
  assert.equal(r.headers.get('content-type'), 'text/event-stream');
  const events = await readChatStream(r);
  const byServer = Object.fromEntries(events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data]));
  assert.equal(byServer.alpha.status, 'ready');
  assert.equal(byServer.beta.status, 'ready');
  assert.equal(byServer.broken.status, 'failed');
  assert.match(byServer.broken.error, /404/);
  assert.equal(byServer.alpha.cached, false);
  // the model was offered built-in and MCP tools under server__tool names, never the broken server
  const offered = model.requests[0].body.tools.map((t) => t.function.name);
  assert.ok(offered.includes('clock') && offered.includes('alpha__echo') && offered.includes('beta__add'));
  assert.ok(!offered.some((n) => n.startsWith('broken__')));
  assert.equal(model.requests[0].headers.authorization, 'Bearer sk-model-secret');
  // calls routed to their servers, results back to the model, the final answer streamed in pieces
  const tools = events.filter((e) => e.event === 'tool').map((e) => e.data.name);
  assert.deepEqual(tools.sort(), ['alpha__echo', 'beta__add', 'clock']);
  const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.content);
  assert.ok(deltas.length >= 3, 'streamed in several deltas');
  const answer = deltas.join('');
  assert.match(answer, /Echo: hi/);
  assert.match(answer, /\b5\b/);
  assert.match(answer, /noon/);
  const done = events.find((e) => e.event === 'done');
  assert.equal(done.data.message.content, answer);
  const text = JSON.stringify(events);
  assert.ok(!text.includes('per-request-secret') && !text.includes('sk-model'), 'no secret in the stream');
});

test('a second request within the TTL reuses discovery: no tools/list reaches the server', async () => {
  const seen = async () => (await (await fetch(`${modern.url}/t/${tenant}/seen`)).json()).requests;
  const lists = (reqs) => reqs.filter((r) => JSON.stringify(r).includes('"tools/list"')).length;
  const first = lists(await seen());
  assert.ok(first >= 1, 'the first request listed tools');
  const events = await readChatStream(
    await chat({ messages: [{ role: 'user', content: 'again' }], mcp_servers: servers() }),
  );
  const beta = events.find((e) => e.event === 'server' && e.data.name === 'beta').data;
  assert.equal(beta.cached, true);
  assert.equal(lists(await seen()), first, 'no tools/list on the second request');
  assert.ok(events.some((e) => e.event === 'done'));
  // each request's sessions were closed and its servers removed at its end
  assert.deepEqual(handler.hub.servers.list(), []);
  // a server that never connected had nothing cached (that an entry is dropped on error: the tests
  // "a cached server whose connect fails…" and "a call that fails…" below)
  assert.equal(events.find((e) => e.event === 'server' && e.data.name === 'broken').data.status, 'failed');
});

test('mcp_servers go through the SSRF rules: a refused URL fails with its reason, nothing sent', async () => {
  const events = await readChatStream(
    await chat({
      messages: [{ role: 'user', content: 'x' }],
      mcp_servers: [
        { name: 'meta', url: 'http://169.254.169.254/latest/meta-data/' },
        { name: 'loop', url: 'https://127.0.0.1:1/mcp' },
      ],
    }),
  );
  const failed = events.filter((e) => e.event === 'server').map((e) => e.data);
  assert.equal(failed.length, 2);
  for (const f of failed) {
    assert.equal(f.status, 'failed');
    assert.match(f.error, /allowlist|refused/);
  }
  assert.ok(
    events.some((e) => e.event === 'done'),
    'the chat goes on without them',
  );
  assert.equal(handler.hub.servers.list().filter((s) => s.name === 'meta' || s.name === 'loop').length, 0);
});

test('bad chat requests: a clear 400 and nothing started', async () => {
  const before = model.requests.length;
  for (const body of [
    {},
    { messages: [] },
    { messages: [{}], mcp_servers: 'x' },
    { messages: [{}], mcp_servers: [{ name: 'a' }] },
  ]) {
    const r = await chat(body);
    assert.equal(r.status, 400);
    assert.match((await r.json()).error, /messages|mcp_servers/);
  }
  const r = await handler(new Request('http://backend/chat', { method: 'POST', body: '{oops' }));
  assert.equal(r.status, 400);
  assert.equal(model.requests.length, before);
});

test('open mode on Node needs a resolver: without one nothing starts; with one, a name resolving to a private address is refused and nothing connects', async () => {
  const modelOnly = { model: { baseUrl: model.url, model: 'fake-1' } };
  // the default ({ open: true }) and an explicit open mode without `resolve`: a public name pointed
  // at 127.0.0.1 would pass the address rules unchecked, so the operator hears it at start
  for (const make of [
    () => createChatHandler(modelOnly),
    () => createChatHandler({ ...modelOnly, servers: { open: true } }),
    () => createRelay({ open: true }),
  ])
    assert.throws(make, (e) => e instanceof TypeError && /open mode needs `resolve`/.test(e.message));
  // allowlist mode needs no resolver, and saying the platform's fetch is public-only is accepted
  assert.doesNotThrow(() => createRelay({ allow: ['https://mcp.example.com'] }));
  assert.doesNotThrow(() => createRelay({ open: true, publicOnlyFetch: true }));

  let connections = 0;
  const listener = http.createServer((_, res) => res.end('{}'));
  listener.on('connection', () => connections++);
  await new Promise((r) => listener.listen(0, '127.0.0.1', r));
  const { port } = listener.address();
  const resolved = [];
  const guarded = createChatHandler({
    ...modelOnly,
    servers: {
      open: true,
      openPorts: [443, port],
      fetch: nodeUpstreamFetch(),
      resolve: async (host) => (resolved.push(host), host === 'inside.example' ? ['127.0.0.1'] : ['10.0.0.7']),
    },
  });
  try {
    const events = await readChatStream(
      await guarded(
        new Request('http://backend/chat', {
          method: 'POST',
          body: JSON.stringify({
            messages: [{ role: 'user', content: 'x' }],
            mcp_servers: [
              { name: 'inside', url: `https://inside.example:${port}/mcp` },
              { name: 'lan', url: 'https://lan.example/mcp' },
            ],
          }),
        }),
      ),
    );
    const outcomes = events.filter((e) => e.event === 'server').map((e) => e.data);
    assert.deepEqual(outcomes.map((o) => [o.name, o.status]).sort(), [
      ['inside', 'failed'],
      ['lan', 'failed'],
    ]);
    for (const o of outcomes) assert.match(o.error, /private|loopback|refused/i);
    assert.deepEqual(resolved.sort(), ['inside.example', 'lan.example']);
    assert.equal(connections, 0, 'nothing reached the private address');
  } finally {
    await guarded.hub.dispose();
    await new Promise((r) => listener.close(r));
  }
});

/** How many tools/list requests reached the modern server's tenant `t`. */
const toolsLists = async (t) =>
  (await (await fetch(`${modern.url}/t/${t}/seen`)).json()).requests.filter((r) =>
    JSON.stringify(r).includes('"tools/list"'),
  ).length;

/**
 * A front for the modern server on another port: passes everything through, or answers 502 to
 * everything (`down`) or to tool calls only (`failCalls`).
 */
async function startFront() {
  const front = { down: false, failCalls: false };
  const served = await passThrough(modern.url, async (_req, body, res) => {
    if (!(front.down || (front.failCalls && body.includes('"tools/call"')))) return false;
    res.writeHead(502).end();
    return true;
  });
  return Object.assign(front, served);
}

/** A chat handler of its own (its own cache) for the servers behind `front`. */
const handlerFor = (front, extra = {}) =>
  createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [front.url, new URL(modern.url).origin] },
    ...extra,
  });
/** One chat request naming `servers`; the `server` events by name. */
async function chatWith(h, servers) {
  const events = await readChatStream(
    await h(
      new Request('http://backend/chat', {
        method: 'POST',
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], mcp_servers: servers }),
      }),
    ),
  );
  return Object.fromEntries(events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data]));
}

test('a cached server whose connect fails is dropped: the next request lists its tools again', async () => {
  const front = await startFront();
  const h = handlerFor(front);
  const t = `drop-connect-${process.pid}`;
  // named beta, so the fake model calls beta__add: a call that succeeds drops nothing
  const servers = [{ name: 'beta', url: `${front.url}/t/${t}/mcp` }];
  try {
    assert.equal((await chatWith(h, servers)).beta.cached, false);
    assert.equal((await chatWith(h, servers)).beta.cached, true, 'cached within the TTL');
    assert.equal(await toolsLists(t), 1);
    front.down = true;
    assert.equal((await chatWith(h, servers)).beta.status, 'failed');
    front.down = false;
    const beta = (await chatWith(h, servers)).beta;
    assert.equal(beta.status, 'ready');
    assert.equal(beta.cached, false, 'the entry cached before the failure was dropped');
    assert.equal(await toolsLists(t), 2);
  } finally {
    await h.hub.dispose();
    await front.close();
  }
});

test("a call that fails on its way to a cached server drops its catalogue; the tool's own error answer does not", async () => {
  const front = await startFront();
  const failing = await startFakeOpenAI({ wants: ['beta__add', 'beta__fail'] });
  const h = handlerFor(front, { model: { baseUrl: failing.url, model: 'fake-1' } });
  const t = `drop-call-${process.pid}`;
  const servers = [{ name: 'beta', url: `${front.url}/t/${t}/mcp` }];
  const lastCall = (name) => h.hub.calls.list().find((c) => c.name === name);
  try {
    assert.equal((await chatWith(h, servers)).beta.cached, false);
    assert.equal(lastCall('beta__fail').error.code, 'tool-error');
    assert.equal((await chatWith(h, servers)).beta.cached, true, 'an isError answer keeps the entry');
    assert.equal(await toolsLists(t), 1);
    // the connect (cached: no listing) goes through, the calls get a 502
    front.failCalls = true;
    assert.equal((await chatWith(h, servers)).beta.cached, true);
    assert.equal(lastCall('beta__add').error.code, 'http');
    front.failCalls = false;
    assert.equal((await chatWith(h, servers)).beta.cached, false, 'listed again after the failed call');
    assert.equal(await toolsLists(t), 2);
  } finally {
    await h.hub.dispose();
    await Promise.all([front.close(), failing.close()]);
  }
});

/** A `DiscoveryCache` on a hub of its own, as `createChatHandler` builds one. */
function discoveryCache(options) {
  const guard = createGuard({ allow: [new URL(modern.url).origin] });
  const hub = new McpHub({
    storeName: `discovery-${Math.random()}`,
    storage: new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
    fetch: guardedFetch(guard),
  });
  const cache = new DiscoveryCache(hub, guard, options);
  // one request: discover, close; the outcome of each server by name
  const request = async (servers) => {
    const d = await cache.discover(servers);
    await d.close();
    return Object.fromEntries(d.outcomes.map((o) => [o.name, o]));
  };
  return { cache, hub, request };
}

test('the discovery TTL: a catalogue is reused until ttlMs has passed, then listed again', async () => {
  let now = 1_000_000;
  const { hub, request } = discoveryCache({ ttlMs: 60_000, now: () => now });
  const t = `ttl-${process.pid}`;
  const servers = [{ name: 'beta', url: `${modern.url}/t/${t}/mcp` }];
  try {
    assert.equal((await request(servers)).beta.cached, false);
    now += 59_999;
    assert.equal((await request(servers)).beta.cached, true, 'still fresh 1 ms before the TTL');
    assert.equal(await toolsLists(t), 1);
    now += 1;
    assert.equal((await request(servers)).beta.cached, false, 'expired at the TTL');
    assert.equal(await toolsLists(t), 2);
  } finally {
    await hub.dispose();
  }
  // the handler's option reaches the cache: with 0 nothing is ever fresh
  const front = { url: new URL(modern.url).origin };
  const h = handlerFor(front, { discoveryTtlMs: 0 });
  const t0 = `ttl0-${process.pid}`;
  try {
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await chatWith(h, [{ name: 'beta', url: `${modern.url}/t/${t0}/mcp` }])).beta.cached,
        false,
        `request ${i + 1} with discoveryTtlMs 0`,
      );
    assert.equal(await toolsLists(t0), 2);
  } finally {
    await h.hub.dispose();
  }
});

test('the discovery cache is bounded: the oldest entry evicted past maxEntries, expired ones swept on insert', async () => {
  let now = 0;
  const { cache, hub, request } = discoveryCache({ ttlMs: 60_000, maxEntries: 3, now: () => now });
  const t = `bound-${process.pid}`;
  const server = (i) => ({ name: `s${i}`, url: `${modern.url}/t/${t}/mcp` });
  try {
    for (let i = 0; i < 5; i++) {
      now += 1;
      assert.equal((await request([server(i)]))[`s${i}`].status, 'ready');
      assert.ok(cache.size <= 3, `size ${cache.size} after ${i + 1} servers`);
    }
    assert.equal(cache.size, 3);
    assert.equal((await request([server(4)])).s4.cached, true, 'the newest kept');
    assert.equal((await request([server(0)])).s0.cached, false, 'the oldest evicted');
    assert.equal(cache.size, 3);
    // past the TTL every entry has expired: the next insert leaves only itself
    now += 60_000;
    assert.equal((await request([server(9)])).s9.cached, false);
    assert.equal(cache.size, 1);
  } finally {
    await hub.dispose();
  }
});
