// One holder at a time per name, across the tabs of an origin where the Web Locks API exists
// (every current browser), else within this page. Refreshing a rotating refresh token from two
// tabs at once would present the old token twice, and an authorization server that detects the
// reuse revokes the whole grant: the lock makes the second tab wait and then find fresh tokens.
interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

const chains = new Map<string, Promise<unknown>>();

/** Run `fn` holding the lock `name`. */
export function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (locks && typeof locks.request === 'function') return locks.request(name, fn);
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => {});
  chains.set(name, tail);
  void tail.then(() => {
    if (chains.get(name) === tail) chains.delete(name);
  });
  return run;
}
