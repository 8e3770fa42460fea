// Sign-in (issue 10) against real parts: oidc-provider as the authorization server (DCR, PKCE,
// resource indicators, rotating refresh tokens, revocation) and an MCP server on
// @modelcontextprotocol/server 2.4.0 that validates its JWT access tokens and serves Protected
// Resource Metadata (test/fixtures/oauth-server.mjs). The popup is a real window: the `auto`
// resources have their login and consent finished by the fixture, and the redirect page
// (/__oauth-callback.html, web-test-runner.config.mjs) calls completeSignIn().
import { expect } from '@open-wc/testing';
import {
  CALLBACK_CHANNEL,
  McpAuthError,
  McpConfigError,
  type McpHub,
  type ServerConfig,
} from '../../src/core/index.js';
import { IdbStorage } from '../../src/core/index.js';
import { Vault } from '../../src/core/persistence/vault.js';
import { click, privateHub, rawIdb, unique, urls } from '../helpers.js';

const CALLBACK = `${location.origin}/__oauth-callback.html`;

/**
 * The page's clock, moved forward by the test (Date.now, which the hub's token expiry reads), so
 * a test never waits for a token to age: restore() puts the real clock back.
 */
function pageClock() {
  const real = Date.now;
  let offset = 0;
  Date.now = () => real.call(Date) + offset;
  return {
    advance: (ms: number) => void (offset += ms),
    restore: () => void (Date.now = real),
  };
}

function tenant(flags = 'auto') {
  const t = unique('oauth');
  const base = `${urls.oauthMcp}/t/${t}`;
  return {
    url: `${base}/${flags}/mcp`,
    seen: () =>
      fetch(`${base}/seen`).then(
        (r) =>
          r.json() as Promise<{
            requests: { method?: string; name?: string; authorization: boolean; token?: string; status: number }[];
            tokens: { token: string; valid: boolean; scope?: string }[];
            prmFetches: number;
          }>,
      ),
    revokeSeen: () =>
      fetch(`${base}/control`, { method: 'POST', body: JSON.stringify({ revokeSeen: true }) }).then((r) => r.json()),
  };
}

/** hub.signIn(id) from a real click, as the manager's Sign in button does. */
function clickToSignIn(hub: McpHub, id: string): Promise<unknown> {
  return click(() => hub.signIn(id)).then((p) => p);
}

/** Every mcp-* event on window, as JSON of its detail. */
function recordEvents() {
  const seen: { type: string; detail: string }[] = [];
  const names = [
    'mcp-server-added',
    'mcp-server-updated',
    'mcp-server-status-changed',
    'mcp-tools-changed',
    'mcp-sign-in-required',
    'mcp-sign-in-completed',
    'mcp-sign-in-failed',
    'mcp-sign-out-completed',
    'mcp-tool-call-completed',
  ];
  const on = (e: Event) => seen.push({ type: e.type, detail: JSON.stringify((e as CustomEvent).detail) });
  for (const n of names) addEventListener(n, on);
  return { seen, stop: () => names.forEach((n) => removeEventListener(n, on)) };
}

/** Every console line written while `fn` runs. */
function recordConsole() {
  const lines: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => console[m]);
  methods.forEach((m, i) => {
    console[m] = (...args: unknown[]) => {
      lines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
      saved[i].apply(console, args);
    };
  });
  return { lines, stop: () => methods.forEach((m, i) => (console[m] = saved[i])) };
}

/** Every value in the hub's IndexedDB database, raw bytes included, as one searchable string. */
async function rawDatabase(name: string): Promise<string> {
  const text = (v: unknown): string => {
    if (v instanceof ArrayBuffer) return new TextDecoder('latin1').decode(v);
    if (ArrayBuffer.isView(v)) return new TextDecoder('latin1').decode(v as Uint8Array);
    if (v && typeof v === 'object')
      return Object.entries(v)
        .map(([k, x]) => `${k}:${text(x)}`)
        .join(' ');
    return String(v);
  };
  return (await rawIdb(name)).map((r) => `${r.key} ${text(r.value)}`).join('\n');
}

