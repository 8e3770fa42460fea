// Cloudflare's agents McpAgent running in workerd (test/fixtures/cf-agent/, started by
// scripts/test.mjs on 127.0.0.1), reached from a page: CORS as the package sends it (`*`, its own
// allowed-header list), both transports. The Node suite compares the same server with the bare
// SDK client (test/node/third-party-servers.test.mjs); here the page's hub must get the same.
import { expect } from '@open-wc/testing';
import { privateHub, urls } from '../helpers.js';

describe("Cloudflare's agents McpAgent in workerd, from a page", () => {
  for (const [transport, path] of [
    ['streamable-http', 'mcp'],
    ['sse', 'sse'],
  ] as const) {
    it(`${transport}: lists add, echo and slow-echo and calls them`, async () => {
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'cf', url: `${urls.cfAgent}/${path}`, transport, retries: 0 });
      const catalogue = await hub.connect(s.id);
      expect(catalogue.transport).to.equal(transport);
      expect(catalogue.tools.map((t) => t.name).sort()).to.deep.equal(['add', 'echo', 'slow-echo']);
      const add = await hub.callTool({ serverId: s.id, tool: 'add', arguments: { a: 2, b: 3 }, source: 'user' });
      expect(add.status, JSON.stringify(add.error)).to.equal('success');
      expect(add.result!.content).to.deep.equal([{ type: 'text', text: '5' }]);
      // answered after the POST (a 202 on legacy SSE) has ended
      const slow = await hub.callTool({
        serverId: s.id,
        tool: 'slow-echo',
        arguments: { message: 'from the page', ms: 100 },
        source: 'user',
      });
      expect(slow.status, JSON.stringify(slow.error)).to.equal('success');
      expect(slow.result!.content).to.deep.equal([{ type: 'text', text: 'Echo: from the page' }]);
    });
  }
});
