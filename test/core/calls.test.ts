import { expect } from '@open-wc/testing';
import { createStore, set } from 'idb-keyval';
import { McpHub, McpToolError, type ToolCallRecord } from '../../src/core/index.js';
import {
  fixtureTenant,
  nextEvent,
  privateHub,
  rawIdb,
  recordEvents,
  rejects,
  unique,
  until,
  urls,
} from '../helpers.js';

const CALL_EVENTS = [
  'mcp-tool-call-request',
  'mcp-tool-call-awaiting-approval',
  'mcp-tool-call-started',
  'mcp-tool-call-progress',
  'mcp-tool-call-completed',
  'mcp-tool-call-failed',
  'mcp-tool-call-cancelled',
  'mcp-tool-call-denied',
];

async function fixtureHub(options: ConstructorParameters<typeof McpHub>[0] = {}) {
  const t = fixtureTenant();
  const hub = privateHub(options);
  const server = await hub.servers.add({ name: 'fx', url: t.url });
  // everything listed: a background list landing later would count as a request a test made
  await hub.connect(server.id, { discovery: 'complete' });
  return { hub, server, t };
}

describe('hub.callTool', () => {
  describe('approval', () => {
    it('auto runs at once; events reach window exactly once each, in order', async () => {
      const { hub } = await fixtureHub();
      await hub.assistants.update('default', { approval: 'auto' });
      const w = recordEvents(window, CALL_EVENTS);
      const h = recordEvents(hub, CALL_EVENTS);
      const r = await hub.callTool({ name: 'fx__echo', arguments: { message: 'auto' } });
      w.stop();
      h.stop();
      expect(r.status).to.equal('success');
      expect(r.approval).to.equal('auto');
      expect(r.result?.content).to.deep.equal([{ type: 'text', text: 'Echo: auto' }]);
      expect(r.durationMs).to.be.a('number');
      expect(w.seen.map((e) => e.type)).to.deep.equal([
        'mcp-tool-call-request',
        'mcp-tool-call-started',
        'mcp-tool-call-completed',
      ]);
      expect(h.seen.map((e) => e.type)).to.deep.equal(w.seen.map((e) => e.type));
      expect((w.seen[2] as CustomEvent).detail.call.id).to.equal(r.id);
    });

    it('onCall hands the host the record, with its id, before anything else happens', async () => {
      const { hub } = await fixtureHub();
      const order: string[] = [];
      const requested = nextEvent<CustomEvent>(window, 'mcp-tool-call-request').then(() => order.push('request'));
      let first: ToolCallRecord | undefined;
      const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({
        name: 'fx__echo',
        arguments: { message: 'hi' },
        onCall: (r) => {
          first = r;
          order.push('onCall');
        },
      });
      const ev = await waiting;
      await requested;
      expect(order).to.deep.equal(['onCall', 'request']);
      expect(first!.status).to.equal('pending');
      expect(first!.id).to.equal(ev.detail.call.id);
      hub.calls.approve(first!.id);
      expect((await p).id).to.equal(first!.id);
      // runToolCalls passes it on for every MCP call; a throwing callback changes nothing
      await hub.assistants.update('default', { approval: 'auto' });
      const seen: string[] = [];
      const run = await hub.runToolCalls(
        'openai',
        {
          role: 'assistant',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'fx__echo', arguments: '{"message":"1"}' } },
            { id: 'b', type: 'function', function: { name: 'fx__echo', arguments: '{"message":"2"}' } },
          ],
        },
        {
          onCall: (r) => {
            seen.push(r.id);
            throw new Error('host bug');
          },
        },
      );
      expect(seen.sort()).to.deep.equal(run.calls.map((c) => c.id).sort());
      expect(run.calls.map((c) => c.status)).to.deep.equal(['success', 'success']);
    });

    it('always-ask (the default) waits; approve runs it once, without trusting the tool', async () => {
      const { hub, server } = await fixtureHub();
      const waiting = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({ name: 'fx__echo', arguments: { message: 'ask' } });
      const ev = await waiting;
      expect(ev.detail.call.status).to.equal('awaiting-approval');
      expect(hub.calls.get(ev.detail.call.id)?.status).to.equal('awaiting-approval');
      hub.calls.approve(ev.detail.call.id);
      const r = await p;
      expect(r.status).to.equal('success');
      expect(r.approval).to.equal('user-once');
      expect(hub.assistants.get().trusted).to.deep.equal([]);
      void server;
    });

    it('deny: not run, status denied (not cancelled) with the reason, and the model is told', async () => {
      const { hub, t } = await fixtureHub();
      const waiting = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const denied = nextEvent<CustomEvent>(window, 'mcp-tool-call-denied');
      const events = recordEvents(window, CALL_EVENTS);
      const p = hub.runToolCalls('openai', {
        role: 'assistant',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'fx__slow', arguments: '{"ms":1}' } }],
      });
      hub.calls.deny((await waiting).detail.call.id, 'not now');
      const out = await p;
      events.stop();
      expect((await denied).detail.reason).to.equal('denied');
      expect(events.seen.map((e) => e.type)).to.deep.equal([
        'mcp-tool-call-request',
        'mcp-tool-call-awaiting-approval',
        'mcp-tool-call-denied',
      ]);
      expect(out.calls[0]).to.include({ status: 'denied' });
      expect(out.calls[0].error).to.deep.equal({ code: 'denied', message: 'not now' });
      expect((out.messages[0] as any).content).to.contain('The user denied this tool call: not now');
      expect((await t.stats()).maxRunning).to.equal(0);
    });

    it('"Always allow" trusts the tool; with trusted-only it then runs without asking', async () => {
      const { hub, server } = await fixtureHub();
      await hub.assistants.update('g', { approval: 'trusted-only' });
      const waiting = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({ name: 'fx__echo', assistantId: 'g', arguments: { message: '1' } });
      hub.calls.approve((await waiting).detail.call.id, { always: true });
      expect((await p).approval).to.equal('user-always');
      expect(hub.assistants.get('g').trusted).to.have.length(1);
      expect(hub.assistants.get('g').trusted[0]).to.include({
        serverId: server.id,
        tool: 'echo',
        origin: new URL(server.url).origin,
      });
      const events = recordEvents(window, ['mcp-tool-call-awaiting-approval']);
      const second = await hub.callTool({ name: 'fx__echo', assistantId: 'g', arguments: { message: '2' } });
      events.stop();
      expect(second.approval).to.equal('trusted');
      expect(events.seen).to.have.length(0);
      // another tool of the same server still asks
      const asking = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const third = hub.callTool({ name: 'fx__slow', assistantId: 'g', arguments: { ms: 1 } });
      hub.calls.deny((await asking).detail.call.id);
      expect((await third).status).to.equal('denied');
    });

    it('readOnlyHint never approves by itself', async () => {
      const { hub } = await fixtureHub();
      // echo is annotated readOnlyHint: true by the fixture server
      expect(
        hub.catalogue(hub.servers.list()[0].id)!.tools.find((t) => t.name === 'echo')!.annotations?.readOnlyHint,
      ).to.equal(true);
      const waiting = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({ name: 'fx__echo', arguments: { message: 'ro' } });
      const ev = await waiting;
      hub.calls.deny(ev.detail.call.id);
      expect((await p).status).to.equal('denied');
    });

    it('a host veto (preventDefault on window) denies before anything runs', async () => {
      const { hub } = await fixtureHub();
      await hub.assistants.update('default', { approval: 'auto' });
      const veto = (e: Event) => e.preventDefault();
      window.addEventListener('mcp-tool-call-request', veto, { once: true });
      const started = recordEvents(window, ['mcp-tool-call-started']);
      const denied = nextEvent<CustomEvent>(window, 'mcp-tool-call-denied');
      const r = await hub.callTool({ name: 'fx__echo', arguments: { message: 'veto' } });
      started.stop();
      expect(r.status).to.equal('denied');
      expect(r.error?.code).to.equal('vetoed');
      expect((await denied).detail.reason).to.equal('vetoed');
      expect(started.seen).to.have.length(0);
    });

    it('user-initiated calls (Try it) skip approval but not the host veto', async () => {
      const { hub, server } = await fixtureHub();
      const r = await hub.callTool({
        serverId: server.id,
        tool: 'echo',
        arguments: { message: 'try' },
        source: 'user',
      });
      expect(r.approval).to.equal('user-initiated');
      expect(r.status).to.equal('success');
    });

    it('approve/deny of a call that is not waiting is a typed error', async () => {
      const hub = privateHub();
      expect(() => hub.calls.approve('nope')).to.throw(McpToolError);
      expect(() => hub.calls.cancel('nope')).to.throw();
    });
  });

  describe('validation and limits', () => {
    it('invalid arguments are not sent; the record says which fields and why', async () => {
      const { hub, t } = await fixtureHub();
      await hub.assistants.update('default', { approval: 'auto' });
      const before = (await t.stats()).posts;
      const r = await hub.callTool({ name: 'fx__slow', arguments: { ms: 'soon', extra: 1 } });
      expect(r.status).to.equal('error');
      expect(r.error?.code).to.equal('invalid-arguments');
      expect(r.error?.message).to.contain('"ms"');
      expect((await t.stats()).posts).to.equal(before);
      const missing = await hub.callTool({ name: 'fx__echo', arguments: {} });
      expect(missing.error?.message).to.match(/required property "message"/);
    });

    it('unknown tools and servers reject with a typed error', async () => {
      const { hub } = await fixtureHub();
      expect(await rejects(hub.callTool({ name: 'nope__nope' }))).to.be.instanceOf(McpToolError);
      expect((await rejects(hub.callTool({ serverId: 'missing', tool: 'x' }))).code).to.equal('not-found');
    });

    it('a tool that is not selected for the assistant cannot be called by the model', async () => {
      const { hub, server } = await fixtureHub();
      await hub.assistants.setServer('narrow', server.id, ['echo']);
      expect(hub.modelTools({ assistantId: 'narrow' }).map((t) => t.name)).to.deep.equal(['fx__echo']);
      expect((await rejects(hub.callTool({ name: 'fx__slow', assistantId: 'narrow' }))).code).to.equal('unknown-tool');
      await hub.assistants.setServer('narrow', server.id, false);
      expect(hub.toolsFor('openai', { assistantId: 'narrow' })).to.deep.equal([]);
    });

    it('50 simultaneous calls against a slow tool: none lost, never more than the cap at the server', async () => {
      const { hub, t } = await fixtureHub({ callConcurrency: 4 });
      await hub.assistants.update('default', { approval: 'auto' });
      const results = await Promise.all(
        Array.from({ length: 50 }, () => hub.callTool({ name: 'fx__slow', arguments: { ms: 40 } })),
      );
      expect(results.map((r) => r.status)).to.deep.equal(Array(50).fill('success'));
      const stats = await t.stats();
      expect(stats.maxRunning).to.equal(4);
      expect(new Set(results.map((r) => r.id)).size).to.equal(50);
    });

    it('a response over the size cap is a clear error and the server stays usable', async () => {
      // (the fixture's tool list itself is over 1 MB: it carries a 1 MB hostile description)
      const { hub } = await fixtureHub({ maxResponseBytes: 3 * 1024 * 1024 });
      await hub.assistants.update('default', { approval: 'auto' });
      const r = await hub.callTool({ name: 'fx__big', arguments: { bytes: 4 * 1024 * 1024 } });
      expect(r.status).to.equal('error');
      expect(r.error?.code).to.equal('too-large');
      expect(r.error?.message).to.contain('3 MB');
      const ok = await hub.callTool({ name: 'fx__big', arguments: { bytes: 1000 } });
      expect(ok.status).to.equal('success');
    });

    it('times out with the server timeout', async () => {
      const t = fixtureTenant();
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'fx', url: t.url, timeout: 1 });
      await hub.connect(s.id);
      await hub.assistants.update('default', { approval: 'auto' });
      const r = await hub.callTool({ name: 'fx__slow', arguments: { ms: 5000 } });
      expect(r.status).to.equal('error');
      expect(r.error?.code).to.equal('timeout');
    });

    it('structuredContent that breaks the output schema is an error', async () => {
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'bad', url: `${urls.fixture}/bad-output/mcp` });
      await hub.connect(s.id);
      await hub.assistants.update('default', { approval: 'auto' });
      const r = await hub.callTool({ name: 'bad__measure' });
      expect(r.status).to.equal('error');
      expect(r.error?.code).to.equal('output-invalid');
    });

    it('an isError result is an error with the tool text', async () => {
      const { hub } = await fixtureHub();
      await hub.assistants.update('default', { approval: 'auto' });
      const failed = nextEvent<CustomEvent>(window, 'mcp-tool-call-failed');
      const r = await hub.callTool({ name: 'fx__fail' });
      expect(r.status).to.equal('error');
      expect(r.error).to.deep.equal({ code: 'tool-error', message: 'it broke on purpose' });
      expect((await failed).detail.error.code).to.equal('tool-error');
    });
  });

  describe('progress and cancellation', () => {
    it('progress notifications from trigger-long-running-operation reach the record and events', async () => {
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'everything', url: urls.everything });
      await hub.connect(s.id);
      await hub.assistants.update('default', { approval: 'auto' });
      const progress = recordEvents(window, ['mcp-tool-call-progress']);
      const r = await hub.callTool({
        name: 'everything__trigger-long-running-operation',
        arguments: { duration: 1, steps: 4 },
      });
      progress.stop();
      expect(r.status).to.equal('success');
      const details = progress.seen.map((e) => (e as CustomEvent).detail);
      expect(details.length).to.equal(4);
      expect(details.map((d) => d.progress)).to.deep.equal([1, 2, 3, 4]);
      expect(details[3].total).to.equal(4);
      expect(r.progress).to.include({ progress: 4, total: 4 });
    });

    it('hub.calls.cancel stops a running call and the server sees the cancellation', async () => {
      const { hub, t } = await fixtureHub();
      await hub.assistants.update('default', { approval: 'auto' });
      const started = nextEvent<CustomEvent>(window, 'mcp-tool-call-started');
      const p = hub.callTool({ name: 'fx__hang' });
      const id = (await started).detail.call.id;
      await until(async () => (await t.stats()).running === 1, 'the call to run at the server');
      hub.calls.cancel(id);
      const r = await p;
      expect(r.status).to.equal('cancelled');
      const stats = await until(
        async () => ((await t.stats()).cancelled.length === 1 ? t.stats() : null),
        'the server to see the cancellation',
      );
      expect(stats.cancelled).to.have.length(1);
    });

    it('calls denied before `denied` existed (stored as cancelled) load as denied', async () => {
      const name = unique('store');
      const base = {
        assistantId: 'default',
        gptId: 'default',
        serverId: 's',
        serverName: 'S',
        tool: 't',
        name: 'S__t',
        arguments: {},
        source: 'model',
        createdAt: 1,
        endedAt: 2,
      };
      const store = createStore(name, 'records');
      await set(
        'call:old-denied',
        { ...base, id: 'old-denied', status: 'cancelled', error: { code: 'denied', message: 'Denied.' } },
        store,
      );
      await set(
        'call:old-vetoed',
        { ...base, id: 'old-vetoed', status: 'cancelled', error: { code: 'vetoed', message: 'no' } },
        store,
      );
      await set(
        'call:old-cancel',
        { ...base, id: 'old-cancel', status: 'cancelled', error: { code: 'cancelled', message: 'x' } },
        store,
      );
      const hub = privateHub({ storeName: name });
      await hub.ready;
      expect(['old-denied', 'old-vetoed', 'old-cancel'].map((id) => hub.calls.get(id)!.status)).to.deep.equal([
        'denied',
        'denied',
        'cancelled',
      ]);
    });

    it("the caller's AbortSignal cancels too, also while waiting for approval", async () => {
      const { hub } = await fixtureHub();
      const ac = new AbortController();
      const waiting = nextEvent<CustomEvent>(window, 'mcp-tool-call-awaiting-approval');
      const p = hub.callTool({ name: 'fx__echo', arguments: { message: 'x' }, signal: ac.signal });
      await waiting;
      ac.abort();
      const r = await p;
      expect(r.status).to.equal('cancelled');
      expect(r.error?.code).to.equal('cancelled');
    });
  });

  describe('history', () => {
    it('every call is persisted; a call running when the page goes away is interrupted afterwards', async () => {
      const name = unique('store');
      const t = fixtureTenant();
      const a = new McpHub({ storeName: name, eventTarget: null });
      const s = await a.servers.add({ name: 'fx', url: t.url });
      await a.connect(s.id);
      await a.assistants.update('default', { approval: 'auto' });
      const done = await a.callTool({ name: 'fx__echo', arguments: { message: 'kept' } });
      const started = nextEvent<CustomEvent>(a, 'mcp-tool-call-started');
      const hanging = a.callTool({ name: 'fx__hang' });
      const id = (await started).detail.call.id;
      // the 'running' state reaches IndexedDB behind the call path
      await until(
        async () =>
          (await rawIdb(name)).some((r) => r.key === `call:${id}` && (r.value as ToolCallRecord).status === 'running'),
        'the running record to be stored',
      );
      // "reload": a new hub on the same store, while the old page never finished
      const b = new McpHub({ storeName: name, eventTarget: null });
      await b.ready;
      expect(b.calls.get(done.id)).to.deep.include({ status: 'success' });
      expect(b.calls.get(done.id)?.result?.content).to.deep.equal([{ type: 'text', text: 'Echo: kept' }]);
      const interrupted = b.calls.get(id)!;
      expect(interrupted.status).to.equal('interrupted');
      expect(interrupted.error?.code).to.equal('interrupted');
      a.calls.cancel(id);
      await hanging;
      await Promise.all([a.dispose(), b.dispose()]);
    });

    // 40 calls: changes applied at the end of each task; 150 (over 64 in flight): also across
    // the tasks of a few ms (calls/history.ts BURST_CALLS)
    for (const size of [40, 150])
      it(`a burst of ${size} calls: state read in any event is current; without readers, snapshots are coalesced`, async () => {
        const { hub } = await fixtureHub({ callConcurrency: 5 });
        await hub.assistants.update('default', { approval: 'auto' });
        const burst = (tag: string) =>
          Promise.all(
            Array.from({ length: size }, (_, i) =>
              hub.callTool({ name: 'fx__echo', arguments: { message: `${tag}${i}` } }),
            ),
          );
        const stale: string[] = [];
        const check = (e: Event) => {
          const call = (e as CustomEvent).detail.call as ToolCallRecord;
          const inState = hub.store.state.activeCalls[call.id] ?? hub.store.state.calls[call.id];
          if (inState !== call) stale.push(`${e.type} ${call.id}`);
          if (hub.calls.get(call.id) !== call) stale.push(`get ${e.type} ${call.id}`);
        };
        const types = ['mcp-tool-call-request', 'mcp-tool-call-started', 'mcp-tool-call-completed'];
        for (const type of types) hub.addEventListener(type, check);
        const first = await burst('a');
        for (const type of types) hub.removeEventListener(type, check);
        expect(stale).to.deep.equal([]);
        expect(first.every((r) => r.status === 'success')).to.equal(true);
        // nobody reads state during the second burst: its 3 × size record changes land in fewer snapshots
        let snapshots = 0;
        const unsubscribe = hub.store.subscribe(() => snapshots++);
        const second = await burst('b');
        unsubscribe();
        expect(Object.keys(hub.store.state.activeCalls)).to.deep.equal([]);
        for (const r of [...first, ...second]) expect(hub.store.state.calls[r.id]).to.equal(r);
        // one per change: 3 × size or more; per task (40): under 100; across tasks (150): under one per two
        expect(snapshots).to.be.below(size === 40 ? 100 : (3 * size) / 2);
      });

    it('keeps only the newest N calls per assistant', async () => {
      const { hub } = await fixtureHub({ historyLimit: 5 });
      await hub.assistants.update('default', { approval: 'auto' });
      await hub.assistants.update('other', { approval: 'auto' });
      const ids: string[] = [];
      for (let i = 0; i < 8; i++)
        ids.push((await hub.callTool({ name: 'fx__echo', arguments: { message: String(i) } })).id);
      await hub.callTool({ name: 'fx__echo', assistantId: 'other', arguments: { message: 'o' } });
      await hub.dispose(); // flushes history
      const kept = hub.calls.list({ assistantId: 'default' }).map((c) => c.id);
      expect(kept).to.deep.equal(ids.slice(3).reverse());
      expect(hub.calls.list({ assistantId: 'other' })).to.have.length(1);
      const stored = (await rawIdb(hub.storeName)).filter((r) => r.key.startsWith('call:')).map((r) => r.key.slice(5));
      expect(stored.sort()).to.deep.equal([...ids.slice(3), hub.calls.list({ assistantId: 'other' })[0].id].sort());
    });
  });
});

describe('assistant profiles', () => {
  it('are validated, persisted, and announce changes', async () => {
    const name = unique('store');
    const hub = new McpHub({ storeName: name });
    const s = await hub.servers.add({ name: 'fx', url: 'http://127.0.0.1:9/mcp' });
    expect(hub.assistants.get('new')).to.deep.include({ servers: 'all', approval: 'always-ask', trusted: [] });
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    await hub.assistants.setServer('new', s.id, ['echo']);
    const ev = await changed;
    expect(ev.detail.assistantId).to.equal('new');
    expect(ev.detail.profile.servers).to.deep.equal({ [s.id]: { tools: ['echo'] } });
    expect((await rejects(hub.assistants.update('new', { approval: 'sometimes' as never }))).code).to.equal(
      'invalid-config',
    );
    expect((await rejects(hub.assistants.update('bad id!', { approval: 'auto' }))).code).to.equal('invalid-config');
    expect(hub.assistants.get('new').approval).to.equal('always-ask');
    await hub.dispose();
    const again = new McpHub({ storeName: name, eventTarget: null });
    await again.ready;
    expect(again.assistants.get('new').servers).to.deep.equal({ [s.id]: { tools: ['echo'] } });
    await again.dispose();
  });
});
