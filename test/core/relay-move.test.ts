// Issue 33 item 2: a relay sees every request of the servers it carries, credentials included.
// An imported mcp.json may name only a relay the host allows (`relayUrl`, `allowedRelays`), and a
// relay change is a move: stored secrets must be entered again, "Always allow" is dropped, the
// OAuth sign-in is forgotten, and the server reconnects. Real parts: the relay of
// test/fixtures/relay-fixture.mjs in front of server-everything (without CORS), and a "recording
// relay" on another loopback origin (test/fixtures/origins-server.mjs: it logs every request
// with its headers, answers preflights, and sends the request on to an address that is no MCP
// server), which must never see a secret stored for the first relay.
import { expect } from '@open-wc/testing';
import { CALLBACK_CHANNEL, McpAuthError, McpConfigError, McpHub } from '../../src/core/index.js';
import { click, privateHub, rawIdb, unique, until, urls } from '../helpers.js';

const relayed = urls as typeof urls & { noCors: string; relay: string };

/** A relay on another origin that records every request (`log()`), for this test only. */
function recordingRelay() {
  const tenant = unique('recorder');
  const aPort = new URL(urls.origins.a).port;
  const log = async () =>
    (await (await fetch(`${urls.origins.b}/t/${tenant}/log`)).json()) as {
      method: string;
      path: string;
      headers: Record<string, string>;
    }[];
  return {
    url: `${urls.origins.b}/t/${tenant}/hop/${aPort}`,
    log,
    /** The log, once a request (not a preflight) came through: `what` names the wait. */
    reached: (what: string) =>
      until(async () => {
        const l = await log();
        return l.some((r) => r.method === 'POST') ? l : undefined;
      }, what),
  };
}

/** The error `p` rejects with; an error naming `what` when it resolves instead. */
async function refused(p: Promise<unknown>, what: string): Promise<McpConfigError> {
  try {
    await p;
  } catch (e) {
    return e as McpConfigError;
  }
  throw new Error(`${what} was not refused: a relay change must be a move`);
}

/** A hub with the host relay, a recording relay, and a server with an API key through the host relay. */
async function keyedThroughRelay(key: string) {
  const hub = privateHub({ relayUrl: relayed.relay });
  const recorder = recordingRelay();
  const s = await hub.servers.add({
    name: 'Keyed',
    url: relayed.noCors,
    relay: relayed.relay,
    auth: { type: 'api-key', headerName: 'x-api-key', key },
    retries: 0,
    timeout: 10,
  });
  return { hub, recorder, s };
}

const file = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });

/** The vault's entries in the hub's IndexedDB (sealed secrets). */
const vaultEntries = async (hub: McpHub) => (await rawIdb(hub.storeName)).filter((r) => r.key.startsWith('secret:'));

describe('a relay named in mcp.json must be one the host allows', function () {
  this.timeout(60000);

  it('an import naming another relay is refused for that server (typed issue, nothing stored, nothing sent); the host relay imports and connects', async () => {
    const hub = privateHub({ relayUrl: relayed.relay });
    const recorder = recordingRelay();
    const { added, errors } = await hub.importConfig(
      file({
        // the host's relay, written with a trailing slash: the same relay
        Good: { url: relayed.noCors, relay: `${relayed.relay}/` },
        Evil: { url: relayed.noCors, relay: recorder.url, headers: { Authorization: 'Bearer evil-import-secret' } },
      }),
    );
    expect(
      errors.map((e) => e.name),
      'the entry naming a relay the host does not allow must be refused',
    ).to.deep.equal(['Evil']);
    expect(errors[0].issues.map((i) => i.path)).to.deep.equal(['relay']);
    expect(errors[0].issues[0].message).to.contain('is not a relay this page allows');
    expect(errors[0].issues[0].message).to.contain('allowedRelays');
    expect(added.map((s) => s.name)).to.deep.equal(['Good']);
    expect(hub.servers.list().map((s) => s.name)).to.deep.equal(['Good']);
    // the refused entry's header was never sealed, and its relay never reached
    expect(await vaultEntries(hub)).to.deep.equal([]);
    expect(await recorder.log()).to.deep.equal([]);
    await hub.connect(added[0].id);
    expect(hub.status(added[0].id).status).to.equal('connected');
    const echo = await hub.client(added[0].id).callTool('echo', { message: 'through the allowed relay' });
    expect(echo.content).to.deep.equal([{ type: 'text', text: 'Echo: through the allowed relay' }]);
  });

  it('allowedRelays: a listed relay imports without relayUrl; a hub with neither imports no relay at all', async () => {
    const allowing = privateHub({ allowedRelays: [relayed.relay] });
    const ok = await allowing.importConfig(file({ Listed: { url: relayed.noCors, relay: relayed.relay } }));
    expect(ok.errors).to.deep.equal([]);
    await allowing.connect(ok.added[0].id);
    expect(allowing.status(ok.added[0].id).status).to.equal('connected');

    const bare = privateHub();
    const refused = await bare.importConfig(file({ Listed: { url: relayed.noCors, relay: relayed.relay } }));
    expect(refused.added, 'a hub that allows no relay imported one').to.deep.equal([]);
    expect(refused.errors[0].issues.map((i) => i.path)).to.deep.equal(['relay']);
    expect(bare.servers.list()).to.deep.equal([]);
  });

  it('bad allowedRelays: McpConfigError naming each bad entry, no hub made', () => {
    for (const [value, path] of [
      [['ftp://relay.example'], 'allowedRelays.0'],
      [[relayed.relay, 'https://user:pw@relay.example'], 'allowedRelays.1'],
      ['https://relay.example', 'allowedRelays'],
      [['http://relay.example.com'], 'allowedRelays.0'], // remote relays must use HTTPS
    ] as const) {
      let error: unknown;
      try {
        new McpHub({ storeName: unique('bad'), allowedRelays: value as never });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(value)).to.be.instanceOf(McpConfigError);
      expect((error as McpConfigError).issues.map((i) => i.path)).to.deep.equal([path]);
    }
  });
});

