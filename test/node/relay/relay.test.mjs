// The relay (dist/relay) on Node, in front of real MCP servers on 127.0.0.1: Streamable HTTP and
// legacy SSE through it with the v2 client, the MCP headers both ways, CORS, OAuth metadata.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../../fixtures/servers.mjs';
import { startModernServer } from '../../fixtures/modern-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createRelay, relayUrlFor } = await import(path.join(root, 'dist/relay/index.js'));
const { createNodeRelay, serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));

const PAGE = 'https://chat.example';
let everything, everythingSse, modern, relay, logs;

before(async () => {
  [everything, everythingSse, modern] = await Promise.all([
    startEverything('streamableHttp'),
    startEverything('sse'),
    startModernServer(),
  ]);
  logs = [];
  const allow = [everything.url, everythingSse.url, modern.url].map((u) => new URL(u).origin);
  relay = await serveHandler(createNodeRelay({ allow, origins: [PAGE], onLog: (e) => logs.push(e) }));
});
after(async () => {
  await relay?.close();
  await Promise.all([everything?.close(), everythingSse?.close(), modern?.close()]);
});

async function connect(url, Transport = StreamableHTTPClientTransport, requestInit, clientOptions) {
  const client = new Client({ name: 'relay-test', version: '1' }, clientOptions);
  await client.connect(new Transport(new URL(url), { requestInit }));
  return client;
}

test('Streamable HTTP through the relay: list, call, session id, DELETE at close', async () => {
  const client = await connect(relayUrlFor(relay.url, everything.url));
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'echo'));
  const r = await client.callTool({ name: 'echo', arguments: { message: 'via relay' } });
  assert.deepEqual(r.content, [{ type: 'text', text: 'Echo: via relay' }]);
  const transport = client.transport;
  assert.match(transport.sessionId, /\S/, 'Mcp-Session-Id came back through the relay');
  await transport.terminateSession();
  await client.close();
  assert.ok(
    logs.some((e) => e.method === 'DELETE' && e.status < 300),
    'DELETE forwarded',
  );
  assert.ok(
    logs.every((e) => !JSON.stringify(e).includes('Bearer')),
    'no token in the log',
  );
});

test('legacy HTTP+SSE through the relay: the endpoint event is rewritten to the relay', async () => {
  const client = await connect(relayUrlFor(relay.url, everythingSse.url), SSEClientTransport);
  const r = await client.callTool({ name: 'echo', arguments: { message: 'sse' } });
  assert.deepEqual(r.content, [{ type: 'text', text: 'Echo: sse' }]);
  assert.ok(logs.some((e) => e.method === 'POST' && e.target === new URL(everythingSse.url).origin));
  await client.close();
});

