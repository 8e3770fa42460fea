// The relay's edge (issue 33): what it answers a browser navigating to it, which Host it answers
// for, how it counts clients (Node, Lambda), how many streams one client holds, the upstream
// deadline against an event stream's lifetime, custom headers, and the caps and rewrites an
// outside mutation audit found no test for. One fixture upstream on 127.0.0.1 answers each case.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createRelay, relayUrlFor } = await import(path.join(root, 'dist/relay/index.js'));
const { serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));
const { lambdaHandler } = await import(path.join(root, 'dist/relay/lambda.js'));
const { RateLimiter, addressKey } = await import(path.join(root, 'dist/edge/rate-limit.js'));

const PAGE = 'https://chat.example';
const RELAY = 'http://relay.test';
let upstream, U, requests;

/** The fixture upstream: one path per kind of answer. */
function answer(req, res) {
  const { pathname } = new URL(req.url, 'http://x');
  requests.push({ method: req.method, path: pathname, headers: req.headers });
  const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  switch (pathname) {
    case '/html':
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<script>parent.stolen = 1</script>');
    case '/svg':
      return res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    case '/untyped':
      return res.end('<h1>no type</h1>');
    case '/error':
      return res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
    case '/json':
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    case '/two-types':
      // two Content-Type lines: fetch joins them with a comma, a browser takes the last
      res.setHeader('content-type', ['application/json; a=b', 'text/html']);
      return res.end('<script>parent.stolen = 1</script>');
    case '/headers':
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
    case '/big':
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 64; i++) res.write(`"${'x'.repeat(1022)}"`);
      return res.end();
    case '/legacy':
      sse();
      res.write('event: endpoint\ndata: https://evil.example/messages?sessionId=1\n\n');
      res.write('event: endpoint\ndata: /messages?sessionId=2\n\n');
      return res.end();
    case '/slow-stream':
      // the second event comes well after the relay's upstreamTimeoutMs (100 ms)
      sse();
      res.write('event: message\ndata: first\n\n');
      return void setTimeout(() => res.end('event: message\ndata: second\n\n'), 400);
    case '/slow-headers':
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 400);
    case '/hold':
      sse();
      return res.write('event: message\ndata: open\n\n'); // open until the client goes
    case '/.well-known/oauth-authorization-server':
      return res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }).end(
        JSON.stringify({
          issuer: `http://127.0.0.1:${U}`,
          authorization_endpoint: `http://127.0.0.1:${U}/authorize`,
          token_endpoint: `http://127.0.0.1:${U}/token`,
        }),
      );
    default:
      return res.writeHead(404).end();
  }
}

