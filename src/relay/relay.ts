// createRelay(): a stateless forwarder for MCP servers a page cannot call itself, as a standard
// Fetch handler, so one piece of code runs on Workers, Lambda and Node through their adapters.
// Runtime-neutral: no Node module is imported here (the Node address-pinning fetch is in ./node/).
import { capped, readCapped } from '../edge/body.js';
import { Cors } from '../edge/cors.js';
import { createGuard, type GuardOptions } from '../edge/guard.js';
import type { EdgeRequestInfo } from '../edge/handler.js';
import { hostCheck } from '../edge/host.js';
import { RateLimiter, StreamSlots, defaultClientKey, type RateLimit } from '../edge/rate-limit.js';
import { RELAY_REFUSAL_HEADER, RelayRefusal, refusalResponse } from '../edge/refusal.js';
import { onWorkers } from '../edge/runtime.js';
import { downstreamHeaders, inert, refuseHopByHop, refuseNavigation, upstreamHeaders } from './headers.js';
import { rewriteChallenge, rewriteMetadata } from './oauth.js';
import { rewriteEndpointEvents } from './endpoint-events.js';
import { parseTarget, relayUrlFor, type Target } from './targets.js';

export type { UpstreamFetch } from '../edge/guard.js';

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
  /**
   * The relay's public URL (origin and base path): the URLs it writes, and a `Host` it answers.
   * Default: the request's (its `Host`, once checked).
   */
  publicUrl?: string;
  /**
   * More `Host` values (`host[:port]`) the relay answers, besides `publicUrl`'s and the one its
   * adapter serves (`serveHandler`'s bound address, a Lambda event's domain). With none of the
   * three known: any on Cloudflare Workers (routed by host), else IP literals and `localhost` only.
   * Anything else is refused (421): a DNS-rebinding page reaches the relay under its own name.
   */
  allowedHosts?: readonly string[];
  /** Largest request body, in bytes. Default 1 MB. */
  maxRequestBytes?: number;
  /** Largest response body, in bytes. Default 16 MB. */
  maxResponseBytes?: number;
  /** Time a client may take to send its body, ms. Default 10 s. */
  requestTimeoutMs?: number;
  /** Time an upstream may take to answer with headers, ms (the body is then `streamTimeoutMs`'s). Default 30 s. */
  upstreamTimeoutMs?: number;
  /** Longest a relayed response (an event stream) stays open, ms. Default 10 min. */
  streamTimeoutMs?: number;
  /** Requests per client per window; `false` for none. Default 300 per minute. */
  rateLimit?: RateLimit | false;
  /** Responses (event streams above all) one client holds open at once; 429 past it. Default 16. */
  maxStreamsPerClient?: number;
  /**
   * A header holding the client's address, set by a proxy in front that overwrites (or, for
   * `X-Forwarded-For`, appends to) what clients send: its last entry is the client. Default
   * `CF-Connecting-IP` on Cloudflare Workers, none elsewhere (any client could set it).
   */
  clientIpHeader?: string;
  /** The client a request counts against. Default: `clientIpHeader`'s, else the adapter's address. */
  clientKey?: (request: Request, info: RelayRequestInfo) => string;
  /** Told of every request (method, upstream origin, status, duration): never a header or token. */
  onLog?: (entry: RelayLogEntry) => void;
}

/** What an adapter knows beside the Request (the edge kit's `EdgeRequestInfo`). */
export type RelayRequestInfo = EdgeRequestInfo;

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
  const slots = new StreamSlots(options.maxStreamsPerClient ?? 16);
  const ipHeader = options.clientIpHeader?.toLowerCase() ?? (onWorkers() ? 'cf-connecting-ip' : undefined);
  if (ipHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(ipHeader))
    throw new TypeError(`relay clientIpHeader "${ipHeader}" is not a header name`);
  const clientKey = options.clientKey ?? defaultClientKey(ipHeader);
  const checkHost = hostCheck(options);

  return async function relay(request: Request, info: RelayRequestInfo = {}): Promise<Response> {
    const started = Date.now();
    const origin = request.headers.get('origin');
    let target: Target | null = null;
    let release: (() => void) | null = null;
    const log = (status: number, refused?: string) =>
      options.onLog?.({
        method: request.method,
        target: target?.url.origin ?? null,
        status,
        refused,
        ms: Date.now() - started,
      });
    try {
      checkHost(request, info);
      if (request.method === 'OPTIONS') {
        const r = cors.preflight(request);
        log(r.status);
        return r;
      }
      if (!cors.allows(origin)) throw new RelayRefusal(403, 'origin not allowed by this relay');
      refuseNavigation(request.headers);
      const client = clientKey(request, info);
      if (limiter && !limiter.take(client))
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
      release = slots.take(client);
      if (!release) throw new RelayRefusal(429, 'too many open streams from this client; close one first');
      // the Host is checked: the URLs written from it name this relay
      const base = options.publicUrl ?? `${incoming.origin}${basePath}`;
      const toRelay = (url: string) => relayUrlFor(base, url);
      // the deadline covers the upstream's headers only: the body is then the stream lifetime's
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new DOMException(`no headers within ${upstreamMs} ms`, 'TimeoutError')),
        upstreamMs,
      );
      const upstream = await guard
        .send(target.url, {
          method: request.method,
          headers: upstreamHeaders(request.headers),
          body: body as BodyInit | undefined,
          signal: deadline.signal,
        })
        .finally(() => clearTimeout(timer));
      let ended = false;
      const end = release;
      const response = await answer(upstream.response, upstream.url, target, request.method, toRelay, () => {
        if (ended) return;
        ended = true;
        end();
        log(upstream.response.status);
      });
      for (const [k, v] of Object.entries(cors.headers(origin))) response.headers.set(k, v);
      return response;
    } catch (e) {
      release?.();
      const refusal =
        e instanceof RelayRefusal
          ? e
          : e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
            ? new RelayRefusal(504, `upstream did not answer within ${upstreamMs} ms`)
            : new RelayRefusal(502, 'upstream could not be reached');
      log(refusal.status, refusal.message);
      // the relay's own refusal: an upstream's header of this name never crosses (headers.ts)
      const response = refusalResponse(refusal, { [RELAY_REFUSAL_HEADER]: '1', ...cors.headers(origin) });
      inert(response.headers);
      return response;
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
    const type = headers.get('content-type') ?? '';
    inert(headers);
    const challenge = headers.get('www-authenticate');
    // written from the request's (checked) Host when no publicUrl: no shared cache may keep it
    const rewritten = () => {
      if (!options.publicUrl) headers.set('cache-control', 'private, no-store');
    };
    if (challenge) {
      headers.set('www-authenticate', rewriteChallenge(challenge, toRelay));
      rewritten();
    }
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
        rewritten();
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
