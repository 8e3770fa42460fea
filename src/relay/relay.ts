// createRelay(): a stateless forwarder for MCP servers a page cannot call itself, as a standard
// Fetch handler, so one piece of code runs on Workers, Lambda and Node through their adapters.
// Runtime-neutral: no Node module is imported here (the Node address-pinning fetch is in ./node/).
import { Cors, RELAY_REFUSAL_HEADER, downstreamHeaders, refuseHopByHop, upstreamHeaders } from './headers.js';
import { rewriteChallenge, rewriteMetadata } from './oauth.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';
import { capped, readCapped, rewriteEndpointEvents } from './streams.js';
import { createGuard, type GuardOptions } from './guard.js';
import { parseTarget, RelayRefusal, relayUrlFor, type Target } from './targets.js';

export type { UpstreamFetch } from './guard.js';

/** What the relay tells its host about each request: never a header value, never a token. */
export interface RelayLogEntry {
  method: string;
  /** The upstream origin (no path, no query), or null when the request was refused before one was known. */
  target: string | null;
  status: number;
  /** Why it was refused, when it was. */
  refused?: string;
  ms: number;
}

/** Options of `createRelay()`. See docs/API.md, "Relay and backend hub". */
export interface RelayOptions extends GuardOptions {
  /** Page origins answered with CORS (`*` for any: never with credentials). Default none. */
  origins?: readonly string[];
  /** Where the relay is mounted, e.g. `/relay`. Default: the root. */
  basePath?: string;
  /** The relay's public URL (origin and base path) for URLs it writes; default the request's. */
  publicUrl?: string;
  /** Largest request body, in bytes. Default 1 MB. */
  maxRequestBytes?: number;
  /** Largest response body, in bytes. Default 16 MB. */
  maxResponseBytes?: number;
  /** Time a client may take to send its body, ms. Default 10 s. */
  requestTimeoutMs?: number;
  /** Time an upstream may take to answer with headers, ms. Default 30 s. */
  upstreamTimeoutMs?: number;
  /** Longest a relayed response (an event stream) stays open, ms. Default 10 min. */
  streamTimeoutMs?: number;
  /** Requests per client per window; `false` for none. Default 300 per minute. */
  rateLimit?: RateLimit | false;
  /** The client a request counts against (default: `CF-Connecting-IP`, else the adapter's address). */
  clientKey?: (request: Request, info: RelayRequestInfo) => string;
  /** Told of every request (method, upstream origin, status, duration): never a header or token. */
  onLog?: (entry: RelayLogEntry) => void;
}

/** What an adapter knows beside the Request. */
export interface RelayRequestInfo {
  /** The client's address, when the adapter knows it. */
  clientAddress?: string;
}

export type RelayHandler = (request: Request, info?: RelayRequestInfo) => Promise<Response>;

const BODY_TYPES = /^(application\/json|application\/x-www-form-urlencoded)\s*(;|$)/i;

