// Hostile server configs: credentials in URLs, control characters, bidi overrides. Each gets a
// typed McpConfigError naming the field and stores nothing (no record, no event, no secret).
import { expect } from '@open-wc/testing';
import { McpConfigError } from '../../src/core/index.js';
import { dump, privateHub, rawIdb, recordEvents, rejects } from '../helpers.js';

const EVENTS = ['mcp-server-added', 'mcp-server-updated', 'mcp-server-removed'];

/** Add `input`; expect a McpConfigError on `field`, and nothing stored or announced. */
async function expectRefused(input: Record<string, unknown>, field: string, secret?: string) {
  const hub = privateHub();
  await hub.ready;
  const seen = recordEvents(window, EVENTS);
  const err = await rejects(hub.servers.add(input as never));
  seen.stop();
  expect(err, JSON.stringify(input)).to.be.instanceOf(McpConfigError);
  expect(err.name).to.equal('McpConfigError');
  expect(err.issues.map((i: { path: string }) => i.path)).to.include(field);
  expect(err.message).to.contain(`${field}: `);
  expect(hub.servers.list()).to.have.length(0);
  expect(seen.seen).to.have.length(0);
  const raw = await rawIdb(hub.storeName);
  expect(raw.filter((r) => r.key.startsWith('server:'))).to.have.length(0);
  if (secret) {
    expect(err.message).not.to.contain(secret);
    expect(dump(raw)).not.to.contain(secret);
  }
  return err as McpConfigError;
}

describe('bad input: server URLs and names', () => {
  it('refuses a URL with user:password, naming the field, storing nothing', async () => {
    const err = await expectRefused({ name: 'Bob', url: 'http://bob:PW-s3cret@127.0.0.1:9/mcp' }, 'url', 'PW-s3cret');
    expect(err.issues[0].message).to.match(/user name or password/);
  });

  it('refuses a URL with a user name only, and https ones too', async () => {
    await expectRefused({ name: 'Bob', url: 'http://bob@127.0.0.1:9/mcp' }, 'url');
    await expectRefused({ name: 'Bob', url: 'https://bob:hunter2@mcp.example.com/mcp' }, 'url', 'hunter2');
  });

  it('refuses CR, LF, NUL and other control characters inside a URL (the URL parser would drop or encode them)', async () => {
    for (const url of [
      'http://127.0.0.1:9/m\r\ncp',
      'http://127.0.0.1:9/mcp\nX-Injected: 1',
      'http://127.0.0.1:9/m\u0000cp',
      'http://127.0.0.1:9/m\tcp',
      'http://127.0.0.1:9/m\u007fcp',
      'https://example.com/#\u202Egnp.exe', // bidi override: shown reversed in the manager
    ])
      await expectRefused({ name: 'Ctl', url }, 'url');
  });

  it('refuses names with NUL, control characters or bidi overrides and isolates', async () => {
    for (const cp of [0x00, 0x0a, 0x1b, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])
      await expectRefused({ name: `ab${String.fromCodePoint(cp)}cd`, url: 'http://127.0.0.1:9/mcp' }, 'name');
  });

  it('still accepts ordinary names in any script and a clean URL', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'خادم 服务器 Ñandú', url: 'http://127.0.0.1:9/mcp?x=1#y' });
    expect(s.name).to.equal('خادم 服务器 Ñandú');
    expect(s.url).to.equal('http://127.0.0.1:9/mcp?x=1#y');
  });

  it('update refuses the same values and leaves the record unchanged', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Ok', url: 'http://127.0.0.1:9/mcp' });
    const seen = recordEvents(window, EVENTS);
    const e1 = await rejects(hub.servers.update(s.id, { url: 'http://bob:PW-up@127.0.0.1:9/mcp' }));
    const e2 = await rejects(hub.servers.update(s.id, { name: 'x\u202Ey' }));
    seen.stop();
    expect(e1).to.be.instanceOf(McpConfigError);
    expect(e1.issues[0].path).to.equal('url');
    expect(e2).to.be.instanceOf(McpConfigError);
    expect(e2.issues[0].path).to.equal('name');
    expect(seen.seen).to.have.length(0);
    expect(hub.servers.get(s.id)).to.deep.equal(s);
    expect(dump(await rawIdb(hub.storeName))).not.to.contain('PW-up');
  });

  it('mcp.json import refuses credentials in a URL for that entry and imports the rest', async () => {
    const hub = privateHub();
    const text = JSON.stringify({
      mcpServers: {
        leaky: { url: 'http://bob:PW-json@127.0.0.1:9/mcp' },
        fine: { url: 'http://127.0.0.1:9/mcp' },
      },
    });
    const r = await hub.importConfig(text);
    expect(r.added.map((s) => s.name)).to.deep.equal(['fine']);
    expect(r.errors).to.have.length(1);
    expect(r.errors[0].name).to.equal('leaky');
    expect(r.errors[0].issues[0].path).to.equal('url');
    expect(JSON.stringify(r.errors)).not.to.contain('PW-json');
    expect(dump(await rawIdb(hub.storeName))).not.to.contain('PW-json');
  });

  it('testConnection refuses credentials in the URL before any request', async () => {
    const hub = privateHub();
    const err = await rejects(hub.testConnection({ name: 'T', url: 'http://bob:PW-test@127.0.0.1:9/mcp' }));
    expect(err).to.be.instanceOf(McpConfigError);
    expect(err.issues[0].path).to.equal('url');
  });
});
