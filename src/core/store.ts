/** A listener gets the new snapshot and the one it replaced. */
export type Listener<S> = (state: S, previous: S) => void;

/**
 * An immutable snapshot with subscribe(). Every change replaces the snapshot (frozen at the top
 * level and at each replaced branch), so consumers compare by identity to see what changed.
 *
 * Changes that come in bursts (call records: hundreds of calls in flight) may be deferred: they
 * are applied together, with one copy of each branch they touch, at the next read of `state`
 * or at the end of the current task (a microtask), or for the largest bursts a few ms later,
 * whichever comes first (with no subscriber but `lazy` ones, at the next read). So whoever reads `state` always
 * sees every change made so far.
 */
export class Store<S extends object> {
  #state: S;
  readonly #listeners = new Set<Listener<S>>();
  /** Subscribers that may read what deferred changes touch (not `lazy`). */
  #prompt = 0;
  readonly #deferred: ((s: S) => S)[] = [];
  #timer?: ReturnType<typeof setTimeout>;
  constructor(initial: S) {
    this.#state = Object.freeze(initial);
  }
  /** The current snapshot. */
  get state(): S {
    this.#flush();
    return this.#state;
  }
  /**
   * The snapshot without the deferred changes applied yet: for the hub's own hot paths that read
   * branches deferred changes never touch (the call records are the only deferred ones).
   */
  get settled(): S {
    return this.#state;
  }
  /** Replace the snapshot with `fn(current)`; listeners run only if it changed. */
  update(fn: (s: S) => S): void {
    this.#flush();
    this.#set(fn(this.#state));
  }
  /**
   * Apply `fn` later, together with the other deferred changes (see the class comment): at the
   * end of the current task, or with `coalesceMs`, up to that long later so that changes made in
   * the tasks between share one copy (a read of `state` applies them at once either way).
   */
  defer(fn: (s: S) => S, coalesceMs = 0): void {
    // with no subscriber that could see them, nobody can tell when they are applied: the next
    // read of `state` (or such a subscribe) applies them. A backend hub (no listeners) so copies the call maps once per
    // history write, not once per call: bench/backend.mjs
    if (this.#deferred.push(fn) !== 1 || !this.#prompt) return;
    if (coalesceMs > 0) this.#timer = setTimeout(() => this.#flush(), coalesceMs);
    else queueMicrotask(() => this.#flush());
  }
  #flush() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#deferred.length) return;
    const fns = this.#deferred.splice(0);
    this.#set(fns.reduce((s, fn) => fn(s), this.#state));
  }
  #set(next: S) {
    const prev = this.#state;
    if (next === prev) return;
    this.#state = Object.freeze(next);
    for (const l of [...this.#listeners]) {
      try {
        l(this.#state, prev);
      } catch (e) {
        // a faulty subscriber must not break the hub or the other subscribers
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
  /**
   * Subscribe to changes; returns the unsubscribe function. `lazy` (the hub's own listeners):
   * the listener reads nothing deferred changes touch (call records), so they need not be applied
   * promptly for it; it is still called whenever they are.
   */
  subscribe(listener: Listener<S>, options: { lazy?: boolean } = {}): () => void {
    const prompt = !options.lazy;
    if (prompt && !this.#prompt++) this.#flush(); // what was deferred while nobody could see it
    this.#listeners.add(listener);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.#listeners.delete(listener);
      if (prompt) this.#prompt--;
    };
  }
  /** How many subscribers there are (for leak tests). */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}

/** Return a copy of `record` with `key` set (or removed when value is undefined), frozen. */
export function withEntry<V>(
  record: Readonly<Record<string, V>>,
  key: string,
  value: V | undefined,
): Readonly<Record<string, V>> {
  return withEntries(record, [[key, value]]);
}

/** A copy of `record` with every entry set (or removed, for undefined), frozen: one copy for many. */
export function withEntries<V>(
  record: Readonly<Record<string, V>>,
  entries: Iterable<readonly [string, V | undefined]>,
): Readonly<Record<string, V>> {
  // Object.assign copies a large record about twice as fast as spreading it (measured, 500 keys)
  const next: Record<string, V> = Object.assign({}, record);
  for (const [key, value] of entries) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return Object.freeze(next);
}
