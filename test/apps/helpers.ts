// Shared by the MCP Apps tests: the apps peers' URLs (test/fixtures/apps-server.mjs), a tenant
// of our app fixture with what its views reported, and the two ways a view is shown.
import { fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { McpHub, ToolCallRecord } from '../../src/core/index.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import { nextEvent, unique, until, urls as baseUrls } from '../helpers.js';

export const urls = baseUrls as typeof baseUrls & {
  appsFixture: string;
  appsDebug: string;
  appsVanilla: string;
  appsSandbox: string;
  appsSandboxPerServer: string;
};

type Report = { key: string; value: unknown };

/** Our fixture server for one test: its URL and what its views reported. */
export function appsTenant() {
  const t = unique('apps');
  const base = `${urls.appsFixture}/t/${t}`;
  const reports = () => fetch(`${base}/reports`).then((r) => r.json() as Promise<Report[]>);
  return {
    url: `${base}/mcp`,
    reports,
    seen: () => fetch(`${base}/seen`).then((r) => r.json()),
    /** The value of the first report `key`, once there is one. */
    report: (key: string, attempts = 150) =>
      until(async () => (await reports()).find((r) => r.key === key) ?? undefined, `report ${key}`, attempts).then(
        (r) => r.value as Record<string, unknown>,
      ),
  };
}

/** A fresh tenant of our app fixture added to `hub` and connected. */
export async function connectApps(hub: McpHub, name = 'Apps') {
  const t = appsTenant();
  const s = await hub.servers.add({ name, url: t.url });
  await hub.connect(s.id);
  return { t, s };
}

/** Approve every call a view makes, "always for this view" (what a user clicking through does). */
export function approveAppCalls(hub: McpHub) {
  const on = (e: Event) => {
    const call = (e as CustomEvent<{ call: ToolCallRecord }>).detail.call;
    if (call.source === 'app') hub.calls.approve(call.id, { always: true });
  };
  hub.addEventListener('mcp-tool-call-awaiting-approval', on);
  return () => hub.removeEventListener('mcp-tool-call-awaiting-approval', on);
}

export const MODES = [
  { name: 'sandbox origin', sandbox: () => urls.appsSandbox as string | undefined, perServer: false },
  // the same page as a template, http://{server}.localhost:PORT/: each server's views on an origin
  // of their own, same-origin with their proxy (src/apps/sandbox-origin.ts)
  {
    name: 'sandbox origin per server',
    sandbox: () => urls.appsSandboxPerServer as string | undefined,
    perServer: true,
  },
  { name: 'opaque fallback', sandbox: () => undefined as string | undefined, perServer: false },
] as const;

/** A call of `tool` with the probe's actions, shown in an <mcp-app-view>, once its view initialized. */
export async function showCall(hub: McpHub, serverId: string, tool: string, args: Record<string, unknown>) {
  const record = await hub.callTool({ serverId, tool, source: 'user', arguments: args });
  const initialized = nextEvent<McpAppInitializedEvent>(
    window,
    'mcp-app-initialized',
    (e) => e.detail.callId === record.id,
  );
  const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`);
  await initialized;
  return { record, view };
}

/**
 * Real clicks (user activation) near the top left corner of `frame`, into whatever it shows there,
 * until `reached` settles: a frame just added may not take input yet (Chromium sent such a click
 * to the embedding page until the frame had been composited), so one click is not enough.
 */
export async function clickInto(frame: HTMLIFrameElement, reached: Promise<unknown>, what: string) {
  let done = false;
  void reached.then(() => (done = true));
  for (let i = 0; i < 30 && !done; i++) {
    frame.scrollIntoView({ block: 'center' });
    const r = frame.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(r.x + 20), Math.round(r.y + 20)] });
    await Promise.race([reached, new Promise((w) => setTimeout(w, 300))]);
  }
  if (!done) throw new Error(`no click reached ${what}`);
}

/**
 * The sandbox page at `page` in a frame of this page's own DOM, hosted by the test itself as the
 * element would (`?host=` this page): once its proxy is ready, it is handed a view with `params`
 * (sandbox-resource-ready). `seen`: everything it sent this page.
 */
export async function hostSandbox(page: string, params: Record<string, unknown>) {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.setAttribute('referrerpolicy', 'origin');
  frame.style.cssText = 'width:10px;height:10px;border:0';
  const url = new URL(page);
  url.searchParams.set('host', location.origin);
  const seen: Record<string, unknown>[] = [];
  const on = (e: MessageEvent) => {
    if (e.source === frame.contentWindow) seen.push(e.data as Record<string, unknown>);
  };
  window.addEventListener('message', on);
  frame.src = url.href;
  document.body.append(frame);
  await until(async () => seen.some((d) => d?.method === 'ui/notifications/sandbox-proxy-ready'), 'the proxy');
  frame.contentWindow!.postMessage(
    { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params },
    url.origin,
  );
  return {
    seen,
    remove: () => {
      window.removeEventListener('message', on);
      frame.remove();
    },
  };
}
