// The fetch of a session, as one declared list of layers per kind of session, each layer a
// `(next) => fetch` in session/layers/ given what it needs as arguments (the SDK's Middleware
// shape). The base is the host's fetch: in a page the platform's; in the backend the SSRF-guarded
// one, pinned to the addresses it checked in Node (src/relay/guard.ts, mcp-chat-elements/relay/node).
import type { McpConnectionError } from '../errors.js';
import { CORS_HINT, corsHint, crossOrigin, preflightHeaders } from './cross-origin.js';
import { watchBodies, type BodyWatchOptions } from './layers/body-watch.js';
import { composeFetch } from './layers/compose.js';
import { explainFailures, safeOrigin, type FetchRecord } from './layers/explain.js';
import { revisionHeaders } from './layers/revision-headers.js';
import { streamBudget, type StreamState } from './layers/stream-budget.js';
import { withinOrigin } from './layers/within-origin.js';
import type { OpenOptions } from './types.js';

export { CORS_HINT, corsHint, crossOrigin, preflightHeaders, safeOrigin, type FetchRecord };
export type { StreamState };

/**
 * The MCP transports' fetch (Streamable HTTP, legacy HTTP+SSE), from the network up: the
 * explaining fetch's two layers (below), then DPoP, the revision's headers and the stream budget.
 */
export function transportFetch(
  kind: 'streamable-http' | 'sse',
  o: OpenOptions,
  record: FetchRecord,
  watch: BodyWatchOptions,
  stream: StreamState,
): typeof fetch {
  return composeFetch(explainingFetch(o.fetch, record, withMax(watch, o.maxResponseBytes)), [
    // DPoP (RFC 9449): a bound token goes with the DPoP scheme and a proof per request
    o.authProvider?.wrapFetch,
    // only the headers of the revision in use
    revisionHeaders(record),
    // the 2025 GET stream within its origin's budget
    kind === 'streamable-http' && streamBudget(o, stream),
  ]);
}

/** A plain JSON-RPC endpoint's fetch (and the probe for one), from the network up. */
export function jsonRpcFetch(o: OpenOptions, record: FetchRecord): typeof fetch {
  return composeFetch(explainingFetch(o.fetch, record, withMax({ onExceed: () => {} }, o.maxResponseBytes)), [
    // never `redirect: 'follow'`: the request carries this server's credentials
    withinOrigin,
  ]);
}

const withMax = (watch: BodyWatchOptions, max: number | undefined): BodyWatchOptions =>
  max ? { ...watch, max } : watch;

/**
 * The two lowest layers of every session's fetch, over the host's: network failures explained
 * (CORS names the headers; the last one noted for the diagnosis), and, given `watch`, each POST's
 * response body capped and followed to its end (too large or dropped, its requests fail now).
 */
export function explainingFetch(
  base: typeof fetch | undefined,
  record: FetchRecord,
  watch?: {
    max?: number;
    onExceed: (ids: (string | number)[], e: McpConnectionError) => void;
    onBroken?: (unanswered: (string | number)[], resumable: boolean) => void;
  },
): typeof fetch {
  return composeFetch(base, [explainFailures(record), watch && watchBodies(watch)]);
}
