// When and how long to wait before trying a connection again.
import type { McpConnectionError } from '../errors.js';

/** Exponential backoff with jitter: 250 ms, 500 ms, 1 s … capped at 5 s, each scaled by 0.5–1. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(5000, 250 * 2 ** attempt);
  return Math.round(base * (0.5 + random() / 2));
}

/** Network errors, timeouts, 5xx, 408 and 429 are worth another attempt; nothing else is. */
export function retryable(e: McpConnectionError): boolean {
  if (e.code === 'network' || e.code === 'timeout' || e.code === 'dropped') return true;
  if (e.code === 'http') return (e.status ?? 0) >= 500 || e.status === 408 || e.status === 429;
  return false;
}

/** Wait `ms`, or reject with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
