// A page's hub using servers it cannot reach itself, through the relay (issue 24), in every
// engine: a real server without CORS behind the relay (`createNodeRelay` on 127.0.0.1), and a
// stdio server (@modelcontextprotocol/server-filesystem) served by the relay CLI for this page's
// origin, imported from what the CLI printed (test/fixtures/relay-fixture.mjs,
// stdio-relay-fixture.mjs).
import { expect } from '@open-wc/testing';
import { McpConnectionError, type McpHub } from '../../src/core/index.js';
import { privateHub, urls } from '../helpers.js';

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
    expect(error).to.be.instanceOf(Error);
    expect(hub.status(s.id).status).not.to.equal('connected');
    expect(hub.catalogue(s.id)?.tools ?? []).to.deep.equal([]);
  });
});
