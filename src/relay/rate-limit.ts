// A per-client request budget in a fixed window, and a cap on the responses a client holds open,
// kept in memory (per process or isolate: a stateless relay scaled out shares none; put the
// platform's rate limiting in front for a global one).

/** `requests` per client in each window of `perMs` milliseconds. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

export class RateLimiter {
  /**
   * Windows in the order they started: a renewed window is moved to the end, so the expired ones
   * are always at the front and a sweep stops at the first live one (amortised O(1) per take;
   * a sweep of the whole map at each new key was quadratic in the number of keys).
   */
  readonly #windows = new Map<string, { start: number; count: number }>();
  #visited = 0;
  constructor(readonly limit: RateLimit) {
    if (!(limit.requests > 0 && limit.perMs > 0))
      throw new TypeError('relay rateLimit needs requests > 0 and perMs > 0');
  }

  /** Count one request of `key`; false when its budget for this window is spent. */
  take(key: string, now = Date.now()): boolean {
    this.#sweep(now);
    let w = this.#windows.get(key);
    if (!w) {
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    return w.count <= this.limit.requests;
  }

  /** Windows kept (clients seen in the last window). */
  get size(): number {
    return this.#windows.size;
  }

  /** Windows looked at by sweeps so far: each expired one once, plus one live one per sweep. */
  get visited(): number {
    return this.#visited;
  }

  #sweep(now: number): void {
    for (const [k, w] of this.#windows) {
      this.#visited++;
      if (now - w.start < this.limit.perMs) return;
      this.#windows.delete(k);
    }
  }
}

/** How many responses each client holds open at once (event streams above all). */
export class StreamSlots {
  readonly #open = new Map<string, number>();
  constructor(readonly max: number) {
    if (!(max > 0)) throw new TypeError('relay maxStreamsPerClient must be > 0');
  }

  /** Take a slot for `key`: a release function (idempotent), or null when it holds `max`. */
  take(key: string): (() => void) | null {
    const n = this.#open.get(key) ?? 0;
    if (n >= this.max) return null;
    this.#open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    };
  }

  /** Slots `key` holds now. */
  held(key: string): number {
    return this.#open.get(key) ?? 0;
  }
}
