// What the rest of the hub (sign-in's fetch, the core's exports) needs of the transports' fetch
// without loading it: the CORS hint and which requests are cross-origin and preflighted.
// session/fetch.ts is in the connection chunk; this is on the first load.

/** Whether a revision has the `Mcp-Protocol-Version` header (2025-06-18 and later). */
export function sendsVersionHeader(revision: string): boolean {
  return revision >= '2025-06-18';
}

/**
 * The request headers an MCP client of `revision` sends that a CORS preflight must allow (all
 * revisions' when it is not known yet), besides content-type and authorization.
 */
export function mcpHeaders(revision?: string): string[] {
  if (!revision)
    return ['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-param-*', 'last-event-id'];
  if (revision >= '2026-07-28') return ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-param-*'];
  return sendsVersionHeader(revision)
    ? ['mcp-session-id', 'mcp-protocol-version', 'last-event-id']
    : ['mcp-session-id', 'last-event-id'];
}

/** The CORS headers a browser client of `revision` (any, when not known) needs from a server. */
export function corsHint(revision?: string): string {
  const names = mcpHeaders(revision).map((h) =>
    h === 'mcp-param-*' ? 'mcp-param-* (each tool parameter the server mirrors into a header)' : h,
  );
  const sessions = names.includes('mcp-session-id');
  return (
    "A browser client needs these CORS headers from the server: Access-Control-Allow-Origin (this page's " +
    `origin, or *), Access-Control-Allow-Headers including content-type, ${names.join(', ')}, authorization ` +
    `(and any custom auth header)${sessions ? ', and Access-Control-Expose-Headers: mcp-session-id' : ''}.`
  );
}

/** What a browser client of any revision needs (see `corsHint`). */
export const CORS_HINT = corsHint();

/** Headers on a request that a CORS preflight must allow (everything but CORS-safelisted ones). */
export function preflightHeaders(init: RequestInit | undefined): string[] {
  const h = new Headers(init?.headers);
  const names: string[] = [];
  h.forEach((value, name) => {
    if (name === 'accept' || name === 'accept-language' || name === 'content-language') return;
    if (
      name === 'content-type' &&
      /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)/i.test(value)
    )
      return;
    names.push(name);
  });
  return names.sort();
}

export function crossOrigin(url: string): boolean {
  const here = (globalThis as { location?: Location }).location;
  if (!here?.origin || here.origin === 'null') return false;
  try {
    return new URL(url).origin !== here.origin;
  } catch {
    return false;
  }
}
