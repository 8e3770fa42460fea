// Resource subscriptions in both eras: hub.subscribeResource / unsubscribeResource and
// mcp-resource-updated, against real servers — the 2026-07-28 fixture (subscriptions/listen with
// resourceSubscriptions), our 2025-11-25 fixture (resources/subscribe, sessions that expire) and
// server-everything. No sleeps: "no event" is shown by an event that the server sends after it
// on the same stream.
import { expect } from '@open-wc/testing';
import {
  McpConfigError,
  McpConnectionError,
  McpNotFoundError,
  McpResourceUpdatedEvent,
  type McpHub,
  type McpHubOptions,
} from '../../src/core/index.js';
import { nextEvent, privateHub, recordEvents, rejects, unique, until, urls } from '../helpers.js';

const A = 'fixture://watched/a';
const B = 'fixture://watched/b';

interface Seen {
  requests: { httpMethod: string; rpc?: { method?: string }; closedEarly?: boolean }[];
}

/** The two subscribable peers, each with a fresh tenant. */
const PEERS = [
  {
    label: '2026-07-28 (subscriptions/listen)',
    era: 'modern',
    fresh: () => {
      const base = `${urls.modern}/t/${unique('subs')}`;
      return { url: `${base}/subs/mcp`, seen: () => fetch(`${base}/seen`).then((r) => r.json() as Promise<Seen>) };
    },
  },
  {
    label: '2025-11-25 (resources/subscribe)',
    era: 'legacy',
    fresh: () => {
      const tenant = unique('subs');
      return {
        url: `${urls.fixture}/subs/${tenant}/mcp`,
        expire: () =>
          fetch(`${urls.fixture}/t/subs-${tenant}/control/expire`, { method: 'POST' }).then((r) => r.json()),
      };
    },
  },
] as const;

/** A private hub connected (everything listed) to a fresh tenant of the peer. */
async function connected<P extends (typeof PEERS)[number]>(peer: P, options: McpHubOptions = {}) {
  const hub = privateHub(options);
  const p = peer.fresh() as ReturnType<P['fresh']>;
  const s = await hub.servers.add({ name: 'watched', url: p.url, retries: 0 });
  const cat = await hub.connect(s.id, { discovery: 'complete' });
  return { hub, p, s, cat };
}

function updated(serverId: string, uri: string) {
  return nextEvent<McpResourceUpdatedEvent>(
    window,
    'mcp-resource-updated',
    (e) => e.detail.serverId === serverId && e.detail.uri === uri,
  );
}

const touch = (hub: McpHub, id: string, uri: string) => hub.client(id).callTool('touch-resource', { uri });

/**
 * Touch each URI in order and wait for the last one's update; the URIs reported for the server
 * meanwhile. An update of an earlier URI would come before the last one's, on the same stream.
 */
async function reported(hub: McpHub, id: string, uris: string[]): Promise<string[]> {
  const rec = recordEvents(window, ['mcp-resource-updated']);
  const last = updated(id, uris.at(-1)!);
  for (const uri of uris) await touch(hub, id, uri);
  await last;
  rec.stop();
  return rec.seen
    .map((x) => (x as McpResourceUpdatedEvent).detail)
    .filter((d) => d.serverId === id)
    .map((d) => d.uri);
}

