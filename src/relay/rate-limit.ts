// A per-client request budget in a fixed window, kept in memory (per process or isolate: a
// stateless relay scaled out shares none; put the platform's rate limiting in front for a global one).

/** `requests` per client in each window of `perMs` milliseconds. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(readonly limit: RateLimit) {
    if (!(limit.requests > 0 && limit.perMs > 0))
      throw new TypeError('relay rateLimit needs requests > 0 and perMs > 0');
  }

  /** Count one request of `key`; false when its budget for this window is spent. */
  take(key: string, now = Date.now()): boolean {
    let w = this.#windows.get(key);
    if (!w || now - w.start >= this.limit.perMs) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    return w.count <= this.limit.requests;
  }

  #sweep(now: number): void {
    for (const [k, w] of this.#windows) if (now - w.start >= this.limit.perMs) this.#windows.delete(k);
  }
}