describe('a relay change is a move', function () {
  this.timeout(60000);

  it('stored secrets must be entered again (the new relay never sees the old token), "Always allow" is dropped, and the server reconnects', async () => {
    const OLD = `old-token-${unique()}`;
    const NEW = `new-token-${unique()}`;
    const hub = privateHub({ relayUrl: relayed.relay });
    const recorder = recordingRelay();
    const s = await hub.servers.add({
      name: 'Relayed',
      url: relayed.noCors,
      relay: relayed.relay,
      auth: { type: 'bearer', token: OLD },
      retries: 0,
      timeout: 10,
    });
    await hub.connect(s.id);
    await hub.assistants.trust('default', s.id, 'echo');
    const trusted = () => hub.assistants.get('default').trusted.map((t) => `${t.serverId}/${t.tool}`);
    expect(trusted()).to.deep.equal([`${s.id}/echo`]);

    // the relay alone: refused, naming the stored token and where it would go; nothing changed
    const error = await refused(
      hub.servers.update(s.id, { relay: recorder.url }),
      'a relay edit carrying the stored token',
    );
    expect(error, 'a relay edit carrying the stored token is refused').to.be.instanceOf(McpConfigError);
    expect((error as McpConfigError).issues.map((i) => i.path)).to.deep.equal(['auth.token']);
    expect((error as McpConfigError).issues[0].message).to.contain(`through the relay ${new URL(recorder.url).origin}`);
    expect(hub.servers.get(s.id)!.relay).to.equal(relayed.relay);
    expect(trusted()).to.deep.equal([`${s.id}/echo`]);
    expect(hub.status(s.id).status).to.equal('connected');
    expect(await recorder.log()).to.deep.equal([]);

    // with the token entered again: saved, trust dropped, reconnected through the new relay
    const statuses: string[] = [];
    hub.addEventListener(
      'mcp-server-status-changed',
      (e) => e.detail.serverId === s.id && statuses.push(e.detail.status),
    );
    await hub.servers.update(s.id, { relay: recorder.url, auth: { type: 'bearer', token: NEW } });
    expect(trusted(), '"Always allow" survived the relay change').to.deep.equal([]);
    await until(async () => statuses.includes('connecting'), 'the server to reconnect after its relay changed');
    const log = await recorder.reached('the reconnect through the new relay');
    const sent = log.map((r) => r.headers.authorization).filter(Boolean);
    expect(sent).to.include(`Bearer ${NEW}`);
    expect(JSON.stringify(log), 'the old token reached the new relay').not.to.contain(OLD);
  });

  it('an API key moved with confirmSecrets goes on; removing the relay is a move too', async () => {
    const { hub, recorder, s } = await keyedThroughRelay('the-api-key');
    const off = await refused(
      hub.servers.update(s.id, { relay: null }),
      'removing the relay of a server with an API key',
    );
    expect((off as McpConfigError).issues.map((i) => i.path)).to.deep.equal(['auth.key']);
    expect(hub.servers.get(s.id)!.relay).to.equal(relayed.relay);
    // the same relay written differently is no move
    await hub.servers.update(s.id, { relay: `${relayed.relay}/` });
    await hub.servers.update(s.id, { relay: recorder.url }, { confirmSecrets: true });
    await hub.connect(s.id).catch(() => {});
    const log = await recorder.log();
    expect(log.some((r) => r.headers['x-api-key'] === 'the-api-key')).to.equal(true);
  });

  it('an OAuth sign-in through one relay is forgotten when the relay changes: the new relay gets no token', async () => {
    const hub = privateHub({ redirectUrl: `${location.origin}/__oauth-callback.html`, relayUrl: relayed.relay });
    const recorder = recordingRelay();
    const tenant = `relay-move-${Math.random().toString(36).slice(2)}`;
    const server = await hub.servers.add({
      name: 'Protected, relayed',
      url: `${urls.oauthMcp}/t/${tenant}/auto/mcp`,
      relay: relayed.relay,
      auth: { type: 'oauth' },
    });
    await hub.connect(server.id).catch(() => {});
    await click(() => hub.signIn(server.id));
    expect(hub.status(server.id).status).to.equal('connected');
    expect(hub.store.state.signIns[server.id]?.status).to.equal('signed-in');

    // the relay alone (an OAuth server keeps no secret in its config): saved, and reconnected
    await hub.servers.update(server.id, { relay: recorder.url });
    await until(async () => hub.store.state.signIns[server.id]?.status !== 'signed-in', 'the sign-in to be forgotten');
    const log = await recorder.reached('the server to reconnect through the new relay');
    const authorized = log.filter((r) => r.headers.authorization);
    expect(authorized, 'a token signed in through the old relay went to the new one').to.deep.equal([]);
  });

  it('machine credentials: a relay change fetches a new token; the one the old relay saw never reaches the new one', async () => {
    const hub = privateHub({ relayUrl: relayed.relay });
    const recorder = recordingRelay();
    const base = `${urls.oauthMcp}/t/${unique('machine')}`;
    const server = await hub.servers.add({
      name: 'Machine, relayed',
      url: `${base}/auto/mcp`,
      relay: relayed.relay,
      auth: {
        type: 'client-credentials',
        clientId: 'machine-basic',
        clientSecret: 'machine-basic-secret-0123456789abcdef',
      },
    });
    await hub.connect(server.id);
    const seen = (await (await fetch(`${base}/seen`)).json()) as { tokens: { token: string }[] };
    const first = seen.tokens[0].token;
    // confirmed (the client secret goes on to the token endpoint): still a move
    await hub.servers.update(server.id, { relay: recorder.url }, { confirmSecrets: true });
    const log = await recorder.reached('the server to reconnect through the new relay');
    const sent = log.map((r) => r.headers.authorization).filter(Boolean);
    expect(sent.length, 'the new relay was sent a token').to.be.greaterThan(0);
    expect(sent, 'the token the old relay carried went to the new one').not.to.include(`Bearer ${first}`);
  });

  it('a sign-in started through one relay is not finished through another: the code never reaches the new relay', async () => {
    const hub = privateHub({ redirectUrl: `${location.origin}/__oauth-callback.html`, relayUrl: relayed.relay });
    const recorder = recordingRelay();
    const server = await hub.servers.add({
      name: 'Protected, relayed',
      url: `${urls.oauthMcp}/t/${unique('pending')}/auto/mcp`,
      relay: relayed.relay,
      auth: { type: 'oauth' },
    });
    let authorizationUrl = '';
    const done = hub.signIn(server.id, { open: (u) => void (authorizationUrl = u) });
    done.catch(() => {});
    await until(async () => authorizationUrl !== '', 'the authorization URL');
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    await hub.servers.update(server.id, { relay: recorder.url });
    const code = unique('code');
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage({ type: 'mcp-elements:sign-in-callback', state, code, iss: urls.oauthIssuer });
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    channel.close();
    expect(error, 'the sign-in finished after its relay changed').to.be.instanceOf(McpAuthError);
    const log = await recorder.log();
    const tokenRequests = log.filter((r) => r.method === 'POST' && r.path.includes('/token')).map((r) => r.path);
    expect(tokenRequests, 'the code was redeemed through the new relay').to.deep.equal([]);
    expect(hub.store.state.signIns[server.id]?.status).not.to.equal('signed-in');
  });
});

