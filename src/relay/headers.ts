// Which headers cross the relay, in each direction. Runtime-neutral.
import { passesRequest } from '../edge/request-headers.js';
import { RelayRefusal } from '../edge/refusal.js';

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
