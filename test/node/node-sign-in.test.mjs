// Sign-in for a host without a browser, against a real authorization server (oidc-provider,
// test/fixtures/oauth-server.mjs), through the documented API only (MemoryStorage, events on the
// hub, `hub.connect(id, { signIn })`, `hub.signIn(id, { open })`): the step-up retry limit on the
// connect path, what `signIn()` resolves with when its reconnect fails, a pre-registered
// confidential client, and the 2025-03-26 default endpoints refused to later revisions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browse, nodeHub, unique } from './node-host-helpers.mjs';

const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');

/** Sign-ins that asked for a scope and were refused it before the hub stops (src/core/auth/step-up.ts). */
const STEP_UP_LIMIT = 2;

/** A fresh tenant of the protected MCP server with these flags, and what it saw. */
function tenant(flags) {
  const id = unique('signin');
  return {
    url: `${urls.oauthMcp}/t/${id}/${flags}/mcp`,
    seen: async () => (await fetch(`${urls.oauthMcp}/t/${id}/seen`)).json(),
  };
}

/** `open` for a host that signs in whenever asked, counting the authorization requests. */
function counting() {
  const opened = [];
  return { opened, open: (url) => (opened.push(url), browse(url)) };
}

test('step-up at connect that can never succeed: STEP_UP_LIMIT sign-ins, then insufficient-scope naming the scope', async () => {
  const hub = nodeHub('node-sign-in');
  const t = tenant('stuck+auto');
  const required = [];
  hub.addEventListener('mcp-sign-in-required', (e) => required.push(e.detail.reason));
  const s = await hub.servers.add({ name: 'Stuck', url: t.url, auth: { type: 'oauth' }, retries: 0 });
  const { opened, open } = counting();
  const error = await hub.connect(s.id, { signIn: { open } }).then(
    () => undefined,
    (e) => e,
  );
  assert.equal(error?.name, 'McpAuthError');
  assert.equal(error.code, 'insufficient-scope');
  assert.equal(error.scope, 'mcp:admin');
  assert.match(error.message, /mcp:admin/);
  assert.equal(opened.length, STEP_UP_LIMIT, 'one sign-in per refusal counted, none after the limit');
  for (const url of opened) assert.ok(new URL(url).searchParams.get('scope').split(' ').includes('mcp:admin'));
  assert.equal(hub.status(s.id).status, 'error');
  assert.equal(hub.status(s.id).error.code, 'insufficient-scope');
  // nothing after the last refusal: no other request, no fallback handshake
  const { requests } = await t.seen();
  const last = requests.at(-1);
  assert.equal(last.status, 403);
  assert.equal(requests.filter((r) => r.status === 403).length, requests.length - 1, 'one 401, then 403s only');

  // connecting again with signIn: the same typed error, and still no sign-in nor event
  const events = required.length;
  await assert.rejects(hub.connect(s.id, { signIn: { open } }), { code: 'insufficient-scope', scope: 'mcp:admin' });
  assert.equal(opened.length, STEP_UP_LIMIT);
  assert.equal(required.length, events, 'no mcp-sign-in-required once it ended');
  await hub.dispose();
});

test('step-up on a call that can never succeed, a host signing in whenever asked: STEP_UP_LIMIT step-ups, then calls end without asking', async () => {
  const hub = nodeHub('node-sign-in');
  const t = tenant('noadmin+auto');
  const s = await hub.servers.add({ name: 'No admin', url: t.url, auth: { type: 'oauth' }, retries: 0 });
  await hub.connect(s.id, { signIn: { open: browse } });
  const { opened, open } = counting();
  const asked = [];
  hub.addEventListener('mcp-sign-in-required', (e) => {
    if (!e.detail.callId) return;
    asked.push(e.detail.reason);
    void hub.signIn(s.id, { open }).catch(() => {});
  });
  const records = [];
  for (let i = 0; i < STEP_UP_LIMIT + 2; i++)
    records.push(await hub.callTool({ serverId: s.id, tool: 'admin', arguments: {}, source: 'user' }));
  for (const r of records) {
    assert.equal(r.status, 'error');
    assert.equal(r.error.code, 'insufficient-scope');
    assert.match(r.error.message, /mcp:admin/);
  }
  assert.equal(opened.length, STEP_UP_LIMIT, 'a sign-in per refusal until the limit, none after');
  assert.deepEqual(asked, Array(STEP_UP_LIMIT).fill('insufficient-scope'));
  assert.equal(hub.status(s.id).error.code, 'insufficient-scope');
  await hub.dispose();
});

test('signIn() resolves with the status it reached after its reconnect failed: needs-sign-in, then error once the step-up ended', async () => {
  const hub = nodeHub('node-sign-in');
  const t = tenant('stuck+auto');
  const s = await hub.servers.add({ name: 'Stuck', url: t.url, auth: { type: 'oauth' }, retries: 0 });
  await assert.rejects(hub.connect(s.id), { code: 'sign-in-required' });
  const requestsBefore = (await t.seen()).requests.length;
  const first = await hub.signIn(s.id, { open: browse });
  // resolved after the reconnect: the server already refused the new token
  const after = (await t.seen()).requests;
  assert.ok(after.length > requestsBefore, 'the reconnect reached the server before signIn resolved');
  assert.equal(after.at(-1).authorization, true);
  assert.equal(after.at(-1).status, 403);
  assert.equal(first.status, 'needs-sign-in');
  assert.equal(first.error.code, 'insufficient-scope');
  assert.deepEqual(first, hub.status(s.id));
  const second = await hub.signIn(s.id, { open: browse });
  assert.equal(second.status, 'error', 'the second refused sign-in ends the step-up');
  assert.equal(second.error.code, 'insufficient-scope');
  assert.match(second.error.message, /mcp:admin/);
  // an explicit sign-in after that starts a fresh count (another account, access granted since)
  const third = await hub.signIn(s.id, { open: browse });
  assert.equal(third.status, 'needs-sign-in');
  await hub.dispose();
});

