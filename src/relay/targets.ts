// Where a relay request goes, and whether it may go there. Runtime-neutral.
//
// URL scheme: the upstream URL is written into the relay's path, scheme and host as the first two
// segments, the rest as is:
//   https://relay.example/https/mcp.example.com/mcp?x=1  →  https://mcp.example.com/mcp?x=1
//   https://relay.example/.well-known/oauth-protected-resource/https/mcp.example.com/mcp
//                                                      →  https://mcp.example.com/.well-known/oauth-protected-resource/mcp
// (the second is where an MCP client looks for a resource's metadata when its URL is the first).
// Readable, keeps every path and query byte, and no platform decodes it (a percent-encoded URL in
// one segment is decoded by some gateways).
import { RelayRefusal } from '../edge/refusal.js';

const WELL_KNOWN = ['oauth-protected-resource', 'oauth-authorization-server', 'openid-configuration'] as const;
export type WellKnown = (typeof WELL_KNOWN)[number];

export interface Target {
  url: URL;
  /** Set when the request asked for an OAuth metadata document. */
  wellKnown?: WellKnown;
}

export { relayUrlFor } from '../core/relay-url.js';

/** The upstream a relay path names; RelayRefusal 400/404 when it names none. */
export function parseTarget(pathname: string, search: string, basePath: string): Target {
  let path = pathname;
  let wellKnown: WellKnown | undefined;
  const wk = /^\/\.well-known\/([^/]+)(\/.*)$/.exec(path);
  if (wk && (WELL_KNOWN as readonly string[]).includes(wk[1])) {
    wellKnown = wk[1] as WellKnown;
    path = wk[2];
  }
  if (basePath) {
    if (!path.startsWith(basePath + '/')) throw new RelayRefusal(404, 'not a relay path');
    path = path.slice(basePath.length);
  }
  const m = /^\/(https?)\/([^/?#]+)(\/[^?#]*)?$/.exec(path);
  if (!m) throw new RelayRefusal(404, 'not a relay path: expected /<https|http>/<host>/<path>');
  const [, scheme, host, rest = '/'] = m;
  if (/[@\\]/.test(decodeURIComponentSafe(host)))
    throw new RelayRefusal(400, 'credentials in the target URL are not accepted');
  let url: URL;
  try {
    url = new URL(
      `${scheme}://${host}${wellKnown ? `/.well-known/${wellKnown}${rest === '/' ? '' : rest}` : rest}${search}`,
    );
  } catch {
    throw new RelayRefusal(400, 'the target is not a valid URL');
  }
  if (url.username || url.password) throw new RelayRefusal(400, 'credentials in the target URL are not accepted');
  return { url, wellKnown };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
