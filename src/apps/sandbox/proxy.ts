// The MCP Apps sandbox proxy (SEP-1865 "Sandbox proxy"): served on a second origin the host owns
// (dist/sandbox/), framed by the host page, it frames the view and relays JSON-RPC both ways.
// - It refuses to run as a top-level page, and talks only to the host origin it was given in
//   `?host=` that the browser confirms (ancestorOrigins / referrer, where the browser has them).
// - Every message is checked: from the parent only with the host's origin, from the view only
//   from its own frame; `ui/notifications/sandbox-*` never crosses (they are the proxy's own).
// - The view runs in a srcdoc frame without `allow-same-origin` (an opaque origin: no storage, no
//   reach into this page or another view's), under the policy built from its declared domains
//   (src/apps/csp.ts), inside this page's own ceiling policy (csp.ts sandboxCeiling, set first
//   thing below: loopback sources only on a loopback sandbox), which it inherits.
// - Served on an origin of one server alone (a `{server}` sandbox template: the host then asks for
//   SAME_ORIGIN_VIEW_SANDBOX), the view is same-origin with this page and can reach it: this page
//   takes the view's policy first (a <meta> before the view's frame exists), so a view that
//   rewrites this page or its own frame still runs under what it declared.
import {
  allowAttribute,
  allowedFrameDomains,
  sandboxCeiling,
  viewCsp,
  viewDocument,
  SAME_ORIGIN_VIEW_SANDBOX,
  VIEW_SANDBOX,
} from '../csp.js';
import { uiResourceMeta } from '../resource-meta.js';

// the ceiling first, before anything else of this page runs or any view exists (csp.ts)
const ceiling = document.createElement('meta');
ceiling.httpEquiv = 'Content-Security-Policy';
ceiling.content = sandboxCeiling(location.hostname);
document.head.prepend(ceiling);

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
const PRIVATE = 'ui/notifications/sandbox-';

function refuse(why: string): never {
  document.body.textContent = `MCP App sandbox: ${why}`;
  throw new Error(`mcp-elements sandbox: ${why}`);
}

/** The host origin: `?host=`, confirmed by what the browser says about the embedding page. */
function hostOrigin(): string {
  if (window.top === window) refuse('this page only runs inside an MCP Apps host page.');
  const given = new URLSearchParams(location.search).get('host') ?? '';
  let origin: string;
  try {
    origin = new URL(given).origin;
  } catch {
    refuse('no host origin given (?host=).');
  }
  if (origin !== given.replace(/\/$/, '')) refuse('the host must be given as an origin.');
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length && ancestors[0] !== origin) refuse('the embedding page is not the given host.');
  if (document.referrer && new URL(document.referrer).origin !== origin)
    refuse('the embedding page is not the given host.');
  if (origin === location.origin) refuse('the host and the sandbox must have different origins.');
  return origin;
}

const host = hostOrigin();
let inner: HTMLIFrameElement | undefined;
/** The origin the view's messages carry: "null" (opaque), or this page's in the same-origin mode. */
let viewOrigin = 'null';

const isMessage = (d: unknown): d is { method?: unknown } => !!d && typeof d === 'object';
const privateMethod = (d: unknown) => isMessage(d) && typeof d.method === 'string' && d.method.startsWith(PRIVATE);

window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== host) return console.warn('mcp-elements sandbox: refused a message from', event.origin);
    const data: unknown = event.data;
    if (isMessage(data) && data.method === RESOURCE_READY) return load((data as { params?: unknown }).params);
    if (privateMethod(data)) return;
    inner?.contentWindow?.postMessage(data, '*');
    return;
  }
  if (inner && event.source === inner.contentWindow) {
    // an opaque-origin frame's messages say "null"; a same-origin one's, this page's origin
    if (event.origin !== viewOrigin) return;
    if (privateMethod(event.data)) return;
    window.parent.postMessage(event.data, host);
  }
  // anything else (another frame, another view) is ignored
});

/** Frame the view once; a second resource for the same proxy is ignored. */
function load(params: unknown) {
  if (inner) return;
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  if (typeof p.html !== 'string') return;
  const meta = uiResourceMeta({ ui: { csp: p.csp, permissions: p.permissions } });
  const sameOrigin = p.sandbox === SAME_ORIGIN_VIEW_SANDBOX;
  // the one policy the view gets, here and in its own document: a declared frame domain that
  // names this sandbox (or, with an origin per server, another server's) is dropped
  const declared = p.csp === undefined ? undefined : (meta.csp ?? {});
  const csp = declared && {
    ...declared,
    frameDomains: allowedFrameDomains(declared.frameDomains, location.hostname, sameOrigin),
  };
  if (sameOrigin) {
    // this page takes the view's policy before the view exists: a srcdoc frame inherits it, and a
    // document cannot drop a policy once applied
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = viewCsp(csp);
    document.head.prepend(policy);
    viewOrigin = location.origin;
  }
  inner = document.createElement('iframe');
  // never a looser `sandbox` than ours: the host may only ask for same-origin (its {server} mode)
  inner.setAttribute('sandbox', sameOrigin ? SAME_ORIGIN_VIEW_SANDBOX : VIEW_SANDBOX);
  inner.setAttribute('allow', allowAttribute(meta.permissions));
  inner.setAttribute('referrerpolicy', 'no-referrer');
  inner.title = 'MCP App';
  const view = viewDocument(p.html, csp);
  if (!sameOrigin) inner.srcdoc = view;
  document.body.append(inner);
  if (sameOrigin) {
    // as the ext-apps example host does: written into the frame's first document (same origin,
    // with this page's policy, which it inherited on creation), no navigation to wait for
    const doc = inner.contentDocument!;
    doc.open();
    doc.write(view);
    doc.close();
  }
}

window.parent.postMessage({ jsonrpc: '2.0', method: PROXY_READY, params: {} }, host);
