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
import { addressProblem, hostNameProblem, parseIPv4, parseIPv6 } from './addresses.js';

/** Why a request was refused: an HTTP status and a message that names no secret. */
export class RelayRefusal extends Error {
  override name = 'RelayRefusal';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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

/** Which upstreams a relay serves. */
export interface TargetPolicy {
  /**
   * Origins the relay forwards to: exact (`https://mcp.example.com`), a subdomain pattern
   * (`https://*.example.com`) or any port (`http://127.0.0.1:*`). Trusted by the operator, so
   * they may be private. Default: none.
   */
  allow?: readonly string[];
  /**
   * Also forward to any public https origin not in `allow`: private, loopback, link-local, CGNAT,
   * metadata and reserved addresses are refused, literal or after DNS resolution. Default false.
   */
  open?: boolean;
  /** Ports open mode accepts. Default [443]. */
  openPorts?: readonly number[];
}

interface OriginPattern {
  scheme: string;
  host: string;
  wildcardHost: boolean;
  port: string | '*';
}

/** Parse the allowlist once; a malformed entry throws (the operator's mistake, found at start). */
export function compileAllow(allow: readonly string[] = []): OriginPattern[] {
  return allow.map((entry) => {
    const m = /^(https?):\/\/(\*\.)?([^/:*]+|\[[0-9a-fA-F:.]+\])(?::(\d+|\*))?\/?$/.exec(entry.trim());
    if (!m)
      throw new TypeError(
        `relay allow entry "${entry}" is not an origin or pattern (https://host[:port], https://*.host, http://host:*)`,
      );
    const [, scheme, star, host, port] = m;
    const defaultPort = scheme === 'https' ? '443' : '80';
    return {
      scheme,
      host: new URL(`${scheme}://${host}`).hostname,
      wildcardHost: !!star,
      port: port ?? defaultPort,
    };
  });
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function allowed(url: URL, patterns: OriginPattern[]): boolean {
  const scheme = url.protocol.slice(0, -1);
  const host = url.hostname;
  return patterns.some(
    (p) =>
      p.scheme === scheme &&
      (p.port === '*' || p.port === portOf(url)) &&
      (p.wildcardHost ? host.endsWith('.' + p.host) : host === p.host),
  );
}

/** A literal IP host as the address checker wants it, or null for a name. */
export function literalAddress(hostname: string): string | null {
  if (parseIPv4(hostname) !== null) return hostname;
  const inner = hostname.replace(/^\[|\]$/g, '');
  return hostname.startsWith('[') && parseIPv6(inner) ? inner : null;
}

/**
 * Check a target (also every redirect's). Returns whether its addresses still need checking after
 * DNS resolution (open mode, host name); throws RelayRefusal 403 when refused.
 */
export function checkTarget(url: URL, patterns: OriginPattern[], policy: TargetPolicy): { resolve: boolean } {
  if (url.username || url.password) throw new RelayRefusal(400, 'credentials in the target URL are not accepted');
  if (allowed(url, patterns)) return { resolve: false };
  if (!policy.open) throw new RelayRefusal(403, `target ${url.origin} is not in this relay's allowlist`);
  if (url.protocol !== 'https:')
    throw new RelayRefusal(403, `target ${url.origin} refused: open mode forwards to https only`);
  const ports = policy.openPorts ?? [443];
  if (!ports.includes(Number(portOf(url))))
    throw new RelayRefusal(403, `target ${url.origin} refused: port ${portOf(url)} is not open (${ports.join(', ')})`);
  const literal = literalAddress(url.hostname);
  if (literal) {
    const problem = addressProblem(literal);
    if (problem) throw new RelayRefusal(403, `target ${url.origin} refused: ${problem}`);
    return { resolve: false };
  }
  const nameProblem = hostNameProblem(url.hostname);
  if (nameProblem) throw new RelayRefusal(403, `target ${url.origin} refused: ${nameProblem}`);
  return { resolve: true };
}

/**
 * Check every address a name resolved to; returns the one to connect to (pinned). The refusal
 * says neither the address nor its kind, and is the same when the name does not resolve: behind
 * split-horizon DNS, "resolves to a loopback address" (or 403 vs 502) would tell a client which
 * internal names exist and where they point.
 */
export function checkResolved(url: URL, addresses: readonly string[]): string {
  if (addresses.length === 0 || addresses.some((a) => addressProblem(a) !== null))
    throw new RelayRefusal(403, `target ${url.origin} refused: it does not resolve to public addresses only`);
  return addresses[0];
}