test('a pre-registered confidential client (clientSecret) signs in: no registration, its client_id on the token', async () => {
  const hub = nodeHub('node-sign-in');
  const t = tenant('auto');
  const s = await hub.servers.add({
    name: 'Confidential',
    url: t.url,
    auth: { type: 'oauth', clientId: 'node-confidential', clientSecret: 'node-confidential-secret-0123456789abcdef' },
  });
  assert.match(s.auth.clientSecret.secretRef, /^sec_/, 'the secret is sealed');
  const { opened, open } = counting();
  const catalogue = await hub.connect(s.id, { signIn: { open } });
  assert.ok(catalogue.tools.some((x) => x.name === 'whoami'));
  assert.equal(opened.length, 1);
  assert.equal(new URL(opened[0]).searchParams.get('client_id'), 'node-confidential');
  const { tokens } = await t.seen();
  const claims = JSON.parse(Buffer.from(tokens.at(-1).token.split('.')[1], 'base64url').toString());
  assert.equal(claims.client_id, 'node-confidential');
  await hub.dispose();
});

test('a pre-registered client with the wrong secret: the code exchange fails, typed, and nothing is stored', async () => {
  const hub = nodeHub('node-sign-in');
  const t = tenant('auto');
  const s = await hub.servers.add({
    name: 'Confidential',
    url: t.url,
    auth: { type: 'oauth', clientId: 'node-confidential', clientSecret: 'not-the-secret' },
  });
  await assert.rejects(hub.connect(s.id, { signIn: { open: browse } }), { name: 'McpAuthError' });
  assert.notEqual(hub.status(s.id).status, 'connected');
  assert.notEqual(hub.store.state.signIns[s.id]?.status, 'signed-in');
  assert.equal((await t.seen()).tokens.length, 0, 'no token reached the server');
  await hub.dispose();
});

test('2025-03-26 default endpoints: used for a server of that revision, refused when pinned to a later one', async () => {
  const hub = nodeHub('node-sign-in');
  // pinned to a later revision: every later revision requires Protected Resource Metadata
  for (const revision of ['2025-06-18', '2025-11-25']) {
    const t = tenant('noprm');
    const s = await hub.servers.add({ name: `Later ${revision}`, url: t.url, revision, auth: { type: 'oauth' } });
    const opened = [];
    const open = (url) => {
      opened.push(url);
      throw new Error('the test stops at the authorization URL');
    };
    await assert.rejects(hub.connect(s.id, { signIn: { open } }), {
      name: 'McpAuthError',
      code: 'metadata',
    });
    assert.deepEqual(opened, [], revision);
  }
  // the same server, of 2025-03-26 (pinned, or not pinned): that revision's /authorize, with S256
  for (const revision of ['2025-03-26', 'auto']) {
    const t = tenant('noprm');
    const s = await hub.servers.add({ name: `Old ${revision}`, url: t.url, revision, auth: { type: 'oauth' } });
    const opened = [];
    await assert.rejects(
      hub.connect(s.id, {
        signIn: {
          open: (url) => {
            opened.push(new URL(url));
            throw new Error('the test stops at the authorization URL');
          },
        },
      }),
    );
    assert.equal(opened.length, 1, revision);
    assert.equal(`${opened[0].origin}${opened[0].pathname}`, `${urls.oauthMcp}/authorize`, revision);
    assert.equal(opened[0].searchParams.get('code_challenge_method'), 'S256', revision);
  }
  await hub.dispose();
});

test('a relayed server whose authorization server the relay does not forward to: the error names the relay and what to allow, nothing opened', async () => {
  const path = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const { createNodeRelay, serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));
  const issuer = new URL(urls.oauthIssuer).origin;
  assert.notEqual(issuer, new URL(urls.oauthMcp).origin, 'the authorization server is on an origin of its own');
  const refused = [];
  // the relay forwards to the MCP server only, not to its authorization server
  const relay = await serveHandler(
    createNodeRelay({
      allow: [new URL(urls.oauthMcp).origin],
      rateLimit: false,
      onLog: (e) => e.refused && refused.push(e.target),
    }),
  );
  const hub = nodeHub('node-sign-in');
  try {
    const t = tenant('auto');
    const s = await hub.servers.add({
      name: 'Relayed',
      url: t.url,
      relay: relay.url,
      auth: { type: 'oauth' },
      retries: 0,
    });
    const { opened, open } = counting();
    const error = await hub.connect(s.id, { signIn: { open } }).then(
      () => undefined,
      (e) => e,
    );
    assert.equal(error?.name, 'McpAuthError');
    assert.equal(error.code, 'endpoint-unreachable', error.message);
    assert.ok(
      error.message.includes(`The relay ${new URL(relay.url).origin} does not forward to ${issuer}`),
      error.message,
    );
    assert.match(
      error.message,
      new RegExp(`add ${issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to the relay's allow list`),
    );
    assert.deepEqual(opened, [], 'no authorization request was opened');
    assert.ok(refused.includes(issuer), `the relay refused ${issuer}: ${refused.join(', ')}`);
  } finally {
    await hub.dispose();
    await relay.close();
  }
});
