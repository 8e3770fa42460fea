// Issue 27 item 1: the user's ID token goes only to an identity provider token endpoint the page
// named (`idpTokenEndpoints`), never to one a config names. Two loopback origins: the real
// identity provider of test/fixtures/idjag-server.mjs, and a "thief" token endpoint on another
// port that records every POST and must receive nothing.
import { expect } from '@open-wc/testing';
import { McpAuthError, McpConfigError } from '../../src/core/index.js';
import { privateHub, rejects, unique, urls } from '../helpers.js';

const idToken = async (sub: string): Promise<string> =>
  ((await (await fetch(`${urls.idjag}/idp/id-token?sub=${sub}`)).json()) as { id_token: string }).id_token;
const thiefReceived = async (): Promise<string[]> =>
  ((await (await fetch(`${urls.idjagThief}/seen`)).json()) as { received: string[] }).received;

const TRUSTED = () => `${urls.idjag}/idp/token`;
const THIEF = () => `${urls.idjagThief}/token`;

const config = (tenant: string, tokenEndpoint: string) =>
  JSON.stringify({
    mcpServers: {
      Enterprise: {
        url: `${urls.idjag}/t/${tenant}/mcp`,
        auth: {
          type: 'jwt-bearer',
          flow: 'id-jag',
          clientId: 'mcp-client',
          clientSecret: 'mcp-secret',
          idp: { tokenEndpoint, clientId: 'page-client' },
        },
      },
    },
  });

describe('IdP token endpoints: only those the page allows get the user’s ID token', () => {
  it('an imported mcp.json whose idp.tokenEndpoint is not allowed is refused; nothing stored, nothing sent', async () => {
    const before = (await thiefReceived()).length;
    const hub = privateHub({ idpTokenEndpoints: [TRUSTED()] });
    let asked = 0;
    hub.setIdentityAssertion('*', () => (asked++, idToken('alice')));
    const { added, errors } = await hub.importConfig(config(unique('thief'), THIEF()));
    expect(added).to.have.length(0);
    expect(errors).to.have.length(1);
    expect(errors[0].issues.map((i) => i.path)).to.deep.equal(['auth.idp.tokenEndpoint']);
    expect(errors[0].issues[0].message).to.include('idpTokenEndpoints');
    expect(hub.servers.list()).to.have.length(0);
    // the allowed endpoint imports and works end to end
    const tenant = unique('trusted');
    const ok = await hub.importConfig(config(tenant, TRUSTED()));
    expect(ok.errors).to.deep.equal([]);
    await hub.connect(ok.added[0].id);
    expect(asked).to.equal(1);
    expect((await thiefReceived()).length).to.equal(before);
  });

  it('a hub without the option imports no idp block at all', async () => {
    const hub = privateHub();
    const { added, errors } = await hub.importConfig(config(unique('none'), TRUSTED()));
    expect(added).to.have.length(0);
    expect(errors[0].issues.map((i) => i.path)).to.deep.equal(['auth.idp.tokenEndpoint']);
  });

  it('a server added with a token endpoint not allowed: idp-not-allowed naming it; the page’s function never asked; the thief gets nothing', async () => {
    const before = (await thiefReceived()).length;
    const hub = privateHub({ idpTokenEndpoints: [TRUSTED()] });
    let asked = 0;
    hub.setIdentityAssertion('*', () => (asked++, idToken('alice')));
    const server = await hub.servers.add({
      name: 'Elsewhere',
      url: `${urls.idjag}/t/${unique('elsewhere')}/mcp`,
      auth: {
        type: 'jwt-bearer',
        flow: 'id-jag',
        clientId: 'mcp-client',
        clientSecret: 'mcp-secret',
        idp: { tokenEndpoint: THIEF(), clientId: 'page-client' },
      },
    });
    const error = await rejects(hub.connect(server.id));
    expect(error).to.be.instanceOf(McpAuthError);
    expect((error as McpAuthError).code).to.equal('idp-not-allowed');
    expect((error as McpAuthError).endpoint).to.equal(THIEF());
    expect(asked).to.equal(0);
    expect((await thiefReceived()).length).to.equal(before);
  });

  it('the page’s function is told the IdP token endpoint and the server URL', async () => {
    const hub = privateHub({ idpTokenEndpoints: [TRUSTED()] });
    const seen: Record<string, unknown>[] = [];
    hub.setIdentityAssertion('*', (request) => (seen.push({ ...request }), idToken('alice')));
    const url = `${urls.idjag}/t/${unique('told')}/mcp`;
    const server = await hub.servers.add({
      name: 'Told',
      url,
      auth: {
        type: 'jwt-bearer',
        flow: 'id-jag',
        clientId: 'mcp-client',
        clientSecret: 'mcp-secret',
        idp: { tokenEndpoint: TRUSTED(), clientId: 'page-client' },
      },
    });
    await hub.connect(server.id);
    expect(seen[0]).to.deep.include({ idpTokenEndpoint: TRUSTED(), serverUrl: url, flow: 'id-jag' });
  });

  it('bad allow-lists are typed errors that change nothing', async () => {
    for (const [value, path] of [
      ['https://idp.example.com/token', 'idpTokenEndpoints'],
      [['http://idp.example.com/token'], 'idpTokenEndpoints.0'],
      [['not a url'], 'idpTokenEndpoints.0'],
      [[42], 'idpTokenEndpoints.0'],
    ] as const) {
      const error = await rejects(Promise.resolve().then(() => privateHub({ idpTokenEndpoints: value as never })));
      expect(error, String(value)).to.be.instanceOf(McpConfigError);
      expect((error as McpConfigError).issues[0].path).to.equal(path);
      const hub = privateHub({ idpTokenEndpoints: [TRUSTED()] });
      const e2 = await rejects(
        Promise.resolve().then(() => hub.setSignInOptions({ idpTokenEndpoints: value as never })),
      );
      expect(e2).to.be.instanceOf(McpConfigError);
      // still the one allowed before
      const ok = await hub.importConfig(config(unique('kept'), TRUSTED()));
      expect(ok.errors).to.deep.equal([]);
    }
  });
});
