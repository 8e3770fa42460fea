// What the rest of the hub (sign-in's fetch, the core's exports) needs of the transports' fetch
// without loading it: the CORS hint and which requests are cross-origin and preflighted.
// session/fetch.ts is in the connection chunk; this is on the first load.

export const CORS_HINT =
  'If the server is running, it most likely does not send the CORS headers a browser client needs: ' +
  "Access-Control-Allow-Origin (this page's origin, or *), Access-Control-Allow-Headers including " +
  'content-type, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, mcp-param-* (each tool parameter ' +
  'the server mirrors into a header), authorization, last-event-id (and any custom auth header), ' +
  'and Access-Control-Expose-Headers: mcp-session-id.';

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
