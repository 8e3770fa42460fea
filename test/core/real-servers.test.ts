// Issue 22 item 8: defects found against servers people run, each reproduced by a fixture that
// answers as that server does (test/fixtures/origins-server.mjs), each test failing before its fix.
import { expect } from '@open-wc/testing';
import { McpConnectionError, McpHub } from '../../src/core/index.js';
import { privateHub, rejects, unique, urls } from '../helpers.js';

type Seen = { method: string; path: string; headers: Record<string, string> }[];
const log = (base: string, tenant: string): Promise<Seen> => fetch(`${base}/t/${tenant}/log`).then((r) => r.json());

describe('servers people run (issue 22 item 8)', () => {
  it('Cloudflare agents over legacy SSE: a POST answered 202 text/event-stream "Accepted" is not an unanswered stream', async () => {
    const tenant = unique('cf');
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'cf', url: `${urls.origins.a}/t/${tenant}/cf/sse`, transport: 'sse' });
    await hub.connect(s.id);
    expect(hub.catalogue(s.id)!.tools.map((t) => t.name)).to.include('echo');
    // 20 connect+call attempts succeeded 5 times before; every call must succeed
    for (let i = 0; i < 20; i++) {
      const r = await hub.callTool({ serverId: s.id, tool: 'echo', arguments: { i }, source: 'user' });
      expect(r.status, JSON.stringify(r.error)).to.equal('success');
    }
  });

  it('a /sse URL whose Streamable HTTP probe is refused by CORS connects over legacy SSE (auto)', async () => {
    const tenant = unique('cf-auto');
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'cf', url: `${urls.origins.a}/t/${tenant}/cf/sse`, retries: 0 });
    await hub.connect(s.id);
    expect(hub.catalogue(s.id)!.transport).to.equal('sse');
    const r = await hub.callTool({ serverId: s.id, tool: 'echo', arguments: { x: 1 }, source: 'user' });
    expect(r.status).to.equal('success');
  });

  it('pinned to 2025-03-26, no request carries Mcp-Protocol-Version (a later revision’s header)', async () => {
    const tenant = unique('v0326');
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'old',
      url: `${urls.origins.a}/t/${tenant}/v0326/mcp`,
      transport: 'streamable-http',
      revision: '2025-03-26',
      retries: 0,
    });
    await hub.connect(s.id);
    expect(hub.catalogue(s.id)!.protocolVersion).to.equal('2025-03-26');
    const r = await hub.callTool({ serverId: s.id, tool: 'echo', arguments: {}, source: 'user' });
    expect(r.status).to.equal('success');
    const sent = (await log(urls.origins.a, tenant)).filter((e) => e.method !== 'OPTIONS');
    expect(sent.length).to.be.greaterThan(2);
    for (const e of sent) expect(e.headers, e.path).not.to.have.property('mcp-protocol-version');
  });

  it('a G4F-style server that declines its GET stream only after discovery: the next load asks for none', async () => {
    const tenant = unique('g4f-late-405');
    const storeName = unique('store');
    const first = new McpHub({ storeName, eventTarget: null });
    const s = await first.servers.add({
      name: 'g4f',
      url: `${urls.origins.a}/t/${tenant}/g4f/jsonrpc?slowget=300`,
      retries: 0,
    });
    await first.connect(s.id);
    // the 405 comes after the catalogue was stored: it must still be remembered
    await new Promise<void>((resolve) => {
      const off = first.store.subscribe(() => first.catalogue(s.id)?.streamDeclined && (off(), resolve()));
      if (first.catalogue(s.id)?.streamDeclined) (off(), resolve());
    });
    await first.dispose();
    const before = (await log(urls.origins.a, tenant)).length;
    const again = new McpHub({ storeName, eventTarget: null });
    await again.connect(s.id);
    const r = await again.callTool({ serverId: s.id, tool: 'echo', arguments: {}, source: 'user' });
    expect(r.status).to.equal('success');
    const asked = (await log(urls.origins.a, tenant)).slice(before).filter((e) => e.method === 'GET');
    expect(asked, 'no GET stream asked for after the reload (a console error each time)').to.deep.equal([]);
    await again.dispose();
  });

  it('pinned to 2025-03-26, a CORS refusal names only that revision’s headers (and the refused one)', async () => {
    const tenant = unique('v0326-cors');
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'strict',
      // the preflight allows only Content-Type
      url: `${urls.origins.a}/t/${tenant}/g4f/jsonrpc`,
      transport: 'streamable-http',
      revision: '2025-03-26',
      retries: 0,
      headers: [{ name: 'x-team', value: 'blue', secret: false }],
    });
    const err = await rejects(hub.connect(s.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.message).to.contain('x-team');
    for (const h of ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-param'])
      expect(err.message, err.message).not.to.contain(h);
  });

  it('nothing listening: says nothing answered, in one plain sentence first, without blaming CORS', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'dead', url: `${urls.origins.dead}/mcp`, retries: 0 });
    const err = await rejects(hub.connect(s.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('network');
    expect(err.message).to.match(/^Nothing answered at http:\/\/127\.0\.0\.1:\d+\. /);
    expect(err.message).not.to.match(/CORS|Access-Control/);
  });

  it('answered without CORS headers: says the server answered and the browser refused it, naming the headers', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'nocors',
      url: `${urls.fixture}/nocors/mcp`,
      retries: 0,
      transport: 'streamable-http',
    });
    const err = await rejects(hub.connect(s.id));
    expect(err.code).to.equal('network');
    expect(err.message).to.match(/^The server at http:\/\/127\.0\.0\.1:\d+ answered, but /);
    expect(err.message).to.contain('Access-Control-Allow-Origin');
  });
});
