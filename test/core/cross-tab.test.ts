// Cross-tab (issue 13 item 5), with real tabs: windows opened with window.open on a same-origin
// page (test/fixtures/cross-tab-page.html), each with its own hub on one store. Two tabs doing 50
// operations at once each end with identical state in both and in IndexedDB; a tab closed in the
// middle of its writes loses nothing it had acknowledged.
import { expect } from '@open-wc/testing';
import { McpHub, type ServerConfig } from '../../src/core/index.js';
import { rawIdb, unique, until } from '../helpers.js';

type Msg = { crossTab: string; [k: string]: unknown };

/** Open a real tab on the peer page and talk to it. */
async function openTab(store: string, tab: string) {
  const inbox: Msg[] = [];
  const waiters: { where: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  const on = (e: MessageEvent) => {
    if (e.origin !== location.origin || e.data?.crossTab !== tab) return;
    const i = waiters.findIndex((w) => w.where(e.data));
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(e.data);
    else inbox.push(e.data);
  };
  window.addEventListener('message', on);
  const next = (where: (m: Msg) => boolean) =>
    new Promise<Msg>((resolve) => {
      const i = inbox.findIndex(where);
      if (i >= 0) resolve(inbox.splice(i, 1)[0]!);
      else waiters.push({ where, resolve });
    });
  const win = window.open(
    `/test/fixtures/cross-tab-page.html?store=${encodeURIComponent(store)}&tab=${tab}`,
    `cross-tab-${tab}-${store}`,
  );
  if (!win) throw new Error('window.open was refused (popup blocked)');
  await next((m) => m.ready === true);
  return {
    win,
    next,
    inbox,
    send: (m: Record<string, unknown>) => win.postMessage(m, location.origin),
    async snapshot() {
      this.send({ do: 'snapshot' });
      return (await next((m) => 'snapshot' in m)).snapshot as unknown[];
    },
    close() {
      window.removeEventListener('message', on);
      win.close();
    },
  };
}

const view = (list: readonly ServerConfig[]) =>
  list
    .map((s) => ({ id: s.id, name: s.name, timeout: s.timeout, description: s.description, updatedAt: s.updatedAt }))
    .sort((a, b) => a.id.localeCompare(b.id));

describe('cross-tab, real tabs', function () {
  this.timeout(60_000);

  it('two tabs, 50 operations each at once: identical state in both tabs and in IndexedDB', async () => {
    const store = unique('store');
    const seed = new McpHub({ storeName: store, eventTarget: null, broadcast: false });
    const add = (name: string) => seed.servers.add({ name, url: 'http://127.0.0.1:9/mcp', enabled: false });
    for (let j = 0; j < 15; j++) await add(`shared-${j}`);
    for (const tab of ['A', 'B']) for (let k = 0; k < 15; k++) await add(`${tab}-old-${k}`);
    await seed.dispose();
    const a = await openTab(store, 'A');
    const b = await openTab(store, 'B');
    try {
      a.send({ do: 'ops' });
      b.send({ do: 'ops' });
      const [da, db] = await Promise.all([a.next((m) => 'done' in m), b.next((m) => 'done' in m)]);
      expect(da).to.include({ done: 50 });
      expect(db).to.include({ done: 50 });
      expect(da.failed).to.deep.equal([]);
      expect(db.failed).to.deep.equal([]);

      // IndexedDB, read without our code, is the truth the tabs must agree with
      const raw = await rawIdb(store);
      const stored = view(raw.filter((r) => r.key.startsWith('server:')).map((r) => r.value as ServerConfig));
      const names = stored.map((s) => s.name);
      expect(stored).to.have.length(15 + 20 + 20);
      for (let i = 0; i < 20; i++) expect(names).to.include.members([`A-new-${i}`, `B-new-${i}`]);
      expect(names.filter((n) => n.includes('-old-'))).to.deep.equal([]);
      // per-field last-write-wins: A's timeout and B's description both kept on every shared server
      for (let j = 0; j < 15; j++)
        expect(stored.find((s) => s.name === `shared-${j}`)).to.include({
          timeout: 100 + j,
          description: `described by B ${j}`,
        });
      // both tabs converge on it (other tabs' changes arrive over BroadcastChannel)
      await until(
        async () => JSON.stringify(await a.snapshot()) === JSON.stringify(stored),
        'tab A to match IndexedDB',
      );
      await until(
        async () => JSON.stringify(await b.snapshot()) === JSON.stringify(stored),
        'tab B to match IndexedDB',
      );
      // and a page opened now reads the same
      const fresh = new McpHub({ storeName: store, eventTarget: null, broadcast: false });
      await fresh.ready;
      expect(view(fresh.servers.list())).to.deep.equal(stored);
      await fresh.dispose();
      console.log(`cross-tab: 2 tabs × 50 operations, ${stored.length} servers, identical in both tabs and IndexedDB`);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a tab closed in the middle of its writes loses nothing it had acknowledged', async () => {
    const store = unique('store');
    const c = await openTab(store, 'C');
    c.send({ do: 'adds' });
    const acked: string[] = [];
    while (acked.length < 20) acked.push((await c.next((m) => 'acknowledged' in m)).acknowledged as string);
    c.close(); // its next add is in flight
    const after = new McpHub({ storeName: store, eventTarget: null, broadcast: false });
    await after.ready;
    const ids = new Set(after.servers.list().map((s) => s.id));
    const lost = acked.filter((id) => !ids.has(id));
    console.log(`cross-tab: tab closed after ${acked.length} acknowledged adds, ${lost.length} lost`);
    expect(lost).to.deep.equal([]);
    await after.dispose();
  });
});
