// Who signed in, for display only: the name an OpenID ID token's payload gives (`name`, else
// `preferred_username`, else `email`). The token is not verified — nothing is decided on it, the
// name is only shown — and never kept: only the cleaned name is (SignInState.account).
// Anything malformed (not three parts, bad base64url, not JSON, claims that are not strings)
// gives no name and changes nothing else.

/** Longest account name shown (characters); longer ones end with "…". */
export const ACCOUNT_MAX = 80;
/** An ID token longer than this is not read (a payload of claims is a few hundred bytes). */
const TOKEN_MAX = 64 * 1024;
// C0, DEL, C1, and the bidirectional and zero-width formatting characters a name could use to
// disguise the text around it
// eslint-disable-next-line no-control-regex
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

function payloadOf(idToken: string): Record<string, unknown> | undefined {
  if (idToken.length > TOKEN_MAX) return undefined;
  const parts = idToken.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return undefined;
  try {
    const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A claim's value as a name to show: a string, cleaned, trimmed and capped; else undefined. */
function shown(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(UNSHOWN, '').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  const chars = [...text];
  return chars.length > ACCOUNT_MAX
    ? `${chars
        .slice(0, ACCOUNT_MAX - 1)
        .join('')
        .trimEnd()}…`
    : text;
}

/**
 * The account name an ID token names (`name`, `preferred_username` or `email`), cleaned for
 * display; undefined for anything else (no ID token, a malformed one, no such claim). Never `sub`:
 * an opaque identifier is no name.
 */
export function accountOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  const claims = payloadOf(idToken);
  if (!claims) return undefined;
  return shown(claims.name) ?? shown(claims.preferred_username) ?? shown(claims.email);
}
