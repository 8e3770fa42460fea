// One behaviour suite against every protocol revision the hub speaks: a 2026-07-28 stateless peer,
// server-everything (2025-11-25, Streamable HTTP and legacy SSE), a 2025-03-26-only peer and a
// plain JSON-RPC endpoint. Each is reached with transport `auto`; the hub reports what it
// negotiated, and connect, paginated lists, calls, progress, cancel, list changes and errors
// behave the same wherever the revision has them.
import { expect } from '@open-wc/testing';
import type { McpHub } from '../../src/core/index.js';
import { nextEvent, privateHub, unique, urls } from '../helpers.js';

interface Peer {
  label: string;
  /** A fresh URL (own tenant where the peer has tenants). */
  url: (flags?: string) => string;
  revision?: string;
  era: 'modern' | 'legacy' | 'jsonrpc';
  transport: 'streamable-http' | 'sse' | 'jsonrpc';
  /** The peer's own tools (fixtures) or server-everything's. */
  kind: 'fixture' | 'everything' | 'jsonrpc';
  seen?: (url: string) => Promise<Seen>;
}
interface Seen {
  requests: {
    httpMethod: string;
    rpc?: { method?: string; name?: string; envelopeVersion?: string };
    headers: Record<string, string>;
    closedEarly?: boolean;
    status?: number;
  }[];
  cancelled: unknown[];
}
const seenOf = (url: string) =>
  fetch(url.replace(/\/(?:[a-z+]+\/)?mcp$/, '/seen')).then((r) => r.json() as Promise<Seen>);

const PEERS: Peer[] = [
  {
    label: '2026-07-28 (stateless, server/discover)',
    url: (flags = 'strict') => `${urls.modern}/t/${unique('rev')}/${flags}/mcp`,
    revision: '2026-07-28',
    era: 'modern',
    transport: 'streamable-http',
    kind: 'fixture',
    seen: seenOf,
  },
  {
    label: '2025-11-25 (server-everything, Streamable HTTP)',
    url: () => urls.everything,
    revision: '2025-11-25',
    era: 'legacy',
    transport: 'streamable-http',
    kind: 'everything',
  },
  {
    label: '2025-03-26 only (session)',
    url: (flags) => `${urls.legacy0326}/t/${unique('rev')}/${flags ? `${flags}/` : ''}mcp`,
    revision: '2025-03-26',
    era: 'legacy',
    transport: 'streamable-http',
    kind: 'fixture',
    seen: seenOf,
  },
  {
    label: 'legacy HTTP+SSE (server-everything)',
    url: () => urls.everythingSse,
    era: 'legacy',
    transport: 'sse',
    kind: 'everything',
  },
  { label: 'plain JSON-RPC', url: () => urls.jsonrpc, era: 'jsonrpc', transport: 'jsonrpc', kind: 'jsonrpc' },
];

async function connected(hub: McpHub, url: string, name = 'peer') {
  const s = await hub.servers.add({ name, url, retries: 0, timeout: 20 });
  const status = nextEvent<CustomEvent>(window, 'mcp-server-status-changed', (e) => e.detail.status === 'connected');
  const catalogue = await hub.connect(s.id);
  return { id: s.id, catalogue, status: (await status).detail };
}

for (const peer of PEERS) {
  describe(`protocol revisions: ${peer.label}`, () => {
    it('connects with transport auto and reports the revision it negotiated', async () => {
      const hub = privateHub();
      const { id, catalogue, status } = await connected(hub, peer.url());
      const state = hub.store.state.connections[id]!;
      expect(state.status).to.equal('connected');
      expect(state.era).to.equal(peer.era);
      expect(state.transport).to.equal(peer.transport);
      expect(status.era).to.equal(peer.era);
      if (peer.revision) {
        expect(state.protocolVersion).to.equal(peer.revision);
        expect(status.protocolVersion).to.equal(peer.revision);
        expect(catalogue.protocolVersion).to.equal(peer.revision);
      } else if (peer.era === 'jsonrpc') expect(state.protocolVersion).to.equal(undefined);
      expect(catalogue.tools.length).to.be.greaterThan(0);
    });

    it('calls a tool and gets its text back', async () => {
      const hub = privateHub();
      const { id } = await connected(hub, peer.url());
      // the JSON-RPC fixture's echo takes `text`, as G4F-style endpoints are free to
      const args = peer.kind === 'jsonrpc' ? { text: 'héllo wörld' } : { message: 'héllo wörld' };
      const r = await hub.client(id).callTool('echo', args);
      expect(JSON.stringify(r.content)).to.contain('héllo wörld');
    });

    if (peer.kind === 'fixture') {
      it('follows tools/list pagination to the end (120 tools in pages of 50)', async () => {
        const hub = privateHub();
        const { catalogue } = await connected(hub, peer.url(peer.era === 'modern' ? 'strict+paged' : 'paged'));
        expect(catalogue.tools.map((t) => t.name)).to.deep.equal(
          Array.from({ length: 120 }, (_, i) => `tool_${String(i).padStart(3, '0')}`),
        );
      });

      it('reports progress, and a cancel reaches the server', async () => {
        const hub = privateHub();
        const url = peer.url();
        const { id } = await connected(hub, url);
        const abort = new AbortController();
        const steps: number[] = [];
        const call = hub.client(id).callTool(
          'slow',
          { ms: 20_000, steps: 40 },
          {
            signal: abort.signal,
            onprogress: (p) => {
              steps.push(p.progress);
              if (steps.length === 2) abort.abort();
            },
          },
        );
        const err = await call.then(
          () => undefined,
          (e: Error & { code?: string }) => e,
        );
        expect(err?.code).to.equal('aborted');
        expect(steps.slice(0, 2)).to.deep.equal([1, 2]);
        // the server sees the cancellation (2025: notifications/cancelled; 2026: the stream closes)
        for (let i = 0; i < 100; i++) {
          const seen = await peer.seen!(url);
          if (seen.cancelled.length) return;
          await new Promise((r) => requestAnimationFrame(r));
        }
        expect.fail('the server never saw the cancellation');
      });

      it('re-lists when the server says its tools changed', async () => {
        const hub = privateHub();
        const { id } = await connected(hub, peer.url());
        const changed = nextEvent<CustomEvent>(window, 'mcp-tools-changed', (e) => e.detail.reason === 'list-changed');
        await hub.client(id).callTool('add-tool', { name: 'late_tool' });
        await changed;
        expect(hub.store.state.catalogues[id]!.tools.map((t) => t.name)).to.include('late_tool');
      });

      it("keeps the server's own JSON-RPC error (-32000) and a tool's isError apart", async () => {
        const hub = privateHub();
        const { id } = await connected(hub, peer.url());
        const err = await hub
          .client(id)
          .callTool('rpc-error', {})
          .then(
            () => undefined,
            (e: Error & { code?: string; rpcCode?: number }) => e,
          );
        expect(err?.code).to.equal('server');
        expect(err?.rpcCode).to.equal(-32000);
        const failed = await hub.client(id).callTool('fail', {});
        expect(failed.isError).to.equal(true);
      });
    }
  });
}

