// A page's record storage: IndexedDB (idb-keyval), one database per store name. Only the page
// shell (core/shell/page-shell.ts) picks it, so no other runtime's graph reaches idb-keyval.
import { createStore, get, set, del, entries, update, setMany, delMany, type UseStore } from 'idb-keyval';
import { McpStorageError } from '../errors.js';
import { ResilientStorage, type RecordStorage } from './storage.js';

export class IdbStorage implements RecordStorage {
  readonly kind = 'indexeddb' as const;
  readonly #store: UseStore;
  constructor(dbName: string) {
    this.#store = createStore(dbName, 'records');
  }
  get<T>(key: string) {
    return get<T>(key, this.#store);
  }
  set(key: string, value: unknown) {
    return set(key, value, this.#store);
  }
  delete(key: string) {
    return del(key, this.#store);
  }
  async update<T>(key: string, fn: (old: T | undefined) => T) {
    let result!: T;
    await update<T>(
      key,
      (old) => {
        result = fn(old);
        return result;
      },
      this.#store,
    );
    return result;
  }
  async entries() {
    return (await entries<IDBValidKey, unknown>(this.#store)).map(([k, v]) => [String(k), v] as [string, unknown]);
  }
  async batch(writes: [string, unknown][], deletes: string[]) {
    if (writes.length) await setMany(writes, this.#store);
    if (deletes.length) await delMany(deletes, this.#store);
  }
}

/** A storage for `dbName`: IndexedDB if the runtime has it, else memory (reported as degraded). */
export function defaultStorage(dbName: string, onDegrade: (reason: string) => void): ResilientStorage {
  return new ResilientStorage(() => {
    if (typeof indexedDB === 'undefined') throw new McpStorageError('IndexedDB is not available in this context');
    return new IdbStorage(dbName);
  }, onDegrade);
}
