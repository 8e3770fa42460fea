// Machine credentials with private_key_jwt (RFC 7523): a key pair made by the hub (the private
// key non-extractable, kept in IndexedDB as a CryptoKey), its public JWK registered with the real
// oidc-provider of test/fixtures/oauth-server.mjs through Dynamic Client Registration (as an
// administrator would register it), and client_credentials tokens obtained with signed assertions.
import { expect } from '@open-wc/testing';
import { McpAuthError, McpConfigError } from '../../src/core/index.js';
import { privateHub, rawIdb, rejects, unique, urls } from '../helpers.js';

/** Register a client_credentials client authenticating with this public key; its client_id. */
async function register(publicJwk: JsonWebKey): Promise<string> {
  const r = await fetch(`${urls.oauthIssuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: publicJwk.alg,
      jwks: { keys: [publicJwk] },
    }),
  });
  const body = (await r.json()) as { client_id?: string; error_description?: string };
  if (!body.client_id) throw new Error(`registration refused: ${body.error_description}`);
  return body.client_id;
}

describe('client keys (private_key_jwt)', () => {
  for (const alg of ['ES256', 'RS256'] as const)
    it(`${alg}: a generated non-extractable key gets client_credentials tokens; only the public key leaves`, async () => {
      const hub = privateHub();
      const key = await hub.createClientKey({ alg });
      expect(key.keyId).to.match(/^mcpe-/);
      expect(key.publicJwk).to.include({ kid: key.keyId, alg, use: 'sig' });
      expect(key.publicJwk).not.to.have.property('d');
      const clientId = await register(key.publicJwk);
      const url = `${urls.oauthMcp}/t/${unique('jwt')}/auto/mcp`;
      const server = await hub.servers.add({
        name: 'Signed',
        url,
        auth: { type: 'client-credentials', clientId, method: 'private_key_jwt', keyId: key.keyId },
      });
      await hub.connect(server.id);
      const who = await hub.client(server.id).callTool('whoami');
      expect((who.content[0] as { text: string }).text).to.equal(`${clientId} mcp:tools`);
      // the private key in IndexedDB is a CryptoKey nobody can export
      const stored = (await rawIdb(hub.storeName)).find((r) => r.key === `clientkey:${key.keyId}`)?.value as {
        privateKey: CryptoKey;
      };
      expect(stored.privateKey).to.be.instanceOf(CryptoKey);
      expect(stored.privateKey.extractable).to.equal(false);
      await rejects(crypto.subtle.exportKey('jwk', stored.privateKey));
      expect(JSON.parse(hub.exportConfig()).mcpServers.Signed.auth).to.deep.equal({
        type: 'client-credentials',
        clientId,
        keyId: key.keyId,
        method: 'private_key_jwt',
      });
      // a deleted key: the token endpoint is never asked, the error names the key
      await hub.deleteClientKey(key.keyId);
      await hub.disconnect(server.id);
      const other = await hub.servers.add({
        name: 'Gone',
        url,
        auth: { type: 'client-credentials', clientId, method: 'private_key_jwt', keyId: key.keyId },
      });
      const error = await rejects(hub.connect(other.id));
      expect(error).to.be.instanceOf(McpAuthError);
      expect((error as McpAuthError).message).to.include(key.keyId);
    });

  it('a key the authorization server does not know is refused at the token endpoint', async () => {
    const hub = privateHub();
    const registered = await hub.createClientKey();
    const clientId = await register(registered.publicJwk);
    const stranger = await hub.createClientKey();
    const server = await hub.servers.add({
      name: 'Stranger',
      url: `${urls.oauthMcp}/t/${unique('jwt')}/auto/mcp`,
      auth: { type: 'client-credentials', clientId, method: 'private_key_jwt', keyId: stranger.keyId },
    });
    const error = (await rejects(hub.connect(server.id))) as McpAuthError;
    expect(error.code).to.equal('token-request-failed');
    expect(error.endpoint).to.equal(`${urls.oauthIssuer}/token`);
  });

  it('bad input: typed errors naming the field, nothing stored', async () => {
    const hub = privateHub();
    const url = `${urls.oauthMcp}/t/${unique('jwt')}/auto/mcp`;
    for (const [auth, path] of [
      [{ type: 'client-credentials', clientId: 'c', method: 'private_key_jwt' }, 'auth.keyId'],
      [
        { type: 'client-credentials', clientId: 'c', method: 'private_key_jwt', keyId: 'k', clientSecret: 's' },
        'auth.clientSecret',
      ],
      [{ type: 'client-credentials', clientId: 'c', method: 'client_secret_basic' }, 'auth.clientSecret'],
      [{ type: 'client-credentials', clientId: 'c', clientSecret: 's', keyId: 'k' }, 'auth.keyId'],
      [{ type: 'client-credentials', clientId: 'c', method: 'private_key_jwt', keyId: 'not a key id' }, 'auth.keyId'],
    ] as const) {
      const error = await rejects(hub.servers.add({ name: 'Bad', url, auth: auth as never }));
      expect(error, JSON.stringify(auth)).to.be.instanceOf(McpConfigError);
      expect((error as McpConfigError).issues.map((i) => i.path)).to.include(path);
    }
    expect(hub.servers.list()).to.have.length(0);
    const pem = await rejects(hub.createClientKey({ privateKeyPem: 'not a key' }));
    expect((pem as McpConfigError).issues[0].path).to.equal('privateKeyPem');
    const alg = await rejects(hub.createClientKey({ alg: 'HS256' as never }));
    expect((alg as McpConfigError).issues[0].path).to.equal('alg');
  });
});
