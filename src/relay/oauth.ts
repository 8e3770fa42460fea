// OAuth documents through the relay. A page cannot reach an authorization server's metadata,
// registration or token endpoint without CORS, so their URLs are rewritten to relay URLs. The
// protected resource's `resource` is never rewritten: the token's audience stays the upstream
// server, never the relay. The authorization endpoint is left alone (the browser navigates to it).
import type { WellKnown } from './targets.js';

const RELAYED_ENDPOINTS = [
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'device_authorization_endpoint',
  'pushed_authorization_request_endpoint',
  'jwks_uri',
];

/** Rewrite a metadata document (parsed JSON) in place; `toRelay` maps an upstream URL. */
export function rewriteMetadata(kind: WellKnown, doc: Record<string, unknown>, toRelay: (url: string) => string): void {
  const map = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? toRelay(v) : v);
  if (kind === 'oauth-protected-resource') {
    if (Array.isArray(doc.authorization_servers)) doc.authorization_servers = doc.authorization_servers.map(map);
    return;
  }
  for (const key of RELAYED_ENDPOINTS) if (key in doc) doc[key] = map(doc[key]);
}

/** `resource_metadata="<url>"` of a WWW-Authenticate challenge, pointed at the relay. */
export function rewriteChallenge(value: string, toRelay: (url: string) => string): string {
  return value.replace(/resource_metadata="([^"]+)"/g, (_, url: string) => {
    try {
      return `resource_metadata="${toRelay(url)}"`;
    } catch {
      return '';
    }
  });
}
