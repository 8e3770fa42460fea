// Redirects on the hub's own fetches (plain JSON-RPC, the CORS diagnosis): a request carries the
// server's credentials (api keys, bearer tokens, secret headers), and a browser replays them on
// any redirect it follows, to any origin. Like the SDK's transports, follow a redirect only
// within the origin and keeping the method; refuse anything else with a typed error, having
// sent nothing to where it points.
import { McpConnectionError } from '../errors.js';

const MAX_HOPS = 5;

/** Where a redirect points (no query, fragment or credentials), for a message. */
function shown(target: URL): string {
  const t = new URL(target.href);
  t.username = t.password = t.search = t.hash = '';
  return t.href;
}

export function redirectRefused(where: string): McpConnectionError {
  return new McpConnectionError(
    'redirect',
    `The server answered with a redirect ${where}; it was not followed, because the request carries ` +
      "this server's credentials. If that address is the right server, use it as the server's URL.",
  );
}

/**
 * `fetchFn(url, init)` with `redirect: 'manual'`: a redirect within the origin that keeps the
 * method (307/308, or any for GET) is followed where the runtime shows its target (Node); one to
 * another origin, or one a browser hides (an opaque redirect), is refused (McpConnectionError
 * `redirect`).
 */
export async function fetchWithinOrigin(fetchFn: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  let current = new URL(url);
  const method = (init.method ?? 'GET').toUpperCase();
  for (let hop = 0; ; hop++) {
    const res = await fetchFn(current.href, { ...init, redirect: 'manual' });
    if (res.type === 'opaqueredirect') {
      void res.body?.cancel();
      throw redirectRefused('(the browser does not show where to)');
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location === null) return res;
    void res.body?.cancel();
    const target = new URL(location, current);
    const keepsMethod = method === 'GET' || res.status === 307 || res.status === 308;
    if (target.origin !== current.origin || !keepsMethod || target.username || target.password || hop >= MAX_HOPS)
      throw redirectRefused(`to ${shown(target)}`);
    current = target;
  }
}

/** The SDK's transports refuse the same redirects; their messages say so. */
export const SDK_REDIRECT = /Redirect (?:not followed|to \S+ not followed|from https to plain http not followed)/;