describe('protocol revisions: what 2026-07-28 asks of a client', () => {
  it('sends Mcp-Method, Mcp-Name (base64 for non-ASCII) and Mcp-Protocol-Version on every request', async () => {
    const hub = privateHub();
    const url = `${urls.modern}/t/${unique('hdr')}/strict/mcp`;
    const { id } = await connected(hub, url);
    await hub.client(id).callTool('echo', { message: 'x' });
    await hub.client(id).callTool('grüßen', { name: 'Jörg' });
    const seen = await seenOf(url);
    const rpc = seen.requests.filter((r) => r.httpMethod === 'POST' && r.rpc?.method);
    const calls = rpc.filter((r) => r.rpc!.method === 'tools/call');
    expect(calls.length).to.equal(2);
    for (const r of rpc.filter((q) => !q.rpc!.method!.startsWith('notifications/'))) {
      expect(r.headers['mcp-method'], r.rpc!.method).to.equal(r.rpc!.method);
      expect(r.headers['mcp-protocol-version'], r.rpc!.method).to.equal('2026-07-28');
      // and the _meta envelope with the protocol version on every request
      expect(r.rpc!.envelopeVersion, r.rpc!.method).to.equal('2026-07-28');
    }
    expect(calls[0]!.headers['mcp-name']).to.equal('echo');
    expect(calls[1]!.headers['mcp-name']).to.match(/^=\?base64\?.+\?=$/);
  });

  it('mirrors x-mcp-header parameters into Mcp-Param-* headers, from the browser too', async () => {
    const hub = privateHub();
    const url = `${urls.modern}/t/${unique('hdr')}/strict/mcp`;
    const { id } = await connected(hub, url);
    const r = await hub.client(id).callTool('route', { region: 'eu-west', query: 'q' });
    expect(r.isError ?? false).to.equal(false);
    const sent = (await seenOf(url)).requests.find((q) => q.rpc?.method === 'tools/call')!;
    expect(sent.headers['mcp-param-region']).to.equal('eu-west');
  });

  it('drops a tool whose x-mcp-header is invalid, with a warning event, and keeps the rest', async () => {
    const warned: string[] = [];
    const hub = privateHub({ logger: { warn: (m: string) => warned.push(m) } });
    const { catalogue } = await connected(hub, `${urls.modern}/t/${unique('hdr')}/strict/mcp`);
    const names = catalogue.tools.map((t) => t.name);
    expect(names).to.not.include('bad-header');
    expect(names).to.include('route');
    expect(warned.join('\n')).to.contain('bad-header');
  });

  it('a pinned revision the server does not speak fails with a typed error instead of falling back', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'old',
      url: `${urls.legacy0326}/t/${unique('pin')}/mcp`,
      revision: '2026-07-28',
      retries: 0,
    });
    const err = await hub.connect(s.id).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(err?.name).to.equal('McpConnectionError');
    expect(['revision', 'http']).to.include(err?.code);
    expect(hub.store.state.connections[s.id]!.status).to.equal('error');
  });

  it('a pinned 2025 revision is what the hub offers', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'pinned', url: urls.everything, revision: '2025-06-18', retries: 0 });
    await hub.connect(s.id);
    expect(hub.store.state.connections[s.id]!.protocolVersion).to.equal('2025-06-18');
  });
});

describe('protocol revisions: a bad tool costs only itself', () => {
  it('a tool whose input schema is not an object is dropped with mcp-tools-dropped; the others stay usable', async () => {
    const hub = privateHub({ logger: { warn() {} } });
    const dropped = nextEvent<CustomEvent>(window, 'mcp-tools-dropped', (e) =>
      e.detail.tools.some((t: { name: string }) => t.name === 'not-an-object'),
    );
    const { id, catalogue } = await connected(hub, `${urls.modern}/t/${unique('bad')}/strict+badtool/mcp`);
    const names = catalogue.tools.map((t) => t.name);
    expect(names).to.not.include('not-an-object');
    expect(names).to.include('echo');
    expect((await dropped).detail.tools.find((t: { name: string }) => t.name === 'not-an-object').reason).to.contain(
      'not a valid tool definition',
    );
    const r = await hub.client(id).callTool('echo', { message: 'still here' });
    expect(JSON.stringify(r.content)).to.contain('still here');
  });
});
