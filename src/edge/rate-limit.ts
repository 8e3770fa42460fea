// A per-client request budget in a fixed window, and a cap on the responses a client holds open,
// kept in memory (per process or isolate: a stateless relay scaled out shares none; put the
// platform's rate limiting in front for a global one).

/** `requests` per client in each window of `perMs` milliseconds. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

/** Windows kept at most; past it, clients not yet seen share one budget (memory stays bounded). */
const MAX_WINDOWS = 100_000;
/** The key the clients past MAX_WINDOWS share. */
const OVERFLOW = '\u0000overflow';

/**
 * The budget key of a client address: an IPv4-mapped IPv6 address as its IPv4, and any other IPv6
 * address as its /64 (one host is given a whole /64: per address, it would have 2^64 budgets).
 */
export function addressKey(address: string): string {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1];
  if (!a.includes(':')) return a;
  const [head, tail] = a.split('::');
  const groups = (s?: string) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g))
    .join(':')}::/64`;
}

/**
 * The default budget key: `ipHeader`'s last entry (what the proxy in front appended; a client's own
 * entries come before it), else the adapter's address, else one key for every client.
 */
export function defaultClientKey(ipHeader: string | undefined) {
  return (request: Request, info: { clientAddress?: string }): string =>
    addressKey(
      (ipHeader && request.headers.get(ipHeader)?.split(',').at(-1)?.trim()) || info.clientAddress || 'anonymous',
    );
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
    if (!w && this.#windows.size >= MAX_WINDOWS) w = this.#windows.get((key = OVERFLOW));
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
