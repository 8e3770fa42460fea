// Which headers cross the relay, in each direction, and the CORS answers. Runtime-neutral.
import { RelayRefusal } from './targets.js';

/**
 * Request headers that never cross, whatever the page sends (every other header is forwarded, so a
 * server's own API-key header works through the relay): the relay origin's credentials, what names
 * the page or the browser's context, claims about the client's address or the proxy path (an
 * upstream may trust them), hop-by-hop and framing headers, and the encoding the relay negotiates.
 */
const REQUEST_DROP = new Set([
  'cookie',
  'cookie2',
  'host',
  'origin',
  'referer',
  'forwarded',
  'via',
  'x-real-ip',
  'true-client-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'client-ip',
  'x-originating-ip',
  'x-host',
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-middleware-subrequest',
  'cdn-loop',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'content-length',
  'expect',
  'accept-encoding',
  'content-encoding',
]);
/**
 * Prefixes of the same: browser fetch metadata, forwarding, and the headers CDNs, load balancers
 * and platforms set about the client or the route (an upstream behind one of them may trust them).
 */
const REQUEST_DROP_PREFIX = [
  'sec-',
  'proxy-',
  'x-forwarded-',
  'cf-',
  'x-amzn-',
  'x-envoy-',
  'fastly-',
  'fly-',
  'x-azure-',
  'x-appengine-',
  'x-vercel-',
  'x-nf-',
  'akamai-',
  'x-original-',
];

/** Response headers passed back (plus every `Mcp-Param-*`). */
const RESPONSE_PASS = new Set([
  'cache-control',
  'content-type',
  'dpop-nonce',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'retry-after',
  'www-authenticate',
]);

/**
 * Set on the relay's own refusals (never passed from an upstream: not in RESPONSE_PASS), so a
 * client can tell the relay's "not forwarded" from an upstream's 403 with the same words.
 */
export const RELAY_REFUSAL_HEADER = 'mcp-relay-refusal';

/** What a page may read of a relayed response. */
export const EXPOSED = [
  'mcp-session-id',
  'mcp-protocol-version',
  'www-authenticate',
  'dpop-nonce',
  'retry-after',
  RELAY_REFUSAL_HEADER,
].join(', ');

/** Whether a request header (lower case) is forwarded upstream. */
export const passesRequest = (name: string): boolean =>
  !REQUEST_DROP.has(name) && !REQUEST_DROP_PREFIX.some((p) => name.startsWith(p));

/** Hop-by-hop and proxy headers a client must not send through a relay: refused, not stripped. */
export function refuseHopByHop(headers: Headers): void {
  for (const name of ['upgrade', 'proxy-authorization', 'proxy-connection', 'keep-alive', 'http2-settings'])
    if (headers.has(name)) throw new RelayRefusal(400, `hop-by-hop header ${name} is not accepted by the relay`);
  const te = headers.get('te');
  if (te && te.trim().toLowerCase() !== 'trailers')
    throw new RelayRefusal(400, 'hop-by-hop header te is not accepted by the relay');
  const connection = headers.get('connection');
  if (connection) {
    const tokens = connection
      .toLowerCase()
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const odd = tokens.find((t) => t !== 'keep-alive' && t !== 'close');
    if (odd) throw new RelayRefusal(400, `connection header naming "${odd}" is not accepted by the relay`);
  }
}

/** The headers sent upstream: every one `passesRequest` lets through (never a cookie or a forwarding header). */
export function upstreamHeaders(incoming: Headers): Headers {
  const out = new Headers();
  incoming.forEach((value, name) => {
    if (passesRequest(name)) out.set(name, value);
  });
  return out;
}

/** The headers passed back to the client. */
export function downstreamHeaders(upstream: Headers): Headers {
  const out = new Headers();
  upstream.forEach((value, name) => {
    if (RESPONSE_PASS.has(name) || name.startsWith('mcp-param-')) out.set(name, value);
  });
  return out;
}

/**
 * A browser loading a relay URL as a document, a frame, a script or an image: refused. MCP and
 * OAuth reach the relay through fetch() (and EventSource), whose destination is `empty`; a page
 * or frame rendered on the relay's origin would run an upstream's script as that origin.
 */
export function refuseNavigation(headers: Headers): void {
  const mode = headers.get('sec-fetch-mode');
  const dest = headers.get('sec-fetch-dest');
  if (mode === 'navigate' || mode === 'nested-navigate' || (dest !== null && dest !== 'empty'))
    throw new RelayRefusal(403, 'the relay answers fetch() requests only, not navigations or embeds');
}

/** Types relayed as they are: what MCP and OAuth answer with (JSON, event streams) and plain text. */
const RELAYED_TYPES = /^(application\/json|application\/[\w.+-]+\+json|text\/event-stream|text\/plain)\s*(;|$)/i;

/**
 * Make a relayed (or refused) answer inert as a document: never sniffed, sandboxed with nothing
 * allowed to load, and any type MCP does not use (HTML, SVG, XML, none) downloaded as bytes. A
 * page's fetch() still reads the body; a browser navigating to it renders nothing of it.
 */
export function inert(headers: Headers): Headers {
  headers.set('x-content-type-options', 'nosniff');
  headers.set('content-security-policy', "default-src 'none'; sandbox");
  const type = headers.get('content-type') ?? '';
  // two Content-Type headers arrive joined by a comma, and a browser takes the last one: a
  // list is no type the relay passes (a comma inside a quoted parameter is rare enough to lose)
  if (!RELAYED_TYPES.test(type) || type.includes(',')) {
    headers.set('content-type', 'application/octet-stream');
    headers.set('content-disposition', 'attachment');
  } else if (!/json|event-stream/i.test(type)) headers.set('content-disposition', 'attachment');
  return headers;
}

/** CORS for the configured origins (never `*` with credentials: the relay allows no credentials). */
export class Cors {
  readonly #origins: Set<string>;
  readonly #any: boolean;
  constructor(origins: readonly string[] = []) {
    this.#any = origins.includes('*');
    this.#origins = new Set(origins.filter((o) => o !== '*').map((o) => new URL(o).origin));
  }

  /** Whether a request from `origin` (null: not a browser request) is served at all. */
  allows(origin: string | null): boolean {
    return origin === null || this.#any || this.#origins.has(origin);
  }

  /** Headers added to every answer for `origin`. */
  headers(origin: string | null): Record<string, string> {
    if (origin === null || !this.allows(origin)) return { vary: 'Origin' };
    return {
      'access-control-allow-origin': this.#any ? '*' : origin,
      'access-control-expose-headers': EXPOSED,
      vary: 'Origin',
    };
  }

  /** The answer to a preflight; 403 for an origin not served. */
  preflight(request: Request): Response {
    const origin = request.headers.get('origin');
    if (!origin || !this.allows(origin))
      return new Response('origin not allowed by this relay', { status: 403, headers: { vary: 'Origin' } });
    const asked = (request.headers.get('access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h && passesRequest(h));
    return new Response(null, {
      status: 204,
      headers: {
        ...this.headers(origin),
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': [...new Set(['content-type', 'authorization', ...asked])].join(', '),
        'access-control-max-age': '600',
      },
    });
  }
}
