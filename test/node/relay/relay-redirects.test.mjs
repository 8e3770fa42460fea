// Redirects through the SSRF guard (issue 33 item 3 and the lows on credentials): a real server
// on 127.0.0.1 that 307-redirects to a second one on another port (another origin), which logs
// the headers it received. What the first server's credentials are must never arrive there: not
// through `guardedFetch` (the backend hub's fetch), not through the backend's chat handler, and
// through the relay only the headers that say how to read the answer.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { readChatStream } from '../server/chat-stream.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createGuard, guardedFetch, RelayRefusal } = await import(path.join(root, 'dist/relay/index.js'));
const { createNodeRelay, serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));
const { createChatHandler } = await import(path.join(root, 'dist/server/index.js'));

/** The other origin: logs every request's headers, answers 200 with an empty JSON-RPC result. */
const landed = [];
let first, other, model, A, B;

function listen(server) {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${server.address().port}`)));
}

before(async () => {
  other = http.createServer((req, res) => {
    landed.push({ url: req.url, headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  B = await listen(other);
  // /same/* → /final (same origin), /final answers itself, anything else → the other origin
  first = http.createServer((req, res) => {
    req.resume();
    if (req.url.startsWith('/final')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const to = req.url.startsWith('/same') ? `${A}/final` : `${B}${req.url}`;
    res.writeHead(307, { location: to }).end();
  });
  A = await listen(first);
  model = await startFakeOpenAI();
});
after(async () => {
  await Promise.all([new Promise((r) => first.close(r)), new Promise((r) => other.close(r)), model?.close()]);
});

const SECRETS = {
  authorization: 'Bearer first-server-token',
  'x-api-key': 'first-server-key',
  'mcp-session-id': 'session-of-the-first-server',
  dpop: 'eyJ.proof.for-the-first-server',
  'mcp-param-account': '12345',
  cookie: 'sid=first',
};
const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

test("guardedFetch: redirect 'manual' gets the 3xx itself; nothing reaches the other origin", async () => {
  landed.length = 0;
  const f = guardedFetch({ allow: [A, B] });
  const r = await f(`${A}/mcp`, {
    method: 'POST',
    headers: { ...SECRETS, 'content-type': 'application/json' },
    body: rpc,
    redirect: 'manual',
  });
  assert.equal(r.status, 307, 'the caller asked for the redirect, not its target');
  assert.equal(r.headers.get('location'), `${B}/mcp`);
  assert.deepEqual(landed, [], 'a request reached the other origin');
});

test('guardedFetch following redirects: another origin refused (RelayRefusal), its own origin followed', async () => {
  landed.length = 0;
  const f = guardedFetch(createGuard({ allow: [A, B] }));
  await assert.rejects(
    f(`${A}/mcp`, { method: 'POST', headers: { ...SECRETS, 'content-type': 'application/json' }, body: rpc }),
    (e) => e instanceof RelayRefusal && e.status === 502 && /another origin/.test(e.message),
  );
  // a Request as input too (the init of the Request, no init of the call)
  await assert.rejects(
    f(
      new Request(`${A}/mcp`, {
        method: 'POST',
        headers: { ...SECRETS, 'content-type': 'application/json' },
        body: rpc,
      }),
    ),
    (e) => e instanceof RelayRefusal && /another origin/.test(e.message),
  );
  assert.deepEqual(
    landed.map((l) => Object.keys(l.headers).filter((h) => h in SECRETS)),
    [],
    "a request carrying the first server's headers reached the other origin",
  );
  // the control: a redirect within the origin is followed, unless the caller says 'error'
  const same = await f(`${A}/same/mcp`, { headers: SECRETS });
  assert.equal(same.status, 200);
  await assert.rejects(
    f(`${A}/same/mcp`, { headers: SECRETS, redirect: 'error' }),
    (e) => e instanceof RelayRefusal && /follows no redirect/.test(e.message),
  );
});

test("the backend's chat handler: a server redirecting to another origin fails; its X-Api-Key never arrives there", async () => {
  landed.length = 0;
  const handler = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [A, B] },
  });
  try {
    const r = await handler(
      new Request('http://backend/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [{ role: 'user', content: 'hi' }],
          mcp_servers: [
            { name: 'keyed', url: `${A}/mcp`, headers: { 'X-Api-Key': 'first-server-key', Authorization: 'Bearer t' } },
          ],
        }),
      }),
    );
    const events = await readChatStream(r);
    const outcome = events.find((e) => e.event === 'server')?.data;
    const leaked = landed.filter((l) => l.headers['x-api-key'] || l.headers.authorization);
    assert.deepEqual(leaked, [], 'X-Api-Key or Authorization reached the other origin');
    assert.equal(outcome?.status, 'failed', "the other origin's tools were presented as the first server's");
    assert.match(outcome.error, /redirect/i);
  } finally {
    await handler.hub.dispose();
  }
});

test('guard.send (the relay) follows to another origin with the safe headers only: no credential, session, proof or parameter', async () => {
  landed.length = 0;
  const guard = createGuard({ allow: [A, B] });
  const headers = {
    ...SECRETS,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-11-25',
  };
  // a GET (an event stream, a metadata document): no body to resend
  const { response, url } = await guard.send(new URL(`${A}/mcp`), { method: 'GET', headers });
  assert.equal(response.status, 200);
  assert.equal(url.origin, B);
  assert.equal(landed.length, 1);
  const got = landed[0].headers;
  for (const name of Object.keys(SECRETS)) assert.equal(got[name], undefined, `${name} followed to another origin`);
  assert.equal(got.accept, headers.accept);
  assert.equal(got['mcp-protocol-version'], '2025-11-25');
});

test('guard.send: a 307 of a request with a body to another origin is refused; the body is never resent there', async () => {
  landed.length = 0;
  const guard = createGuard({ allow: [A, B] });
  const token = 'grant_type=refresh_token&refresh_token=first-server-refresh&client_secret=s3cret';
  await assert.rejects(
    guard.send(new URL(`${A}/token`), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: token,
    }),
    (e) => e instanceof RelayRefusal && e.status === 502 && /body/.test(e.message),
  );
  assert.deepEqual(landed, [], 'the token request (its refresh token and client secret) was resent to another origin');
});

test('the relay (createNodeRelay over HTTP): Authorization, Mcp-Session-Id, DPoP, Mcp-Param-* never reach the other origin', async () => {
  landed.length = 0;
  const relay = await serveHandler(createNodeRelay({ allow: [A, B], rateLimit: false }));
  try {
    const { host } = new URL(A);
    const r = await fetch(`${relay.url}/http/${host}/mcp`, {
      headers: { ...SECRETS, accept: 'application/json' },
    });
    assert.equal(r.status, 200);
    await r.arrayBuffer();
    assert.equal(landed.length, 1, 'the relay follows the redirect');
    for (const name of Object.keys(SECRETS))
      assert.equal(landed[0].headers[name], undefined, `${name} followed to another origin through the relay`);
  } finally {
    await relay.close();
  }
});

test('a redirect within the origin keeps the headers (the rule is about origins, not redirects)', async () => {
  landed.length = 0;
  const seen = [];
  const guard = createGuard({
    allow: [A],
    fetch: async (url, init) => {
      seen.push({ url, authorization: new Headers(init.headers).get('authorization') });
      return fetch(url, init);
    },
  });
  const { response } = await guard.send(new URL(`${A}/same/x`), { headers: SECRETS });
  assert.equal(response.status, 200);
  assert.deepEqual(
    seen.map((s) => s.authorization),
    [SECRETS.authorization, SECRETS.authorization],
  );
});
