// Where an edge handler may send a request: the SSRF rules (an operator's allowlist, or open mode:
// public https origins only, literal or resolved addresses checked). The relay admits its targets
// through them (guard.ts), and so does the backend hub for the servers a chat request names.
// Runtime-neutral.
import { addressProblem, hostNameProblem, parseIPv4, parseIPv6 } from './addresses.js';
import { RelayRefusal } from './refusal.js';

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
