// Who signed in (issue 25 item 6): with `openid` among the scopes asked for, the authorization
// server (oidc-provider, test/fixtures/oauth-server.mjs) sends an ID token; the hub reads its
// name for display into SignInState.account and keeps nothing else of it. Malformed ID tokens
// (from the token endpoint, and unit inputs to accountOf) name nobody and change nothing else.
import { expect } from '@open-wc/testing';
import { IdbStorage, type McpHub } from '../../src/core/index.js';
import { ACCOUNT_MAX, accountOf } from '../../src/core/auth/id-token.js';
import { names } from '../../src/core/auth/records.js';
import { Vault } from '../../src/core/persistence/vault.js';
import { click, privateHub, rawIdb, unique, urls } from '../helpers.js';

const CALLBACK = `${location.origin}/__oauth-callback.html`;
const OPENID = ['openid', 'profile', 'email'];

/** A protected server of a fresh tenant whose interaction signs in as the account `flags` name. */
async function signedIn(hub: McpHub, flags: string, scopes: string[] = OPENID) {
  const url = `${urls.oauthMcp}/t/${unique('acct')}/${flags}/mcp`;
  const server = await hub.servers.add({ name: 'Protected', url, auth: { type: 'oauth', scopes } });
  await hub.connect(server.id).catch(() => {});
  await click(() => hub.signIn(server.id));
  expect(hub.status(server.id).status).to.equal('connected');
  return server;
}

/** Resolves once the hub's state satisfies `check` (checked now and on every change). */
function stateWhere(hub: McpHub, check: (s: McpHub['store']['state']) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check(hub.store.state)) return resolve();
    const stop = hub.store.subscribe((s) => {
      if (!check(s)) return;
      stop();
      resolve();
    });
  });
}

const b64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const jwt = (payload: string) => `${b64url('{"alg":"none"}')}.${b64url(payload)}.c2ln`;

describe('sign-in: the account (OpenID ID token claims, display only)', function () {
  this.timeout(60000);

  it('names the account from the ID token: in the state and the stored clear summary; never the ID token', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await signedIn(hub, 'alice+auto');
    const state = hub.store.state.signIns[server.id];
    expect(state).to.include({ status: 'signed-in', account: 'Alice Example', issuer: urls.oauthIssuer });
    // the resource's scopes are what the access token holds: openid is the ID token's business
    expect(state.scopes).to.include('mcp:tools');
    const who = await hub.client(server.id).callTool('whoami');
    expect((who.content[0] as { text: string }).text).to.match(/^alice /);
    // kept in clear with the other summary facts; the sealed token set keeps no id_token
    const raw = await rawIdb(hub.storeName);
    const summary = raw.find((r) => r.key === `signin:${server.id}`)?.value as { account?: string };
    expect(summary?.account).to.equal('Alice Example');
    const vault = new Vault(new IdbStorage(hub.storeName));
    const set = (await vault.unseal<{ tokens: Record<string, unknown>; account?: string }>(names.tokens(server.id)))!;
    expect(set.account).to.equal('Alice Example');
    expect(Object.keys(set.tokens)).to.not.include('id_token');
    expect(JSON.stringify(set)).to.not.include('id_token');
    // signed out: no account left anywhere
    await hub.signOut(server.id);
    expect(hub.store.state.signIns[server.id]).to.deep.equal({ status: 'signed-out' });
    const after = await rawIdb(hub.storeName);
    expect(JSON.stringify(after.map((r) => r.key === `signin:${server.id}` && r.value))).to.not.include('Alice');
  });

  it('a refresh keeps the account (and takes a new ID token’s name); removing the server forgets it', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await signedIn(hub, 'alice+auto');
    const first = hub.store.state.signIns[server.id];
    expect(first.account).to.equal('Alice Example');
    // the page's clock moves to 40 s before expiry: the next request renews the token first
    const real = Date.now;
    const offset = first.expiresAt! - 40_000 - real.call(Date);
    Date.now = () => real.call(Date) + offset;
    try {
      await hub.client(server.id).callTool('echo', { message: 'renewed first' });
    } finally {
      Date.now = real;
    }
    expect(hub.store.state.signIns[server.id].expiresAt).to.be.greaterThan(first.expiresAt!);
    expect(hub.store.state.signIns[server.id]).to.include({ account: 'Alice Example', signedInAt: first.signedInAt });
    await hub.servers.remove(server.id);
    await stateWhere(hub, (s) => !s.signIns[server.id]);
    // the stored summary is deleted right after the state changes: checked until it is, 10 s at most
    const kept = async () => (await rawIdb(hub.storeName)).some((r) => r.key === `signin:${server.id}`);
    for (const end = Date.now() + 10_000; (await kept()) && Date.now() < end;);
    expect(await kept()).to.equal(false);
  });

  it('without openid there is no ID token and no account; the line falls back to the issuer', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await signedIn(hub, 'alice+auto', ['mcp:tools']);
    const state = hub.store.state.signIns[server.id];
    expect(state.status).to.equal('signed-in');
    expect('account' in state).to.equal(false);
  });

  it('bad input: a claim that is no string is skipped; control and formatting characters go, the length is capped', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await signedIn(hub, 'odd+auto');
    const account = hub.store.state.signIns[server.id].account!;
    // name is an object: preferred_username is used, cleaned
    expect(account.startsWith('Odd user xxx')).to.equal(true);
    expect([...account]).to.have.length(ACCOUNT_MAX);
    expect(account.endsWith('…')).to.equal(true);
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u001f\u202e]/.test(account)).to.equal(false);
  });

  it('bad input: a malformed ID token from the token endpoint names nobody; signing in works', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const server = await signedIn(hub, 'badid+alice+auto');
    const state = hub.store.state.signIns[server.id];
    expect(state).to.include({ status: 'signed-in', issuer: urls.oauthIssuer, refreshable: true });
    expect('account' in state).to.equal(false);
    const echo = await hub.client(server.id).callTool('echo', { message: 'still works' });
    expect((echo.content[0] as { text: string }).text).to.equal('Echo: still works');
  });

  it('accountOf: name, else preferred_username, else email; never sub; malformed tokens give nothing', () => {
    expect(accountOf(jwt('{"sub":"1","name":"  Alice  Example ","email":"a@x"}'))).to.equal('Alice Example');
    expect(accountOf(jwt('{"sub":"1","name":"","preferred_username":"alice"}'))).to.equal('alice');
    expect(accountOf(jwt('{"sub":"1","name":7,"preferred_username":null,"email":"a@x"}'))).to.equal('a@x');
    expect(accountOf(jwt('{"name":"Zoë \\u202eevil\\u0000"}'))).to.equal('Zoë evil');
    const bad = [
      undefined,
      42,
      '',
      jwt('{"sub":"only-sub"}'),
      jwt('{"name":"\\u0007\\u200b"}'),
      'a.b',
      `${jwt('{"name":"A"}')}.extra`,
      `x.${b64url('{"name":"A"}')}+/.y`,
      `x.${b64url('{"name": "A"')}.y`,
      `x.${b64url('["A"]')}.y`,
      `x.${b64url('"A"')}.y`,
      `x.${btoa('\xff\xfe{"name":"A"}').replace(/=+$/, '')}.y`,
      `x.${'A'.repeat(70000)}.y`,
    ];
    for (const token of bad) expect(accountOf(token), String(token).slice(0, 40)).to.equal(undefined);
  });
});
