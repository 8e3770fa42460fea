// Request headers an edge handler never takes from a page as they are: the relay forwards every
// other header upstream, and a CORS preflight allows no other. Runtime-neutral.

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

/** Whether a request header (lower case) may cross: forwarded upstream, allowed by a preflight. */
export const passesRequest = (name: string): boolean =>
  !REQUEST_DROP.has(name) && !REQUEST_DROP_PREFIX.some((p) => name.startsWith(p));
