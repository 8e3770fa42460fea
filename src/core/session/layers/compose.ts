// A fetch as declared layers, the MCP SDK's `Middleware` / `applyMiddlewares` shape
// (packages/client/src/client/middleware.ts): each layer takes the fetch below it and returns the
// fetch it offers above; a stack is the base and its layers listed from the network up. What a
// layer needs is given when it is made (its arguments), never reached for later.

/** One layer of a fetch stack. */
export type FetchLayer = (next: typeof fetch) => typeof fetch;

/** `base` under `layers`, listed from the network up (the last one is what the caller calls); absent ones are skipped. */
export function composeFetch(
  base: typeof fetch | undefined,
  layers: readonly (FetchLayer | false | undefined)[],
): typeof fetch {
  let f = base ?? platformFetch;
  for (const layer of layers) if (layer) f = layer(f);
  return f;
}

/** The platform's fetch, looked up at each request (a host or a test may replace it later). */
const platformFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
