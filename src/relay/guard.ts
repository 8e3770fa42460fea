// The SSRF rules as a reusable gate: the relay admits its targets through it, and the backend hub
// (mcp-chat-elements/server) reaches the MCP servers a request names through `guardedFetch()`.
import { isRequestSignal } from '../core/request-signal.js';
import { checkResolved, checkTarget, compileAllow, RelayRefusal, type TargetPolicy } from './targets.js';

/**
 * How an upstream is reached. `address`, when set, is the checked IP the connection must use
 * (pinned: no second DNS lookup). The platform's `fetch` (on Workers, a public-only fetch) cannot
 * pin: on Node pass `nodeUpstreamFetch()` of `mcp-chat-elements/relay/node`.
 */
export type UpstreamFetch = (url: string, init: RequestInit & { address?: string }) => Promise<Response>;

/** The target rules and how names are resolved. */
export interface GuardOptions extends TargetPolicy {
  /** DNS resolution for open mode (all addresses of a name); each is checked and the first pinned. */
  resolve?: (hostname: string) => Promise<readonly string[]>;
  /** How upstreams are reached. Default `globalThis.fetch` (no pinning). */
  fetch?: UpstreamFetch;
  /** Redirects followed (each re-checked). Default 3. */
  maxRedirects?: number;
  /**
   * The `fetch` in use refuses private, loopback and link-local addresses itself, so open mode
   * may skip `resolve`. Default: true on Cloudflare Workers when no `fetch` is given (deployed,
   * its fetch reaches public addresses only; `wrangler dev`/Miniflare's does not), else false.
   */
  publicOnlyFetch?: boolean;
}

/** Cloudflare Workers says so in `navigator.userAgent` (workerd). */
const onWorkers = () =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

/**
 * Open mode checks the addresses a name resolves to; without a resolver (and a fetch that refuses
 * private addresses itself) a public name pointed at 127.0.0.1 or 169.254.169.254 would pass.
 * Refused when the guard is made: the operator's mistake, found at start (as a bad allow entry).
 */
function checkOpenMode(options: GuardOptions): void {
  // a fetch of the host's own (a service binding, a VPC route) is not the platform's public one
  if (!options.open || options.resolve || (options.publicOnlyFetch ?? (!options.fetch && onWorkers()))) return;
  throw new TypeError(
    'open mode needs `resolve` to check the addresses a name resolves to: on Node use createNodeRelay(), or pass ' +
      '`resolve: systemResolve, fetch: nodeUpstreamFetch()` from mcp-chat-elements/relay/node; on a platform whose ' +
      'fetch reaches public addresses only, say so with `publicOnlyFetch: true` (automatic on Cloudflare Workers)',
  );
}

export interface Guard {
  /** Check a target; resolve and check its addresses when open mode asks. Returns the address to pin. */
  admit(url: URL): Promise<string | undefined>;
  /** Send a request, following redirects by hand, each one admitted as the first target was. */
  send(url: URL, init: RequestInit): Promise<{ response: Response; url: URL }>;
}

/** Resolve a name and check every address it has; the first is the one to pin. */
async function lookUp(url: URL, resolve: NonNullable<GuardOptions['resolve']>): Promise<string> {
  let addresses: readonly string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    throw new RelayRefusal(502, `target ${url.hostname} does not resolve`);
  }
  return checkResolved(url, addresses);
}

export function createGuard(options: GuardOptions): Guard {
  const patterns = compileAllow(options.allow);
  checkOpenMode(options);
  const maxRedirects = options.maxRedirects ?? 3;
  // the platform's fetch takes the init as it is (no pinning: `address` is never set for it)
  const upstreamFetch: UpstreamFetch = options.fetch ?? ((url, init) => fetch(url, init));

  /** Check a target now; a lookup (open mode, a name) is the only part that waits. */
  function check(url: URL): Promise<string> | undefined {
    const { resolve } = checkTarget(url, patterns, options);
    return resolve && options.resolve ? lookUp(url, options.resolve) : undefined;
  }

  async function admit(url: URL): Promise<string | undefined> {
    return check(url);
  }

  async function send(first: URL, init: RequestInit): Promise<{ response: Response; url: URL }> {
    let url = first;
    let method = init.method ?? 'GET';
    let body = init.body;
    // copied only when a redirect changes them (the first hop sends the caller's as they are)
    let headers = init.headers;
    let own: Headers | undefined;
    const changed = () => (own ??= headers = new Headers(headers));
    for (let hop = 0; ; hop++) {
      // an allowlisted or literal target needs no lookup: checked here, no turn of the event loop
      const lookup = check(url);
      const address = lookup && (await lookup);
      const response = await upstreamFetch(url.href, {
        ...init,
        method,
        headers,
        body,
        redirect: 'manual',
        ...(address ? { address } : {}),
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || response.status === 304 || !location)
        return { response, url };
      void response.body?.cancel().catch(() => {});
      if (hop >= maxRedirects) throw new RelayRefusal(502, `upstream redirected more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new RelayRefusal(502, 'upstream redirected to an invalid URL');
      }
      if (next.origin !== url.origin) changed().delete('authorization'); // a token never follows to another origin
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        changed().delete('content-type');
      }
      url = next;
    }
  }
  return { admit, send };
}

/**
 * A `fetch` that applies the relay's SSRF rules to every request and redirect: refused targets
 * reject with RelayRefusal (nothing is sent). Give it to a hub as `fetch`.
 */
export function guardedFetch(options: GuardOptions | Guard): typeof fetch {
  const guard = 'send' in options ? options : createGuard(options);
  return async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = input instanceof Request ? input : null;
    // the SDK passes its endpoint as a URL: read in place (the guard never changes it)
    const url = request ? new URL(request.url) : input instanceof URL ? input : new URL(String(input));
    const merged: RequestInit = request
      ? {
          method: request.method,
          headers: request.headers,
          body: request.body ? await request.arrayBuffer() : undefined,
          signal: request.signal,
          ...init,
        }
      : { ...init };
    // a signal of its own per request, following the caller's: Node's fetch (undici) adds an
    // abort listener to the signal it is given and drops it only once the request is garbage
    // collected, and the SDK gives every request of a session one long-lived signal; on a busy
    // session listeners piled up (MaxListenersExceededWarning on stderr at every call past 1500,
    // and a listener scan per request: bench/backend.mjs). AbortSignal.any adds no listener. A
    // hub's session already gives each POST a signal of its own (core/request-signal.ts).
    if (merged.signal && !isRequestSignal(merged.signal)) merged.signal = AbortSignal.any([merged.signal]);
    return (await guard.send(url, merged)).response;
  };
}
