// Runs in Chromium for bench/apps.mjs: our side of the MCP Apps row. A host page with the CDN
// build: a private hub with the sandbox page on a second origin, the call started as "Try it"
// does (source 'user': no approval step to wait on) and shown at once in <mcp-tool-call call-id>,
// which shows <mcp-app-view> under it. The view's `mcp-app-initialized` event ends a sample.
import '/dist/cdn/mcp-elements.js';

const { McpHub } = globalThis.McpElements;

// long tasks of this page (APPS_BENCH_PHASES): a host page busy while its view starts
const longTasks = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });

/** A private hub with the sandbox page, connected to server-debug at `url`. */
async function connectedHub(url, sandboxUrl) {
  const hub = new McpHub({ storeName: `bench-apps-${Date.now()}`, eventTarget: null, sandboxUrl });
  await hub.ready;
  const server = await hub.servers.add({ name: 'debug', url, transport: 'streamable-http' });
  await hub.connect(server.id);
  return { hub, server };
}

window.benchOurHost = async (url, sandboxUrl, tool, rounds) => {
  const { hub, server } = await connectedHub(url, sandboxUrl);
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    let card;
    const initialized = new Promise((resolve) =>
      document.addEventListener('mcp-app-initialized', () => resolve(performance.now()), { once: true }),
    );
    // phases (APPS_BENCH_PHASES=1 prints their medians): when the proxy frame's navigation
    // started, when the proxy said ready, when the view sent ui/initialize
    const phases = {};
    const onMessage = (e) => {
      const m = e.data?.method;
      if (m === 'ui/notifications/sandbox-proxy-ready') phases.proxyReady ??= performance.now() - t0;
      if (m === 'ui/initialize') phases.initialize ??= performance.now() - t0;
    };
    window.addEventListener('message', onMessage, true);
    const t0 = performance.now();
    const record = await hub.callTool({
      source: 'user',
      serverId: server.id,
      tool,
      arguments: {},
      onCall: (r) => {
        card = document.createElement('mcp-tool-call');
        card.hub = hub;
        card.setAttribute('call-id', r.id);
        document.body.append(card);
      },
    });
    const tResult = performance.now();
    if (record.status !== 'success') throw new Error(`the call ended ${record.status}`);
    const tInit = await initialized;
    window.removeEventListener('message', onMessage, true);
    const frame = performance
      .getEntriesByType('resource')
      .find((r) => r.initiatorType === 'iframe' && r.startTime >= t0 && r.name.includes('host='));
    samples.push({
      fromCall: tInit - t0,
      fromResult: tInit - tResult,
      phases: {
        ...phases,
        frame: frame ? frame.startTime - t0 : undefined,
        result: tResult - t0,
        init: tInit - t0,
        busy: longTasks.filter((l) => l.startTime >= t0 && l.startTime < tInit).reduce((n, l) => n + l.duration, 0),
      },
    });
    // as a chat does when the card goes: the view is told first (ui/resource-teardown)
    const view = card.shadowRoot.querySelector('mcp-app-view');
    await view?.close();
    card.remove();
  }
  await hub.dispose();
  return samples;
};
window.benchReady = true;

// APPS_BENCH_APPROVAL (bench/apps.mjs): a model's call of the view tool on a fresh page, allowed
// after `thinkMs` (a person reading the approval). `cardWhileWaiting`: the card is on the page
// while the call waits (it readies the view meanwhile: chunks, resource, proxy frame), else it is
// added when the call is allowed (nothing readied). One sample: allowed → `mcp-app-initialized`.
window.benchApproval = async (url, sandboxUrl, tool, thinkMs, cardWhileWaiting) => {
  const { hub, server } = await connectedHub(url, sandboxUrl);
  await hub.assistants.update('bench', { approval: 'always-ask', servers: { [server.id]: {} } });
  const waiting = new Promise((resolve) =>
    hub.addEventListener('mcp-tool-call-awaiting-approval', (e) => resolve(e.detail.call.id), { once: true }),
  );
  const done = hub.callTool({ assistantId: 'bench', serverId: server.id, tool, arguments: {} });
  const id = await waiting;
  const card = document.createElement('mcp-tool-call');
  card.hub = hub;
  card.setAttribute('call-id', id);
  if (cardWhileWaiting) document.body.append(card);
  await new Promise((r) => setTimeout(r, thinkMs));
  const initialized = new Promise((resolve) =>
    document.addEventListener('mcp-app-initialized', () => resolve(performance.now()), { once: true }),
  );
  const t0 = performance.now();
  hub.calls.approve(id);
  if (!cardWhileWaiting) document.body.append(card);
  const tInit = await initialized;
  const record = await done;
  if (record.status !== 'success') throw new Error(`the call ended ${record.status}`);
  return tInit - t0;
};
