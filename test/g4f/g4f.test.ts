import { expect } from '@open-wc/testing';
import { G4fMcpClient, install, installed, MIRROR_KEY } from '../../src/g4f/index.js';
import type { McpHub } from '../../src/core/index.js';
import { fixtureTenant, privateHub, until, untilRendered, urls } from '../helpers.js';
import { MemoryStore } from './memory-storage.js';

const clients: G4fMcpClient[] = [];
function client(hub: McpHub, storage: Storage, options: Partial<ConstructorParameters<typeof G4fMcpClient>[0]> = {}) {
  const c = new G4fMcpClient({ hub, storage, container: null, ...options });
  clients.push(c);
  return c;
}
afterEach(() => clients.splice(0).forEach((c) => c.dispose()));

/** G4F's own keys as its client wrote them. */
function g4fStorage(servers: unknown[], selected?: string[]) {
  const s = new MemoryStore();
  s.setItem('mcp_servers', JSON.stringify(servers));
  if (selected) s.setItem('mcp_selected_tools', JSON.stringify(selected));
  return s;
}

const card = (root: ParentNode, n = 0) =>
  root.querySelectorAll('mcp-tool-call')[n] as HTMLElement & { updateComplete: Promise<unknown> };
// a card is upgraded once <mcp-tool-call>'s module, loaded with the first card, has run
const button = (el: Element, action: string) =>
  (el.shadowRoot?.querySelector(`[data-action="${action}"]`) ?? null) as HTMLButtonElement | null;

