// A server reached through our relay signs in as it would directly (issue 33: "the relay must be
// transparent"), against the real authorization server of test/fixtures/oauth-server.mjs
// (oidc-provider) and our relay (dist/relay/node) on 127.0.0.1: a DPoP-bound server gets proofs
// naming its own URL, never the relay's (RFC 9449 `htu`), with its nonce passed back through the
// relay; machine credentials get their token through the relay too. In each, the hub's `fetch`
// refuses any URL that is not the relay's, so nothing reaches the servers around it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browse, nodeHub, unique } from '../node-host-helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createNodeRelay, serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));
const { startOAuthServers } = await import(path.join(root, 'test/fixtures/oauth-server.mjs'));

/** The page origin the hub plays (a browser's cross-origin fetch sends it). */
const PAGE = 'http://127.0.0.1:9';
let servers;
let relay;
/** What the relay forwarded: method, upstream origin, status (its onLog). */
const relayed = [];

before(async () => {
  servers = await startOAuthServers();
  const origins = [new URL(servers.mcp).origin, new URL(servers.issuer).origin];
  relay = await serveHandler(
    createNodeRelay({ allow: origins, origins: [PAGE], rateLimit: false, onLog: (e) => relayed.push(e) }),
  );
});
after(async () => {
  await relay?.close();
  await servers?.close();
});

/** A hub whose every request must go to the relay: anything else is refused and recorded. */
function relayOnlyHub() {
  const direct = [];
  const prefix = `${relay.url}/`;
  const hub = nodeHub('relay-transparency', {
    relayUrl: relay.url,
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith(prefix)) {
        direct.push(url);
        return Promise.reject(new TypeError(`fetched ${url} around the relay`));
      }
      const headers = new Headers(init?.headers);
      headers.set('origin', PAGE);
      return fetch(input, { ...init, headers });
    },
  });
  return { hub, direct };
}

/** A fresh tenant of the protected MCP server with these flags, and what it saw. */
function tenant(flags) {
  const id = unique('relayed');
  return {
    url: `${servers.mcp}/t/${id}/${flags}/mcp`,
    seen: async () => (await fetch(`${servers.mcp}/t/${id}/seen`)).json(),
  };
}

for (const flags of ['dpop+auto', 'dpopnonce+auto'])
  test(`a DPoP-bound server through the relay (${flags}): every proof names the server's URL, not the relay's`, async () => {
    const { hub, direct } = relayOnlyHub();
    const t = tenant(flags);
    try {
      const s = await hub.servers.add({
        name: 'DPoP',
        url: t.url,
        relay: relay.url,
        auth: { type: 'oauth' },
        retries: 0,
      });
      const connected = await hub.connect(s.id, { signIn: { open: browse } }).then(
        () => undefined,
        (e) => e,
      );
      const seen = await t.seen();
      // the fixture answers 401 to a DPoP-bound token whose proof fails its check (htm, htu = its
      // own URL, ath, jti, iat), and 401 use_dpop_nonce to a proof without its nonce
      const refusedProofs =
        seen.requests.filter((r) => r.scheme === 'DPoP' && r.status === 401).length - seen.nonceChallenges;
      assert.equal(
        refusedProofs,
        0,
        `the server refused ${refusedProofs} DPoP proof(s) sent through the relay (connect: ${connected?.code ?? 'ok'})`,
      );
      assert.equal(connected, undefined, `connect failed: ${connected?.code}: ${connected?.message}`);
      assert.ok(seen.proofs > 0, 'the server accepted DPoP proofs');
      if (flags.startsWith('dpopnonce'))
        assert.ok(seen.nonceChallenges > 0, "the server's use_dpop_nonce challenge came back through the relay");
      const who = await hub.callTool({ serverId: s.id, tool: 'whoami', arguments: {}, source: 'user' });
      assert.equal(who.status, 'success', `${who.error?.code}: ${who.error?.message}`);
      const calls = (await t.seen()).requests.filter((r) => r.name === 'whoami' && r.status !== 401);
      assert.deepEqual(
        calls.map((r) => `${r.scheme} ${r.status}`),
        ['DPoP 200'],
        'whoami was answered to a DPoP-bound token with a valid proof',
      );
      assert.deepEqual(direct, [], 'nothing was fetched around the relay');
      assert.ok(
        relayed.some((e) => e.target === new URL(servers.issuer).origin && e.method === 'POST'),
        'the token request went through the relay',
      );
    } finally {
      await hub.dispose();
    }
  });

test('machine credentials for a relayed server: the token request goes through the relay, nothing around it', async () => {
  const { hub, direct } = relayOnlyHub();
  const t = tenant('auto');
  const before = relayed.length;
  try {
    const s = await hub.servers.add({
      name: 'Machine',
      url: t.url,
      relay: relay.url,
      retries: 0,
      auth: {
        type: 'client-credentials',
        clientId: 'machine-basic',
        clientSecret: 'machine-basic-secret-0123456789abcdef',
        method: 'client_secret_basic',
      },
    });
    const connected = await hub.connect(s.id).then(
      () => undefined,
      (e) => e,
    );
    assert.deepEqual(direct, [], 'nothing was fetched around the relay');
    assert.equal(connected, undefined, `connect failed: ${connected?.code}: ${connected?.message}`);
    const who = await hub.callTool({ serverId: s.id, tool: 'whoami', arguments: {}, source: 'user' });
    assert.equal(who.status, 'success', `${who.error?.code}: ${who.error?.message}`);
    assert.ok(
      relayed.slice(before).some((e) => e.target === new URL(servers.issuer).origin && e.method === 'POST'),
      'the token request went through the relay',
    );
  } finally {
    await hub.dispose();
  }
});

test("upstreamOfRelayUrl undoes relayUrlFor, and names nothing for a URL that is not the relay's plain form", async () => {
  const { relayUrlFor, upstreamOfRelayUrl } = await import(path.join(root, 'dist/core/relay-url.js'));
  for (const relayUrl of ['https://relay.example', 'https://relay.example/', 'https://relay.example/base'])
    for (const upstream of [
      'https://mcp.example.com/mcp',
      'https://mcp.example.com/',
      'http://127.0.0.1:8080/a/b?x=1&y=%2F',
      'https://[::1]:8443/mcp/',
    ])
      assert.equal(upstreamOfRelayUrl(relayUrl, relayUrlFor(relayUrl, upstream)), upstream, `${relayUrl} ${upstream}`);
  // not through this relay, not its plain path form, or no upstream named: the URL is signed as is
  for (const url of [
    'https://mcp.example.com/mcp',
    'https://other.example/https/mcp.example.com/mcp',
    'https://relay.example/.well-known/oauth-protected-resource/https/mcp.example.com/mcp',
    'https://relay.example/ftp/mcp.example.com/mcp',
    'https://relay.example/https/',
    'https://relay.example.evil/https/mcp.example.com/mcp',
  ])
    assert.equal(upstreamOfRelayUrl('https://relay.example', url), undefined, url);
});