before(async () => {
  requests = [];
  upstream = http.createServer(answer);
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  U = upstream.address().port;
});
after(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const origin = () => `http://127.0.0.1:${U}`;
const at = (p, base = RELAY) => relayUrlFor(base, `${origin()}${p}`);
const relayOf = (extra = {}) =>
  createRelay({ allow: [origin()], origins: [PAGE], publicUrl: RELAY, rateLimit: false, ...extra });
const get = (handler, p, headers = {}) => handler(new Request(at(p), { headers: { origin: PAGE, ...headers } }));

/** Resolves once `logs` holds an entry `match` accepts (each relayed response logs at its end). */
function logged(onLog) {
  const logs = [];
  const waiters = [];
  onLog.fn = (e) => {
    logs.push(e);
    for (const w of waiters.splice(0))
      if (!w.match(e)) waiters.push(w);
      else w.resolve(e);
  };
  return { logs, wait: (match) => new Promise((resolve) => waiters.push({ match, resolve })) };
}

test('a navigation or an embed of a relay URL is refused, nothing forwarded; fetch() passes', async () => {
  const relay = relayOf();
  const before = requests.length;
  for (const headers of [
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
    { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
    { 'sec-fetch-mode': 'nested-navigate' },
  ]) {
    const r = await relay(new Request(at('/html'), { headers }));
    assert.equal(r.status, 403, JSON.stringify(headers));
    assert.equal(r.headers.get('mcp-relay-refusal'), '1', 'the relay refused it, typed');
    assert.match((await r.json()).error, /fetch\(\) requests only/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  }
  assert.equal(requests.length, before, 'no navigation reached the upstream');
  const ok = await get(relay, '/json', { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { ok: true });
});

test("an upstream's HTML, SVG or untyped answer is never served as a renderable document", async () => {
  const relay = relayOf();
  for (const p of ['/html', '/svg', '/untyped', '/two-types']) {
    const r = await get(relay, p);
    assert.equal(r.status, 200, p);
    assert.doesNotMatch(r.headers.get('content-type') ?? '', /html|svg|xml/, `${p}: not served as a document type`);
    assert.equal(r.headers.get('content-type'), 'application/octet-stream', p);
    assert.equal(r.headers.get('content-disposition'), 'attachment', p);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', p);
    assert.match(r.headers.get('content-security-policy') ?? '', /\bsandbox\b/, p);
    assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/, p);
    assert.match(await r.text(), /^</, `${p}: the bytes still reach a fetch()`);
  }
  // what MCP uses keeps its type; an error body still reads as text
  const json = await get(relay, '/json');
  assert.equal(json.headers.get('content-type'), 'application/json');
  assert.equal(json.headers.get('content-disposition'), null);
  assert.match(json.headers.get('content-security-policy'), /sandbox/);
  const error = await get(relay, '/error');
  assert.equal(error.status, 500);
  assert.equal(await error.text(), 'upstream broke');
  assert.equal(error.headers.get('content-type'), 'text/plain');
  assert.equal(error.headers.get('content-disposition'), 'attachment');
  const stream = await get(relay, '/legacy', { accept: 'text/event-stream' });
  assert.equal(stream.headers.get('content-type'), 'text/event-stream');
  await stream.body.cancel();
});

/** A raw request with the Host given: status, headers, body. */
function withHost(url, host) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers: { host, origin: PAGE } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('Host: a DNS-rebinding name is refused (421, typed, nothing forwarded); the bound, public and allowed hosts pass', async () => {
  const served = await serveHandler(relayOf({ publicUrl: undefined, allowedHosts: ['relay.internal:8080'] }));
  try {
    const url = relayUrlFor(served.url, `${origin()}/json`);
    const before = requests.length;
    const rebound = await withHost(url, `rebind.attacker.example:${new URL(served.url).port}`);
    assert.equal(rebound.status, 421);
    assert.equal(rebound.headers['mcp-relay-refusal'], '1');
    assert.match(JSON.parse(rebound.body).error, /does not answer for that Host/);
    assert.equal(requests.length, before, 'nothing forwarded');
    assert.equal((await withHost(url, new URL(served.url).host)).status, 200, 'the bound host');
    assert.equal((await withHost(url, 'relay.internal:8080')).status, 200, 'an allowed host');
  } finally {
    await served.close();
  }
  // a relay told its public URL answers that host (default port or not), and no other name
  const relay = relayOf();
  assert.equal((await get(relay, '/json')).status, 200);
  const other = await relay(new Request(at('/json', 'http://evil.example'), { headers: { origin: PAGE } }));
  assert.equal(other.status, 421);
  // knowing none (no publicUrl, no allowedHosts, no adapter host): IP literals and localhost only
  const bare = relayOf({ publicUrl: undefined });
  assert.equal((await bare(new Request(at('/json', 'http://127.0.0.1:9')))).status, 200);
  assert.equal((await bare(new Request(at('/json', 'http://localhost:9')))).status, 200);
  assert.equal((await bare(new Request(at('/json', 'http://rebind.example:9')))).status, 421);
});

test('rate limit on Node: a client-set CF-Connecting-IP or X-Forwarded-For gets no fresh bucket', async () => {
  const served = await serveHandler(relayOf({ publicUrl: undefined, rateLimit: { requests: 2, perMs: 60_000 } }));
  try {
    const url = relayUrlFor(served.url, `${origin()}/json`);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await fetch(url, { headers: { 'cf-connecting-ip': `198.51.100.${i}`, 'x-forwarded-for': `192.0.2.${i}` } }))
          .status,
      );
    assert.deepEqual(statuses, [200, 200, 429, 429], 'one client, whatever address it claims');
  } finally {
    await served.close();
  }
  // an operator-named header: the last entry is the proxy's (what a client prepends is ignored)
  const behindProxy = relayOf({ clientIpHeader: 'X-Forwarded-For', rateLimit: { requests: 1, perMs: 60_000 } });
  const via = (xff) => get(behindProxy, '/json', { 'x-forwarded-for': xff });
  assert.equal((await via('1.1.1.1, 203.0.113.9')).status, 200);
  assert.equal((await via('2.2.2.2, 203.0.113.9')).status, 429, 'same last hop, same client');
  assert.equal((await via('203.0.113.10')).status, 200, 'another client');
});

test('rate limit: one IPv6 /64 is one client, an IPv4-mapped address its IPv4; past 100,000 clients the new ones share one budget', async () => {
  const relay = relayOf({ rateLimit: { requests: 2, perMs: 60_000 } });
  const from = (clientAddress) => relay(new Request(at('/json'), { headers: { origin: PAGE } }), { clientAddress });
  const statuses = [];
  for (const a of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:0db8:0001:0002:abcd::1'])
    statuses.push((await from(a)).status);
  assert.deepEqual(statuses, [200, 200, 429], 'addresses of one /64 each got a budget of their own');
  assert.equal((await from('2001:db8:1:3::1')).status, 200, 'another /64 is another client');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('[2001:DB8::1]'), '2001:db8:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  // memory stays bounded: the windows past the cap are one shared window
  const limiter = new RateLimiter({ requests: 1, perMs: 60_000 });
  for (let i = 0; i < 100_000; i++) limiter.take(`k${i}`, 0);
  assert.equal(limiter.take('late-1', 0), true);
  assert.equal(limiter.take('late-2', 0), false, 'a client past the cap got a budget of its own');
  assert.ok(limiter.size <= 100_001, `windows kept: ${limiter.size}`);
});

/** An API Gateway HTTP API event (payload 2.0) from `sourceIp`. */
function apiGatewayEvent(rawPath, sourceIp, headers = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { host: 'api.example.com', origin: PAGE, ...headers },
    requestContext: {
      domainName: 'api.example.com',
      http: { method: 'GET', path: rawPath, protocol: 'HTTP/1.1', sourceIp, userAgent: 'test' },
      requestId: 'r',
      routeKey: '$default',
      stage: '$default',
    },
    isBase64Encoded: false,
  };
}

test("the relay as a Lambda handler counts each client by the event's source address", async () => {
  const handler = lambdaHandler(relayOf({ publicUrl: undefined, rateLimit: { requests: 1, perMs: 60_000 } }), {
    stream: false,
  });
  const p = `/http/127.0.0.1:${U}/json`;
  assert.equal((await handler(apiGatewayEvent(p, '203.0.113.1'), {})).statusCode, 200);
  const again = await handler(apiGatewayEvent(p, '203.0.113.1', { 'cf-connecting-ip': '198.51.100.77' }), {});
  assert.equal(again.statusCode, 429, 'a claimed address is not a new client');
  assert.equal((await handler(apiGatewayEvent(p, '203.0.113.2'), {})).statusCode, 200, 'another source IP');
  // payload 1.0 (REST API): requestContext.identity.sourceIp
  const v1 = apiGatewayEvent(p, undefined);
  Object.assign(v1, { version: '1.0', httpMethod: 'GET', path: p, resource: p });
  v1.requestContext = { domainName: 'api.example.com', identity: { sourceIp: '203.0.113.3' }, requestId: 'r' };
  assert.equal((await handler(v1, {})).statusCode, 200, 'a third client');
  assert.equal((await handler(v1, {})).statusCode, 429);
});

test('concurrent streams per client: capped (429), a slot freed when a stream is cancelled', async () => {
  const onLog = {};
  const { wait } = logged(onLog);
  const relay = relayOf({ maxStreamsPerClient: 2, onLog: (e) => onLog.fn(e) });
  const info = { clientAddress: '203.0.113.5' };
  const open = (who = info) => relay(new Request(at('/hold'), { headers: { origin: PAGE } }), who);
  const a = await open();
  const b = await open();
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  const c = await open();
  assert.equal(c.status, 429);
  assert.match((await c.json()).error, /too many open streams/);
  assert.equal((await open({ clientAddress: '203.0.113.6' })).status, 200, 'another client has its own slots');
  const ended = wait((e) => e.status === 200);
  await a.body.cancel();
  await ended;
  const d = await open();
  assert.equal(d.status, 200, 'the cancelled stream gave its slot back');
  await Promise.all([b.body.cancel(), d.body.cancel()]);
});

test('the rate limiter sweeps only expired windows (amortised, not a scan of every key)', () => {
  const limiter = new RateLimiter({ requests: 5, perMs: 10 });
  const keys = 20_000;
  for (let i = 0; i < keys; i++) assert.equal(limiter.take(`client-${i}`, i), true);
  // each take visits the windows that expired since the last one (each once) and one live window
  assert.ok(limiter.visited <= 2 * keys, `visited ${limiter.visited} windows for ${keys} takes`);
  assert.ok(limiter.size <= 10, `only the last window's clients are kept (${limiter.size})`);
  assert.equal(limiter.take('client-19999', 19_999), true);
  for (let i = 0; i < 4; i++) limiter.take('client-19999', 19_999);
  assert.equal(limiter.take('client-19999', 19_999), false, 'a budget still ends');
  assert.equal(limiter.take('client-19999', 20_009), true, 'and renews with its window');
});

test('an event stream outlives upstreamTimeoutMs (the deadline covers headers only); slow headers are a 504', async () => {
  const relay = relayOf({ upstreamTimeoutMs: 100, streamTimeoutMs: 5_000 });
  const r = await get(relay, '/slow-stream', { accept: 'text/event-stream' });
  assert.equal(r.status, 200);
  const text = await r.text();
  assert.match(text, /data: first/);
  assert.match(text, /data: second/, 'the event sent 400 ms in, past upstreamTimeoutMs, arrived');
  const slow = await get(relay, '/slow-headers');
  assert.equal(slow.status, 504);
  assert.equal(slow.headers.get('mcp-relay-refusal'), '1');
});

test('maxResponseBytes: a larger answer is cut off with an error, never passed whole', async () => {
  const relay = relayOf({ maxResponseBytes: 4096 });
  const r = await get(relay, '/big');
  assert.equal(r.status, 200);
  await assert.rejects(r.text(), /over 4096 bytes/);
});

test('legacy SSE: an endpoint event naming another origin is dropped, a same-origin one rewritten', async () => {
  const relay = relayOf();
  const text = await (await get(relay, '/legacy', { accept: 'text/event-stream' })).text();
  assert.doesNotMatch(text, /evil\.example/, 'the other origin is never offered to the client');
  assert.equal((text.match(/^data:/gm) ?? []).length, 1, 'only the same-origin endpoint is left');
  assert.match(text, new RegExp(`^data: /http/127\\.0\\.0\\.1:${U}/messages\\?sessionId=2$`, 'm'));
});

test('custom headers cross (an API key), cookies, forwarding, fetch metadata and Host never; none of them, nor the token, is logged', async () => {
  const onLog = {};
  const { logs } = logged(onLog);
  const relay = relayOf({ onLog: (e) => onLog.fn(e) });
  const secrets = { authorization: 'Bearer tok-5f2a9c', 'x-api-key': 'key-81d3e0' };
  const sent = {
    ...secrets,
    'mcp-session-id': 's-1',
    cookie: 'sid=1',
    'x-forwarded-for': '10.0.0.1',
    'x-real-ip': '10.0.0.2',
    forwarded: 'for=10.0.0.3',
    'cf-connecting-ip': '10.0.0.4',
    via: '1.1 proxy',
    referer: 'https://chat.example/secret-page',
    'sec-fetch-site': 'cross-site',
    // what a platform or proxy in front of an upstream may trust: a client address, a route, a method
    'client-ip': '10.0.0.5',
    'fastly-client-ip': '10.0.0.6',
    'x-envoy-internal': 'true',
    'x-http-method-override': 'PUT',
    'x-original-url': '/admin',
    'x-middleware-subrequest': 'middleware',
  };
  const r = await get(relay, '/headers', sent);
  const seen = await r.json();
  assert.equal(seen['x-api-key'], secrets['x-api-key'], "a server's own header crosses");
  assert.equal(seen.authorization, secrets.authorization);
  assert.equal(seen['mcp-session-id'], 's-1');
  for (const name of [
    'cookie',
    'x-forwarded-for',
    'x-real-ip',
    'forwarded',
    'cf-connecting-ip',
    'via',
    'referer',
    'client-ip',
    'fastly-client-ip',
    'x-envoy-internal',
    'x-http-method-override',
    'x-original-url',
    'x-middleware-subrequest',
  ])
    assert.equal(seen[name], undefined, `${name} is not forwarded`);
  assert.equal(seen.origin, undefined, "the page's origin is not forwarded");
  assert.equal(seen['sec-fetch-site'], undefined);
  assert.equal(seen.host, `127.0.0.1:${U}`, "the upstream's own Host, not the relay's");
  // refused requests log too: a navigation, another origin, a preflight
  await get(relay, '/headers', { ...secrets, 'sec-fetch-mode': 'navigate' });
  await relay(new Request(at('/headers'), { headers: { ...secrets, origin: 'https://evil.example' } }));
  await relay(
    new Request(at('/headers'), {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    }),
  );
  assert.equal(logs.length, 4);
  for (const entry of logs)
    for (const [name, value] of Object.entries(secrets)) {
      const line = JSON.stringify(entry);
      assert.ok(
        !line.includes(value) && !line.includes(value.split(' ').at(-1)),
        `${name} written to the log: ${line}`,
      );
    }
});

test('OAuth metadata rewritten from the checked Host is private (no shared cache); with publicUrl, from it alone', async () => {
  // the form an MCP client derives from a relayed URL: the metadata rewritten for the relay
  const doc = (relay) => `${relay}/.well-known/oauth-authorization-server/http/127.0.0.1:${U}/`;
  const bare = relayOf({ publicUrl: undefined, allowedHosts: ['relay-a.example'] });
  const r = await bare(new Request(doc('http://relay-a.example'), { headers: { origin: PAGE } }));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'private, no-store');
  assert.equal((await r.json()).token_endpoint, `http://relay-a.example/http/127.0.0.1:${U}/token`);
  const pinned = relayOf({ allowedHosts: ['relay-b.example'] });
  const p = await pinned(new Request(doc('http://relay-b.example'), { headers: { origin: PAGE } }));
  assert.equal((await p.json()).token_endpoint, `${RELAY}/http/127.0.0.1:${U}/token`, 'publicUrl, not the Host');
  assert.equal(p.headers.get('cache-control'), 'public, max-age=3600');
});

test('bad options are a TypeError at creation, naming the option', () => {
  for (const [options, name] of [
    [{ allowedHosts: ['https://relay.example'] }, /allowedHosts entry "https:\/\/relay.example"/],
    [{ allowedHosts: ['relay.example/path'] }, /allowedHosts/],
    [{ allowedHosts: [''] }, /allowedHosts/],
    [{ clientIpHeader: 'x forwarded for' }, /clientIpHeader/],
    [{ maxStreamsPerClient: 0 }, /maxStreamsPerClient/],
  ])
    assert.throws(
      () => createRelay({ allow: [origin()], ...options }),
      (e) => e instanceof TypeError && name.test(e.message),
    );
  assert.doesNotThrow(() => createRelay({ allowedHosts: ['relay.example:8443', '[::1]:80', '10.0.0.1'] }));
});
