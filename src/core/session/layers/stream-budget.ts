// Fetch layer (Streamable HTTP): the 2025 GET event stream through its origin's stream budget —
// answered 405 here (as a server without one would) when the session may hold no stream, opened
// when the budget lets it, and reported unused when the server declines. Other requests pass.
import type { OpenOptions } from '../types.js';
import type { FetchLayer } from './compose.js';

/** Whether the server declined the stream (read by the session: kept in its catalogue). */
export interface StreamState {
  declined?: boolean;
}

type Budget = Pick<OpenOptions, 'notifications' | 'known' | 'onStreamUnused' | 'onStreamDeclined' | 'streamOpen'>;

export function streamBudget(o: Budget, state: StreamState): FetchLayer {
  const declined = () => {
    state.declined = true;
    o.onStreamDeclined?.();
  };
  return (next) => async (input, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return next(input, init);
    if (o.notifications === false) return new Response(null, { status: 405, statusText: 'No stream to spare' });
    // the server answered 405 to this config last time (its stored catalogue): asking again
    // only puts a failed request in the page's console
    if (o.known?.streamDeclined) {
      declined();
      o.onStreamUnused?.();
      return new Response(null, { status: 405, statusText: 'The server offers no stream' });
    }
    // the notification stream waits for its origin's burst of handshakes (a resumption has
    // a Last-Event-ID and goes at once: a request waits for it)
    if (!new Headers(init?.headers).has('last-event-id')) await o.streamOpen?.(init?.signal ?? undefined);
    const res = await next(input, init);
    if (res.status === 405) declined();
    if (!res.ok) o.onStreamUnused?.();
    return res;
  };
}
