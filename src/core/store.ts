/** A listener gets the new snapshot and the one it replaced. */
export type Listener<S> = (state: S, previous: S) => void;

/**
 * An immutable snapshot with subscribe(). Every change replaces the snapshot (frozen at the top
 * level and at each replaced branch), so consumers compare by identity to see what changed.
 */
export class Store<S extends object> {
  #state: S;
  readonly #listeners = new Set<Listener<S>>();
  constructor(initial: S) {
    this.#state = Object.freeze(initial);
  }
  /** The current snapshot. */
  get state(): S {
    return this.#state;
  }
  /** Replace the snapshot with `fn(current)`; listeners run only if it changed. */
  update(fn: (s: S) => S): void {
    const prev = this.#state;
    const next = fn(prev);
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
  /** Subscribe to changes; returns the unsubscribe function. */
  subscribe(listener: Listener<S>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
  const next = { ...record };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.freeze(next);
}
