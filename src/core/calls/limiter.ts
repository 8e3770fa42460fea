// Step 4 of a call, a slot: each server's calls run at most `callConcurrency` at a time.

/** A per-server concurrency cap: calls beyond it wait in order; none is dropped. */
export class Limiter {
  #active = 0;
  readonly #queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  get active() {
    return this.#active;
  }
  get waiting() {
    return this.#queue.length;
  }
  /** A slot now when one is free (the function releases it), else undefined: nothing waits. */
  tryAcquire(): (() => void) | undefined {
    if (this.#active >= this.max) return undefined;
    this.#active++;
    return this.#release;
  }
  readonly #release = () => {
    this.#active--;
    this.#queue.shift()?.();
  };
  /** Wait for a slot; rejects if `signal` aborts first. Call the returned function to release. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const release = this.#release;
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#active++;
        resolve(release);
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(go);
        if (i >= 0) this.#queue.splice(i, 1);
        reject(signal!.reason);
      };
      this.#queue.push(go);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** One limiter per server, made on its first call. */
export class Limiters {
  readonly #byServer = new Map<string, Limiter>();
  /** `max`: read when a server's limiter is made. */
  constructor(private readonly max: () => number) {}
  for(serverId: string): Limiter {
    let limiter = this.#byServer.get(serverId);
    if (!limiter) this.#byServer.set(serverId, (limiter = new Limiter(this.max())));
    return limiter;
  }
}
