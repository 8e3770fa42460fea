// 2026-07-28 behaviour beyond the shared revision suite: cache hints (ttlMs) across a reload,
// input_required rounds without handlers, and CORS that refuses the new headers.
import { expect } from '@open-wc/testing';
import { McpHub } from '../../src/core/index.js';
import { privateHub, unique, urls } from '../helpers.js';

interface SeenRequest {
  httpMethod: string;
  rpc?: { method?: string };
}
const seen = (base: string) => fetch(`${base}/seen`).then((r) => r.json() as Promise<{ requests: SeenRequest[] }>);
const count = (reqs: SeenRequest[], method: string) => reqs.filter((r) => r.rpc?.method === method).length;

describe('2026-07-28: list cache hints (ttlMs)', () => {
  it('a reload within the TTL connects and shows the tools with no discover or list request', async () => {
    const base = `${urls.modern}/t/${unique('ttl')}`;
    const storeName = unique('store');
    const first = new McpHub({ storeName });
    const s = await first.servers.add({ name: 'cached', url: `${base}/strict+cached/mcp`, retries: 0 });
    const cat = await first.connect(s.id, { discovery: 'complete' });
    expect(cat.listsFreshUntil, 'tools/list carried ttlMs 60000').to.be.greaterThan(Date.now() + 50_000);
    const before = (await seen(base)).requests;
    expect(count(before, 'tools/list')).to.equal(1);
    await first.dispose();

    // "reload": a new hub on the same store
    const second = new McpHub({ storeName });
    try {
      await second.ready;
      expect(second.store.state.catalogues[s.id]!.tools.map((t) => t.name)).to.include('echo');
      const again = await second.connect(s.id);
      expect(again.tools.map((t) => t.name)).to.deep.equal(cat.tools.map((t) => t.name));
      const after = (await seen(base)).requests;
      expect(count(after, 'tools/list'), 'no second tools/list within the TTL').to.equal(1);
      expect(count(after, 'server/discover'), 'no second discover probe within the TTL').to.equal(
        count(before, 'server/discover'),
      );
      expect(second.store.state.connections[s.id]!.protocolVersion).to.equal('2026-07-28');
      // the session works
      const r = await second.client(s.id).callTool('echo', { message: 'after reload' });
      expect(JSON.stringify(r.content)).to.contain('after reload');
    } finally {
      await second.dispose();
    }
  });

  it('after the TTL (or without a hint) the lists are fetched again', async () => {
    const base = `${urls.modern}/t/${unique('ttl')}`;
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'cached', url: `${base}/strict+cached/mcp`, retries: 0 });
    await hub.connect(s.id);
    await hub.disconnect(s.id);
    // the hint has run out
    hub.store.update((st) => ({
      ...st,
      catalogues: { ...st.catalogues, [s.id]: { ...st.catalogues[s.id]!, listsFreshUntil: Date.now() - 1 } },
    }));
    await hub.connect(s.id);
    expect(count((await seen(base)).requests, 'tools/list')).to.equal(2);

    const plainBase = `${urls.modern}/t/${unique('ttl')}`;
    const p = await hub.servers.add({ name: 'plain', url: `${plainBase}/strict/mcp`, retries: 0 });
    const plainCat = await hub.connect(p.id);
    expect(plainCat.listsFreshUntil).to.equal(undefined);
    await hub.disconnect(p.id);
    await hub.connect(p.id);
    expect(count((await seen(plainBase)).requests, 'tools/list')).to.equal(2);
  });

  it('a changed config is never served from the old cache', async () => {
    const base = `${urls.modern}/t/${unique('ttl')}`;
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'cached', url: `${base}/strict+cached/mcp`, retries: 0 });
    await hub.connect(s.id);
    await hub.servers.update(s.id, { timeout: 25 });
    await hub.connect(s.id);
    expect(count((await seen(base)).requests, 'tools/list')).to.equal(2);
  });
});