for (const peer of PEERS) {
  describe(`resource subscriptions: ${peer.label}`, () => {
    it('subscribe, change, event (once on window, frozen detail); the resource reads the change', async () => {
      const { hub, s } = await connected(peer);
      expect(hub.status(s.id).era).to.equal(peer.era);
      expect(hub.catalogue(s.id)!.resources.map((r) => r.uri)).to.include(A);
      await hub.subscribeResource(s.id, A);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A]);
      const onHub: Event[] = [];
      const hubListener = (e: Event) => onHub.push(e);
      hub.addEventListener('mcp-resource-updated', hubListener);
      const rec = recordEvents(window, ['mcp-resource-updated']);
      const ev = updated(s.id, A);
      await touch(hub, s.id, A);
      const e = await ev;
      rec.stop();
      hub.removeEventListener('mcp-resource-updated', hubListener);
      expect(e).to.be.instanceOf(McpResourceUpdatedEvent);
      expect(e.detail).to.deep.equal({ serverId: s.id, uri: A });
      expect(Object.isFrozen(e.detail)).to.equal(true);
      expect(rec.seen.filter((x) => (x as McpResourceUpdatedEvent).detail.serverId === s.id)).to.have.length(1);
      expect(onHub).to.have.length(1);
      const read = await hub.client(s.id).readResource(A);
      expect(JSON.stringify(read.contents)).to.contain('touched 1 times');
      // subscribing again changes nothing and sends nothing new
      await hub.subscribeResource(s.id, A);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A]);
    });

    it('unsubscribe stops the events of that resource and keeps the others', async () => {
      const { hub, s } = await connected(peer);
      await hub.subscribeResource(s.id, A);
      await hub.subscribeResource(s.id, B);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A, B]);
      await hub.unsubscribeResource(s.id, A);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([B]);
      expect(await reported(hub, s.id, [A, B])).to.deep.equal([B]);
      // unsubscribing what is not subscribed resolves and changes nothing
      await hub.unsubscribeResource(s.id, A);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([B]);
      await hub.unsubscribeResource(s.id, B);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.equal(undefined);
    });

    it('subscribe and unsubscribe at once (a double click) end unsubscribed, told in order', async () => {
      const { hub, s } = await connected(peer);
      await hub.subscribeResource(s.id, B);
      const sub = hub.subscribeResource(s.id, A);
      const unsub = hub.unsubscribeResource(s.id, A);
      await Promise.all([sub, unsub]);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([B]);
      expect(await reported(hub, s.id, [A, B])).to.deep.equal([B]);
    });

    it('subscriptions survive a reconnect (told to the new session) and are dropped on disconnect', async () => {
      const { hub, s } = await connected(peer);
      await hub.subscribeResource(s.id, A);
      // connect on a connected server reconnects it: a new session (2025) or new streams (2026)
      await hub.connect(s.id);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A]);
      const ev = updated(s.id, A);
      await touch(hub, s.id, A);
      await ev;

      await hub.disconnect(s.id);
      expect(hub.store.state.resourceSubscriptions[s.id]).to.equal(undefined);
      await hub.connect(s.id);
      await hub.subscribeResource(s.id, B);
      expect(await reported(hub, s.id, [A, B]), 'A was dropped with the disconnect').to.deep.equal([B]);
    });

    it('list changes are still heard while resources are watched (one stream carries both)', async () => {
      const { hub, s, cat } = await connected(peer);
      await hub.subscribeResource(s.id, A);
      const changed = nextEvent<CustomEvent>(
        window,
        'mcp-tools-changed',
        (e) => e.detail.serverId === s.id && e.detail.reason === 'list-changed',
      );
      // letters only: both fixtures accept that as a tool name
      const tool = `late_${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
      await hub.client(s.id).callTool(peer.era === 'modern' ? 'add-tool' : 'add_tool', { name: tool });
      expect((await changed).detail.toolCount).to.equal(cat.tools.length + 1);
      // and after unsubscribing the last resource too
      await hub.unsubscribeResource(s.id, A);
      const again = nextEvent<CustomEvent>(
        window,
        'mcp-tools-changed',
        (e) => e.detail.serverId === s.id && e.detail.reason === 'list-changed',
      );
      await hub.client(s.id).callTool(peer.era === 'modern' ? 'add-tool' : 'add_tool', { name: `${tool}_again` });
      expect((await again).detail.toolCount).to.equal(cat.tools.length + 2);
    });
  });
}

describe('resource subscriptions: 2026-07-28 streams', () => {
  it('one listen stream at a time: a new set opens a new stream and closes the old one', async () => {
    const { hub, p, s } = await connected(PEERS[0]);
    await hub.subscribeResource(s.id, A);
    await hub.subscribeResource(s.id, B);
    await hub.unsubscribeResource(s.id, A);
    const listens = (await p.seen()).requests.filter((r) => r.rpc?.method === 'subscriptions/listen');
    // the SDK's list-change stream, then one per change of the set
    expect(listens).to.have.length(4);
    // the replaced ones were closed by the client (the last replacement may still be closing)
    expect(listens[0]!.closedEarly && listens[1]!.closedEarly, 'replaced streams closed').to.equal(true);
  });

  it('a listen stream the server drops is opened again: updates and list changes keep coming', async () => {
    const { hub, p, s, cat } = await connected(PEERS[0]);
    await hub.subscribeResource(s.id, A);
    const listens = async () =>
      (await p.seen()).requests.filter((r) => r.rpc?.method === 'subscriptions/listen').length;
    const before = await listens();
    const ended = await hub.client(s.id).callTool('end-listens', {});
    expect(JSON.stringify(ended.content)).to.contain('ended 1');
    await until(async () => (await listens()) > before, 'the listen stream opened again');
    // the new stream may still be starting on the server: touch until its update comes
    let got = false;
    const ev = updated(s.id, A).then(() => (got = true));
    await until(async () => {
      await touch(hub, s.id, A);
      return got;
    }, 'an update on the re-opened stream');
    await ev;
    const changed = nextEvent<CustomEvent>(
      window,
      'mcp-tools-changed',
      (e) => e.detail.serverId === s.id && e.detail.reason === 'list-changed',
    );
    await hub.client(s.id).callTool('add-tool', { name: 'after_drop' });
    expect((await changed).detail.toolCount).to.equal(cat.tools.length + 1);
    expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A]);
  });

  it('without a stream to spare on the origin: a typed error, nothing subscribed', async () => {
    const { hub, p, s } = await connected(PEERS[0], { connectionsPerOrigin: 2 });
    const e = await rejects(hub.subscribeResource(s.id, A));
    expect(e).to.be.instanceOf(McpConnectionError);
    expect(e.code).to.equal('no-stream');
    expect(hub.store.state.resourceSubscriptions[s.id]).to.equal(undefined);
    const listens = (await p.seen()).requests.filter((r) => r.rpc?.method === 'subscriptions/listen');
    expect(listens).to.have.length(0);
  });
});

describe('resource subscriptions: 2025 sessions', () => {
  it('re-subscribes on the new session after the old one expired', async () => {
    const { hub, p, s, cat: first } = await connected(PEERS[1]);
    await hub.subscribeResource(s.id, A);
    expect((await p.expire()).expired).to.equal(1);
    // the touch meets the expired session (404), re-initialises, and is sent again; the server
    // notifies only sessions that subscribed, so the event proves the new one did
    const ev = updated(s.id, A);
    await touch(hub, s.id, A);
    await ev;
    expect(hub.catalogue(s.id)!.sessionId).to.be.a('string').and.not.equal(first.sessionId);
    expect(hub.store.state.resourceSubscriptions[s.id]).to.deep.equal([A]);
  });

  for (const [label, url, transport] of [
    ['Streamable HTTP', () => urls.everything, 'streamable-http'],
    ['legacy HTTP+SSE', () => urls.everythingSse, 'sse'],
  ] as const)
    it(`server-everything over ${label}: subscribe, then its update arrives`, async () => {
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'everything', url: url(), retries: 0 });
      const cat = await hub.connect(s.id, { discovery: 'complete' });
      expect(hub.status(s.id).transport).to.equal(transport);
      const uri = cat.resources[0]!.uri;
      await hub.subscribeResource(s.id, uri);
      const ev = updated(s.id, uri);
      // sends an update of every subscribed resource at once, then every 5 s until toggled off
      await hub.client(s.id).callTool('toggle-subscriber-updates', {});
      try {
        expect((await ev).detail).to.deep.equal({ serverId: s.id, uri });
      } finally {
        await hub.client(s.id).callTool('toggle-subscriber-updates', {});
      }
    });
});

describe('resource subscriptions: bad input and servers that cannot', () => {
  it('a server without resources.subscribe: unsupported, nothing changed', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'plain',
      url: `${urls.modern}/t/${unique('subs')}/mcp`,
      retries: 0,
    });
    await hub.connect(s.id);
    const before = hub.store.state;
    const e = await rejects(hub.subscribeResource(s.id, A));
    expect(e).to.be.instanceOf(McpConnectionError);
    expect(e.code).to.equal('unsupported');
    expect(e.message).to.contain('resources.subscribe');
    expect(hub.store.state.resourceSubscriptions).to.equal(before.resourceSubscriptions);
    expect(hub.status(s.id).status).to.equal('connected');
  });

  it('a plain JSON-RPC endpoint: unsupported', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'g4f', url: urls.jsonrpc, transport: 'jsonrpc', retries: 0 });
    await hub.connect(s.id);
    const e = await rejects(hub.subscribeResource(s.id, 'file:///x'));
    expect(e).to.be.instanceOf(McpConnectionError);
    expect(e.code).to.equal('unsupported');
  });

  it('empty, non-URI, too long or non-string URIs; unknown or unconnected servers: typed errors', async () => {
    const hub = privateHub();
    const p = PEERS[0].fresh();
    const s = await hub.servers.add({ name: 'watched', url: p.url, retries: 0 });
    for (const bad of ['', 'no scheme', 'fixture://a b', `x:${'a'.repeat(5000)}`, 42 as unknown as string]) {
      const e = await rejects(hub.subscribeResource(s.id, bad));
      expect(e, JSON.stringify(bad).slice(0, 40)).to.be.instanceOf(McpConfigError);
      expect(e.issues[0].path).to.equal('uri');
      expect(await rejects(hub.unsubscribeResource(s.id, bad))).to.be.instanceOf(McpConfigError);
    }
    expect(await rejects(hub.subscribeResource('nope', A))).to.be.instanceOf(McpNotFoundError);
    expect(await rejects(hub.unsubscribeResource('nope', A))).to.be.instanceOf(McpNotFoundError);
    const e = await rejects(hub.subscribeResource(s.id, A));
    expect(e).to.be.instanceOf(McpConnectionError);
    expect(e.code).to.equal('not-connected');
    expect(hub.store.state.resourceSubscriptions).to.deep.equal({});
    // nothing reached the server
    const listens = (await p.seen()).requests.filter((r) => r.rpc?.method === 'subscriptions/listen');
    expect(listens).to.have.length(0);
  });

  it('removing the server drops its subscriptions', async () => {
    const { hub, s } = await connected(PEERS[1]);
    await hub.subscribeResource(s.id, A);
    await hub.servers.remove(s.id);
    expect(hub.store.state.resourceSubscriptions[s.id]).to.equal(undefined);
  });
});
