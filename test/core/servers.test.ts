import { expect } from '@open-wc/testing';
import { set, createStore } from 'idb-keyval';
import { McpConfigError, McpHub, McpNotFoundError } from '../../src/core/index.js';
import { privateHub, rawIdb, recordEvents, rejects, unique, nextEvent, dump } from '../helpers.js';

const valid = { name: 'Local', url: 'http://127.0.0.1:9/mcp' };

describe('hub.servers', () => {
  it('adds, updates and removes a server, each event reaching window exactly once', async () => {
    const hub = privateHub();
    const types = ['mcp-server-added', 'mcp-server-updated', 'mcp-server-removed'];
    const onWindow = recordEvents(window, types);
    const onHub = recordEvents(hub, types);
    const s = await hub.servers.add(valid);
    expect(s).to.include({ name: 'Local', transport: 'auto', timeout: 30, retries: 3, enabled: true });
    expect(s.auth).to.deep.equal({ type: 'none' });
    const u = await hub.servers.update(s.id, { name: 'Renamed', timeout: 5 });
    expect(u.name).to.equal('Renamed');
    expect(u.updatedAt).to.be.greaterThan(s.updatedAt - 1);
    expect(hub.servers.list().map((x) => x.name)).to.deep.equal(['Renamed']);
    await hub.servers.remove(s.id);
    expect(hub.servers.list()).to.have.length(0);
    onWindow.stop();
    onHub.stop();
    expect(onWindow.seen.map((e) => e.type)).to.deep.equal(types);
    expect(onHub.seen.map((e) => e.type)).to.deep.equal(types);
    const added = onWindow.seen[0] as CustomEvent;
    expect(added.bubbles).to.equal(true);
    expect(added.composed).to.equal(true);
    expect(added.detail.server.id).to.equal(s.id);
    expect(Object.isFrozen(added.detail)).to.equal(true);
  });

  it('keeps records across a reload (a new hub on the same store)', async () => {
    const name = unique('store');
    const a = new McpHub({ storeName: name, eventTarget: null });
    const s = await a.servers.add({ ...valid, description: 'kept' });
    await a.dispose();
    const b = new McpHub({ storeName: name, eventTarget: null });
    await b.ready;
    expect(b.servers.get(s.id)).to.deep.equal(s);
    expect(b.status(s.id).status).to.equal('disconnected');
    await b.dispose();
  });

  const bad: [string, unknown, string[]][] = [
    ['empty name', { ...valid, name: '' }, ['name']],
    ['long name', { ...valid, name: 'x'.repeat(101) }, ['name']],
    ['not a URL', { ...valid, url: 'not a url' }, ['url']],
    ['remote http', { ...valid, url: 'http://example.com/mcp' }, ['url']],
    ['ftp', { ...valid, url: 'ftp://127.0.0.1/mcp' }, ['url']],
    ['unknown transport', { ...valid, transport: 'websocket' }, ['transport']],
    ['timeout too long', { ...valid, timeout: 301 }, ['timeout']],
    ['timeout zero', { ...valid, timeout: 0 }, ['timeout']],
    ['retries 6', { ...valid, retries: 6 }, ['retries']],
    ['bearer without token', { ...valid, auth: { type: 'bearer', token: '' } }, ['auth.token']],
    [
      'api-key bad header name',
      { ...valid, auth: { type: 'api-key', headerName: 'bad header', key: 'k' } },
      ['auth.headerName'],
    ],
    ['unknown auth', { ...valid, auth: { type: 'magic' } }, ['auth.type']],
    ['reserved header', { ...valid, headers: [{ name: 'mcp-session-id', value: 'x' }] }, ['headers.0.name']],
    ['header injection', { ...valid, headers: [{ name: 'x-a', value: 'a\r\nb: c' }] }, ['headers.0.value']],
    ['unknown field', { ...valid, colour: 'red' }, ['']],
    ['several at once', { name: '', url: 'http://example.com', timeout: 999 }, ['name', 'url', 'timeout']],
  ];
  for (const [what, input, paths] of bad) {
    it(`rejects ${what} with McpConfigError and stores nothing`, async () => {
      const hub = privateHub();
      const events = recordEvents(window, ['mcp-server-added']);
      const err = await rejects(hub.servers.add(input as never));
      events.stop();
      expect(err).to.be.instanceOf(McpConfigError);
      expect(err.code).to.equal('invalid-config');
      for (const p of paths) expect(err.issues.map((i: { path: string }) => i.path)).to.include(p);
      expect(err.message).to.be.a('string').and.not.equal('');
      expect(hub.servers.list()).to.have.length(0);
      expect(events.seen).to.have.length(0);
      const rows = await rawIdb(hub.storeName);
      expect(rows.filter((r) => /^(server|secret):/.test(r.key))).to.have.length(0);
    });
  }

  it('accepts http for localhost, 127.0.0.0/8 and [::1], https anywhere', async () => {
    const hub = privateHub();
    for (const url of [
      'http://localhost:1/mcp',
      'http://127.9.8.7/x',
      'http://[::1]:3/mcp',
      'https://example.com/mcp?x=1',
    ]) {
      const s = await hub.servers.add({ name: url, url });
      expect(s.url).to.equal(url); // used exactly as given
    }
  });

  it('rejects a bad update and leaves the record as it was', async () => {
    const hub = privateHub();
    const s = await hub.servers.add(valid);
    const err = await rejects(hub.servers.update(s.id, { url: 'http://evil.example/mcp', name: 'ok' }));
    expect(err).to.be.instanceOf(McpConfigError);
    expect(hub.servers.get(s.id)).to.deep.equal(s);
    expect(await rejects(hub.servers.update('nope', { name: 'x' }))).to.be.instanceOf(McpNotFoundError);
    expect(await rejects(hub.servers.remove('nope'))).to.be.instanceOf(McpNotFoundError);
  });

  it('sets a corrupt record aside with a warning and loads the rest', async () => {
    const name = unique('store');
    const a = new McpHub({ storeName: name, eventTarget: null });
    const good = await a.servers.add(valid);
    await a.dispose();
    await set('server:broken', { id: 'broken', name: 42, url: 'javascript:alert(1)' }, createStore(name, 'records'));
    const warnings: string[] = [];
    const b = new McpHub({ storeName: name, eventTarget: null, logger: { warn: (m: string) => warnings.push(m) } });
    await b.ready;
    expect(b.servers.list().map((s) => s.id)).to.deep.equal([good.id]);
    expect(b.store.state.warnings.join(' ')).to.contain('server:broken');
    expect(warnings.join(' ')).to.contain('server:broken');
    const keys = (await rawIdb(name)).map((r) => r.key);
    expect(keys).to.include('quarantine:server:broken');
    expect(keys).not.to.include('server:broken');
    await b.dispose();
  });

  it('falls back to memory with a warning and an event when IndexedDB cannot be used', async () => {
    // a database of that name created by someone else, without our object store
    const name = unique('foreign');
    await new Promise<void>((resolve) => {
      const r = indexedDB.open(name, 1);
      r.onupgradeneeded = () => r.result.createObjectStore('something-else');
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
    });
    const degraded = nextEvent<CustomEvent>(window, 'mcp-storage-degraded');
    const hub = new McpHub({ storeName: name, logger: { warn() {} } });
    await hub.ready;
    const ev = await degraded;
    expect(ev.detail.mode).to.equal('memory');
    expect(hub.store.state.storage.mode).to.equal('memory');
    expect(hub.store.state.storage.warning).to.contain('IndexedDB');
    // still fully usable, secrets included
    const s = await hub.servers.add({ ...valid, auth: { type: 'bearer', token: 'memory-token-1' } });
    expect(hub.servers.get(s.id)?.name).to.equal('Local');
    await hub.servers.update(s.id, { name: 'Still works' });
    expect(hub.servers.get(s.id)?.name).to.equal('Still works');
    await hub.dispose();
  });

  it('stores no secret in clear: raw IndexedDB holds only references and ciphertext', async () => {
    const name = unique('store');
    const hub = new McpHub({ storeName: name, eventTarget: null });
    const secrets = ['bearer-SECRET-0001', 'apikey-SECRET-0002', 'basicpw-SECRET-0003', 'hdr-SECRET-0004'];
    const a = await hub.servers.add({ ...valid, auth: { type: 'bearer', token: secrets[0] } });
    await hub.servers.add({
      ...valid,
      name: 'k',
      auth: { type: 'api-key', headerName: 'x-custom-key', key: secrets[1] },
    });
    await hub.servers.add({
      ...valid,
      name: 'b',
      auth: { type: 'basic', username: 'ann', password: secrets[2] },
      headers: [
        { name: 'X-Token', value: secrets[3] },
        { name: 'X-Plain', value: 'visible', secret: false },
      ],
    });
    expect(a.auth).to.have.nested.property('token.secretRef').that.matches(/^sec_/);
    await hub.servers.update(a.id, { auth: { type: 'bearer', token: 'bearer-SECRET-0005' } });
    secrets.push('bearer-SECRET-0005');
    const rows = await rawIdb(name);
    const text = dump(rows);
    for (const s of secrets) expect(text).not.to.contain(s);
    expect(text).to.contain('visible');
    // the replaced secret's ciphertext is gone, the key is not extractable
    const secretRows = rows.filter((r) => r.key.startsWith('secret:'));
    expect(secretRows).to.have.length(4);
    const key = rows.find((r) => r.key === 'vault:key')!.value as CryptoKey;
    expect(key.extractable).to.equal(false);
    expect(key.algorithm.name).to.equal('AES-GCM');
    await hub.dispose();
  });

  it('refuses a secret reference that belongs to another server', async () => {
    const hub = privateHub();
    const a = await hub.servers.add({ ...valid, auth: { type: 'bearer', token: 'owned-by-a' } });
    const ref = (a.auth as { token: { secretRef: string } }).token;
    const err = await rejects(hub.servers.add({ ...valid, name: 'thief', auth: { type: 'bearer', token: ref } }));
    expect(err).to.be.instanceOf(McpConfigError);
    expect(hub.servers.list()).to.have.length(1);
  });

  it('two hubs on one store editing at once lose nothing, and stay in step', async () => {
    const name = unique('store');
    const a = new McpHub({ storeName: name, eventTarget: null });
    const b = new McpHub({ storeName: name, eventTarget: null });
    await Promise.all([a.ready, b.ready]);
    const shared = await a.servers.add({ ...valid, name: 'shared' });
    await nextEvent(b, 'mcp-server-added', (e: CustomEvent) => e.detail.server.id === shared.id);
    // concurrent: different servers from each side, and different fields of one server
    const [x, y] = await Promise.all([
      a.servers.add({ ...valid, name: 'from-a' }),
      b.servers.add({ ...valid, name: 'from-b' }),
      a.servers.update(shared.id, { name: 'renamed-by-a' }),
      b.servers.update(shared.id, { timeout: 77 }),
      b.servers.update(shared.id, { description: 'described-by-b' }),
    ]);
    const fresh = new McpHub({ storeName: name, eventTarget: null });
    await fresh.ready;
    const names = fresh.servers
      .list()
      .map((s) => s.name)
      .sort();
    expect(names).to.deep.equal(['from-a', 'from-b', 'renamed-by-a']);
    const merged = fresh.servers.get(shared.id)!;
    expect(merged).to.include({ name: 'renamed-by-a', timeout: 77, description: 'described-by-b' });
    expect(x.id).not.to.equal(y.id);
    await Promise.all([a.dispose(), b.dispose(), fresh.dispose()]);
  });

  it('two hubs in two iframes editing one store at once lose nothing', async () => {
    const name = unique('store');
    const seed = new McpHub({ storeName: name, eventTarget: null });
    const shared = await seed.servers.add({ ...valid, name: 'shared' });
    await seed.dispose();
    // each iframe is a page of its own with its own hub; both edit when told, at the same time
    const frames = ['a', 'b'].map((who) => {
      const frame = document.createElement('iframe');
      frame.srcdoc = `<script type="module">
        import { McpHub } from '/src/core/index.ts';
        const hub = new McpHub({ storeName: ${JSON.stringify(name)} });
        await hub.ready;
        window.addEventListener('message', async (e) => {
          if (e.data !== 'go') return;
          const edits = ${JSON.stringify(who)} === 'a'
            ? [hub.servers.add({ name: 'from-a', url: 'http://127.0.0.1:9/mcp' }), hub.servers.update(${JSON.stringify(shared.id)}, { name: 'renamed-by-a' })]
            : [hub.servers.add({ name: 'from-b', url: 'http://127.0.0.1:9/mcp' }), hub.servers.update(${JSON.stringify(shared.id)}, { timeout: 77 }), hub.servers.update(${JSON.stringify(shared.id)}, { description: 'described-by-b' })];
          await Promise.all(edits);
          window.parent.postMessage({ done: ${JSON.stringify(who)} }, '*');
        });
        window.parent.postMessage({ ready: ${JSON.stringify(who)} }, '*');
      </script>`;
      return frame;
    });
    const waitFor = (key: string, count: number) =>
      new Promise<void>((resolve) => {
        let n = 0;
        window.addEventListener('message', function on(e) {
          if (e.data?.[key] && ++n === count) {
            window.removeEventListener('message', on);
            resolve();
          }
        });
      });
    const ready = waitFor('ready', 2);
    document.body.append(...frames);
    await ready;
    const done = waitFor('done', 2);
    for (const f of frames) f.contentWindow!.postMessage('go', '*');
    await done;
    const fresh = new McpHub({ storeName: name, eventTarget: null });
    await fresh.ready;
    expect(
      fresh.servers
        .list()
        .map((s) => s.name)
        .sort(),
    ).to.deep.equal(['from-a', 'from-b', 'renamed-by-a']);
    expect(fresh.servers.get(shared.id)).to.include({
      name: 'renamed-by-a',
      timeout: 77,
      description: 'described-by-b',
    });
    for (const f of frames) f.remove();
    await fresh.dispose();
  });

  it('other tabs learn of changes through BroadcastChannel (iframe with its own hub)', async () => {
    const name = unique('store');
    const here = new McpHub({ storeName: name, eventTarget: null });
    await here.ready;
    const frame = document.createElement('iframe');
    frame.srcdoc = `<script type="module">
      import { McpHub } from '/src/core/index.ts';
      const hub = new McpHub({ storeName: ${JSON.stringify(name)} });
      await hub.ready;
      window.parent.postMessage({ ready: true }, '*');
      window.addEventListener('message', async (e) => {
        if (e.data.add) await hub.servers.add({ name: e.data.add, url: 'http://127.0.0.1:9/mcp' });
      });
    </script>`;
    const ready = new Promise((r) =>
      window.addEventListener('message', function on(e) {
        if (e.data?.ready) {
          window.removeEventListener('message', on);
          r(null);
        }
      }),
    );
    document.body.append(frame);
    await ready;
    const seen = nextEvent<CustomEvent>(here, 'mcp-server-added');
    frame.contentWindow!.postMessage({ add: 'from-iframe' }, '*');
    const ev = await seen;
    expect(ev.detail.source).to.equal('remote');
    expect(here.servers.list().map((s) => s.name)).to.deep.equal(['from-iframe']);
    frame.remove();
    await here.dispose();
  });

  it('no event detail, error message or log line carries a secret', async () => {
    const hub = privateHub();
    const secret = 'tok-NEVER-LEAK-9876';
    const logs: string[] = [];
    const orig = { warn: console.warn, error: console.error, log: console.log, info: console.info };
    for (const k of Object.keys(orig) as (keyof typeof orig)[])
      console[k] = (...a: unknown[]) => logs.push(a.map(String).join(' '));
    const events = recordEvents(window, [
      'mcp-server-added',
      'mcp-server-updated',
      'mcp-server-removed',
      'mcp-server-status-changed',
      'mcp-tools-changed',
    ]);
    const errors: string[] = [];
    try {
      const s = await hub.servers.add({
        name: 'leak?',
        url: 'http://127.0.0.1:9/mcp',
        retries: 0,
        timeout: 2,
        auth: { type: 'bearer', token: secret },
        headers: [{ name: 'X-Api-Token', value: secret + '-h' }],
      });
      await hub.servers.update(s.id, { auth: { type: 'basic', username: 'u', password: secret } });
      try {
        await hub.connect(s.id); // nothing listens on port 9
      } catch (e) {
        errors.push(String(e), JSON.stringify(e), (e as Error).message);
      }
      try {
        await hub.servers.add({ name: '', url: 'http://127.0.0.1:9', auth: { type: 'bearer', token: secret } });
      } catch (e) {
        errors.push(String(e), JSON.stringify(e));
      }
      await hub.servers.remove(s.id);
    } finally {
      Object.assign(console, orig);
      events.stop();
    }
    expect(events.seen.length).to.be.greaterThan(4);
    const all = [
      dump(events.seen.map((e) => (e as CustomEvent).detail)),
      ...errors,
      ...logs,
      dump(hub.store.state),
    ].join('\n');
    expect(all).not.to.contain(secret);
    expect(all).not.to.contain(btoa(`u:${secret}`));
  });
});
