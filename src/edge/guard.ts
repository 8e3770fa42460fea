// The SSRF rules as a reusable gate: the relay admits its targets through it, and the backend hub
// (mcp-chat-elements/server) reaches the MCP servers a request names through `guardedFetch()`.
// Runtime-neutral.
import { RelayRefusal } from './refusal.js';
import { checkResolved, checkTarget, compileAllow, type TargetPolicy } from './targets.js';
import { onWorkers } from './runtime.js';

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

/**
 * Open mode checks the addresses a name resolves to; without a resolver (and a fetch that refuses
 * private addresses itself) a public name pointed at 127.0.0.1 or 169.254.169.254 would pass. A
 * resolver without a fetch that connects to the checked address is no better: the platform's
 * fetch looks the name up again, and a rebinding DNS answers it with 127.0.0.1 the second time.
 * Refused when the guard is made: the operator's mistake, found at start (as a bad allow entry).
 */
function checkOpenMode(options: GuardOptions): void {
  // a fetch of the host's own (a service binding, a VPC route) is not the platform's public one
  if (!options.open || (options.publicOnlyFetch ?? (!options.fetch && onWorkers()))) return;
  const node =
    'on Node use createNodeRelay(), or pass `resolve: systemResolve, fetch: nodeUpstreamFetch()` from mcp-chat-elements/relay/node';
  const platform =
    'on a platform whose fetch reaches public addresses only, say so with `publicOnlyFetch: true` (automatic on Cloudflare Workers)';
  if (!options.resolve)
    throw new TypeError(`open mode needs \`resolve\` to check the addresses a name resolves to: ${node}; ${platform}`);
  if (!options.fetch)
    throw new TypeError(
      `open mode with \`resolve\` needs a \`fetch\` that connects to the checked address (the platform's fetch resolves the name again: DNS rebinding): ${node}; ${platform}`,
    );
}

/** How `Guard.send` treats redirects beyond what `init.redirect` says. */
export interface SendOptions {
  /**
   * Follow a redirect to another origin (default true: the relay's client sees where it landed).
   * Only headers in CROSS_ORIGIN_SAFE go along. When false, such a redirect is refused (502).
   */
  crossOrigin?: boolean;
}

export interface Guard {
  /** Check a target; resolve and check its addresses when open mode asks. Returns the address to pin. */
  admit(url: URL): Promise<string | undefined>;
  /**
   * Send a request, following redirects by hand, each one admitted as the first target was.
   * `init.redirect: 'manual'` returns the first 3xx as it is; `'error'` refuses it (502).
   */
  send(url: URL, init: RequestInit, options?: SendOptions): Promise<{ response: Response; url: URL }>;
}

/**
 * The request headers that follow a redirect to another origin: what says how to read the
 * answer. Everything else is dropped there: credentials (`Authorization`, `DPoP`, an API key, a
 * cookie), the first server's session (`Mcp-Session-Id`) and `Mcp-Param-*` (tool arguments).
 */
const CROSS_ORIGIN_SAFE = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'user-agent',
]);

function safeForAnotherOrigin(headers: HeadersInit | undefined): Headers {
  const out = new Headers();
  new Headers(headers).forEach((value, name) => {
    if (CROSS_ORIGIN_SAFE.has(name)) out.set(name, value);
  });
  return out;
}

/** Resolve a name and check every address it has; the first is the one to pin. */
async function lookUp(url: URL, resolve: NonNullable<GuardOptions['resolve']>): Promise<string> {
  let addresses: readonly string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    addresses = [];
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

  async function send(
    first: URL,
    init: RequestInit,
    { crossOrigin = true }: SendOptions = {},
  ): Promise<{ response: Response; url: URL }> {
    let url = first;
    let method = init.method ?? 'GET';
    let body = init.body;
    // copied only when a redirect changes them (the first hop sends the caller's as they are)
    let headers = init.headers;
    let own: Headers | undefined;
    const changed = () => (own ??= headers = new Headers(headers));
    let bodyElsewhere = false;
    for (let hop = 0; ; hop++) {
      // an allowlisted or literal target needs no lookup: checked here, no turn of the event loop
      const lookup = check(url);
      const address = lookup && (await lookup);
      if (bodyElsewhere)
        throw new RelayRefusal(
          502,
          `upstream redirected a request with a body to another origin (${url.origin}); not followed: the body may hold credentials`,
        );
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
      // the caller follows (or refuses) redirects itself: the 3xx is its answer
      if (init.redirect === 'manual') return { response, url };
      void response.body?.cancel().catch(() => {});
      if (init.redirect === 'error')
        throw new RelayRefusal(502, 'upstream redirected; this request follows no redirect');
      if (hop >= maxRedirects) throw new RelayRefusal(502, `upstream redirected more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new RelayRefusal(502, 'upstream redirected to an invalid URL');
      }
      if (next.origin !== url.origin) {
        if (!crossOrigin)
          throw new RelayRefusal(
            502,
            `upstream redirected to another origin (${next.origin}); not followed: the request carries this server's credentials`,
          );
        // a 307/308 resends the body (an OAuth token request's secrets, a call's arguments):
        // refused once the target itself has been checked (a refused target says so first)
        bodyElsewhere = body != null && !dropsBody(response.status, method);
        own = headers = safeForAnotherOrigin(headers); // a credential never follows to another origin
      }
      if (dropsBody(response.status, method)) {
        method = 'GET';
        body = undefined;
        changed().delete('content-type');
      }
      url = next;
    }
  }
  return { admit, send };
}

/** Whether a redirect turns the request into a GET without a body (303; 301/302 after a POST). */
const dropsBody = (status: number, method: string) =>
  status === 303 || ((status === 301 || status === 302) && method === 'POST');

/** How `guardedFetch` treats its callers' signals. */
export interface GuardedFetchOptions {
  /**
   * Whether a request's signal was made for that request alone (it ends with the request), so it
   * goes to the platform's fetch as it is. Default: no request's is; each caller's signal is
   * followed through one of the guard's own (a long-lived signal given to Node's fetch keeps a
   * listener per request until the request is garbage-collected).
   */
  ownSignal?: (init: RequestInit) => boolean;
}

/**
 * A `fetch` that applies the relay's SSRF rules to every request and redirect: refused targets
 * reject with RelayRefusal (nothing is sent). Give it to a hub as `fetch`.
 */
export function guardedFetch(options: GuardOptions | Guard, fetchOptions: GuardedFetchOptions = {}): typeof fetch {
  const guard = 'send' in options ? options : createGuard(options);
  const ownSignal = fetchOptions.ownSignal;
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
    // caller whose requests already carry a signal of their own says so (`ownSignal`).
    if (merged.signal && !ownSignal?.(merged)) merged.signal = AbortSignal.any([merged.signal]);
    // `redirect: 'manual'` (the SDK's transports, the hub's own fetches) gets the 3xx and applies
    // its within-origin rule; a caller that lets fetch follow gets same-origin redirects only:
    // its headers (an API key, a token) are the first server's.
    return (await guard.send(url, merged, { crossOrigin: false })).response;
  };
}