/** A stateless relay. See docs/API.md, "Relay and backend hub". */
export function createRelay(options: RelayOptions = {}): RelayHandler {
  const guard = createGuard(options);
  const cors = new Cors(options.origins);
  const basePath = (options.basePath ?? '').replace(/\/$/, '');
  if (basePath && !basePath.startsWith('/')) throw new TypeError('relay basePath must start with /');
  const maxRequest = options.maxRequestBytes ?? 1024 * 1024;
  const maxResponse = options.maxResponseBytes ?? 16 * 1024 * 1024;
  const requestMs = options.requestTimeoutMs ?? 10_000;
  const upstreamMs = options.upstreamTimeoutMs ?? 30_000;
  const streamMs = options.streamTimeoutMs ?? 10 * 60_000;
  const limiter =
    options.rateLimit === false ? null : new RateLimiter(options.rateLimit ?? { requests: 300, perMs: 60_000 });
  const clientKey =
    options.clientKey ??
    ((req: Request, info: RelayRequestInfo) =>
      req.headers.get('cf-connecting-ip') ?? info.clientAddress ?? 'anonymous');

  return async function relay(request: Request, info: RelayRequestInfo = {}): Promise<Response> {
    const started = Date.now();
    const origin = request.headers.get('origin');
    let target: Target | null = null;
    const log = (status: number, refused?: string) =>
      options.onLog?.({
        method: request.method,
        target: target?.url.origin ?? null,
        status,
        refused,
        ms: Date.now() - started,
      });
    try {
      if (request.method === 'OPTIONS') {
        const r = cors.preflight(request);
        log(r.status);
        return r;
      }
      if (!cors.allows(origin)) throw new RelayRefusal(403, 'origin not allowed by this relay');
      if (limiter && !limiter.take(clientKey(request, info)))
        throw new RelayRefusal(429, 'too many requests from this client; try again later');
      refuseHopByHop(request.headers);
      if (!['GET', 'POST', 'DELETE'].includes(request.method))
        throw new RelayRefusal(405, `method ${request.method} is not relayed (GET, POST, DELETE)`);
      const incoming = new URL(request.url);
      target = parseTarget(incoming.pathname, incoming.search, basePath);
      let body: Uint8Array | undefined;
      if (request.method === 'POST') {
        const type = request.headers.get('content-type') ?? '';
        if (!BODY_TYPES.test(type))
          throw new RelayRefusal(415, 'request body must be application/json or application/x-www-form-urlencoded');
        body = await readCapped(request, maxRequest, requestMs);
        if (/json/i.test(type) && !isJson(body)) throw new RelayRefusal(400, 'request body is not valid JSON');
      } else if (request.body && Number(request.headers.get('content-length') ?? 0) > 0) {
        throw new RelayRefusal(400, `a ${request.method} request carries no body through the relay`);
      }
      const base = options.publicUrl ?? `${incoming.origin}${basePath}`;
      const toRelay = (url: string) => relayUrlFor(base, url);
      const headers = upstreamHeaders(request.headers);
      const upstream = await guard.send(target.url, {
        method: request.method,
        headers,
        body: body as BodyInit | undefined,
        signal: AbortSignal.timeout(upstreamMs),
      });
      const response = await answer(upstream.response, upstream.url, target, request.method, toRelay, () =>
        log(upstream.response.status),
      );
      for (const [k, v] of Object.entries(cors.headers(origin))) response.headers.set(k, v);
      return response;
    } catch (e) {
      const refusal =
        e instanceof RelayRefusal
          ? e
          : e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
            ? new RelayRefusal(504, `upstream did not answer within ${upstreamMs} ms`)
            : new RelayRefusal(502, 'upstream could not be reached');
      log(refusal.status, refusal.message);
      return new Response(JSON.stringify({ error: refusal.message }), {
        status: refusal.status,
        headers: {
          'content-type': 'application/json',
          // the relay's own refusal: an upstream's header of this name never crosses (headers.ts)
          [RELAY_REFUSAL_HEADER]: '1',
          ...(refusal.status === 429 ? { 'retry-after': '60' } : {}),
          ...cors.headers(cors.allows(origin) ? origin : null),
        },
      });
    }
  };

  /** The client's response: filtered headers, rewritten OAuth URLs, a capped streamed body. */
  async function answer(
    upstream: Response,
    url: URL,
    target: Target,
    method: string,
    toRelay: (url: string) => string,
    done: () => void,
  ): Promise<Response> {
    const headers = downstreamHeaders(upstream.headers);
    const challenge = headers.get('www-authenticate');
    if (challenge) headers.set('www-authenticate', rewriteChallenge(challenge, toRelay));
    const type = headers.get('content-type') ?? '';
    const init = { status: upstream.status, statusText: upstream.statusText, headers };
    if (!upstream.body || upstream.status === 204 || upstream.status === 304) {
      done();
      return new Response(null, init);
    }
    if (target.wellKnown && /json/i.test(type) && upstream.ok) {
      const bytes = await readCapped(upstream, maxResponse, upstreamMs);
      done();
      try {
        const doc = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
        rewriteMetadata(target.wellKnown, doc, toRelay);
        return new Response(JSON.stringify(doc), init);
      } catch {
        throw new RelayRefusal(502, 'upstream metadata is not valid JSON');
      }
    }
    let body = capped(upstream.body, maxResponse, streamMs, done);
    if (method === 'GET' && /^text\/event-stream/i.test(type))
      body = rewriteEndpointEvents(body, (data) => {
        // the legacy transport's POST endpoint: same origin as the stream, then through the relay
        try {
          const endpoint = new URL(data, url);
          if (endpoint.origin !== url.origin) return null;
          const relayed = new URL(toRelay(endpoint.href));
          return relayed.pathname + relayed.search;
        } catch {
          return null;
        }
      });
    return new Response(body, init);
  }
}

function isJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}
