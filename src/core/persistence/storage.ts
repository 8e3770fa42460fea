// Record storage every runtime has: the interface, memory, and the resilient wrapper that falls
// back to memory. IndexedDB (a page's) is in idb-storage.ts, which the page shell picks.
import { McpStorageError } from '../errors.js';

/** Key-value persistence, one key per record. */
export interface RecordStorage {
  readonly kind: 'indexeddb' | 'memory';
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Atomically read, change and write one key (one IndexedDB transaction). */
  update<T>(key: string, fn: (old: T | undefined) => T): Promise<T>;
  entries(): Promise<[string, unknown][]>;
  /** Write and delete several keys in one transaction. */
  batch(writes: [string, unknown][], deletes: string[]): Promise<void>;
}

export class MemoryStorage implements RecordStorage {
  readonly kind = 'memory' as const;
  readonly #map = new Map<string, unknown>();
  async get<T>(key: string) {
    return this.#map.get(key) as T | undefined;
  }
  async set(key: string, value: unknown) {
    this.#map.set(key, value);
  }
  async delete(key: string) {
    this.#map.delete(key);
  }
  async update<T>(key: string, fn: (old: T | undefined) => T) {
    const v = fn(this.#map.get(key) as T | undefined);
    this.#map.set(key, v);
    return v;
  }
  async entries() {
    return [...this.#map.entries()];
  }
  async batch(writes: [string, unknown][], deletes: string[]) {
    for (const [k, v] of writes) this.#map.set(k, v);
    for (const k of deletes) this.#map.delete(k);
  }
}

/**
 * The given storage (IndexedDB in a page) when it works, memory when it does not. The first failure (unavailable, blocked,
 * foreign schema, quota) switches to memory for the rest of the page's life, keeping what was
 * already loaded, and calls `onDegrade` once so the hub can report it.
 */
export class ResilientStorage implements RecordStorage {
  #inner: RecordStorage;
  #memory = new MemoryStorage();
  #degraded?: string;
  constructor(
    inner: RecordStorage | (() => RecordStorage),
    private readonly onDegrade: (reason: string) => void,
  ) {
    try {
      this.#inner = typeof inner === 'function' ? inner() : inner;
    } catch (e) {
      this.#inner = this.#memory;
      this.#degraded = describe(e);
    }
  }
  get kind() {
    return this.#inner.kind;
  }
  /** Why storage fell back to memory, if it did. */
  get degradedReason() {
    return this.#degraded;
  }
  /** Check that the store can be read and written; degrade now rather than on first edit. */
  async probe(): Promise<void> {
    if (this.#degraded) {
      this.onDegrade(this.#degraded);
      return;
    }
    await this.#run((s) => s.set('meta:probe', Date.now()));
  }
  async #run<R>(op: (s: RecordStorage) => Promise<R>): Promise<R> {
    try {
      return await op(this.#inner);
    } catch (e) {
      if (this.#inner === this.#memory) throw new McpStorageError(`Storage failed: ${describe(e)}`, { cause: e });
      this.#degraded = describe(e);
      this.#inner = this.#memory;
      this.onDegrade(this.#degraded);
      return op(this.#memory);
    }
  }
  /** Copy records into the memory fallback so a later degrade keeps them. */
  remember(key: string, value: unknown | undefined) {
    if (this.#inner === this.#memory) return;
    if (value === undefined) void this.#memory.delete(key);
    else void this.#memory.set(key, value);
  }
  get<T>(key: string) {
    return this.#run((s) => s.get<T>(key));
  }
  set(key: string, value: unknown) {
    this.remember(key, value);
    return this.#run((s) => s.set(key, value));
  }
  delete(key: string) {
    this.remember(key, undefined);
    return this.#run((s) => s.delete(key));
  }
  update<T>(key: string, fn: (old: T | undefined) => T) {
    return this.#run(async (s) => {
      const v = await s.update(key, fn);
      if (s !== this.#memory) this.remember(key, v);
      return v;
    });
  }
  entries() {
    return this.#run((s) => s.entries());
  }
  batch(writes: [string, unknown][], deletes: string[]) {
    for (const [k, v] of writes) this.remember(k, v);
    for (const k of deletes) this.remember(k, undefined);
    return this.#run((s) => s.batch(writes, deletes));
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
