// Opening a session with whatever the server speaks: 2026-07-28 (server/discover), the 2025
// handshake (2025-11-25 … 2025-03-26, and 2024-11-05), legacy HTTP+SSE, or plain JSON-RPC.
import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { McpConnectionError } from '../errors.js';
import { answersAtAll, diagnoseCors } from './cors.js';
import { corsHint } from './cross-origin.js';
import { signInError, toConnectionError } from './errors.js';
import { crossOrigin, jsonRpcFetch, type FetchRecord } from './fetch.js';
import { JsonRpcSession } from './jsonrpc.js';
import { openSdk } from './sdk.js';
import type { McpSession, OpenOptions } from './types.js';

export { signInError, toConnectionError } from './errors.js';
export { CORS_HINT } from './fetch.js';
export { normaliseCallResult } from './call-result.js';
export type { DroppedTool } from './tools.js';
export type { CallOptions, ClientAnswers, McpSession, OpenOptions, ProtocolEra, RequestOptions } from './types.js';

/** Open a session with the configured transport; `auto` falls back as documented. */
export async function openSession(o: OpenOptions): Promise<McpSession> {
  // hints name only the headers of a pinned revision (and of the negotiated one once known)
  const record: FetchRecord = pinned(o.revision) ? { revision: pinned(o.revision) } : {};
  const fetchFn = jsonRpcFetch(o, record);
  const jsonrpc = async () => {
    const s = new JsonRpcSession(o.url, o.headers, fetchFn, o.secrets);
    s.onToolsDropped = o.onToolsDropped;
    // a probe: the endpoint must answer tools/list
    await s.listTools(undefined, { signal: o.signal, timeout: o.timeoutMs });
    return s;
  };
  switch (o.transport) {
    case 'streamable-http':
    case 'sse':
      try {
        return await openSdk(o.transport, o, record);
      } catch (e) {
        const auth = signInError(e);
        if (auth) throw auth;
        const err = toConnectionError(e, o.secrets, o.signal);
        if (err.code === 'network' && crossOrigin(o.url) && !o.signal?.aborted) return corsFallback(o, err);
        throw err;
      }
    case 'jsonrpc':
      return jsonrpc();
    case 'auto': {
      const k = o.known;
      if (k && (k.transport !== 'streamable-http' || k.era === 'legacy'))
        try {
          if (k.transport === 'jsonrpc') return await jsonrpc();
          return await openSdk(k.transport, o, record, true);
        } catch (e) {
          const auth = signInError(e);
          if (auth) throw auth;
          if (o.signal?.aborted) throw toConnectionError(e, o.secrets, o.signal);
          // the server changed since: the usual order
        }
      try {
        return await openSdk('streamable-http', o, record);
      } catch (e) {
        const auth = signInError(e);
        if (auth) throw auth;
        const err = toConnectionError(e, o.secrets, o.signal);
        if (err.code === 'server' && err.rpcCode === ProtocolErrorCode.MethodNotFound) return jsonrpc();
        if (err.code === 'http' && [400, 404, 405].includes(err.status ?? 0)) {
          try {
            return await openSdk('sse', o, record);
          } catch (e2) {
            const auth2 = signInError(e2);
            if (auth2) throw auth2;
            const err2 = toConnectionError(e2, o.secrets, o.signal);
            throw new McpConnectionError(err.code, `${err.message} (Tried legacy HTTP+SSE too: ${err2.message})`, {
              status: err.status,
              cause: e2,
            });
          }
        }
        if (err.code === 'network' && crossOrigin(o.url) && !o.signal?.aborted) {
          // a URL ending in /sse names legacy HTTP+SSE: its POST probe may fail at a preflight
          // the SSE endpoint never needs (Cloudflare answers it 404 without CORS); try SSE first
          if (/\/sse\/?$/.test(new URL(o.url).pathname))
            try {
              return await openSdk('sse', o, record);
            } catch (e2) {
              const auth2 = signInError(e2);
              if (auth2) throw auth2;
            }
          return corsFallback(o, err, jsonrpc);
        }
        throw err;
      }
    }
  }
}

/**
 * A cross-origin server the browser could not reach: find which request headers its CORS
 * preflight refuses. With transport `auto`, when only the MCP headers are refused, a plain
 * JSON-RPC endpoint (which needs none of them) may still work; otherwise the error names each
 * refused header.
 */
async function corsFallback(
  o: OpenOptions,
  err: McpConnectionError,
  jsonrpc?: () => Promise<McpSession>,
): Promise<McpSession> {
  const fetchFn = o.fetch ?? globalThis.fetch;
  const revision = pinned(o.revision);
  const found = await diagnoseCors(o.url, o.headers, fetchFn, o.signal, revision);
  const origin = new URL(o.url).origin;
  if (found.reachable === false) {
    // one plain sentence first: nothing there, or there and refused by the browser
    if (!(await answersAtAll(o.url, fetchFn, o.signal)))
      throw new McpConnectionError(
        'network',
        `Nothing answered at ${origin}. Is the server running, and is the URL right?`,
        {
          cause: err,
        },
      );
    throw new McpConnectionError(
      'network',
      `The server at ${origin} answered, but without the CORS headers a browser needs, so the browser ` +
        `refused its response. ${corsHint(revision)}`,
      { cause: err },
    );
  }
  if (found.refused.length === 0) throw err;
  const ownRefused = found.refused.filter((h) => Object.keys(o.headers).some((k) => k.toLowerCase() === h));
  if (jsonrpc && ownRefused.length === 0) {
    try {
      return await jsonrpc();
    } catch {
      // not a plain JSON-RPC endpoint either: report what the preflight refused
    }
  }
  throw new McpConnectionError(
    'network',
    `The server at ${new URL(o.url).origin} answers, but its CORS preflight does not allow the request ` +
      `header${found.refused.length > 1 ? 's' : ''} ${found.refused.join(', ')}. Add ` +
      `${found.refused.length > 1 ? 'them' : 'it'} to the server's Access-Control-Allow-Headers` +
      (found.refused.includes('mcp-session-id') ? ' (and mcp-session-id to Access-Control-Expose-Headers)' : '') +
      '.',
    { cause: err },
  );
}

/** A revision the config insists on; undefined for `auto`. */
function pinned(revision: OpenOptions['revision']): string | undefined {
  return revision && revision !== 'auto' ? revision : undefined;
}
