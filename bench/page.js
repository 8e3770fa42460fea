// Runs in Chromium: measurements the bench asks for, interleaved so both sides see the same
// machine state. Returns raw samples in milliseconds.
import * as Sdk from '/bench/.build/sdk-bare.js';
import '/dist/cdn/mcp-elements.js';

const { McpHub } = globalThis.McpElements;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `{ name: samples }` → `{ name: median }`. */
const medians = (samples) => Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));

/** A raw v2 client connected to `url` with its tools listed. */
async function rawConnect(url) {
  const client = new Sdk.Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new Sdk.StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  return client;
}

async function rawConnectList(url, full) {
  const client = new Sdk.Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const t0 = performance.now();
  await client.connect(new Sdk.StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  if (full) {
    await client.listResources();
    await client.listResourceTemplates();
    await client.listPrompts();
  }
  const dt = performance.now() - t0;
  await client.close();
  return dt;
}

// The first connect of a page fetches and compiles the connection chunk (the SDK); later ones
// do not. Each: add a server and connect it (a fresh page: nothing of the chunk loaded yet).
window.benchFirstConnect = async (url, rounds) => {
  const hub = new McpHub({ storeName: `bench-first-${Date.now()}`, eventTarget: null });
  await hub.ready;
  const time = async (name) => {
    const t0 = performance.now();
    const s = await hub.servers.add({ name, url, transport: 'streamable-http' });
    await hub.connect(s.id);
    return performance.now() - t0;
  };
  const first = await time('first');
  const later = [];
  for (let i = 0; i < rounds; i++) later.push(await time(`later-${i}`));
  await hub.dispose();
  return { first, later: median(later) };
};

window.benchConnect = async (url, rounds) => {
  const hub = new McpHub({ storeName: `bench-${Date.now()}`, eventTarget: null });
  const s = await hub.servers.add({ name: 'everything', url, transport: 'streamable-http' });
  const mem = new McpHub({ storage: new globalThis.McpElements.MemoryStorage(), eventTarget: null, broadcast: false });
  const sm = await mem.servers.add({ name: 'everything', url, transport: 'streamable-http' });
  const ours = [],
    raw = [],
    rawFull = [],
    oursFull = [],
    oursMem = [];
  // warm-up of each path
  await rawConnectList(url, false);
  await hub.connect(s.id);
  await hub.disconnect(s.id);
  for (let i = 0; i < rounds; i++) {
    raw.push(await rawConnectList(url, false));
    let t0 = performance.now();
    await hub.connect(s.id);
    ours.push(performance.now() - t0);
    await hub.disconnect(s.id);
    rawFull.push(await rawConnectList(url, true));
    t0 = performance.now();
    await hub.connect(s.id, { discovery: 'complete' });
    oursFull.push(performance.now() - t0);
    await hub.disconnect(s.id);
    t0 = performance.now();
    await mem.connect(sm.id);
    oursMem.push(performance.now() - t0);
    await mem.disconnect(sm.id);
  }
  await hub.dispose();
  await mem.dispose();
  return medians({ ours, raw, rawFull, oursFull, oursMem });
};

// Discovery of many servers: one server, ten in parallel on ten origins, ten behind one origin.
/** Time `open` over every item in parallel, then close what it opened (untimed). */
async function timed(items, open, close) {
  const t0 = performance.now();
  const opened = await Promise.all(items.map(open));
  const dt = performance.now() - t0;
  await Promise.all(opened.map(close));
  return dt;
}
/** Connect the hub's servers in parallel (ms), then disconnect them. */
const connectAll = (hub, list) =>
  timed(
    list,
    (s) => hub.connect(s.id).then(() => s),
    (s) => hub.disconnect(s.id),
  );
/** The same with raw v2 clients: what the browser and the servers allow at all. */
const rawAll = (urls) => timed(urls, rawConnect, (c) => c.close());

window.benchManyServers = async (tenOrigins, oneOrigin, rounds) => {
  const hub = new McpHub({ storeName: `bench-many-${Date.now()}`, eventTarget: null });
  const add = (urls, prefix) => Promise.all(urls.map((url, i) => hub.servers.add({ name: `${prefix}${i}`, url })));
  const ten = await add(tenOrigins, 'o');
  const gateway = await add(oneOrigin, 'g');
  await connectAll(hub, [ten[0]]);
  await connectAll(hub, ten);
  await connectAll(hub, gateway);
  await rawAll(tenOrigins);
  const one = [],
    parallel = [],
    shared = [],
    rawOne = [],
    rawTen = [];
  for (let i = 0; i < rounds; i++) {
    one.push(await connectAll(hub, [ten[i % ten.length]]));
    parallel.push(await connectAll(hub, ten));
    shared.push(await connectAll(hub, gateway));
    rawOne.push(await rawAll([tenOrigins[i % tenOrigins.length]]));
    rawTen.push(await rawAll(tenOrigins));
  }
  await hub.dispose();
  return medians({ one, parallel, shared, rawOne, rawTen });
};

// Many servers behind one origin (bench/one-origin.mjs). Each case: one server alone, then ten
// behind one origin in parallel, through a hub with the case's options or raw v2 clients; every
// round runs every case (interleaved), after one warm-up round. Returns each case's medians.
window.benchOneOrigin = async (cases, rounds) => {
  const sides = await Promise.all(
    cases.map(async (c, k) => {
      if (c.raw) return { one: () => rawAll([c.one]), ten: () => rawAll(c.ten) };
      const hub = new McpHub({ storeName: `bench-origin-${Date.now()}-${k}`, eventTarget: null, ...c.hubOptions });
      const one = await hub.servers.add({ name: 'one', url: c.one });
      const ten = await Promise.all(c.ten.map((url, i) => hub.servers.add({ name: `t${i}`, url })));
      return { hub, one: () => connectAll(hub, [one]), ten: () => connectAll(hub, ten) };
    }),
  );
  const samples = sides.map(() => ({ one: [], ten: [] }));
  for (let r = -1; r < rounds; r++)
    for (const [k, side] of sides.entries()) {
      const one = await side.one();
      const ten = await side.ten();
      if (r < 0) continue; // the warm-up round
      samples[k].one.push(one);
      samples[k].ten.push(ten);
    }
  await Promise.all(sides.map((s) => s.hub?.dispose()));
  return samples.map(medians);
};

/** Ten raw v2 clients at once, given up after `ms` (NaN): over HTTP/1.1 their streams may hold every connection. */
window.benchRawWithin = (urls, ms) => Promise.race([rawAll(urls), new Promise((r) => setTimeout(() => r(NaN), ms))]);

// 500 concurrent calls across 5 servers (cap 10 per server) vs the same calls through raw clients.
window.benchConcurrentCalls = async (urls, total, rounds) => {
  const heap = async () => {
    for (let i = 0; i < 3; i++) {
      window.gc?.();
      await new Promise((r) => setTimeout(r, 50));
    }
    return performance.memory?.usedJSHeapSize ?? NaN;
  };
  const hub = new McpHub({ storeName: `bench-conc-${Date.now()}`, eventTarget: null, callConcurrency: 10 });
  await hub.assistants.update('default', { approval: 'auto' });
  const servers = await Promise.all(urls.map((url, i) => hub.servers.add({ name: `c${i}`, url })));
  await Promise.all(servers.map((s) => hub.connect(s.id)));
  const clients = await Promise.all(
    urls.map(async (url) => {
      const c = new Sdk.Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await c.connect(new Sdk.StreamableHTTPClientTransport(new URL(url)));
      await c.listTools();
      return c;
    }),
  );
  const oursRound = async (n) => {
    const t0 = performance.now();
    const records = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        hub.callTool({ serverId: servers[i % servers.length].id, tool: 'echo', arguments: { message: `m${i}` } }),
      ),
    );
    const dt = performance.now() - t0;
    const ended = records.filter((r) => ['success', 'error', 'cancelled', 'interrupted'].includes(r.status));
    return { dt, ended: ended.length, ok: records.filter((r) => r.status === 'success').length };
  };
  // raw clients, every call sent at once (the browser queues what its 6 connections per origin
  // cannot carry), or with the hub's cap of 10 in flight per server
  const rawRound = async (n, cap = Infinity) => {
    const t0 = performance.now();
    const queues = clients.map(() => []);
    for (let i = 0; i < n; i++) queues[i % clients.length].push(i);
    await Promise.all(
      clients.map((c, k) => {
        const next = async () => {
          for (let i = queues[k].shift(); i !== undefined; i = queues[k].shift())
            await c.callTool({ name: 'echo', arguments: { message: `m${i}` } });
        };
        return Promise.all(Array.from({ length: Math.min(cap, queues[k].length) }, next));
      }),
    );
    return performance.now() - t0;
  };
  await oursRound(50);
  await rawRound(50);
  await hub.calls.clear();
  const before = await heap();
  const ours = [],
    raw = [],
    rawCapped = [];
  let lost = 0,
    failed = 0;
  for (let i = 0; i < rounds; i++) {
    const r = await oursRound(total);
    ours.push(r.dt);
    failed += total - r.ok;
    // every call ends in a record, and every record is in the history (historyLimit 1000 ≥ total)
    lost += total - r.ended + Math.max(0, total - hub.calls.list().length);
    raw.push(await rawRound(total));
    rawCapped.push(await rawRound(total, 10));
    await hub.calls.clear();
  }
  const after = await heap();
  for (const c of clients) await c.close();
  await hub.dispose();
  return { ours: median(ours), raw: median(raw), rawCapped: median(rawCapped), lost, failed, before, after };
};
window.benchCalls = async (url, n) => {
  const hub = new McpHub({
    storeName: `bench-calls-${Date.now()}`,
    eventTarget: window,
    ...(window.benchHubOptions ?? {}),
    ...(window.benchHubOptions?.memory ? { storage: new globalThis.McpElements.MemoryStorage() } : {}),
  });
  const s = await hub.servers.add({ name: 'everything', url, transport: 'streamable-http' });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval: 'auto' });
  const client = new Sdk.Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new Sdk.StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  const ours = [],
    raw = [];
  for (let i = 0; i < 10; i++) {
    await client.callTool({ name: 'echo', arguments: { message: 'warm' } });
    await hub.callTool({ name: 'everything__echo', arguments: { message: 'warm' } });
  }
  for (let i = 0; i < n; i++) {
    // alternate which side goes first so neither always follows the other
    const first = i % 2 === 0;
    for (const side of first ? ['raw', 'ours'] : ['ours', 'raw']) {
      const t0 = performance.now();
      if (side === 'raw') await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
      else {
        const r = await hub.callTool({ name: 'everything__echo', arguments: { message: `m${i}` } });
        if (r.status !== 'success') throw new Error(r.error?.message);
      }
      (side === 'raw' ? raw : ours).push(performance.now() - t0);
    }
  }
  await client.close();
  await hub.dispose();
  return { ours: median(ours), raw: median(raw) };
};
// Explorer with many tools over many servers: time to first render, and per-keystroke filter.
window.benchExplorer = async (urls, keystrokes) => {
  const hub = new McpHub({ storage: new globalThis.McpElements.MemoryStorage(), eventTarget: null, broadcast: false });
  const servers = await Promise.all(urls.map((url, i) => hub.servers.add({ name: `Many${i}`, url })));
  await Promise.all(servers.map((s) => hub.connect(s.id, { discovery: 'complete' })));
  const tools = servers.reduce((n, s) => n + hub.catalogue(s.id).tools.length, 0);
  await globalThis.McpElements.loadElements('mcp-tool-explorer');
  const el = document.createElement('mcp-tool-explorer');
  el.hub = hub;
  const t0 = performance.now();
  document.body.append(el);
  await el.updateComplete;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // until painted
  const firstRender = performance.now() - t0;
  const input = el.shadowRoot.querySelector('input[type=search]');
  const query = 'tool 1 delete things';
  const times = [];
  for (let k = 0; k < keystrokes; k++) {
    const text = query.slice(0, (k % query.length) + 1);
    const t = performance.now();
    input.value = text;
    input.dispatchEvent(new Event('input'));
    await el.updateComplete;
    times.push(performance.now() - t);
  }
  el.remove();
  await hub.dispose();
  return { tools, servers: servers.length, firstRender, keystroke: median(times) };
};

// toolsFor with many tools: a call on the memo, and the first call after a list change.
window.benchToolsFor = async (url, calls, changes) => {
  const hub = new McpHub({ storage: new globalThis.McpElements.MemoryStorage(), eventTarget: null, broadcast: false });
  const s = await hub.servers.add({ name: 'Many', url });
  const cat = await hub.connect(s.id, { discovery: 'complete' });
  hub.toolsFor('openai');
  const memo = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    hub.toolsFor('openai');
    memo.push(performance.now() - t);
  }
  const changed = [];
  for (let i = 0; i < changes; i++) {
    await hub.client(s.id).refresh(); // a new catalogue (as after notifications/tools/list_changed)
    const t = performance.now();
    const list = hub.toolsFor('openai');
    changed.push(performance.now() - t);
    if (list.length !== cat.tools.length) throw new Error(`toolsFor gave ${list.length} tools`);
  }
  await hub.dispose();
  return { tools: cat.tools.length, memo: median(memo), changed: median(changed) };
};
window.benchReady = true;
