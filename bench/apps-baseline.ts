// The baseline for the MCP Apps bench row (bench/apps.mjs): a host built the way the ext-apps
// example host (examples/basic-host in modelcontextprotocol/ext-apps, not published to npm) is
// built — the official AppBridge with the MCP client handed to it, PostMessageTransport to the
// sandbox proxy frame, the tool call and the UI resource read started together, the proxy frame
// loaded, `sendSandboxResourceReady`, then `initialized` → input → result. Its sandbox proxy is
// bench/apps-baseline-sandbox.html on a second origin. Written here (the example is a React app
// with no package); what it measures is the ext-apps SDK doing the work, not our code.
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const INFO = { name: 'ext-apps example host (bench baseline)', version: '1.0.0' };
const MIME = 'text/html;profile=mcp-app';

interface Sample {
  /** call sent → view initialized (ms) */
  fromCall: number;
  /** tool result arrived → view initialized (ms) */
  fromResult: number;
  /** ms after the call (APPS_BENCH_PHASES): proxy ready, the view's ui/initialize, result, initialized */
  phases: Record<string, number | undefined>;
}

declare global {
  interface Window {
    benchExampleHost: (url: string, sandboxUrl: string, tool: string, rounds: number) => Promise<Sample[]>;
  }
}

async function showOne(client: Client, tools: Map<string, unknown>, sandboxUrl: string, name: string) {
  const phases: Record<string, number | undefined> = {};
  const onMessage = (e: MessageEvent) => {
    const m = (e.data as { method?: unknown } | null)?.method;
    if (m === 'ui/notifications/sandbox-proxy-ready') phases.proxyReady ??= performance.now() - t0;
    if (m === 'ui/initialize') phases.initialize ??= performance.now() - t0;
  };
  window.addEventListener('message', onMessage, true);
  const t0 = performance.now();
  let tResult = NaN;
  const result = client.callTool({ name, arguments: {} }).then((r) => {
    tResult = performance.now();
    return r;
  });
  const tool = tools.get(name) as Parameters<typeof getToolUiResourceUri>[0];
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${name} has no view`);
  const resource = client.readResource({ uri }).then((r) => {
    const c = r.contents[0] as { mimeType?: string; text?: string; _meta?: { ui?: { csp?: object } } };
    if (c?.mimeType !== MIME || typeof c.text !== 'string') throw new Error('not an MCP App resource');
    return { html: c.text, csp: c._meta?.ui?.csp };
  });
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.style.cssText = 'width: 600px; height: 400px; border: 0';
  const caps = client.getServerCapabilities();
  const bridge = new AppBridge(client as never, INFO, {
    openLinks: {},
    serverTools: caps?.tools,
    serverResources: caps?.resources,
  });
  const initialized = new Promise<number>((resolve) => {
    bridge.oninitialized = () => resolve(performance.now());
  });
  const proxyReady = new Promise<void>((resolve) => {
    bridge.onsandboxready = () => resolve();
  });
  document.body.append(frame);
  frame.src = sandboxUrl;
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await proxyReady;
  const { html, csp } = await resource;
  await bridge.sendSandboxResourceReady({ html, ...(csp ? { csp } : {}) });
  const tInit = await initialized;
  window.removeEventListener('message', onMessage, true);
  await bridge.sendToolInput({ arguments: {} });
  await bridge.sendToolResult((await result) as never);
  const sample = {
    fromCall: tInit - t0,
    fromResult: tInit - tResult,
    phases: { ...phases, result: tResult - t0, init: tInit - t0 },
  };
  await Promise.race([bridge.teardownResource({}).catch(() => {}), new Promise((r) => setTimeout(r, 1000))]);
  await bridge.close();
  frame.remove();
  return sample;
}

window.benchExampleHost = async (url, sandboxUrl, tool, rounds) => {
  const client = new Client(INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t as unknown]));
  const samples: Sample[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await showOne(client, tools, sandboxUrl, tool));
  await client.close();
  return samples;
};
