// The shape every edge handler has (the relay, the backend's chat handler): a standard Fetch
// handler, and what its adapter (Node's serveHandler, lambdaHandler, a Worker) knows beside the
// Request. Runtime-neutral.

/** What an adapter knows beside the Request. */
export interface EdgeRequestInfo {
  /** The client's address, when the adapter knows it. */
  clientAddress?: string;
  /** The `Host` the adapter serves (its bound address, the platform's domain), when it knows it. */
  host?: string;
}

/** A Fetch handler an adapter serves. */
export type EdgeHandler = (request: Request, info?: EdgeRequestInfo) => Promise<Response>;
