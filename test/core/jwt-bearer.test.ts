// The JWT-bearer grant with the page's identity assertion (issue 10 item 4), against the real
// peers of test/fixtures/idjag-server.mjs: an enterprise identity provider that exchanges the
// user's ID token for an ID-JAG (RFC 8693), an authorization server that redeems it (RFC 7523),
// and the MCP server it protects; and workload identity, where the page's JWT is the grant.
import { expect } from '@open-wc/testing';
import { McpAuthError, McpConfigError, type McpHub } from '../../src/core/index.js';
import { dump, privateHub, rawIdb, recordEvents, rejects, unique, urls } from '../helpers.js';

interface Seen {
  assertions: string[];
  idJags: string[];
  accessTokens: string[];
  exchanges: number;
  grants: number;
}
const seen = async (tenant: string): Promise<Seen> => (await fetch(`${urls.idjag}/t/${tenant}/seen`)).json();
const idToken = async (sub: string): Promise<string> =>
  ((await (await fetch(`${urls.idjag}/idp/id-token?sub=${sub}`)).json()) as { id_token: string }).id_token;

const EVENTS = [
  'mcp-server-added',
  'mcp-server-status-changed',
  'mcp-tools-changed',
  'mcp-sign-in-required',
  'mcp-sign-in-failed',
  'mcp-tool-call-started',
  'mcp-tool-call-completed',
  'mcp-tool-call-failed',
];

/** A hub that allows the fixture's identity provider (`idpTokenEndpoints`). */
const idJagHub = () => privateHub({ idpTokenEndpoints: [`${urls.idjag}/idp/token`] });

const idJagAuth = (extra: Record<string, unknown> = {}) => ({
  type: 'jwt-bearer' as const,
  flow: 'id-jag' as const,
  clientId: 'mcp-client',
  clientSecret: 'mcp-secret',
  idp: { tokenEndpoint: `${urls.idjag}/idp/token`, clientId: 'page-client' },
  ...extra,
});

/** Everything a page could leak a value into: state, events (with their details), raw IndexedDB, the export, the console. */
async function everywhere(hub: McpHub, events: Event[], consoleLines: string[]): Promise<string> {
  return [
    dump(hub.store.state),
    dump(events.map((e) => ({ type: e.type, detail: (e as CustomEvent).detail }))),
    dump(await rawIdb(hub.storeName)),
    hub.exportConfig(),
    consoleLines.join('\n'),
  ].join('\n');
}

