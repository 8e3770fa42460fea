// The Content-Security-Policy a view runs under, built from the domains its resource declared
// (SEP-1865: never looser than declared; the spec's restrictive default when nothing is), and the
// view's document with that policy placed before anything of the view can run. Pure string work:
// the sandbox proxy (src/apps/sandbox/proxy.ts) and the opaque fallback (view-frame.ts) share it.
import type { UiCsp, UiPermissions } from '../core/apps/ui-meta.js';
import { cspOrigins } from './resource-meta.js';

/** The spec's policy for a view that declared no `csp`. */
export const DEFAULT_VIEW_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; " +
  "base-uri 'self'; object-src 'none'; form-action 'none'";

/**
 * The policy for a view. Declared origins are re-checked here (a `_meta` that smuggles a keyword,
 * a `*` or a `;` loses that entry, never gains a directive). `frame-src`, `base-uri`,
 * `object-src` and `form-action` are always set.
 */
export function viewCsp(csp: UiCsp | undefined): string {
  if (!csp) return DEFAULT_VIEW_CSP;
  const list = (v: unknown, none: string) => {
    const o = cspOrigins(v);
    return o.length ? o.join(' ') : none;
  };
  const res = cspOrigins(csp.resourceDomains).join(' ');
  const withRes = (base: string) => (res ? `${base} ${res}` : base);
  return [
    "default-src 'none'",
    `script-src ${withRes("'self' 'unsafe-inline'")}`,
    `style-src ${withRes("'self' 'unsafe-inline'")}`,
    `img-src ${withRes("'self' data:")}`,
    `media-src ${withRes("'self' data:")}`,
    ...(res ? [`font-src 'self' data: ${res}`] : []),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A declared source's host name, lowercased, without a trailing dot, its `*.` apart. */
function sourceHost(source: string): { host: string; wildcard: boolean } | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(\*\.)?([^/:]+)/i.exec(source);
  if (!m) return undefined;
  try {
    // the URL parser lowercases and decodes the name as the browser will when it matches it
    const host = new URL(`http://${m[2]}`).hostname.replace(/\.$/, '');
    return { host, wildcard: !!m[1] };
  } catch {
    return undefined;
  }
}

/**
 * The declared frame domains a view may keep: none that could match the sandbox's own name or,
 * with an origin per server, any name under the sandbox's parent domain (another server's
 * sandbox). Compared on parsed, lowercased host names with any scheme and port (`HTTPS://X:443`,
 * `http://x.` and `https://x` all name the proxy's own origin for a browser's CSP matching): a
 * framed page of the proxy's origin has only the sandbox's ceiling, and a same-origin view could
 * script it. `sandboxHost`: the proxy's host name; `perServer`: its first label is the server's.
 */
export function allowedFrameDomains(domains: readonly string[] | undefined, sandboxHost: string, perServer: boolean) {
  const own = sandboxHost.toLowerCase().replace(/\.$/, '');
  // {server} is the whole first label (sandbox-origin.ts): the rest is every server's parent
  const base = perServer && own.includes('.') ? own.slice(own.indexOf('.') + 1) : own;
  const under = (h: string, d: string) => h === d || h.endsWith(`.${d}`);
  return cspOrigins(domains).filter((d) => {
    const s = sourceHost(d);
    return !!s && !under(s.host, base) && !(s.wildcard && under(base, s.host));
  });
}

/** Whether a host name is this machine's (a sandbox served there is a development one). */
const loopbackName = (h: string) =>
  /^(?:127(?:\.\d{1,3}){3}|\[::1\]|(?:[a-z0-9-]+\.)*localhost)$/i.test(h.replace(/\.$/, ''));

/**
 * The ceiling policy of the sandbox page, which every view inherits under its own: https (and
 * wss) sources only, plus `http://127.0.0.1:*` and `http://localhost:*` where the sandbox page is
 * itself served from loopback (development: the demo, the tests). A production sandbox never lets
 * a view reach the user's machine.
 */
export function sandboxCeiling(sandboxHost: string): string {
  const dev = loopbackName(sandboxHost) ? ' http://127.0.0.1:* http://localhost:*' : '';
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' https:${dev}`,
    `style-src 'self' 'unsafe-inline' https:${dev}`,
    `img-src 'self' data: https:${dev}`,
    `media-src 'self' data: https:${dev}`,
    "font-src 'self' data: https:",
    `connect-src https: wss:${dev}`,
    'frame-src https:',
    "object-src 'none'",
    "base-uri 'self' https:",
    "form-action 'none'",
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The view's HTML with `<meta http-equiv="Content-Security-Policy">` as the first thing the parser
 * meets after the doctype: no script or element of the view comes before the policy, and a policy
 * once applied cannot be removed or loosened by the document (a second policy only narrows).
 */
export function viewDocument(html: string, csp: UiCsp | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attr(viewCsp(csp))}">`;
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
  return doctype
    ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}`
    : `<!doctype html>${meta}${html.replace(/^\uFEFF/, '')}`;
}

/** The iframe `allow` attribute for what the view asked (camera, microphone, geolocation, clipboard-write). */
export function allowAttribute(permissions: UiPermissions | undefined): string {
  const map: Record<string, string> = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write',
  };
  // a feature with no allowlist would mean `'src'`, which for srcdoc is the parent's origin:
  // `'none'` for everything not asked, the frame's own origin for what was
  return Object.keys(map)
    .map((k) => `${map[k]} ${permissions?.[k as keyof UiPermissions] ? '*' : "'none'"}`)
    .join('; ');
}

/** The inner frame's sandbox: scripts and forms (form-action 'none' keeps them on the page), nothing else. */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';
/**
 * The inner frame's sandbox when the proxy is on an origin of the view's server alone (a
 * `{server}` template, src/apps/sandbox-origin.ts): same-origin with the proxy, so it has storage.
 */
export const SAME_ORIGIN_VIEW_SANDBOX = 'allow-scripts allow-same-origin allow-forms';