async function addOAuthServer(hub: McpHub, url: string, extra: Partial<{ scopes: string[] }> = {}) {
  return hub.servers.add({ name: 'Protected', url, auth: { type: 'oauth', ...extra } });
}

async function until(check: () => boolean | Promise<boolean>, ms = 10000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sign-in (OAuth 2.1 against oidc-provider)', function () {
  this.timeout(60000);

  it('a server that answers 401 goes needs-sign-in with one mcp-sign-in-required', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const events = recordEvents();
    const server = await addOAuthServer(hub, t.url);
    let error: unknown;
    try {
      await hub.connect(server.id);
    } catch (e) {
      error = e;
    }
    events.stop();
    expect(error).to.be.instanceOf(McpAuthError);
    expect((error as McpAuthError).code).to.equal('sign-in-required');
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
    const required = events.seen.filter((e) => e.type === 'mcp-sign-in-required');
    expect(required).to.have.length(1);
    const detail = JSON.parse(required[0].detail);
    expect(detail).to.include({ serverId: server.id, name: 'Protected', reason: 'sign-in-required' });
    expect(detail.scopes).to.deep.equal(['mcp:tools']);
    expect(hub.store.state.signIns[server.id]?.status).to.equal('signed-out');
  });

  it('signs in through a popup opened in the click, lists tools and calls one; tokens never leak', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const events = recordEvents();
    const logs = recordConsole();
    let server: ServerConfig;
    try {
      server = await addOAuthServer(hub, t.url);
      await hub.connect(server.id).catch(() => {});
      expect(hub.status(server.id).status).to.equal('needs-sign-in');
      await clickToSignIn(hub, server.id);
      expect(hub.status(server.id).status).to.equal('connected');
      expect(hub.catalogue(server.id)?.tools.map((x) => x.name)).to.include.members(['whoami', 'echo', 'admin']);
      const who = await hub.client(server.id).callTool('whoami');
      expect((who.content[0] as { text: string }).text).to.equal('auto-user mcp:tools');
      const signIn = hub.store.state.signIns[server.id];
      expect(signIn).to.include({ status: 'signed-in', issuer: urls.oauthIssuer, refreshable: true });
      expect(signIn.scopes).to.include('mcp:tools');
    } finally {
      events.stop();
      logs.stop();
    }
    const completed = events.seen.filter((e) => e.type === 'mcp-sign-in-completed');
    expect(completed).to.have.length(1);
    expect(JSON.parse(completed[0].detail)).to.include({ serverId: server.id, issuer: urls.oauthIssuer });

    // the resource saw a token; search for it (and the refresh token's absence is proven by
    // searching for every token-looking value the server accepted) in storage, events,
    // console, export and state
    const { tokens, requests } = await t.seen();
    expect(tokens.length).to.be.greaterThan(0);
    expect(requests.some((r) => r.authorization && r.status === 200)).to.equal(true);
    const haystacks = {
      indexeddb: await rawDatabase(hub.storeName),
      events: events.seen.map((e) => e.detail).join('\n'),
      console: logs.lines.join('\n'),
      export: hub.exportConfig(),
      state: JSON.stringify(hub.store.state),
    };
    for (const { token } of tokens) {
      expect(token.length).to.be.greaterThan(20);
      for (const [where, text] of Object.entries(haystacks))
        expect(text.includes(token), `the access token appears in ${where}`).to.equal(false);
      // the JWT's signature part alone (in case something split it)
      const signature = token.split('.')[2];
      for (const [where, text] of Object.entries(haystacks))
        expect(text.includes(signature), `a token signature appears in ${where}`).to.equal(false);
    }
    // the sealed records exist, and the export carries the sign-in settings only
    expect(haystacks.indexeddb).to.include(`secret:oauth:tokens:${server.id}`);
    expect(JSON.parse(haystacks.export).mcpServers.Protected.auth).to.deep.equal({ type: 'oauth' });
  });

  it('refreshes ahead of expiry and on 401, without the user', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant('auto'); // access tokens live 600 s
    const server = await addOAuthServer(hub, t.url);
    await hub.connect(server.id).catch(() => {});
    await clickToSignIn(hub, server.id);
    const first = hub.store.state.signIns[server.id];
    const clock = pageClock();
    try {
      expect(first.expiresAt! - Date.now()).to.be.within(590_000, 600_000);
      // one request well inside the token's life: the token is kept
      await hub.client(server.id).callTool('echo', { message: 'fresh' });
      expect(hub.store.state.signIns[server.id].expiresAt).to.equal(first.expiresAt);
      // the page's clock moves on to 40 s before expiry (the server's tokens stay valid): the
      // next request renews the token before it goes out (the state's expiry moves), never
      // after a refusal (below)
      clock.advance(first.expiresAt! - 40_000 - Date.now());
      await hub.client(server.id).callTool('echo', { message: 'renewed first' });
      expect(hub.store.state.signIns[server.id].expiresAt).to.be.greaterThan(first.expiresAt!);
    } finally {
      clock.restore();
    }
    await hub.client(server.id).callTool('echo', { message: 'after refresh' });
    let seen = await t.seen();
    const valid = seen.tokens.filter((k) => k.valid);
    expect(valid.length, 'a second access token').to.be.greaterThan(1);
    expect(seen.requests.filter((r) => r.status === 401 && r.authorization)).to.have.length(0);
    expect(hub.store.state.signIns[server.id].signedInAt).to.equal(first.signedInAt);
    // the resource refuses every token it has seen (revoked there): a 401, a refresh, the retry
    await t.revokeSeen();
    const result = await hub.client(server.id).callTool('echo', { message: 'after 401' });
    expect((result.content[0] as { text: string }).text).to.equal('Echo: after 401');
    seen = await t.seen();
    expect(seen.requests.some((r) => r.status === 401 && r.authorization)).to.equal(true);
    expect(hub.status(server.id).status).to.equal('connected');
  });

  it('steps up on 403 insufficient_scope: the call waits, sign-in asks for the union of scopes, the call resumes', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(hub, t.url);
    await hub.connect(server.id).catch(() => {});
    await clickToSignIn(hub, server.id);
    expect(hub.store.state.signIns[server.id].scopes).not.to.include('mcp:admin');
    const required: { reason: string; scopes?: string[]; callId?: string }[] = [];
    const on = (e: Event) => required.push((e as CustomEvent).detail);
    hub.addEventListener('mcp-sign-in-required', on);
    const running = hub.callTool({ serverId: server.id, tool: 'admin', source: 'user' });
    await until(() => hub.calls.list()[0]?.status === 'needs-sign-in');
    hub.removeEventListener('mcp-sign-in-required', on);
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
    // one occurrence, one event: the call's, with its id (not the server's first, then the call's)
    expect(required).to.have.length(1);
    expect(required[0]).to.include({ reason: 'insufficient-scope', callId: hub.calls.list()[0].id });
    expect(required[0].scopes).to.deep.equal(['mcp:admin']);
    await clickToSignIn(hub, server.id);
    const done = await running;
    expect(done.status, JSON.stringify(done.error)).to.equal('success');
    expect((done.result!.content[0] as { text: string }).text).to.equal('admin done');
    expect(hub.store.state.signIns[server.id].scopes).to.include.members(['mcp:tools', 'mcp:admin']);
  });

  it('step-up that cannot succeed: a host that signs in whenever asked is asked twice, then the call ends insufficient-scope naming the scope', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await addOAuthServer(hub, tenant('auto+noadmin').url);
    await hub.connect(server.id).catch(() => {});
    await clickToSignIn(hub, server.id);
    await until(() => hub.status(server.id).status === 'connected');
    // the host signs in whenever asked; the test lets each sign-in finish before the next call
    let asked = 0;
    let signingIn: Promise<unknown> = Promise.resolve();
    const signIn = () => {
      asked++;
      signingIn = clickToSignIn(hub, server.id).catch(() => {});
    };
    hub.addEventListener('mcp-sign-in-required', signIn);
    const calls = [];
    for (let i = 0; i < 3; i++) {
      calls.push(await hub.callTool({ serverId: server.id, tool: 'admin', arguments: {}, source: 'user' }));
      await signingIn;
    }
    hub.removeEventListener('mcp-sign-in-required', signIn);
    // the first (asked for mcp:tools only) and one more: two sign-ins that asked for mcp:admin
    expect(asked).to.equal(2);
    expect(calls.map((c) => c.error?.code)).to.deep.equal([
      'insufficient-scope',
      'insufficient-scope',
      'insufficient-scope',
    ]);
    expect(calls[2].error?.message).to.include('mcp:admin');
    expect(hub.status(server.id).error?.code).to.equal('insufficient-scope');
    expect(hub.status(server.id).error?.message).to.include('after 2 sign-ins');
    // the user signing in on purpose starts afresh: the hub asks again
    await clickToSignIn(hub, server.id);
    hub.addEventListener('mcp-sign-in-required', signIn);
    await hub.callTool({ serverId: server.id, tool: 'admin', arguments: {}, source: 'user' });
    await signingIn;
    hub.removeEventListener('mcp-sign-in-required', signIn);
    expect(asked).to.be.greaterThan(2);
  });

  it('a client secret in OAuth settings is refused in a page, saying why; nothing stored', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    for (const add of [
      () =>
        hub.servers.add({
          name: 'Confidential',
          url: tenant().url,
          auth: { type: 'oauth', clientId: 'c', clientSecret: 's3cret' },
        }),
      () =>
        hub.importConfig(
          JSON.stringify({
            mcpServers: { C: { url: tenant().url, auth: { type: 'oauth', clientId: 'c', clientSecret: 's3cret' } } },
          }),
        ),
    ]) {
      const outcome = await add().then(
        (r) => r,
        (e: unknown) => e,
      );
      const issues =
        outcome instanceof McpConfigError
          ? outcome.issues
          : (outcome as { errors: { issues: McpConfigError['issues'] }[] }).errors[0].issues;
      expect(issues.map((i) => i.path)).to.deep.equal(['auth.clientSecret']);
      expect(issues[0].message).to.include('cannot be kept in a web page');
      expect(issues[0].message).not.to.include('s3cret');
    }
    expect(hub.servers.list()).to.have.length(0);
    expect(JSON.stringify(await rawIdb(hub.storeName))).not.to.include('sec_');
    // without the client id it belongs to, the secret is refused everywhere (Node too)
    const error = await hub.servers
      .add({ name: 'X', url: tenant().url, auth: { type: 'oauth', clientSecret: 's' } as never })
      .catch((e: unknown) => e);
    expect((error as McpConfigError).issues.map((i) => i.path)).to.deep.equal(['auth.clientSecret']);
  });

  it('signs out: tokens revoked and wiped, status needs-sign-in', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(hub, t.url);
    await hub.connect(server.id).catch(() => {});
    await clickToSignIn(hub, server.id);
    const outs: unknown[] = [];
    const on = (e: Event) => outs.push((e as CustomEvent).detail);
    hub.addEventListener('mcp-sign-out-completed', on);
    await hub.signOut(server.id);
    hub.removeEventListener('mcp-sign-out-completed', on);
    expect(outs).to.deep.equal([{ serverId: server.id, revoked: true, source: 'local' }]);
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
    expect(hub.store.state.signIns[server.id]?.status).to.equal('signed-out');
    expect(await rawDatabase(hub.storeName)).not.to.include(`secret:oauth:tokens:${server.id}`);
    // the revoked refresh token is dead at the authorization server too: connecting asks again
    let error: unknown;
    await hub.connect(server.id).catch((e) => (error = e));
    expect((error as McpAuthError).code).to.equal('sign-in-required');
  });

  it('a reload in the middle of sign-in loses nothing: the new page finishes it', async () => {
    const store = unique('store');
    const first = privateHub({ storeName: store, redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(first, t.url);
    let authorizationUrl = '';
    void first.signIn(server.id, { open: (u) => void (authorizationUrl = u) }).catch(() => {});
    await until(() => authorizationUrl !== '');
    expect(new URL(authorizationUrl).searchParams.get('code_challenge_method')).to.equal('S256');
    expect(new URL(authorizationUrl).searchParams.get('resource')).to.equal(t.url);
    await first.dispose(); // the page goes away
    const second = privateHub({ storeName: store, redirectUrl: CALLBACK });
    await second.ready;
    const popup = await click(() => window.open(authorizationUrl, '_blank', 'popup'));
    expect(popup, 'the test page may open a window').not.to.equal(null);
    await until(() => second.store.state.signIns[server.id]?.status === 'signed-in', 20000);
    await until(() => second.status(server.id).status === 'connected');
    expect(second.catalogue(server.id)?.tools.length).to.equal(3);
  });

  it('refuses an answer whose iss is not the issuer the sign-in started with (RFC 9207)', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(hub, t.url);
    let authorizationUrl = '';
    const signingIn = hub.signIn(server.id, { open: (u) => void (authorizationUrl = u) });
    await until(() => authorizationUrl !== '');
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage({ type: 'mcp-elements:sign-in-callback', state, code: 'x', iss: 'http://127.0.0.1:9/evil' });
    let error: unknown;
    await signingIn.catch((e) => (error = e));
    channel.close();
    expect((error as McpAuthError).code).to.equal('issuer-mismatch');
    expect((error as Error).message).not.to.include('evil');
  });

  /** Start a sign-in whose authorization URL is captured, not opened; resolves with its state and the promise. */
  async function startSignIn(hub: McpHub, id: string) {
    let authorizationUrl = '';
    const done = hub.signIn(id, { open: (u) => void (authorizationUrl = u) });
    done.catch(() => {});
    await until(() => authorizationUrl !== '');
    return { state: new URL(authorizationUrl).searchParams.get('state')!, done, authorizationUrl };
  }
  const mixupCodes = async () =>
    ((await (await fetch(`${urls.oauthMcp}/as/mixup/codes`)).json()) as { codes: string[] }).codes;

  it('mix-up (RFC 9700 §4.4.2): a code without iss while two authorization servers are in play is refused, never sent', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const honest = await addOAuthServer(hub, tenant().url);
    const other = await addOAuthServer(hub, tenant('mixup').url);
    await startSignIn(hub, honest.id); // the honest authorization server is in play
    const { state, done } = await startSignIn(hub, other.id);
    const code = unique('honest-code');
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    // the honest server's code, come back to the one redirect URI with the other sign-in's state
    channel.postMessage({ type: 'mcp-elements:sign-in-callback', state, code });
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    channel.close();
    expect(error).to.be.instanceOf(McpAuthError);
    expect((error as McpAuthError).code).to.equal('issuer-missing');
    expect(await mixupCodes()).not.to.include(code);
  });

  it('mix-up control: with one authorization server in play, a code without iss is redeemed at its token endpoint', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const only = await addOAuthServer(hub, tenant('mixup').url);
    const { state, done } = await startSignIn(hub, only.id);
    const code = unique('only-code');
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage({ type: 'mcp-elements:sign-in-callback', state, code });
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    channel.close();
    // the fixture's token endpoint refuses every code: what matters is that this one got there
    expect((error as McpAuthError).code).to.equal('token-request-failed');
    expect(await mixupCodes()).to.include(code);
  });

  it('the code is redeemed with the redirect URI its sign-in started with, not the redeeming page’s', async () => {
    const store = unique('store');
    const first = privateHub({ storeName: store, redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(first, t.url);
    const { authorizationUrl } = await startSignIn(first, server.id);
    expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).to.equal(CALLBACK);
    await first.dispose();
    // another page of the origin, whose own redirect URI differs, takes the answer
    const second = privateHub({ storeName: store, redirectUrl: `${CALLBACK}?page=second` });
    await second.ready;
    const popup = await click(() => window.open(authorizationUrl, '_blank', 'popup'));
    expect(popup, 'the test page may open a window').not.to.equal(null);
    await until(() => second.store.state.signIns[server.id]?.status === 'signed-in', 20000);
    await until(() => second.status(server.id).status === 'connected');
  });

  const pendingKeys = async (store: string) =>
    (await rawIdb(store)).map((r) => r.key).filter((k) => k.startsWith('secret:oauth:pending:'));

  it('a server answering 401 to everything: a few sign-ins prepared without a click, one pending record kept; the click still signs in', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const t = tenant();
    const server = await addOAuthServer(hub, t.url);
    for (let i = 0; i < 10; i++) await hub.connect(server.id).catch(() => {});
    // discovery ran for the first three 401s only (UNPROMPTED_MAX), not for all ten
    expect((await t.seen()).prmFetches).to.equal(3);
    expect(await pendingKeys(hub.storeName)).to.have.length.at.most(1);
    await clickToSignIn(hub, server.id);
    await until(() => hub.status(server.id).status === 'connected');
    expect(await pendingKeys(hub.storeName)).to.deep.equal([]);
  });

  it('an OAuth response over 1 MB is not read: a typed error naming the endpoint', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await addOAuthServer(hub, tenant('huge').url);
    const error = (await hub.connect(server.id).then(
      () => undefined,
      (e: unknown) => e,
    )) as McpAuthError;
    expect(error).to.be.instanceOf(McpAuthError);
    expect(error.code).to.equal('sign-in-failed');
    expect(error.message).to.include('more than 1 MB');
    expect(error.endpoint).to.include('/.well-known/oauth-authorization-server/as/huge');
  });

  it('expired sign-ins left in the vault are swept when the hub loads', async () => {
    const store = unique('store');
    const first = privateHub({ storeName: store, redirectUrl: CALLBACK });
    const server = await addOAuthServer(first, tenant().url);
    await startSignIn(first, server.id);
    await first.dispose();
    const [key] = await pendingKeys(store);
    expect(key, 'a pending sign-in was kept').to.be.a('string');
    // the sign-in is eleven minutes old: make its record say so, sealed as the hub seals it
    const vault = new Vault(new IdbStorage(store));
    const name = key.slice('secret:'.length);
    const pending = (await vault.unseal<{ expiresAt: number }>(name))!;
    await vault.seal(name, { ...pending, expiresAt: Date.now() - 60_000 });
    const second = privateHub({ storeName: store, redirectUrl: CALLBACK });
    await second.ready;
    await until(async () => (await pendingKeys(store)).length === 0);
    expect(second.servers.list()).to.have.length(1);
  });

  it('names the endpoint: no PKCE S256, no CORS on metadata, an insecure authorization server', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const cases = [
      ['nopkce', 'pkce-unsupported', '/as/nopkce'],
      ['nocors', 'endpoint-unreachable', '/as/nocors/.well-known/'],
      ['insecure', 'insecure-endpoint', 'http://0.0.0.0:1'],
      // a server with Protected Resource Metadata is of a revision after 2025-03-26: its
      // authorization server's endpoints are never guessed
      ['nometa', 'metadata', '/as/nometa'],
    ] as const;
    for (const [flag, code, where] of cases) {
      const server = await addOAuthServer(hub, tenant(flag).url);
      let error: unknown;
      await hub.connect(server.id).catch((e) => (error = e));
      expect(error, flag).to.be.instanceOf(McpAuthError);
      expect((error as McpAuthError).code, `${flag}: ${(error as Error).message}`).to.equal(code);
      expect((error as McpAuthError).endpoint ?? '', flag).to.include(where);
      expect((error as Error).message, flag).to.include(where);
      expect(hub.status(server.id).status).to.equal('error');
      expect(hub.status(server.id).error?.code).to.equal(code);
    }
    const nocors = (await hub.connect(hub.servers.list()[1].id).catch((e) => e)) as Error;
    expect(nocors.message).to.include('Access-Control-Allow-Origin');
  });

  it('machine credentials: client_credentials with client_secret_basic and _post, renewed on 401, secret sealed', async () => {
    for (const [clientId, clientSecret, method] of [
      ['machine-basic', 'machine-basic-secret-0123456789abcdef', 'client_secret_basic'],
      ['machine-post', 'machine-post-secret-0123456789abcdef', 'client_secret_post'],
    ] as const) {
      const hub = privateHub({ redirectUrl: CALLBACK });
      const t = tenant(); // access tokens live 600 s: no renewal falls due during the test
      const server = await hub.servers.add({
        name: 'Machine',
        url: t.url,
        auth: { type: 'client-credentials', clientId, clientSecret, method },
      });
      expect(server.auth).to.have.nested.property('clientSecret.secretRef');
      const catalogue = await hub.connect(server.id);
      expect(catalogue.tools.map((x) => x.name)).to.include('whoami');
      const who = await hub.client(server.id).callTool('whoami');
      expect((who.content[0] as { text: string }).text, method).to.equal(`${clientId} mcp:tools`);
      // the resource refuses the token (revoked there): a 401, a new token, the request retried
      await t.revokeSeen();
      const before = (await t.seen()).requests.length;
      const again = await hub.client(server.id).callTool('echo', { message: 'again' });
      expect((again.content[0] as { text: string }).text, method).to.equal('Echo: again');
      const seen = await t.seen();
      const echoes = seen.requests.slice(before).filter((r) => r.name === 'echo');
      expect(
        echoes.map((r) => r.status),
        `${method}: the refused call, then its retry`,
      ).to.deep.equal([401, 200]);
      const [refused, first] = [echoes[0].token, seen.tokens[0].token];
      expect(refused, `${method}: the first token was sent and refused`).to.equal(first);
      expect(echoes[1].token, `${method}: the retry carried a new token`).to.be.a('string').and.not.equal(first);
      expect(seen.tokens.find((k) => k.token === echoes[1].token)?.valid, method).to.equal(true);
      const raw = await rawDatabase(hub.storeName);
      expect(raw.includes(clientSecret), `${method}: the secret is in plain IndexedDB`).to.equal(false);
      for (const { token } of seen.tokens) expect(raw.includes(token)).to.equal(false);
      expect(hub.exportConfig()).not.to.include(clientSecret);
      expect(JSON.parse(hub.exportConfig()).mcpServers.Machine.auth).to.deep.include({
        type: 'client-credentials',
        clientId,
        clientSecret: '<redacted>',
        method,
      });
    }
    // a wrong secret: the token endpoint's refusal, named
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await hub.servers.add({
      name: 'Wrong',
      url: tenant().url,
      auth: { type: 'client-credentials', clientId: 'machine-basic', clientSecret: 'not-the-secret' },
    });
    let error: unknown;
    await hub.connect(server.id).catch((e) => (error = e));
    expect(error).to.be.instanceOf(McpAuthError);
    expect((error as McpAuthError).code).to.equal('token-request-failed');
    expect((error as McpAuthError).endpoint).to.equal(`${urls.oauthIssuer}/token`);
    expect(hub.status(server.id).status).to.equal('error');
  });

  it('validates the OAuth settings and the redirect URL', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    for (const auth of [
      { type: 'oauth', clientMetadataUrl: 'http://example.com/client.json' },
      { type: 'oauth', clientMetadataUrl: 'https://example.com/' },
      { type: 'oauth', scopes: ['has space'] },
      { type: 'oauth', secret: 'no' },
    ]) {
      let error: unknown;
      await hub.servers.add({ name: 'x', url: tenant().url, auth: auth as never }).catch((e) => (error = e));
      expect(error, JSON.stringify(auth)).to.be.instanceOf(McpConfigError);
    }
    expect(() => privateHub({ redirectUrl: 'https://elsewhere.example/cb' })).to.throw(McpConfigError);
    const plain = await hub.servers.add({ name: 'plain', url: tenant().url });
    let error: unknown;
    await hub.signIn(plain.id).catch((e) => (error = e));
    expect(error).to.be.instanceOf(McpConfigError);
  });

  it('DPoP (RFC 9449) where the resource accepts it: a bound token, a proof per request, the nonce retry; the key survives a reload and refreshes', async () => {
    // oidc-provider advertises DPoP; the resource says so in its metadata (dpop flags)
    const store = unique('store');
    const hub = privateHub({ storeName: store, redirectUrl: CALLBACK });
    const t = tenant('dpopnonce+auto');
    const server = await addOAuthServer(hub, t.url);
    await hub.connect(server.id).catch(() => {});
    await clickToSignIn(hub, server.id);
    expect(hub.status(server.id).status).to.equal('connected');
    const who = await hub.client(server.id).callTool('whoami');
    expect((who.content[0] as { text: string }).text).to.equal('auto-user mcp:tools');
    let seen = (await t.seen()) as Awaited<ReturnType<typeof t.seen>> & { proofs: number; nonceChallenges: number };
    const schemes = seen.requests.filter((r) => r.authorization).map((r) => (r as { scheme?: string }).scheme);
    expect(schemes.length).to.be.greaterThan(0);
    expect(new Set(schemes)).to.deep.equal(new Set(['DPoP']));
    const bound = seen.tokens.filter((k) => k.valid);
    expect(bound.length).to.be.greaterThan(0);
    for (const k of bound) expect((k as { jkt?: string }).jkt, 'the token is bound to a key').to.be.a('string');
    expect(seen.nonceChallenges, 'the resource asked for its nonce').to.be.greaterThan(0);
    const proofs = seen.proofs;
    expect(proofs, 'requests answered with a valid proof').to.be.greaterThan(1);
    // the key: a non-extractable CryptoKey in IndexedDB, never in clear
    const key = (await rawIdb(store)).find((r) => r.key === `dpopkey:${server.id}`)?.value as { privateKey: CryptoKey };
    expect(key.privateKey.extractable).to.equal(false);
    // a new page (same store): the stored key signs the proofs for the stored bound token
    await hub.dispose();
    const again = privateHub({ storeName: store, redirectUrl: CALLBACK });
    await again.ready;
    await again.connect(server.id);
    await again.client(server.id).callTool('echo', { message: 'after reload' });
    seen = (await t.seen()) as typeof seen;
    expect(seen.proofs).to.be.greaterThan(proofs);
    expect(seen.tokens.filter((k) => k.valid)).to.have.length(bound.length);
    // the resource refuses the token: the DPoP-bound refresh token is used with a proof of the
    // same key, and the new token is bound to that key too
    await t.revokeSeen();
    await again.client(server.id).callTool('echo', { message: 'after refresh' });
    seen = (await t.seen()) as typeof seen;
    const renewed = seen.tokens.filter((k) => k.valid);
    expect(renewed.length, 'a new access token').to.be.greaterThan(bound.length);
    expect(new Set(renewed.map((k) => (k as { jkt?: string }).jkt)).size, 'one key').to.equal(1);
    // sign-out drops the key with the tokens
    await again.signOut(server.id);
    expect((await rawIdb(store)).some((r) => r.key === `dpopkey:${server.id}`)).to.equal(false);
  });

  it('no DPoP for a resource whose metadata does not accept it (Bearer), nor with dpop: off', async () => {
    for (const [options, flags] of [
      [{}, 'auto'],
      [{ dpop: 'off' as const }, 'dpop+auto'],
    ] as const) {
      const hub = privateHub({ redirectUrl: CALLBACK, ...options });
      const t = tenant(flags);
      const server = await addOAuthServer(hub, t.url);
      await hub.connect(server.id).catch(() => {});
      await clickToSignIn(hub, server.id);
      await hub.client(server.id).callTool('whoami');
      const seen = await t.seen();
      const schemes = seen.requests.filter((r) => r.authorization).map((r) => (r as { scheme?: string }).scheme);
      expect(new Set(schemes), flags).to.deep.equal(new Set(['Bearer']));
      expect((await rawIdb(hub.storeName)).some((r) => r.key.startsWith('dpopkey:'))).to.equal(false);
    }
    let error: unknown;
    try {
      privateHub({ dpop: 'sometimes' as never });
    } catch (e) {
      error = e;
    }
    expect((error as McpConfigError).issues[0].path).to.equal('dpop');
  });
});
