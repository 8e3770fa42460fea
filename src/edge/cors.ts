// CORS for the page origins an edge handler serves: which origins are answered at all, the
// headers every answer carries, and the preflight's answer. Never `*` with credentials: no edge
// handler takes credentials from a browser (a page sends its servers' tokens as headers).
// Runtime-neutral.
import { RELAY_REFUSAL_HEADER } from './refusal.js';
import { passesRequest } from './request-headers.js';

/** What a page may read of an answer: an MCP session's headers, sign-in's, and the refusal mark. */
export const EXPOSED = [
  'mcp-session-id',
  'mcp-protocol-version',
  'www-authenticate',
  'dpop-nonce',
  'retry-after',
  RELAY_REFUSAL_HEADER,
].join(', ');

/** CORS for the configured origins (`*` for any). */
export class Cors {
  readonly #origins: Set<string>;
  readonly #any: boolean;
  constructor(origins: readonly string[] = []) {
    this.#any = origins.includes('*');
    this.#origins = new Set(origins.filter((o) => o !== '*').map((o) => new URL(o).origin));
  }

  /** Whether a request from `origin` (null: not a browser request) is served at all. */
  allows(origin: string | null): boolean {
    return origin === null || this.#any || this.#origins.has(origin);
  }

  /** Headers added to every answer for `origin`. */
  headers(origin: string | null): Record<string, string> {
    if (origin === null || !this.allows(origin)) return { vary: 'Origin' };
    return {
      'access-control-allow-origin': this.#any ? '*' : origin,
      'access-control-expose-headers': EXPOSED,
      vary: 'Origin',
    };
  }

  /** The answer to a preflight; 403 for an origin not served. */
  preflight(request: Request): Response {
    const origin = request.headers.get('origin');
    if (!origin || !this.allows(origin))
      return new Response('origin not allowed by this relay', { status: 403, headers: { vary: 'Origin' } });
    const asked = (request.headers.get('access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h && passesRequest(h));
    return new Response(null, {
      status: 204,
      headers: {
        ...this.headers(origin),
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': [...new Set(['content-type', 'authorization', ...asked])].join(', '),
        'access-control-max-age': '600',
      },
    });
  }
}
