import { expect } from '@open-wc/testing';
import { McpConnectionError, McpHub, backoffDelay, CORS_HINT } from '../../src/core/index.js';
import { fixtureTenant, until, nextEvent, privateHub, recordEvents, rejects, unique, urls } from '../helpers.js';

describe('connections', () => {
  describe('each transport against a real server', () => {
    const cases: [string, () => string, string, string][] = [
      ['streamable-http', () => urls.everything, 'streamable-http', 'streamable-http'],
      ['sse', () => urls.everythingSse, 'sse', 'sse'],
      ['auto → Streamable HTTP', () => urls.everything, 'auto', 'streamable-http'],
      ['auto → legacy SSE (404/405 at initialize)', () => urls.everythingSse, 'auto', 'sse'],
    ];
    for (const [what, url, transport, expected] of cases) {
      it(`${what}: connects with the tools, lists everything after, and calls echo`, async () => {
        const hub = privateHub();
        const s = await hub.servers.add({ name: what, url: url(), transport: transport as never });
        const statuses: string[] = [];
        hub.addEventListener('mcp-server-status-changed', (e) => statuses.push(e.detail.status));
        const toolsChanged = nextEvent<CustomEvent>(window, 'mcp-tools-changed', (e) => e.detail.serverId === s.id);
        const discovered = nextEvent<CustomEvent>(
          window,
          'mcp-tools-changed',
          (e) => e.detail.serverId === s.id && e.detail.reason === 'discovered',
        );
        const first = await hub.connect(s.id);
        // tools first: connected before resources and prompts are listed
        expect(first.partial).to.equal(true);
        expect(first.resources).to.deep.equal([]);
        expect(first.tools.length).to.be.greaterThan(10);
        expect((await toolsChanged).detail).to.include({ reason: 'connected', resourceCount: 0 });
        const full = (await discovered).detail;
        const cat = hub.catalogue(s.id)!;
        expect(cat.partial).to.equal(undefined);
        expect(full).to.include({ toolCount: cat.tools.length, resourceCount: cat.resources.length });
        expect(statuses).to.deep.equal(['connecting', 'connected']);
        expect(cat.transport).to.equal(expected);
        expect(cat.serverInfo?.name).to.be.a('string').and.not.equal('');
        expect(cat.protocolVersion).to.equal('2025-11-25');
        if (expected === 'streamable-http') expect(cat.sessionId).to.be.a('string');
        expect(cat.tools.map((t) => t.name)).to.include.members([
          'echo',
          'get-sum',
          'get-structured-content',
          'trigger-long-running-operation',
        ]);
        expect(cat.resources.length).to.be.greaterThan(0);
        expect(cat.resourceTemplates.length).to.be.greaterThan(0);
        expect(cat.prompts.length).to.be.greaterThan(0);
        expect((await toolsChanged).detail.toolCount).to.equal(cat.tools.length);
        expect(hub.status(s.id).status).to.equal('connected');
        // written off the connect path
        await until(async () => hub.servers.get(s.id)?.lastConnectedAt, 'lastConnectedAt');
        const r = await hub.client(s.id).callTool('echo', { message: 'hello' });
        expect(r.content[0]).to.deep.equal({ type: 'text', text: 'Echo: hello' });
        const structured = await hub.client(s.id).callTool('get-structured-content', { location: 'New York' });
        expect(structured.structuredContent).to.have.property('temperature');
        await hub.disconnect(s.id);
        expect(hub.status(s.id).status).to.equal('disconnected');
        expect(await rejects(hub.client(s.id).callTool('echo', { message: 'x' }))).to.have.property(
          'code',
          'not-connected',
        );
      });
    }

    it('plain JSON-RPC endpoint: explicit and detected by auto; object content normalised', async () => {
      const hub = privateHub();
      for (const transport of ['jsonrpc', 'auto'] as const) {
        const s = await hub.servers.add({ name: transport, url: `${urls.fixture}/jsonrpc`, transport });
        const cat = await hub.connect(s.id);
        expect(cat.transport).to.equal('jsonrpc');
        expect(cat.tools.map((t) => t.name)).to.deep.equal(['echo', 'add']);
        const echo = await hub.client(s.id).callTool('echo', { text: 'g4f' });
        expect(echo.content).to.deep.equal([{ type: 'text', text: 'g4f' }]);
        const add = await hub.client(s.id).callTool('add', { a: 2, b: 3 });
        expect(add.content).to.deep.equal([{ type: 'text', text: '5' }]);
        const err = await rejects(hub.client(s.id).callTool('nope', {}));
        expect(err).to.be.instanceOf(McpConnectionError);
        expect(err.code).to.equal('server');
      }
    });
  });

  describe('auth reaches the server with the right header', () => {
    const cases: [string, object, (h: Record<string, string>) => void][] = [
      ['bearer', { type: 'bearer', token: 'tok-abc' }, (h) => expect(h.authorization).to.equal('Bearer tok-abc')],
      ['api-key (default header)', { type: 'api-key', key: 'key-1' }, (h) => expect(h['x-api-key']).to.equal('key-1')],
      [
        'api-key (custom header)',
        { type: 'api-key', headerName: 'X-Service-Key', key: 'key-2' },
        (h) => expect(h['x-service-key']).to.equal('key-2'),
      ],
      [
        'basic',
        { type: 'basic', username: 'ann', password: 'pä:ss' },
        (h) =>
          expect(h.authorization).to.equal(
            `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode('ann:pä:ss')))}`,
          ),
      ],
      ['none', { type: 'none' }, (h) => expect(h).not.to.have.property('authorization')],
    ];
    for (const [what, auth, check] of cases) {
      it(what, async () => {
        const hub = privateHub();
        const t = fixtureTenant();
        const s = await hub.servers.add({
          name: what,
          url: t.url,
          auth: auth as never,
          headers: [
            { name: 'X-Extra', value: 'plain-extra', secret: false },
            { name: 'X-Secret-Extra', value: 'sealed-extra' },
          ],
        });
        await hub.connect(s.id);
        const r = await hub.client(s.id).callTool('headers', {});
        const h = JSON.parse((r.content[0] as { text: string }).text);
        check(h);
        expect(h['x-extra']).to.equal('plain-extra');
        expect(h['x-secret-extra']).to.equal('sealed-extra');
      });
    }
  });

  it('session expiry: a 404 on a request with a session id re-initializes once and retries it', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'expiring', url: t.url, transport: 'streamable-http' });
    const first = await hub.connect(s.id);
    expect((await t.stats()).initializes).to.equal(1);
    expect((await t.expire()).expired).to.equal(1);
    const r = await hub.client(s.id).callTool('echo', { message: 'after expiry' });
    expect(r.content[0]).to.deep.equal({ type: 'text', text: 'Echo: after expiry' });
    const stats = await t.stats();
    expect(stats.initializes).to.equal(2);
    expect(hub.catalogue(s.id)?.sessionId).to.be.a('string').and.not.equal(first.sessionId);
    expect(hub.status(s.id).status).to.equal('connected');
  });

  it('a tools/list_changed notification re-lists and emits mcp-tools-changed', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'changing', url: t.url });
    const cat = await hub.connect(s.id);
    expect(cat.tools.map((x) => x.name)).not.to.include('brand_new');
    const changed = nextEvent<CustomEvent>(
      window,
      'mcp-tools-changed',
      (e) => e.detail.serverId === s.id && e.detail.reason === 'list-changed',
    );
    await hub.client(s.id).callTool('add_tool', { name: 'brand_new' });
    const ev = await changed;
    expect(ev.detail.toolCount).to.equal(cat.tools.length + 1);
    expect(hub.catalogue(s.id)!.tools.map((x) => x.name)).to.include('brand_new');
  });

  it('follows nextCursor to the end (250 tools in pages of 40)', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'paged', url: `${urls.fixture}/paged/mcp` });
    const cat = await hub.connect(s.id);
    expect(cat.tools).to.have.length(250);
    expect(new Set(cat.tools.map((t) => t.name)).size).to.equal(250);
    expect(cat.tools[249].name).to.equal('tool_0249');
  });

  it('persists the catalogue so a reloaded page shows it before reconnecting', async () => {
    const name = unique('store');
    const a = new McpHub({ storeName: name, eventTarget: null });
    const s = await a.servers.add({ name: 'e', url: urls.everything });
    const cat = await a.connect(s.id);
    await a.dispose();
    const b = new McpHub({ storeName: name, eventTarget: null });
    await b.ready;
    expect(b.status(s.id).status).to.equal('disconnected');
    expect(b.catalogue(s.id)?.tools.map((t) => t.name)).to.deep.equal(cat.tools.map((t) => t.name));
    expect(b.catalogue(s.id)?.serverInfo).to.deep.equal(cat.serverInfo);
    await b.dispose();
  });

  it('a request timeout gives a clear error and leaves the server usable', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'slow', url: t.url, timeout: 1 });
    await hub.connect(s.id);
    const err = await rejects(hub.client(s.id).callTool('slow', { ms: 3000 }));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('timeout');
    expect(err.message).to.match(/did not answer in time|timed out/);
    const ok = await hub.client(s.id).callTool('echo', { message: 'still here' });
    expect(ok.content[0]).to.deep.equal({ type: 'text', text: 'Echo: still here' });
    // the server was told to stop the timed-out request
    const stats = await until(
      async () => ((await t.stats()).cancelled.length ? t.stats() : null),
      'the cancellation to reach the server',
    );
    expect(stats.cancelled).to.have.length(1);
  });

  it('an aborted request rejects with code aborted', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'hang', url: t.url });
    await hub.connect(s.id);
    const ac = new AbortController();
    const p = hub.client(s.id).callTool('hang', {}, { signal: ac.signal });
    await until(async () => (await t.stats()).running === 1, 'the call to start at the server');
    ac.abort();
    expect((await rejects(p)).code).to.equal('aborted');
    // the server received notifications/cancelled for it
    const stats = await until(
      async () => ((await t.stats()).cancelled.length ? t.stats() : null),
      'the cancellation to reach the server',
    );
    expect(stats.cancelled).to.have.length(1);
  });

  it('HTTP 500 at connect: clear error, status error, other servers unaffected', async () => {
    const hub = privateHub();
    const bad = await hub.servers.add({ name: 'broken', url: `${urls.fixture}/status/500/mcp`, retries: 0 });
    const good = await hub.servers.add({ name: 'fine', url: urls.everything });
    const failed = nextEvent<CustomEvent>(
      window,
      'mcp-server-status-changed',
      (e) => e.detail.serverId === bad.id && e.detail.status === 'error',
    );
    const err = await rejects(hub.connect(bad.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('http');
    expect(err.status).to.equal(500);
    expect(err.message).to.contain('HTTP 500');
    expect((await failed).detail.error).to.include({ code: 'http', status: 500 });
    expect(hub.status(bad.id).error?.message).to.contain('500');
    await hub.connect(good.id);
    expect(hub.status(good.id).status).to.equal('connected');
  });

  it('retries a failing connect with backoff up to the configured attempts', async () => {
    const hub = privateHub();
    const tenant = unique('flaky');
    const s = await hub.servers.add({ name: 'flaky', url: `${urls.fixture}/flaky/${tenant}/2/mcp`, retries: 2 });
    const cat = await hub.connect(s.id);
    expect(cat.tools.length).to.be.greaterThan(0);
    const stats = await fetch(`${urls.fixture}/t/flaky-${tenant}/control/stats`).then((r) => r.json());
    expect(stats.posts).to.be.greaterThan(2);
    // too few attempts: fails with the last error
    const hub2 = privateHub();
    const s2 = await hub2.servers.add({
      name: 'flaky2',
      url: `${urls.fixture}/flaky/${unique('flaky')}/3/mcp`,
      retries: 1,
    });
    const err = await rejects(hub2.connect(s2.id));
    expect(err.status).to.equal(503);
  });

  it('backoff grows exponentially with jitter and a cap', () => {
    expect(backoffDelay(0, () => 0)).to.equal(125);
    expect(backoffDelay(0, () => 1)).to.equal(250);
    expect(backoffDelay(3, () => 1)).to.equal(2000);
    expect(backoffDelay(10, () => 1)).to.equal(5000);
  });

  it('a malformed response fails that request, not the hub', async () => {
    const hub = privateHub();
    const bad = await hub.servers.add({ name: 'malformed', url: `${urls.fixture}/malformed-list/mcp`, retries: 0 });
    const err = await rejects(hub.connect(bad.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('protocol');
    expect(err.message).to.match(/malformed|Unexpected|JSON/i);
    expect(hub.status(bad.id).status).to.equal('error');
    const good = await hub.servers.add({ name: 'fine', url: urls.everything });
    await hub.connect(good.id);
    expect(hub.status(good.id).status).to.equal('connected');
  });

  it('a server without CORS headers gets an error naming the headers a browser needs', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'nocors',
      url: `${urls.fixture}/nocors/mcp`,
      retries: 0,
      transport: 'streamable-http',
    });
    const err = await rejects(hub.connect(s.id));
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('network');
    expect(err.message).to.contain(CORS_HINT);
    for (const h of [
      'Access-Control-Allow-Origin',
      'Access-Control-Allow-Headers',
      'mcp-session-id',
      'mcp-protocol-version',
      'authorization',
      'last-event-id',
      'Access-Control-Expose-Headers',
    ])
      expect(err.message).to.contain(h);
  });

  it('refuses to connect a disabled server and disconnects one when disabled', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'e', url: urls.everything });
    await hub.connect(s.id);
    const events = recordEvents(window, ['mcp-server-status-changed']);
    await hub.servers.update(s.id, { enabled: false });
    events.stop();
    expect(hub.status(s.id).status).to.equal('disconnected');
    expect(events.seen.map((e) => (e as CustomEvent).detail.status)).to.deep.equal(['disconnected']);
    expect((await rejects(hub.connect(s.id))).code).to.equal('invalid-config');
  });

  it('concurrent connect calls share one attempt', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'once', url: t.url });
    const [a, b] = await Promise.all([hub.connect(s.id), hub.connect(s.id)]);
    expect(a).to.equal(b);
    expect((await t.stats()).initializes).to.equal(1);
  });
});