describe('Test connection of an edit keeps stored secrets where they were entered for', function () {
  this.timeout(60000);

  it('a URL on another origin (or another relay) with a stored key is refused as a move; nothing reaches it', async () => {
    const { hub, recorder, s } = await keyedThroughRelay('the-stored-key');
    // what an edit form hands over: the stored reference, a URL typed into the form
    const { auth } = hub.servers.get(s.id)!;
    const direct = await refused(
      hub.testConnection({ name: 'Keyed', url: recorder.url, auth, retries: 0, timeout: 10 }, { serverId: s.id }),
      'Test connection of another origin carrying the stored key',
    );
    expect(direct, 'a typed refusal').to.be.instanceOf(McpConfigError);
    expect((direct as McpConfigError).issues.map((i) => i.path)).to.deep.equal(['auth.key']);
    const through = await refused(
      hub.testConnection(
        { name: 'Keyed', url: relayed.noCors, relay: recorder.url, auth, retries: 0, timeout: 10 },
        { serverId: s.id },
      ),
      'Test connection through another relay carrying the stored key',
    );
    expect((through as McpConfigError).issues.map((i) => i.path)).to.deep.equal(['auth.key']);
    expect(await recorder.log(), 'the other origin was sent nothing').to.deep.equal([]);
    // the stored record is unchanged
    expect(hub.servers.get(s.id)!.url).to.equal(relayed.noCors);
  });
});
