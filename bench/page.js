// Runs in Chromium: measurements the bench asks for, interleaved so both sides see the same
// machine state. Returns raw samples in milliseconds.
import * as Sdk from '/bench/.build/sdk-bare.js';
import '/dist/cdn/mcp-elements.js';

const { McpHub } = globalThis.McpElements;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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

window.benchConnect = async (url, rounds) => {
  const hub = new McpHub({ storeName: `bench-${Date.now()}`, eventTarget: null });
  const s = await hub.servers.add({ name: 'everything', url, transport: 'streamable-http' });
  const mem = new McpHub({ storage: new globalThis.McpElements.MemoryStorage(), eventTarget: null, broadcast: false });
  const sm = await mem.servers.add({ name: 'everything', url, transport: 'streamable-http' });
  const ours = [],
    raw = [],
    rawFull = [],
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
    await mem.connect(sm.id);
    oursMem.push(performance.now() - t0);
    await mem.disconnect(sm.id);
  }
  await hub.dispose();
  await mem.dispose();
  return { ours: median(ours), raw: median(raw), rawFull: median(rawFull), oursMem: median(oursMem) };
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
// Explorer with 2,000 tools: time to first render, and per-keystroke filter time.
window.benchExplorer = async (url, keystrokes) => {
  const hub = new McpHub({ storeName: `bench-explorer-${Date.now()}`, eventTarget: null });
  const s = await hub.servers.add({ name: 'Many', url });
  const cat = await hub.connect(s.id);
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
  return { tools: cat.tools.length, firstRender, keystroke: median(times) };
};
window.benchReady = true;
