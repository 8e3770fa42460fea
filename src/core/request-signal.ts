// A signal for one request, following a long-lived one (the SDK gives every request of a session
// its transport's signal): Node's fetch (undici) keeps an abort listener on the signal it is given
// until the request is garbage-collected, so a long-lived signal piles listeners up, and
// `AbortSignal.any` (the earlier shield) left a WeakRef per request on it in Node 20, never
// removed. This one listener is removed when the request is over (`done`).

export interface RequestSignal {
  readonly signal: AbortSignal;
  /** The request is over (its body ended, failed or was cancelled): stop following. Idempotent. */
  done(): void;
}

export function requestSignal(outer: AbortSignal): RequestSignal {
  const own = new AbortController();
  if (outer.aborted) {
    own.abort(outer.reason);
    return { signal: own.signal, done() {} };
  }
  const follow = () => own.abort(outer.reason);
  outer.addEventListener('abort', follow, { once: true });
  return { signal: own.signal, done: () => outer.removeEventListener('abort', follow) };
}