test('2026-07-28 headers reach the server and Authorization passes, cookies do not', async () => {
  const tenant = `relay-${process.pid}`;
  const upstream = `${modern.url}/t/${tenant}/mcp`;
  const client = await connect(
    relayUrlFor(relay.url, upstream),
    StreamableHTTPClientTransport,
    {
      headers: { Authorization: 'Bearer relay-token-1', Cookie: 'sid=1', 'X-Forwarded-For': '10.0.0.1' },
    },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.callTool({ name: 'echo', arguments: { message: 'h' } });
  await client.close();
  const seen = await (await fetch(`${modern.url}/t/${tenant}/seen`)).json();
  const call = seen.requests.find((r) => r.headers['mcp-method'] === 'tools/call');
  assert.ok(call, 'Mcp-Method passed');
  assert.equal(call.headers['mcp-name'], 'echo');
  assert.match(call.headers['mcp-protocol-version'], /^\d{4}-/);
  assert.equal(call.headers.authorization, 'Bearer relay-token-1');
  assert.equal(call.headers.cookie, undefined);
  assert.equal(call.headers['x-forwarded-for'], undefined);
});

test('CORS: the configured origin only, preflight lists the MCP headers, never * with credentials', async () => {
  const target = relayUrlFor(relay.url, everything.url);
  const ok = await fetch(target, {
    method: 'OPTIONS',
    headers: {
      Origin: PAGE,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'mcp-method, mcp-param-region, x-api-key, x-forwarded-for, cookie',
    },
  });
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get('access-control-allow-origin'), PAGE);
  assert.equal(ok.headers.get('access-control-allow-credentials'), null);
  assert.match(ok.headers.get('access-control-allow-headers'), /mcp-method/);
  assert.match(ok.headers.get('access-control-allow-headers'), /mcp-param-region/);
  assert.match(ok.headers.get('access-control-allow-headers'), /x-api-key/, "a server's own header may be sent");
  assert.doesNotMatch(ok.headers.get('access-control-allow-headers'), /x-forwarded-for|cookie/);
  const other = await fetch(target, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
  assert.equal(other.status, 403);
  assert.equal(other.headers.get('access-control-allow-origin'), null);
  const post = await fetch(target, {
    method: 'POST',
    headers: {
      Origin: 'https://evil.example',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
  assert.equal(post.status, 403);
});

test('OAuth metadata: resource stays the upstream, token endpoints come through the relay', async () => {
  const calls = [];
  const upstream = 'https://mcp.example.com/mcp';
  const handler = createRelay({
    allow: ['https://mcp.example.com', 'https://auth.example.com'],
    origins: [PAGE],
    publicUrl: 'https://relay.example',
    fetch: async (url) => {
      calls.push(url);
      if (url === 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp')
        return Response.json({ resource: upstream, authorization_servers: ['https://auth.example.com'] });
      if (url === 'https://auth.example.com/.well-known/oauth-authorization-server')
        return Response.json({
          issuer: 'https://auth.example.com',
          authorization_endpoint: 'https://auth.example.com/authorize',
          token_endpoint: 'https://auth.example.com/token',
          registration_endpoint: 'https://auth.example.com/register',
        });
      if (url === upstream)
        return new Response('', {
          status: 401,
          headers: {
            'www-authenticate': `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`,
          },
        });
      return new Response('no', { status: 404 });
    },
  });
  const base = 'https://relay.example';
  const denied = await handler(
    new Request(relayUrlFor(base, upstream), {
      method: 'POST',
      headers: { 'content-type': 'application/json', Origin: PAGE },
      body: '{}',
    }),
  );
  assert.equal(denied.status, 401);
  const challenge = denied.headers.get('www-authenticate');
  assert.equal(
    challenge,
    'Bearer resource_metadata="https://relay.example/https/mcp.example.com/.well-known/oauth-protected-resource/mcp"',
  );
  assert.match(denied.headers.get('access-control-expose-headers'), /www-authenticate/);
  const prm = await (
    await handler(new Request('https://relay.example/.well-known/oauth-protected-resource/https/mcp.example.com/mcp'))
  ).json();
  assert.equal(prm.resource, upstream, 'the audience stays the upstream server');
  assert.deepEqual(prm.authorization_servers, ['https://relay.example/https/auth.example.com/']);
  const as = await (
    await handler(new Request('https://relay.example/.well-known/oauth-authorization-server/https/auth.example.com/'))
  ).json();
  assert.equal(as.token_endpoint, 'https://relay.example/https/auth.example.com/token');
  assert.equal(as.registration_endpoint, 'https://relay.example/https/auth.example.com/register');
  assert.equal(as.authorization_endpoint, 'https://auth.example.com/authorize', 'the browser navigates there itself');
  assert.equal(as.issuer, 'https://auth.example.com');
  const token = await handler(
    new Request('https://relay.example/https/auth.example.com/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=x',
    }),
  );
  assert.equal(token.status, 404); // our stub's answer, i.e. forwarded to the token endpoint
  assert.equal(calls.at(-1), 'https://auth.example.com/token');
});

test('the hub through a relay: a server config with `relay` connects through it; mcp.json carries it', async () => {
  const { McpHub, MemoryStorage, McpConfigError } = await import(path.join(root, 'dist/core/index.js'));
  assert.throws(
    () =>
      new McpHub({
        storage: new MemoryStorage(),
        eventTarget: null,
        broadcast: false,
        relayUrl: 'http://evil.example/',
      }),
    (e) => e instanceof McpConfigError && e.issues[0].path === 'relayUrl',
  );
  const hub = new McpHub({ storage: new MemoryStorage(), eventTarget: null, broadcast: false, relayUrl: relay.url });
  assert.equal(hub.relayUrl, relay.url);
  const s = await hub.servers.add({ name: 'via-relay', url: everything.url, relay: relay.url });
  const before = logs.length;
  const cat = await hub.connect(s.id);
  assert.ok(cat.tools.some((t) => t.name === 'echo'));
  const r = await hub.client(s.id).callTool('echo', { message: 'hub via relay' });
  assert.deepEqual(r.content, [{ type: 'text', text: 'Echo: hub via relay' }]);
  assert.ok(logs.length - before >= 3, 'the session went through the relay');
  const exported = JSON.parse(hub.exportConfig());
  assert.equal(exported.mcpServers['via-relay'].relay, relay.url);
  // a file may name only a relay the host allows (issue 33 item 2): without it, refused
  const bare = new McpHub({ storage: new MemoryStorage(), eventTarget: null, broadcast: false });
  assert.deepEqual((await bare.importConfig(JSON.stringify(exported))).errors[0].issues[0].path, 'relay');
  const other = new McpHub({
    storage: new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
    allowedRelays: [relay.url],
  });
  const { added } = await other.importConfig(JSON.stringify(exported));
  assert.equal(added[0].relay, relay.url);
  await assert.rejects(other.servers.update(added[0].id, { relay: 'ftp://x' }), McpConfigError);
  const removed = await other.servers.update(added[0].id, { relay: null });
  assert.equal(removed.relay, undefined);
  await Promise.all([hub.dispose(), other.dispose(), bare.dispose()]);
});

test("guardedFetch: a caller's long-lived signal gains no listener per request, and still aborts", async () => {
  const { guardedFetch } = await import(path.join(root, 'dist/relay/index.js'));
  const { getEventListeners } = await import('node:events');
  const f = guardedFetch({ allow: [new URL(everything.url).origin] });
  const session = new AbortController();
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, signal: session.signal };
  for (let i = 0; i < 20; i++) {
    const r = await f(everything.url, { ...init, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }) });
    await r.body?.cancel();
  }
  // Node's fetch keeps a listener on the signal it is given until the request is collected:
  // given the caller's signal itself, 20 requests left (up to) 20 listeners on it
  assert.equal(getEventListeners(session.signal, 'abort').length, 0);
  assert.equal(init.signal, session.signal, "the caller's init is not changed");
  session.abort();
  await assert.rejects(f(everything.url, { ...init, body: '{}' }), (e) => e.name === 'AbortError');
});

test('nodeUpstreamFetch: a pinned upstream is reached at the checked address, over one kept-alive connection per host and address', async () => {
  const { nodeUpstreamFetch } = await import(path.join(root, 'dist/relay/node/index.js'));
  const http = (await import('node:http')).default;
  let connections = 0;
  const server = http.createServer((req, res) => res.end(`ok ${req.headers.host}`));
  server.on('connection', () => connections++);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  try {
    const f = nodeUpstreamFetch();
    // the names do not resolve: only the pinned address can be what is reached
    const get = async (host, address) => (await f(`http://${host}:${port}/x`, { method: 'GET', address })).text();
    assert.equal(await get('pinned.invalid', '127.0.0.1'), `ok pinned.invalid:${port}`);
    assert.equal(await get('pinned.invalid', '127.0.0.1'), `ok pinned.invalid:${port}`);
    assert.equal(connections, 1, 'the second request reused the first connection');
    assert.equal(await get('other.invalid', '127.0.0.1'), `ok other.invalid:${port}`);
    assert.equal(connections, 2, 'another host name gets a connection of its own');
    // another checked address: its own connection, to that address (nothing listens there)
    await assert.rejects(get('pinned.invalid', '127.0.0.3'), /ECONNREFUSED/);
    assert.equal(connections, 2);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("the relay marks its own refusals (mcp-relay-refusal, exposed to the page); an upstream's header of that name never crosses", async () => {
  const http = await import('node:http');
  // an upstream that answers 403 in the relay's own words, with the relay's header
  const liar = http.createServer((_, res) =>
    res
      .writeHead(403, { 'content-type': 'application/json', 'mcp-relay-refusal': '1' })
      .end(JSON.stringify({ error: "target https://evil.example is not in this relay's allowlist" })),
  );
  await new Promise((r) => liar.listen(0, '127.0.0.1', r));
  const liarOrigin = `http://127.0.0.1:${liar.address().port}`;
  const served = await serveHandler(createNodeRelay({ allow: [liarOrigin], origins: [PAGE], rateLimit: false }));
  try {
    const passed = await fetch(relayUrlFor(served.url, `${liarOrigin}/.well-known/oauth-authorization-server`), {
      headers: { origin: PAGE },
    });
    assert.equal(passed.status, 403, 'the upstream answer is passed on');
    assert.equal(passed.headers.get('mcp-relay-refusal'), null, "the upstream's header did not cross");
    const own = await fetch(relayUrlFor(served.url, 'http://127.0.0.1:9/.well-known/oauth-authorization-server'), {
      headers: { origin: PAGE },
    });
    assert.equal(own.status, 403);
    assert.equal(own.headers.get('mcp-relay-refusal'), '1', "the relay's own refusal is marked");
    assert.match(own.headers.get('access-control-expose-headers'), /mcp-relay-refusal/);
  } finally {
    await served.close();
    await new Promise((r) => liar.close(r));
  }
});
