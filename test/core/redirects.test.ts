// Issue 27 item 2: a redirect to another origin must never carry a server's secrets there. Origin
// A answers 307 to origin B (127.0.0.1 on another port); B logs every request it receives, CORS
// preflights included, and must receive nothing on any path the hub fetches with secrets.
import { expect } from '@open-wc/testing';
import { IdbStorage, McpConnectionError } from '../../src/core/index.js';
import { names } from '../../src/core/auth/records.js';
import { revokeTokens } from '../../src/core/auth/revoke.js';
import { Vault } from '../../src/core/persistence/vault.js';
import { privateHub, rejects, unique, urls } from '../helpers.js';

const KEY = 'sk-redirect-test-key';
const SECRET = 'header-secret-value';

type Seen = { method: string; path: string; headers: Record<string, string> }[];
const log = (base: string, tenant: string): Promise<Seen> => fetch(`${base}/t/${tenant}/log`).then((r) => r.json());

describe('redirects to another origin (issue 27 item 2)', () => {
  const cases: [string, 'jsonrpc' | 'auto' | 'streamable-http', string][] = [
    ['plain JSON-RPC', 'jsonrpc', 'hop'],
    ['auto (its JSON-RPC fallback too)', 'auto', 'hop'],
    // the preflight refuses the MCP headers: the CORS diagnosis probes with each configured header
    ['the CORS diagnosis after a refused preflight', 'streamable-http', 'hopx'],
  ];
  for (const [what, transport, hop] of cases) {
    it(`${what}: a 307 to another origin is refused with a typed error; that origin receives nothing`, async () => {
      const { a, b, bPort } = urls.origins;
      const tenant = unique('redirect');
      // B serves a tool A does not have: if B's list were taken as A's, it would show
      await fetch(`${b}/t/${tenant}/define`, { method: 'POST', body: JSON.stringify({ extra: 'only-on-b' }) });
      const hub = privateHub();
      const s = await hub.servers.add({
        name: 'A',
        url: `${a}/t/${tenant}/${hop}/${bPort}/jsonrpc`,
        transport,
        auth: { type: 'api-key', headerName: 'x-api-key', key: KEY },
        headers: [
          { name: 'x-secret', value: SECRET, secret: true },
          // hopx's preflight refuses this one: every request fails there, and the diagnosis runs
          ...(hop === 'hopx' ? [{ name: 'x-blocked', value: 'on', secret: false }] : []),
        ],
      });
      const err = await rejects(hub.connect(s.id));
      expect(err).to.be.instanceOf(McpConnectionError);
      if (hop === 'hop') {
        expect(err.code).to.equal('redirect');
        expect(err.message).to.match(/redirect/i);
      } else expect(err.message).to.match(/x-blocked/);
      expect(err.message).not.to.contain(KEY);
      expect(err.message).not.to.contain(SECRET);
      // A was asked (the test reached it), B never was
      expect((await log(a, tenant)).length).to.be.greaterThan(0);
      expect(await log(b, tenant)).to.deep.equal([]);
      expect(hub.catalogue(s.id)?.tools ?? []).to.deep.equal([]);
    });
  }

  it('a tool call on a connected plain JSON-RPC server that starts redirecting is refused; B receives nothing', async () => {
    const { a, b, bPort } = urls.origins;
    const tenant = unique('redirect-call');
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'A',
      url: `${a}/t/${tenant}/jsonrpc`,
      transport: 'jsonrpc',
      auth: { type: 'api-key', headerName: 'x-api-key', key: KEY },
    });
    await hub.connect(s.id);
    // the same server, now behind a redirect: the next request must not follow it
    await hub.servers.update(s.id, {
      url: `${a}/t/${tenant}/hop/${bPort}/jsonrpc`,
      auth: { type: 'api-key', key: KEY },
    });
    const r = await hub.callTool({ serverId: s.id, tool: 'echo', arguments: { text: 'x' }, source: 'user' });
    expect(r.status).to.equal('error');
    expect(await log(b, tenant)).to.deep.equal([]);
  });

  it('Streamable HTTP (pinned), its preflight open: a 307 to another origin is refused with a typed error; that origin receives nothing', async () => {
    const { a, b, bPort } = urls.origins;
    const tenant = unique('redirect-shttp');
    await fetch(`${b}/t/${tenant}/define`, { method: 'POST', body: JSON.stringify({ extra: 'only-on-b' }) });
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'A',
      // B serves Streamable HTTP on this path: followed, the session would be B's
      url: `${a}/t/${tenant}/hop/${bPort}/v0326/mcp`,
      transport: 'streamable-http',
      auth: { type: 'api-key', headerName: 'x-api-key', key: KEY },
      headers: [{ name: 'x-secret', value: SECRET, secret: true }],
    });
    const err = await rejects(hub.connect(s.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.message).to.match(/redirect/i);
    expect(err.message).not.to.contain(KEY);
    expect(err.message).not.to.contain(SECRET);
    // A's preflight is open: the POST itself reached A and was answered 307
    expect((await log(a, tenant)).some((r) => r.method === 'POST')).to.equal(true);
    expect(await log(b, tenant)).to.deep.equal([]);
    expect(hub.catalogue(s.id)?.tools ?? []).to.deep.equal([]);
  });

  it('token revocation: a 307 from the revocation endpoint to another origin is refused; the tokens and client secret never reach it', async () => {
    const { a, b, bPort } = urls.origins;
    const tenant = unique('redirect-revoke');
    const issuer = `${a}/t/${tenant}/as`;
    const endpoint = `${a}/t/${tenant}/hop/${bPort}/revoke`;
    const redirectUrl = `${location.origin}/callback.html`;
    const vault = new Vault(new IdbStorage(unique('store')));
    // a registered client with a secret, sent in the body (client_secret_post)
    await vault.seal(names.client(issuer, redirectUrl), { client_id: 'cid', client_secret: 'client-secret-0123' });
    const revoked = await revokeTokens(
      {
        issuer,
        resource: `${a}/t/${tenant}/mcp`,
        tokens: { access_token: 'access-token-abc', refresh_token: 'refresh-token-xyz', token_type: 'Bearer' },
        obtainedAt: Date.now(),
        signedInAt: Date.now(),
      },
      {
        vault,
        redirectUrl,
        metadata: {
          issuer,
          revocation_endpoint: endpoint,
          revocation_endpoint_auth_methods_supported: ['client_secret_post'],
        },
        timeoutMs: 10_000,
      },
    );
    expect(revoked, 'nothing was revoked').to.equal(false);
    // both tokens were offered to A's endpoint (refresh first), each answered 307
    const asked = (await log(a, tenant)).filter((r) => r.method === 'POST').map((r) => r.path);
    expect(asked).to.deep.equal([`/t/${tenant}/hop/${bPort}/revoke`, `/t/${tenant}/hop/${bPort}/revoke`]);
    expect(await log(b, tenant)).to.deep.equal([]);
  });
});