describe('JWT-bearer grant with the page’s identity assertion', () => {
  const consoleLines: string[] = [];
  const originals: Partial<Record<'log' | 'warn' | 'error' | 'info' | 'debug', (...a: unknown[]) => void>> = {};
  beforeEach(() => {
    consoleLines.length = 0;
    for (const k of ['log', 'warn', 'error', 'info', 'debug'] as const) {
      originals[k] = console[k];
      console[k] = (...a: unknown[]) => {
        consoleLines.push(a.map(String).join(' '));
        originals[k]!(...a);
      };
    }
  });
  afterEach(() => {
    for (const k of Object.keys(originals) as (keyof typeof originals)[]) console[k] = originals[k]!;
  });

  it('id-jag: the user’s ID token is exchanged at the IdP, the ID-JAG redeemed; renewed on 401; no value stored or shown', async () => {
    const tenant = unique('idjag');
    const hub = idJagHub();
    const asked: { serverId: string; flow: string; issuer: string; resource: string }[] = [];
    hub.setIdentityAssertion('*', async (request) => {
      asked.push({ ...request });
      return idToken('alice');
    });
    const events = recordEvents(window, EVENTS);
    const url = `${urls.idjag}/t/${tenant}/mcp`;
    const server = await hub.servers.add({ name: 'Enterprise', url, auth: idJagAuth() });
    await hub.connect(server.id);
    const who = await hub.client(server.id).callTool('whoami');
    expect((who.content[0] as { text: string }).text).to.equal('alice mcp-client');
    expect(asked[0]).to.deep.equal({
      serverId: server.id,
      serverUrl: url,
      flow: 'id-jag',
      issuer: `${urls.idjag}/as`,
      resource: url,
      idpTokenEndpoint: `${urls.idjag}/idp/token`,
    });
    let s = await seen(tenant);
    expect([s.exchanges, s.grants]).to.deep.equal([1, 1]);
    // the resource refuses every token it issued: the next call gets a new one through a new
    // assertion and exchange, without the user
    await fetch(`${urls.idjag}/t/${tenant}/control`, { method: 'POST', body: JSON.stringify({ revokeSeen: true }) });
    const call = await hub.callTool({
      serverId: server.id,
      tool: 'echo',
      arguments: { message: 'again' },
      source: 'user',
    });
    expect(call.status).to.equal('success');
    expect(dump(call.result)).to.include('Echo: again');
    s = await seen(tenant);
    expect([s.exchanges, s.grants]).to.deep.equal([2, 2]);
    expect(hub.status(server.id).status).to.equal('connected');
    events.stop();
    const text = await everywhere(hub, events.seen, consoleLines);
    for (const secret of [...s.assertions, ...s.idJags, ...s.accessTokens, 'mcp-secret'])
      expect(text, 'a secret leaked').not.to.include(secret);
    expect(JSON.parse(hub.exportConfig()).mcpServers.Enterprise.auth).to.deep.equal({
      type: 'jwt-bearer',
      flow: 'id-jag',
      clientId: 'mcp-client',
      clientSecret: '<redacted>',
      method: 'client_secret_basic',
      idp: { tokenEndpoint: `${urls.idjag}/idp/token`, clientId: 'page-client' },
    });
    // importing the export elsewhere asks for the secret that was not written
    const { added, errors } = await idJagHub().importConfig(hub.exportConfig());
    expect(added).to.have.length(0);
    expect(errors[0].issues.map((i) => i.path)).to.deep.equal(['auth.clientSecret']);
  });

  it('workload: the page’s JWT is the grant of a public client', async () => {
    const tenant = unique('wif');
    const hub = idJagHub();
    hub.setIdentityAssertion('*', async ({ issuer }) => {
      const r = await fetch(`${urls.idjag}/workload/jwt?aud=${encodeURIComponent(issuer)}`);
      return ((await r.json()) as { jwt: string }).jwt;
    });
    const server = await hub.servers.add({
      name: 'Workload',
      url: `${urls.idjag}/t/${tenant}/mcp`,
      auth: { type: 'jwt-bearer', flow: 'workload', clientId: 'workload-client', method: 'none' },
    });
    await hub.connect(server.id);
    const who = await hub.client(server.id).callTool('whoami');
    expect((who.content[0] as { text: string }).text).to.equal('workload-1 workload-client');
    const s = await seen(tenant);
    expect([s.exchanges, s.grants]).to.deep.equal([0, 1]);
  });

  it('the page’s function failing, or none registered: a typed error, the server in error, nothing sent', async () => {
    const tenant = unique('fail');
    const hub = idJagHub();
    const events = recordEvents(window, EVENTS);
    const server = await hub.servers.add({ name: 'NoSource', url: `${urls.idjag}/t/${tenant}/mcp`, auth: idJagAuth() });
    let error = await rejects(hub.connect(server.id));
    expect(error).to.be.instanceOf(McpAuthError);
    expect(error.code).to.equal('identity-assertion-failed');
    expect(error.message).to.include('hub.setIdentityAssertion');
    hub.setIdentityAssertion(server.id, () => {
      throw new Error('the user is not signed in to the enterprise IdP');
    });
    error = await rejects(hub.connect(server.id));
    expect(error).to.be.instanceOf(McpAuthError);
    expect(error.code).to.equal('identity-assertion-failed');
    expect(error.message).to.include('not signed in to the enterprise IdP');
    expect(hub.status(server.id).status).to.equal('error');
    expect(hub.status(server.id).error?.code).to.equal('identity-assertion-failed');
    // not a JWT: refused before anything is sent
    hub.setIdentityAssertion(server.id, () => 'not a token');
    error = await rejects(hub.connect(server.id));
    expect(error.code).to.equal('identity-assertion-failed');
    expect(error.message).not.to.include('not a token');
    const s = await seen(tenant);
    expect([s.exchanges, s.grants, s.assertions.length]).to.deep.equal([0, 0, 0]);
    events.stop();
    const failed = events.seen.filter((e) => e.type === 'mcp-server-status-changed');
    expect(dump(failed.map((e) => (e as CustomEvent).detail))).to.include('identity-assertion-failed');
  });

  it('an ID token the IdP refuses: token-request-failed naming the IdP’s token endpoint', async () => {
    const hub = idJagHub();
    hub.setIdentityAssertion('*', async () => `${(await idToken('bob')).slice(0, -4)}AAAA`);
    const server = await hub.servers.add({
      name: 'Refused',
      url: `${urls.idjag}/t/${unique('refused')}/mcp`,
      auth: idJagAuth(),
    });
    const error = await rejects(hub.connect(server.id));
    expect(error).to.be.instanceOf(McpAuthError);
    expect(error.code).to.equal('token-request-failed');
    expect(error.endpoint).to.equal(`${urls.idjag}/idp/token`);
  });

  it('bad config and arguments: typed errors naming the field; nothing stored', async () => {
    const hub = idJagHub();
    const url = `${urls.idjag}/t/${unique('bad')}/mcp`;
    const cases: [unknown, string][] = [
      [{ ...idJagAuth(), idp: undefined }, 'auth.idp'],
      [{ ...idJagAuth(), flow: 'workload' }, 'auth.idp'],
      [{ ...idJagAuth(), flow: 'other' }, 'auth.flow'],
      [idJagAuth({ idp: { tokenEndpoint: 'http://idp.example.com/token', clientId: 'c' } }), 'auth.idp.tokenEndpoint'],
      [idJagAuth({ idp: { tokenEndpoint: `${urls.idjag}/idp/token`, clientId: '' } }), 'auth.idp.clientId'],
      [idJagAuth({ method: 'none' }), 'auth.clientSecret'],
      [idJagAuth({ clientSecret: undefined }), 'auth.clientSecret'],
      [idJagAuth({ assertion: 'eyJ.x.y' }), 'auth'],
    ];
    for (const [auth, path] of cases) {
      const error = await rejects(hub.servers.add({ name: 'Bad', url, auth } as never));
      expect(error, path).to.be.instanceOf(McpConfigError);
      expect((error as McpConfigError).issues.map((i) => i.path)).to.include(path);
    }
    expect(hub.servers.list()).to.have.length(0);
    const bad = (await rejects(
      Promise.resolve().then(() => hub.setIdentityAssertion('', () => 'x')),
    )) as McpConfigError;
    expect(bad.issues[0].path).to.equal('serverId');
    const notFn = (await rejects(
      Promise.resolve().then(() => hub.setIdentityAssertion('*', 'eyJ.x.y' as never)),
    )) as McpConfigError;
    expect(notFn.issues[0].path).to.equal('source');
  });
});
