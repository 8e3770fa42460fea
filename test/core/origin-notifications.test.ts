// A session the per-origin budget gave no notification stream (the fifth and sixth sessionful
// server connecting at once behind one origin) still hears the list changes its server sends on
// ordinary response streams (2025 sessions), and a storm of them costs a bounded number of re-lists.
import { expect } from '@open-wc/testing';
import { nextEvent, privateHub, unique, urls } from '../helpers.js';

describe('list changes without a notification stream', function () {
  this.timeout(30_000);

  it('the sixth server behind one origin re-lists on list_changed, coalesced', async () => {
    const hub = privateHub();
    const tenants = Array.from({ length: 6 }, () => unique('origin'));
    const servers = [];
    for (const [i, t] of tenants.entries())
      servers.push(await hub.servers.add({ name: `o${i}`, url: `${urls.faults}/f/${t}/ok/mcp` }));
    // at once: every session asks for a stream before any is declined (405) and given back
    await Promise.all(servers.map((s) => hub.connect(s.id)));
    for (const [i, s] of servers.entries()) {
      const relisted = nextEvent<CustomEvent>(
        hub,
        'mcp-tools-changed',
        (e) => e.detail.serverId === s.id && e.detail.reason === 'list-changed',
      );
      await hub.client(s.id).callTool('storm', { n: 200 });
      await relisted;
      await hub.client(s.id).callTool('echo', { message: 'after' });
      const seen = await fetch(`${urls.faults}/f/${tenants[i]}/seen`).then((r) => r.json());
      // the connect's list, then one re-list running and at most one after it, not 200
      expect(seen.lists, `server ${i}: tools/list requests`).to.be.within(2, 4);
    }
  });
});
