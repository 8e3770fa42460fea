// A part that is a chunk of its own in the CDN build (the core's connection code and schema
// validator, an element's form or views, the G4F drop-in): imported once, the first time it is
// needed. A failed import is forgotten, so the next caller tries again; what the caller gets
// instead is the caller's to say (the core throws its typed error, an element logs and goes on).

/** `load` run once; its promise, or after a failure what `failed(cause)` returns or throws, which the next call retries. */
export function importOnce<T, F = never>(load: () => Promise<T>, failed: (cause: unknown) => F): () => Promise<T | F> {
  let loading: Promise<T | F> | undefined;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      return failed(e);
    }));
}

/** `importOnce` whose import the tests can replace (a chunk that cannot be fetched, or is slow). */
export function replaceableImport<T, F = never>(real: () => Promise<T>, failed: (cause: unknown) => F) {
  let load = importOnce(real, failed);
  return {
    load: () => load(),
    /** From now on, as on a fresh page: import through `replacement` (given the real import); without it, the real one. */
    replace(replacement?: (real: () => Promise<T>) => Promise<T>) {
      load = importOnce(replacement ? () => replacement(real) : real, failed);
    },
  };
}

/** A failure `importOnce` rethrows as `error(cause)`. */
export const rethrow =
  (error: (cause: unknown) => Error = (e) => e as Error) =>
  (cause: unknown): never => {
    throw error(cause);
  };

/** What a failed import tells the user: which part, why, and what to do. */
export const cannotLoad = (what: string, e: unknown) =>
  `Could not load mcp-elements' ${what} (${e instanceof Error ? e.message : String(e)}). ` +
  'Check the network, then reload the page (a browser keeps a failed module fetch until then).';
