// Runs in Chromium for bench/heap-hour.mjs: a page with many connected servers whose tool lists
// keep changing. Returns the JS heap (after GC) at the start and every `every` simulated minutes.
import '/dist/cdn/mcp-elements.js';

const { McpHub } = globalThis.McpElements;

async function heap() {
  for (let i = 0; i < 3; i++) {
    window.gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.memory?.usedJSHeapSize ?? NaN;
}

/** One "minute": every server's list changes once, and the hub has re-listed it. */
function minute(hub, servers) {
  return Promise.all(
    servers.map(async (s) => {
      const relisted = new Promise((resolve) => {
        const on = (e) => {
          if (e.detail.serverId !== s.id || e.detail.reason !== 'list-changed') return;
          hub.removeEventListener('mcp-tools-changed', on);
          resolve();
        };
        hub.addEventListener('mcp-tools-changed', on);
      });
      await hub.client(s.id).callTool('storm', { n: 1 });
      await relisted;
    }),
  );
}

window.benchListChanges = async (urls, minutes, every) => {
  const hub = new McpHub({ storeName: `bench-hour-${Date.now()}`, eventTarget: null });
  const servers = [];
  for (const [i, url] of urls.entries()) servers.push(await hub.servers.add({ name: `s${i}`, url }));
  await Promise.all(servers.map((s) => hub.connect(s.id, { discovery: 'complete' })));
  console.log(`${servers.length} servers connected`);
  await minute(hub, servers); // warm-up: every code path has run once
  const samples = [{ minute: 0, bytes: await heap() }];
  const t0 = performance.now();
  for (let m = 1; m <= minutes; m++) {
    await minute(hub, servers);
    if (m % every === 0 || m === minutes) samples.push({ minute: m, bytes: await heap() });
    if (m % 5 === 0) console.log(`minute ${m}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const tools = servers.reduce((n, s) => n + (hub.catalogue(s.id)?.tools.length ?? 0), 0);
  const connected = servers.filter((s) => hub.status(s.id).status === 'connected').length;
  await hub.dispose();
  return { samples, seconds, tools, connected, servers: servers.length };
};
window.benchReady = true;
