// A part of an element that is a chunk of its own in the CDN build (the explorer's "Try it"
// form, the manager's form, the answer views): imported once per page, the first time it is
// needed. A failed import is logged and forgotten, so the next call tries again; callers get
// `undefined` and show that the part could not be loaded.

/** `load` run once; its promise, or `undefined` after a failure that the next call retries. */
export function importOnce<T>(what: string, load: () => Promise<T>): () => Promise<T | undefined> {
  let loading: Promise<T | undefined> | undefined;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      console.error(`mcp-elements: could not load ${what}:`, e);
      return undefined;
    }));
}

/** `importOnce` whose import the tests can replace (a chunk that cannot be fetched). */
export function replaceableImport<T>(what: string, real: () => Promise<T>) {
  let load = importOnce(what, real);
  return {
    load: () => load(),
    /** From now on: import through `replacement` (given the real import); without it, the real one. */
    replace(replacement?: (real: () => Promise<T>) => Promise<T>) {
      load = importOnce(what, replacement ? () => replacement(real) : real);
    },
  };
}
