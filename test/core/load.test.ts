// Load (issue 13 item 4): 500 calls at once across 5 servers, each server capped at 10 calls at
// once (the default `callConcurrency`): none lost — every record settled, unique, in history and
// in IndexedDB after the hub closed — and never more than the cap at any server.
import { expect } from '@open-wc/testing';
import { McpHub } from '../../src/core/index.js';
import { unique, urls } from '../helpers.js';

interface Seen {
  calls: number;
  running: number;
  maxRunning: number;
}

describe('load', function () {
  this.timeout(120_000);

  it('500 concurrent calls across 5 servers with a cap of 10 each: 0 lost, history consistent', async () => {
    const storeName = unique('store');
    const hub = new McpHub({ storeName, eventTarget: null });
    await hub.assistants.update('default', { approval: 'auto' });
    // one origin per server (the fault server's alias ports): a browser's 6 connections per
    // origin would otherwise be the limit, not the hub's cap
    const tenants = urls.faultAliases.map((base) => ({ base, tenant: unique('load') }));
    const servers = [];
    for (const [i, { base, tenant }] of tenants.entries())
      servers.push(await hub.servers.add({ name: `load${i}`, url: `${base}/f/${tenant}/ok/mcp` }));
    await Promise.all(servers.map((s) => hub.connect(s.id)));
    const started = new Set<string>();
    hub.addEventListener('mcp-tool-call-started', (e) => started.add((e as CustomEvent).detail.call.id));

    const records = await Promise.all(
      Array.from({ length: 500 }, (_, i) => hub.callTool({ name: `load${i % 5}__slow`, arguments: { ms: 5 } })),
    );

    const lost = 500 - records.filter((r) => r.status === 'success').length;
    console.log(`load: 500 calls across 5 servers (cap 10 each), ${lost} lost`);
    expect(lost).to.equal(0);
    expect(new Set(records.map((r) => r.id)).size).to.equal(500);
    expect(started.size).to.equal(500);
    // history: every record finished, none still active, one per call
    expect(Object.keys(hub.store.state.activeCalls)).to.deep.equal([]);
    const listed = hub.calls.list();
    expect(listed).to.have.length(500);
    expect(listed.every((r) => r.status === 'success' && typeof r.durationMs === 'number')).to.equal(true);
    for (const [i, t] of tenants.entries()) {
      const seen = (await fetch(`${t.base}/f/${t.tenant}/seen`).then((r) => r.json())) as Seen;
      expect(seen.calls, `server ${i}`).to.equal(100);
      expect(seen.running, `server ${i}`).to.equal(0);
      // never more than the cap (that more than one ran at once is shown below, without timing)
      expect(seen.maxRunning, `server ${i} at once`).to.be.within(1, 10);
    }
    await hub.dispose();

    // and in IndexedDB: a new page finds all 500, settled
    const after = new McpHub({ storeName, eventTarget: null });
    await after.ready;
    const stored = after.calls.list();
    expect(stored).to.have.length(500);
    expect(new Set(stored.map((r) => r.id))).to.deep.equal(new Set(records.map((r) => r.id)));
    expect(stored.every((r) => r.status === 'success')).to.equal(true);
    await after.dispose();
  });

  it('calls to one server run at once, not one after another', async () => {
    const hub = new McpHub({ storeName: unique('store'), eventTarget: null });
    await hub.assistants.update('default', { approval: 'auto' });
    const base = urls.faultAliases[0]!;
    const tenant = unique('overlap');
    const s = await hub.servers.add({ name: 'overlap', url: `${base}/f/${tenant}/ok/mcp` });
    await hub.connect(s.id);
    const seen = () => fetch(`${base}/f/${tenant}/seen`).then((r) => r.json()) as Promise<Seen>;
    const stop = new AbortController();
    // three calls that take 10 s on the server: all three are there at once, or the hub queued them
    const calls = [1, 2, 3].map(() =>
      hub.callTool({ name: 'overlap__slow', arguments: { ms: 10_000 }, signal: stop.signal }),
    );
    let running = 0;
    for (let i = 0; i < 200 && running < 3; i++) {
      running = (await seen()).running;
      if (running < 3) await new Promise((r) => requestAnimationFrame(r));
    }
    expect(running, 'calls running on the server at once').to.equal(3);
    stop.abort();
    expect((await Promise.all(calls)).map((r) => r.status)).to.deep.equal(['cancelled', 'cancelled', 'cancelled']);
    await hub.dispose();
  });
});