describe('2026-07-28: input_required without handlers', () => {
  it('a requestState-only round is retried and the call completes', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ir')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const r = await hub.client(s.id).callTool('ask-state', {});
    expect(r.isError ?? false).to.equal(false);
  });

  it('a server asking for sampling, which this page does not offer, ends the call with a typed error', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ir')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const err = await hub
      .client(s.id)
      .callTool('ask-model', {})
      .then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
    expect(err?.name).to.equal('McpConnectionError');
    expect(err?.code).to.equal('input-required');
  });

  it('a server that never stops asking ends at the round cap with a typed error', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ir')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const err = await hub
      .client(s.id)
      .callTool('ask-forever', {})
      .then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
    expect(err?.code).to.equal('input-required');
  });
});

describe('CORS that allows only Content-Type (as G4F’s own server does)', () => {
  it('auto falls back to a revision that needs no MCP headers and still lists and calls tools', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'strict-cors',
      url: `${urls.modernStrictCors}/t/${unique('cors')}/mcp`,
      retries: 0,
    });
    const cat = await hub.connect(s.id);
    expect(hub.store.state.connections[s.id]!.era).to.equal('jsonrpc');
    expect(cat.tools.map((t) => t.name)).to.include('echo');
    const r = await hub.client(s.id).callTool('echo', { message: 'through plain JSON-RPC' });
    expect(JSON.stringify(r.content)).to.contain('through plain JSON-RPC');
  });

  it('with Streamable HTTP forced, the error names each header the preflight refused and where to allow it', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'strict-cors',
      url: `${urls.modernStrictCors}/t/${unique('cors')}/mcp`,
      transport: 'streamable-http',
      retries: 0,
    });
    const err = await hub.connect(s.id).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(err?.code).to.equal('network');
    expect(err?.message).to.contain('Access-Control-Allow-Headers');
    expect(err?.message).to.contain('mcp-protocol-version');
  });
});

describe('2026-07-28: HeaderMismatch', () => {
  it('a stale tool definition (no x-mcp-header) is re-listed and the call retried with Mcp-Param-*', async () => {
    const hub = privateHub();
    const url = `${urls.modern}/t/${unique('hm')}/strict/mcp`;
    const s = await hub.servers.add({ name: 'm', url, retries: 0 });
    const cat = await hub.connect(s.id);
    const route = cat.tools.find((t) => t.name === 'route')!;
    const stale = { ...route, inputSchema: { type: 'object' as const, properties: { region: { type: 'string' } } } };
    const r = await hub.client(s.id).callTool('route', { region: 'eu', query: 'q' }, { tool: stale });
    expect(r.isError ?? false).to.equal(false);
    const reqs = (await seen(url.replace(/\/strict\/mcp$/, ''))).requests;
    expect(count(reqs, 'tools/call')).to.equal(2);
    expect(count(reqs, 'tools/list')).to.be.greaterThan(1);
  });
});

describe('2026-07-28: a response stream that breaks before the answer', () => {
  it('a read-only tool is sent again as a new request and answers; a tool that changes things fails at once, typed', async () => {
    const hub = privateHub();
    const base = `${urls.modern}/t/${unique('drop')}`;
    const s = await hub.servers.add({ name: 'm', url: `${base}/strict/mcp`, retries: 0, timeout: 60 });
    await hub.connect(s.id);
    // the server's timeout is 60 s, twice the test's own: waiting it out would fail the test
    const r = await hub.client(s.id).callTool('flaky', {});
    expect(JSON.stringify(r.content)).to.contain('flaky answered');
    const err = await hub
      .client(s.id)
      .callTool('flaky-write', {})
      .then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
    expect(err?.code).to.equal('dropped');
    const calls = ((await (await fetch(`${base}/seen`)).json()) as { calls: { tool: string; broken?: boolean }[] })
      .calls;
    expect(calls.filter((c) => c.tool === 'flaky').length, 'flaky: broken once, then sent again').to.equal(2);
    expect(calls.filter((c) => c.tool === 'flaky-write').length, 'flaky-write: never sent again').to.equal(1);
  });
});
