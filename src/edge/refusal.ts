// The edge's one refusal: an HTTP status and a message that names no secret, thrown by every
// check of the kit (Host, CORS, body, SSRF rules) and by the relay and the backend hub's own, and
// answered as `{ "error": message }` JSON. Runtime-neutral.

/** Why a request was refused: an HTTP status and a message that names no secret. */
export class RelayRefusal extends Error {
  override name = 'RelayRefusal';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Set on the relay's own refusals (never passed from an upstream), so a client can tell the
 * relay's "not forwarded" from an upstream's 403 with the same words.
 */
export const RELAY_REFUSAL_HEADER = 'mcp-relay-refusal';

/** A refusal's answer: `{ "error": message }`, `Retry-After` on a 429, and `headers` (CORS, …). */
export function refusalResponse(refusal: RelayRefusal, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: refusal.message }), {
    status: refusal.status,
    headers: {
      'content-type': 'application/json',
      ...(refusal.status === 429 ? { 'retry-after': '60' } : {}),
      ...headers,
    },
  });
}
