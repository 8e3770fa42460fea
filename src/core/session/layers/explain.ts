// Fetch layer: a failure below HTTP (nothing answered, or a browser's CORS refusal, which looks the
// same) becomes a McpConnectionError that says what is likely wrong — for a cross-origin server,
// the exact request headers its CORS must allow — and is noted for the errors raised above it
// (EventSource hides the cause).
import { McpConnectionError } from '../../errors.js';
import { corsHint, crossOrigin, preflightHeaders } from '../cross-origin.js';
import type { FetchLayer } from './compose.js';

/** What the explaining layer saw last, for errors raised above it; the revision its hints name. */
export interface FetchRecord {
  lastNetwork?: McpConnectionError;
  /** The revision in use once known (pinned or negotiated): hints name only its headers. */
  revision?: string;
}

export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}

/** Explain network-layer failures (see the top of this file); `record` keeps the last one. */
export function explainFailures(record: FetchRecord): FetchLayer {
  return (next) => async (input, init) => {
    try {
      return await next(input, init);
    } catch (e) {
      if (e instanceof McpConnectionError) throw e;
      if ((e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError') throw e;
      const url = input instanceof Request ? input.url : String(input);
      const origin = safeOrigin(url);
      let hint = 'Is the server running, and is the URL right?';
      if (crossOrigin(url)) {
        const sent = preflightHeaders(init);
        hint =
          'Either nothing answers there, or the server does not send the CORS headers a browser needs. ' +
          corsHint(record.revision) +
          (sent.length
            ? ` This request sent ${sent.join(', ')}: the server's Access-Control-Allow-Headers must list each of them.`
            : '');
      }
      const err = new McpConnectionError('network', `Could not reach ${origin}. ${hint}`, { cause: e });
      record.lastNetwork = err;
      // still a TypeError, as fetch's own: the SDK reads a TypeError at the 2026-07-28 probe as a
      // CORS refusal and falls back to the 2025 handshake; toConnectionError finds the cause
      // eslint-disable-next-line preserve-caught-error -- the explanation (whose cause is `e`) is the cause
      throw new TypeError(err.message, { cause: err });
    }
  };
}