describe('mcp-chat-elements/g4f', () => {
  describe('first-run import of G4F localStorage', () => {
    it("brings servers and selection into the hub, writes them back in G4F's shape, and runs once", async () => {
      const fx = fixtureTenant();
      const legacy = [
        { id: '1718000000001', name: 'Fixture', url: fx.url, enabled: true },
        { id: '1718000000002', name: 'G4F style', url: urls.jsonrpc, enabled: false },
        { id: '1718000000003', name: 'Remote over http', url: 'http://example.com/mcp', enabled: true },
        'garbage',
      ];
      const selected = ['1718000000001:echo', '1718000000001:slow', '1718000000002:add', '999:echo'];
      const storage = g4fStorage(legacy, selected);
      const before = [storage.getItem('mcp_servers'), storage.getItem('mcp_selected_tools')];
      const hub = privateHub();
      const c = client(hub, storage);
      // before the hub has loaded, the page already sees G4F's list
      expect(c.servers.map((s) => s.id)).to.deep.equal(['1718000000001', '1718000000002', '1718000000003']);
      await c.ready;
      expect(hub.servers.list().map((s) => [s.id, s.name, s.url, s.enabled])).to.deep.equal([
        ['1718000000001', 'Fixture', fx.url, true],
        ['1718000000002', 'G4F style', urls.jsonrpc, false],
      ]);
      expect(c.importReport!.errors.map((e) => e.url)).to.deep.equal(['http://example.com/mcp']);
      expect(c.importReport!.errors[0].message).to.match(/url/);
      expect(hub.assistants.get('default').servers).to.deep.equal({
        '1718000000001': { tools: ['echo', 'slow'] },
        '1718000000002': { tools: ['add'] },
      });
      // written back in G4F's shapes: what the hub holds, and what it could not hold kept as it was
      expect(JSON.parse(storage.getItem('mcp_servers')!)).to.deep.equal([
        { id: '1718000000001', name: 'Fixture', url: fx.url, enabled: true },
        { id: '1718000000002', name: 'G4F style', url: urls.jsonrpc, enabled: false },
        legacy[2],
        'garbage',
      ]);
      expect(JSON.parse(storage.getItem('mcp_selected_tools')!)).to.deep.equal([
        '1718000000001:echo',
        '1718000000001:slow',
        '1718000000002:add',
      ]);
      expect(before[0]).to.not.equal(null);
      expect(JSON.parse(storage.getItem(MIRROR_KEY)!).imported).to.be.a('number');

      // once imported, never again: a server the user removes stays removed
      await hub.servers.remove('1718000000002');
      const again = client(hub, storage);
      await again.ready;
      expect(again.importReport).to.equal(undefined);
      expect(hub.servers.list().map((s) => s.id)).to.deep.equal(['1718000000001']);

      // and even without the marker, importing twice adds nothing twice
      const noMarker = g4fStorage(legacy, selected);
      const third = client(hub, noMarker);
      await third.ready;
      expect(third.importReport!.added.map((s) => s.id)).to.deep.equal(['1718000000002']);
      expect(third.importReport!.skipped.map((s) => s.id)).to.deep.equal(['1718000000001']);
      expect(hub.servers.list().length).to.equal(2);
    });

    it('a G4F user with servers but nothing ticked gets those servers with no tools offered', async () => {
      const fx = fixtureTenant();
      const hub = privateHub();
      const c = client(hub, g4fStorage([{ id: 'a1', name: 'Fx', url: fx.url, enabled: true }]));
      await c.ready;
      await c.fetchAllTools();
      expect(c.getAllTools().length).to.be.greaterThan(3);
      expect(c.selectedTools).to.deep.equal([]);
      expect(c.getSelectedToolsForAPI()).to.deep.equal([]);
    });
  });

  describe("a way back to G4F's own client", () => {
    it("servers added and removed, and ticks changed, under the drop-in are written to G4F's keys", async () => {
      const fx = fixtureTenant();
      const storage = g4fStorage(
        [{ id: '1718000000001', name: 'Fixture', url: fx.url, enabled: true }],
        ['1718000000001:echo'],
      );
      const hub = privateHub();
      const c = client(hub, storage);
      await c.ready;
      await c.fetchAllTools(); // as G4F's page does on load
      const keys = () => ({
        servers: JSON.parse(storage.getItem('mcp_servers')!) as { id: string; name: string; url: string }[],
        selected: JSON.parse(storage.getItem('mcp_selected_tools')!) as string[],
      });
      const other = fixtureTenant();
      const added = (await c.addServer({ name: 'Other', url: other.url }))!;
      await until(async () => hub.catalogue(added.id), 'the new server listed');
      expect(keys().servers.map((s) => [s.id, s.name, s.url])).to.deep.equal([
        ['1718000000001', 'Fixture', fx.url],
        [added.id, 'Other', other.url],
      ]);
      // as in G4F, a new server's tools are not ticked until the user ticks them
      expect(keys().selected).to.deep.equal(['1718000000001:echo']);
      // the hub tells its subscribers in a microtask: wait for the write, then check it
      const written = (what: string, check: () => boolean) => until(async () => check(), what);
      const selected = (...ids: string[]) => JSON.stringify(keys().selected) === JSON.stringify(ids);
      await c.toggleToolSelection(`${added.id}:slow`);
      await written('the tick', () => selected('1718000000001:echo', `${added.id}:slow`));
      await c.toggleToolSelection('1718000000001:echo');
      await written('the untick', () => selected(`${added.id}:slow`));
      await c.removeServer(added.id);
      await written('the removal', () => keys().servers.length === 1);
      expect(keys().servers.map((s) => s.id)).to.deep.equal(['1718000000001']);
      expect(keys().selected).to.deep.equal([]);
    });

    it("writes nothing to G4F's keys when told not to import", async () => {
      const storage = new MemoryStore();
      const hub = privateHub();
      const c = client(hub, storage, { importStorage: false });
      await c.ready;
      await c.addServer({ name: 'Fx', url: fixtureTenant().url });
      expect(storage.getItem('mcp_servers')).to.equal(null);
    });
  });

  describe("G4F's interface", () => {
    it('servers: add (a bare origin means /mcp), refuse duplicates and bad input at once, toggle, remove', async () => {
      const hub = privateHub();
      const c = client(hub, new MemoryStore());
      await c.ready;
      const fx = fixtureTenant();
      expect(() => c.addServer({ name: '', url: fx.url })).to.throw('Server must have name and url');
      expect(() => c.addServer({ name: 'x', url: 'http://example.com/mcp' })).to.throw(/url/);
      const added = c.addServer({ name: 'Fixture', url: fx.url });
      // shown at once, as G4F's page re-renders right after addServer
      expect(c.servers.map((s) => s.name)).to.deep.equal(['Fixture']);
      expect(() => c.addServer({ name: 'Again', url: fx.url })).to.throw('Server with this URL already exists');
      const stored = (await added)!;
      expect(hub.servers.get(stored.id)?.url).to.equal(fx.url);
      await until(async () => hub.status(stored.id).status === 'connected', 'the new server to connect');
      const origin = new URL(urls.jsonrpc).origin;
      const bare = await c.addServer({ name: 'Bare', url: origin });
      expect(bare!.url).to.equal(`${origin}/mcp`);

      const off = c.toggleServer(stored.id);
      expect(c.servers.find((s) => s.id === stored.id)!.enabled).to.equal(false);
      await off;
      expect(hub.servers.get(stored.id)!.enabled).to.equal(false);
      const gone = c.removeServer(bare!.id);
      expect(c.servers.map((s) => s.id)).to.deep.equal([stored.id]);
      await gone;
      expect(hub.servers.get(bare!.id)).to.equal(undefined);
    });

    it('tools: fetch, list with server fields, select, and hand the model collision-free names', async () => {
      const hub = privateHub();
      const c = client(hub, new MemoryStore());
      await c.ready;
      // two servers with the same name and the same tools: G4F would send two "echo"s
      const a = (await c.addServer({ name: 'Same', url: fixtureTenant().url }))!;
      const b = (await c.addServer({ name: 'Same', url: fixtureTenant().url }))!;
      const map = await c.fetchAllTools();
      expect([...map.keys()].sort()).to.deep.equal([hub.servers.get(a.id)!.url, hub.servers.get(b.id)!.url].sort());
      const echo = c.getAllTools().find((t) => t.serverId === b.id && t.name === 'echo')!;
      expect(echo).to.include({ serverName: 'Same', serverUrl: hub.servers.get(b.id)!.url, toolId: `${b.id}:echo` });
      expect(echo.description).to.equal('Echoes the message back.');

      // nobody configured this assistant: every tool is offered (each call still asks)
      expect(c.isToolSelected(`${a.id}:echo`)).to.equal(true);
      const names = (c.getSelectedToolsForAPI() as { function: { name: string } }[]).map((t) => t.function.name);
      const echoes = names.filter((n) => n.startsWith('Same__echo'));
      expect(echoes.length).to.equal(2);
      expect(new Set(echoes).size).to.equal(2);

      const off = c.toggleToolSelection(`${a.id}:echo`);
      expect(c.isToolSelected(`${a.id}:echo`)).to.equal(false);
      expect(c.isToolSelected(`${a.id}:slow`)).to.equal(true);
      await off;
      expect(hub.assistants.get('default').servers).to.deep.include({ [b.id]: {} });
      expect(c.isToolSelected(`${a.id}:echo`)).to.equal(false);
      await c.toggleToolSelection(`${a.id}:echo`);
      expect(c.isToolSelected(`${a.id}:echo`)).to.equal(true);
      expect(c.selectedTools).to.include(`${b.id}:echo`);
    });

    it('executeToolCalls: approval cards in the container, results in the shape G4F expects', async () => {
      const hub = privateHub();
      const container = document.createElement('div');
      document.body.append(container);
      try {
        const c = client(hub, new MemoryStore(), { container });
        await c.ready;
        const fx = (await c.addServer({ name: 'Fx', url: fixtureTenant().url }))!;
        await c.fetchAllTools();
        const echoName = c.getAllTools().find((t) => t.serverId === fx.id && t.name === 'echo')!.functionName!;
        expect(echoName).to.equal('Fx__echo');
        const run = c.executeToolCalls([
          { id: 'call_1', function: { name: echoName, arguments: '{"message":"hi"}' } },
          // G4F's own code passes bare MCP names and object arguments
          { id: 'call_2', function: { name: 'slow', arguments: { ms: 1 } } },
        ]);
        await untilRendered(
          { updateComplete: Promise.resolve() },
          () => container.querySelectorAll('mcp-tool-call').length === 2 && button(card(container, 1), 'deny'),
          'two approval cards (a G4F call under always-ask must wait for approval: see model-text.test.ts)',
        );
        await card(container, 0).updateComplete;
        button(card(container, 0), 'allow-once')!.click();
        button(card(container, 1), 'deny')!.click();
        const results = await run;
        expect(JSON.parse(JSON.stringify(results))).to.deep.equal([
          {
            tool_call_id: 'call_1',
            role: 'tool',
            name: echoName,
            content: JSON.stringify([{ type: 'text', text: 'Echo: hi' }]),
          },
          {
            tool_call_id: 'call_2',
            role: 'tool',
            name: 'slow',
            content: JSON.stringify({
              error: 'The user denied this tool call. Do not retry it unless the user asks.',
            }),
          },
        ]);
        expect(results[0].call!.status).to.equal('success');
        expect(results[1].call!.error!.code).to.equal('denied');
        expect(card(container, 0).getAttribute('call-id')).to.equal(results[0].call!.id);

        // unknown tools throw, as G4F's did; unparseable arguments come back as an error result
        let thrown: Error | undefined;
        await c.executeToolCall({ id: 'x', function: { name: 'nope', arguments: '{}' } }).catch((e) => (thrown = e));
        expect(thrown?.message).to.equal('Tool nope not found');
        await hub.assistants.update('default', { approval: 'auto' });
        const bad = await c.executeToolCall({ id: 'y', function: { name: echoName, arguments: '{"message":' } });
        expect(JSON.parse(bad.content).error).to.match(/not valid JSON/);
        const noArg = await c.executeToolCall({ id: 'z', function: { name: echoName, arguments: '{}' } });
        expect(JSON.parse(noArg.content).error).to.match(/Invalid arguments.*message/);
      } finally {
        container.remove();
      }
    });

    it('a name handed to the model keeps its tool when a collision goes away', async () => {
      const hub = privateHub();
      const c = client(hub, new MemoryStore());
      await c.ready;
      await hub.assistants.update('default', { approval: 'auto' });
      const given = () =>
        new Map(
          hub
            .modelTools({ includeUnavailable: true })
            .filter((t) => t.tool.name === 'echo')
            .map((t) => [t.serverId, t.name]),
        );
      const b = (await c.addServer({ name: 'Same', url: fixtureTenant().url }))!;
      await c.fetchAllTools();
      const a = (await c.addServer({ name: 'Same', url: fixtureTenant().url }))!;
      await c.fetchAllTools();
      expect(given().get(b.id)).to.equal('Same__echo');
      const suffixed = given().get(a.id)!;
      expect(suffixed).to.match(/^Same__echo_[a-z0-9]{8}$/);
      // the collision goes away: G4F keeps sending, and reaching, the name its conversation holds
      await c.removeServer(b.id);
      const sent = (c.getSelectedToolsForAPI() as { function: { name: string } }[]).map((t) => t.function.name);
      expect(sent).to.include(suffixed).and.not.include('Same__echo');
      const out = await c.executeToolCall({ id: 'k', function: { name: suffixed, arguments: '{"message":"kept"}' } });
      expect([out.name, out.call!.serverId, out.content]).to.deep.equal([
        suffixed,
        a.id,
        JSON.stringify([{ type: 'text', text: 'Echo: kept' }]),
      ]);
      let thrown: Error | undefined;
      await c
        .executeToolCall({ id: 'l', function: { name: 'Same__echo', arguments: '{}' } })
        .catch((e) => (thrown = e));
      // the removed server's name means nothing now
      expect(thrown?.message).to.equal('Tool Same__echo not found');
    });

    it('with no container, cards go to a dock of their own', async () => {
      const hub = privateHub();
      const c = client(hub, new MemoryStore(), { container: '#no-such-element' });
      await c.ready;
      await c.addServer({ name: 'Fx', url: fixtureTenant().url });
      await c.fetchAllTools();
      const run = c.executeToolCall({ id: 'd', function: { name: 'Fx__echo', arguments: '{"message":"dock"}' } });
      const dock = await until(async () => document.querySelector('[data-mcp-g4f-dock]'), 'the dock');
      await untilRendered({ updateComplete: Promise.resolve() }, () => button(card(dock), 'allow-once'), 'the card');
      button(card(dock), 'allow-once')!.click();
      expect((await run).content).to.contain('Echo: dock');
      dock.remove();
    });
  });

  it('install(): window.mcpClient, and new MCPClient() gives the same client', async () => {
    const g = globalThis as any;
    const hub = privateHub();
    try {
      const c = install({ hub, storage: new MemoryStore(), container: null });
      clients.push(c);
      expect(g.mcpClient).to.equal(c);
      expect(new g.MCPClient()).to.equal(c);
      expect(install({ container: document.body })).to.equal(c);
      expect(c.container).to.equal(document.body);
      expect(installed()).to.equal(c);
      await c.ready;
    } finally {
      delete g.mcpClient;
      delete g.MCPClient;
      delete g[Symbol.for('mcp-elements.g4f')];
    }
  });
});
