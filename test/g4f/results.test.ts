// A server written like G4F's answers tools/call with a plain object (no `content`). Whichever
// way the hub talks to it — the full protocol (which a Content-Type-only preflight allows too,
// since the hub sends no later revision's headers to a 2025 server), or plain JSON-RPC (the
// fallback, here chosen in the config) — the object reaches the record, the card and the model,
// and the server's log says the result was not conformant.
import { expect } from '@open-wc/testing';
import { G4fMcpClient } from '../../src/g4f/index.js';
import { normaliseCallResult } from '../../src/core/index.js';
import { privateHub, unique, until, urls } from '../helpers.js';
import { MemoryStore } from './memory-storage.js';

const g4fBase = (urls as typeof urls & { g4f: string }).g4f;
const g4fUrl = (cors: 'strict' | 'open') => `${g4fBase}/${unique('g4f')}/${cors}/mcp`;

describe('G4F-style results (no content) are kept and flagged', () => {
  for (const [cors, transport, era] of [
    ['open', 'auto', 'legacy'],
    ['strict', 'auto', 'legacy'],
    ['strict', 'jsonrpc', 'jsonrpc'],
  ] as const) {
    it(`preflight ${cors}, transport ${transport}: the hub speaks ${era}, keeps the object and logs it`, async () => {
      const hub = privateHub();
      const server = await hub.servers.add({ name: 'G4F style', url: g4fUrl(cors), transport });
      await hub.connect(server.id);
      expect(hub.status(server.id).era).to.equal(era);
      await hub.assistants.update('default', { approval: 'auto' });
      const record = await hub.callTool({ serverId: server.id, tool: 'get-sum', arguments: { a: 2, b: 3 } });
      expect(record.status).to.equal('success');
      expect(record.result!.structuredContent).to.deep.equal({ sum: 5 });
      expect(record.result!.content).to.deep.equal([{ type: 'text', text: '{"sum":5}' }]);
      expect(record.result!.nonConformant).to.match(/content/);
      const log = await until(
        async () => hub.store.state.logs[server.id]?.find((e) => /non-conformant/.test(e.text)),
        'the log entry',
      );
      expect(log).to.include({ level: 'warning', logger: 'tools/call', kind: 'protocol' });
      expect(log.text).to.contain('get-sum');

      // G4F's page hands the model what its own client did: the object itself
      const client = new G4fMcpClient({ hub, storage: new MemoryStore(), container: null, importStorage: false });
      try {
        await client.ready;
        const msg = await client.executeToolCall({
          id: 'c1',
          function: { name: 'G4F_style__echo', arguments: '{"message":"hi"}' },
        });
        expect(JSON.parse(msg.content)).to.deep.equal({ message: 'hi', length: 2 });
      } finally {
        client.dispose();
      }
    });
  }

  it('a conformant result is left as it is and not flagged', async () => {
    const hub = privateHub();
    const server = await hub.servers.add({ name: 'Std', url: urls.jsonrpc });
    await hub.assistants.update('default', { approval: 'auto' });
    await hub.connect(server.id);
    const record = await hub.callTool({ serverId: server.id, tool: 'add', arguments: { a: 1, b: 2 } });
    expect(record.result).to.deep.equal({ content: [{ type: 'text', text: '3' }] });
    expect((hub.store.state.logs[server.id] ?? []).some((e) => /non-conformant/.test(e.text))).to.equal(false);
  });

  it('normaliseCallResult marks every repair and keeps what was sent', () => {
    const meta = (r: unknown) => (r as { _meta: Record<string, string> })._meta['mcp-elements.nonConformant'];
    expect(normaliseCallResult({ content: [] })).to.deep.equal({ content: [] });
    expect(meta(normaliseCallResult({ a: 1 }))).to.match(/no "content"/);
    expect(normaliseCallResult({ a: 1 })).to.deep.include({ a: 1, content: [] });
    expect(meta(normaliseCallResult('text'))).to.match(/string/);
    expect(normaliseCallResult(7)).to.deep.include({ value: 7, content: [] });
    expect(meta(normaliseCallResult({ content: { type: 'text', text: 'x' } }))).to.match(/one object/);
  });
});
