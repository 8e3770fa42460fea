// Per-origin budgets. A browser opens at most 6 HTTP/1.1 connections per origin, and a
// long-lived stream (a 2025 session's GET event stream, a 2026-07-28 `subscriptions/listen`, a
// legacy SSE channel) holds one for the session's life. Many servers behind one origin would
// otherwise fill the pool with streams and leave every later request waiting for ever; and
// discovering many servers at once would queue their tool lists behind each other's extras.

/** Discovery work first (handshakes, tool lists), then the rest (resources, templates, prompts). */
export type Priority = 'tools' | 'rest';

interface OriginState {
  /** Discovery requests in flight. */
  active: number;
  /** Long-lived streams held. */
  streams: number;
  /** Work waiting for a slot, tools before rest, each in order. */
  waiting: Record<Priority, (() => void)[]>;
}

/** How many requests each origin gets for discovery, and how many streams it may hold. */
export class OriginBudget {
  readonly #origins = new Map<string, OriginState>();

  /** @param connections the browser's connections per origin (6 over HTTP/1.1) */
  constructor(readonly connections = 6) {}

  /** Streams an origin may hold: all but two connections, so requests always have room. */
  get maxStreams(): number {
    return Math.max(0, this.connections - 2);
  }

  #state(url: string): OriginState {
    const key = originOf(url);
    let s = this.#origins.get(key);
    if (!s) {
      s = { active: 0, streams: 0, waiting: { tools: [], rest: [] } };
      this.#origins.set(key, s);
    }
    return s;
  }

  /** Requests the origin can carry next to its streams (at least one, so work never stalls). */
  #capacity(s: OriginState): number {
    return Math.max(1, this.connections - s.streams);
  }

  #next(s: OriginState) {
    while (s.active < this.#capacity(s)) {
      const go = s.waiting.tools.shift() ?? s.waiting.rest.shift();
      if (!go) return;
      s.active++;
      go();
    }
  }

  /**
   * Run discovery work holding one of the origin's request slots. Tool-list work goes before the
   * rest; a signal that aborts while waiting rejects without running `work`.
   */
  async run<T>(url: string, priority: Priority, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const s = this.#state(url);
    if (
      s.active < this.#capacity(s) &&
      s.waiting.tools.length === 0 &&
      (priority === 'tools' || !s.waiting.rest.length)
    )
      s.active++;
    else
      await new Promise<void>((resolve, reject) => {
        const queue = s.waiting[priority];
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = queue.indexOf(go);
          if (i >= 0) queue.splice(i, 1);
          reject(signal?.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(go);
      });
    try {
      return await work();
    } finally {
      s.active--;
      this.#next(s);
    }
  }

  /**
   * Reserve a long-lived stream on the origin. Returns its release function, or `undefined` when
   * the origin has none to spare (`required` streams, such as a legacy SSE channel, are always
   * granted and counted).
   */
  reserveStream(url: string, required = false): (() => void) | undefined {
    const s = this.#state(url);
    if (!required && s.streams >= this.maxStreams) return undefined;
    s.streams++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      s.streams--;
      this.#next(s);
    };
  }

  /** Streams held on the URL's origin (for tests and diagnostics). */
  streams(url: string): number {
    return this.#origins.get(originOf(url))?.streams ?? 0;
  }
}

/** The connection pool a URL's requests share: scheme, host and port. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
