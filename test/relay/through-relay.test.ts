// A page's hub using servers it cannot reach itself, through the relay (issue 24), in every
// engine: a real server without CORS behind the relay (`createNodeRelay` on 127.0.0.1), and a
// stdio server (@modelcontextprotocol/server-filesystem) served by the relay CLI for this page's
// origin, imported from what the CLI printed (test/fixtures/relay-fixture.mjs,
// stdio-relay-fixture.mjs).
import { expect } from '@open-wc/testing';
import { McpConnectionError, type McpHub } from '../../src/core/index.js';
import { click, privateHub, urls } from '../helpers.js';

const relayUrls = urls as typeof urls & {
  noCors: string;
  relay: string;
  stdioRelay: {
    pasted: { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
    dir: string;
  };
};

const textOf = (r: { content: unknown[] }) => (r.content[0] as { type: string; text: string }).text;

async function connectOrError(hub: McpHub, id: string): Promise<unknown> {
  try {
    await hub.connect(id);
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('through the relay, from a page', function () {
  this.timeout(60000);

  it('a server without CORS: refused directly, listed and called through the relay', async () => {
    const hub = privateHub();
    const direct = await hub.servers.add({ name: 'direct', url: relayUrls.noCors, retries: 0, timeout: 10 });
    const error = await connectOrError(hub, direct.id);
    expect(error, 'the page alone cannot call it').to.be.instanceOf(McpConnectionError);
    expect(String((error as Error).message)).to.match(/CORS/);

    const relayed = await hub.servers.add({
      name: 'relayed',
      url: relayUrls.noCors,
      relay: relayUrls.relay,
      retries: 0,
      timeout: 10,
    });
    await hub.connect(relayed.id);
    expect(hub.status(relayed.id).status).to.equal('connected');
    const tools = hub.catalogue(relayed.id)!.tools.map((t) => t.name);
    expect(tools).to.include.members(['echo', 'get-sum']);
    const echo = await hub.client(relayed.id).callTool('echo', { message: 'relayed from the page' });
    expect(textOf(echo)).to.equal('Echo: relayed from the page');
    const sum = await hub.client(relayed.id).callTool('get-sum', { a: 2, b: 40 });
    expect(textOf(sum)).to.contain('42');
    // the stored URL is the server's own; only the session goes through the relay
    expect(hub.servers.get(relayed.id)!.url).to.equal(relayUrls.noCors);
  });

  it('a stdio server: the mcp.json the relay CLI printed imports, lists and calls', async () => {
    const hub = privateHub();
    const { added, errors } = await hub.importConfig(JSON.stringify(relayUrls.stdioRelay.pasted));
    expect(errors).to.deep.equal([]);
    expect(added.map((s) => s.name)).to.deep.equal(['files']);
    const id = added[0].id;
    // the launch token is a secret: kept in the vault, never in an export
    expect(hub.exportConfig()).not.to.contain(
      relayUrls.stdioRelay.pasted.mcpServers.files.headers.Authorization.slice('Bearer '.length),
    );
    await hub.connect(id);
    expect(hub.status(id).status).to.equal('connected');
    const tools = hub.catalogue(id)!.tools.map((t) => t.name);
    expect(tools).to.include.members(['read_text_file', 'list_directory']);
    const file = `${relayUrls.stdioRelay.dir}/hello.txt`;
    const read = await hub.client(id).callTool('read_text_file', { path: file });
    expect(textOf(read)).to.equal('hello from a stdio server');
    const listing = await hub.client(id).callTool('list_directory', { path: relayUrls.stdioRelay.dir });
    expect(textOf(listing)).to.contain('hello.txt');
    // a page reload reconnects to the same running server
    await hub.disconnect(id);
    await hub.connect(id);
    expect(textOf(await hub.client(id).callTool('read_text_file', { path: file }))).to.equal(
      'hello from a stdio server',
    );
  });

  it('a stdio server with a wrong token: a clear error, nothing connected', async () => {
    const hub = privateHub();
    const { url } = relayUrls.stdioRelay.pasted.mcpServers.files;
    const s = await hub.servers.add({
      name: 'files, wrong token',
      url,
      auth: { type: 'bearer', token: 'not-the-launch-token' },
      retries: 0,
      timeout: 10,
    });
    const error = await connectOrError(hub, s.id);
    expect(error).to.be.instanceOf(McpConnectionError);
    expect((error as Error).message).to.contain('refused the credentials (HTTP 401)');
    expect(hub.status(s.id).status).not.to.equal('connected');
    expect(hub.catalogue(s.id)?.tools ?? []).to.deep.equal([]);
  });
});

/** The claims of a JWT (no check: the server under test checked it). */
function claims(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(atob(part.padEnd(Math.ceil(part.length / 4) * 4, '='))) as Record<string, unknown>;
}

describe('sign-in through the relay (oidc-provider behind it)', function () {
  this.timeout(60000);

  it('signs in, lists and calls; the token is for the upstream server, never the relay', async () => {
    const fetched: string[] = [];
    const hub = privateHub({
      redirectUrl: `${location.origin}/__oauth-callback.html`,
      fetch: (input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      },
    });
    const tenant = `relay-${Math.random().toString(36).slice(2)}`;
    const upstream = `${urls.oauthMcp}/t/${tenant}/auto/mcp`;
    const server = await hub.servers.add({
      name: 'Protected, relayed',
      url: upstream,
      relay: relayUrls.relay,
      auth: { type: 'oauth' },
    });
    await hub.connect(server.id).catch(() => {});
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
    await click(() => hub.signIn(server.id));
    expect(hub.status(server.id).status).to.equal('connected');
    const who = await hub.client(server.id).callTool('whoami');
    expect(textOf(who)).to.equal('auto-user mcp:tools');
    expect(hub.store.state.signIns[server.id]).to.include({ status: 'signed-in', issuer: urls.oauthIssuer });

    // every request of the page went to the relay: the MCP server and the authorization
    // server's metadata, registration and token endpoints alike
    expect(fetched.length).to.be.greaterThan(3);
    for (const u of fetched) expect(new URL(u).origin, u).to.equal(new URL(relayUrls.relay).origin);
    expect(fetched.some((u) => u.includes('/token'))).to.equal(true);

    // the resource saw the token: its audience is the upstream server's URL, not the relay's
    const seen = (await (await fetch(`${urls.oauthMcp}/t/${tenant}/seen`)).json()) as {
      tokens: { token: string; valid: boolean }[];
    };
    const valid = seen.tokens.filter((t) => t.valid);
    expect(valid.length).to.be.greaterThan(0);
    for (const { token } of valid) {
      const c = claims(token);
      expect(c.aud).to.equal(upstream);
      expect(String(c.aud)).not.to.contain(new URL(relayUrls.relay).host);
      expect(c.iss).to.equal(urls.oauthIssuer);
    }

    // signing out revokes the tokens at the authorization server, through the relay too
    const before = fetched.length;
    await hub.signOut(server.id);
    const revocations = fetched.slice(before).filter((u) => /revocation/.test(u));
    expect(revocations.length).to.be.greaterThan(0);
    for (const u of revocations) expect(new URL(u).origin, u).to.equal(new URL(relayUrls.relay).origin);
  });
});
