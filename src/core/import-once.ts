// A part of the core that is a chunk of its own in the CDN build (the connection code, the
// schema validator): imported once, the first time it is needed. A failed import is forgotten,
// so the next caller tries again, and rejects with the caller's typed error.

/** `load` run once; its promise, or after a failure `fail(cause)`, which the next call retries. */
function importOnce<T>(load: () => Promise<T>, fail: (cause: unknown) => Error): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      throw fail(e);
    }));
}

/** `importOnce` whose import the tests can replace (a chunk that cannot be fetched, or is slow). */
export function replaceableImport<T>(real: () => Promise<T>, fail: (cause: unknown) => Error) {
  let load = importOnce(real, fail);
  return {
    load: () => load(),
    /** From now on, as on a fresh page: import through `replacement` (given the real import); without it, the real one. */
    replace(replacement?: (real: () => Promise<T>) => Promise<T>) {
      load = importOnce(replacement ? () => replacement(real) : real, fail);
    },
  };
}

/** What a failed import tells the user: which part, why, and what to do. */
export const cannotLoad = (what: string, e: unknown) =>
  `Could not load mcp-elements' ${what} (${e instanceof Error ? e.message : String(e)}). ` +
  'Check the network, then reload the page (a browser keeps a failed module fetch until then).';
