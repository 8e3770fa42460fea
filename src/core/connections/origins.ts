// Per-origin budgets. A browser opens at most 6 HTTP/1.1 connections per origin, and a
// long-lived stream (a 2025 session's GET event stream, a 2026-07-28 `subscriptions/listen`, a
// legacy SSE channel) holds one for the session's life. Many servers behind one origin would
// otherwise fill the pool with streams and leave every later request waiting for ever; and
// discovering many servers at once would queue their tool lists behind each other's extras.
// A 2025 session's GET stream is granted at once but opens only once the origin's discovery
// queue is empty: a burst of handshakes gets every connection, the streams come after it.

/** Discovery work first (handshakes, tool lists), then the rest (resources, templates, prompts). */
export type Priority = 'tools' | 'rest';

interface OriginState {
  /** Discovery requests in flight. */
  active: number;
  /** Long-lived streams granted (open or waiting to open). */
  streams: number;
  /** Granted streams holding a connection now. */
  open: number;
  /** Work waiting for a slot, tools before rest, each in order; then streams waiting to open. */
  waiting: Record<Priority | 'stream', (() => void)[]>;
}

/** A long-lived stream granted on an origin. */
export interface StreamClaim {
  /**
   * Resolves once the stream may take a connection: at once when it holds one already, else when
   * no discovery work waits on the origin and a connection is free. Rejects when `signal` aborts
   * or the claim is released first.
   */
  open(signal?: AbortSignal): Promise<void>;
  /** Count the stream as holding a connection now (one the handshake opened itself). */
  openNow(): void;
  /** Give the stream back (idempotent). */
  release(): void;
}

/** How a stream is granted: `later` opens on `open()`; `required` is granted past the limit. */
export type StreamMode = 'now' | 'later' | 'required';

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
      s = { active: 0, streams: 0, open: 0, waiting: { tools: [], rest: [], stream: [] } };
      this.#origins.set(key, s);
    }
    return s;
  }

  /** Requests the origin can carry next to its open streams (at least one, so work never stalls). */
  #capacity(s: OriginState): number {
    return Math.max(1, this.connections - s.open);
  }

  /** A stream may open: no discovery waits, and a connection is free. */
  #streamMayOpen(s: OriginState): boolean {
    return !s.waiting.tools.length && !s.waiting.rest.length && s.active + s.open < this.connections;
  }

  #next(s: OriginState) {
    while (s.active < this.#capacity(s)) {
      const go = s.waiting.tools.shift() ?? s.waiting.rest.shift();
      if (!go) break;
      s.active++;
      go();
    }
    while (s.waiting.stream.length && this.#streamMayOpen(s)) s.waiting.stream.shift()!();
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
   * Reserve a long-lived stream on the origin. Returns its claim, or `undefined` when the origin
   * has none to spare (`required` streams, such as a legacy SSE channel, are always granted). A
   * `now` or `required` stream counts as holding a connection at once; a `later` one (a 2025
   * GET stream, which the SDK opens without waiting for it) from its `open()`.
   */
  reserveStream(url: string, mode: StreamMode = 'now'): StreamClaim | undefined {
    const s = this.#state(url);
    if (mode !== 'required' && s.streams >= this.maxStreams) return undefined;
    s.streams++;
    let opened = false;
    let released = false;
    /** The pending `open()`: its waiter in the queue, and how to fail it. */
    let pending: { go: () => void; fail: (e: unknown) => void } | undefined;
    const markOpen = () => {
      opened = true;
      s.open++;
    };
    if (mode !== 'later') markOpen();
    const settle = (e: unknown) => {
      if (!pending) return;
      const i = s.waiting.stream.indexOf(pending.go);
      if (i >= 0) s.waiting.stream.splice(i, 1);
      const { fail } = pending;
      pending = undefined;
      fail(e);
    };
    return {
      open: (signal) => {
        if (opened) return Promise.resolve();
        if (released) return Promise.reject(new DOMException('The stream was given back.', 'AbortError'));
        if (signal?.aborted) return Promise.reject(signal.reason);
        if (pending) return Promise.reject(new DOMException('The stream is opening already.', 'InvalidStateError'));
        if (this.#streamMayOpen(s)) {
          markOpen();
          return Promise.resolve();
        }
        return new Promise<void>((resolve, reject) => {
          const onAbort = () => settle(signal?.reason);
          const go = () => {
            pending = undefined;
            signal?.removeEventListener('abort', onAbort);
            markOpen();
            resolve();
          };
          pending = {
            go,
            fail: (e) => {
              signal?.removeEventListener('abort', onAbort);
              reject(e);
            },
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          s.waiting.stream.push(go);
        });
      },
      openNow: () => {
        if (opened || released) return;
        if (!pending) return markOpen();
        const i = s.waiting.stream.indexOf(pending.go);
        if (i >= 0) s.waiting.stream.splice(i, 1);
        pending.go();
      },
      release: () => {
        if (released) return;
        released = true;
        settle(new DOMException('The stream was given back.', 'AbortError'));
        s.streams--;
        if (opened) s.open--;
        this.#next(s);
      },
    };
  }

  /** Streams granted on the URL's origin (for tests and diagnostics). */
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
