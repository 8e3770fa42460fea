// The answer of an authorization server, however it comes back: from a popup or a full-page
// redirect through the host's redirect page (`completeSignIn()` in callback.ts posts it on a
// BroadcastChannel, or leaves it in sessionStorage), or as the URL a host's own `open` ended on.
// Checked in the order RFC 9207 asks: expiry, then `iss` before anything else of it is believed,
// then an error, then the code. Plus the default redirect URI.
import { McpAuthError, McpElementsError } from '../errors.js';
import { ANSWER_KEY, type CallbackMessage } from './callback-keys.js';
import { authErrorIn } from './fetch.js';
import type { PendingSignIn } from './records.js';

/** The page's own URL (origin and path): the default redirect URI. */
export function pageUrl(): string | undefined {
  const here = (globalThis as { location?: Location }).location;
  if (!here?.origin || here.origin === 'null') return undefined;
  return `${here.origin}${here.pathname}`;
}

/** Any failure of a sign-in as an McpAuthError (ours pass through; the message says what failed). */
export function asAuthError(e: unknown): McpAuthError {
  const own = authErrorIn(e);
  if (own) return own;
  if (e instanceof McpElementsError) return new McpAuthError('sign-in-failed', e.message, { cause: e });
  return new McpAuthError('sign-in-failed', `Sign-in failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
}

/** The authorization response in a redirect URL, as the redirect page would send it. */
export function callbackFromUrl(url: string): CallbackMessage | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const p = u.searchParams;
  const state = p.get('state');
  if (!state) return undefined;
  const get = (k: string) => p.get(k) ?? undefined;
  return {
    type: 'mcp-elements:sign-in-callback',
    state,
    ...(get('code') !== undefined ? { code: get('code') } : {}),
    ...(get('iss') !== undefined ? { iss: get('iss') } : {}),
    ...(get('error') !== undefined ? { error: get('error') } : {}),
  };
}

/** The answer a redirect page left for this page after a full-page sign-in (taken: read once). */
export function takeRedirectAnswer(): CallbackMessage | undefined {
  const session = (globalThis as { sessionStorage?: Storage }).sessionStorage;
  const raw = session?.getItem(ANSWER_KEY);
  if (!session || !raw) return undefined;
  session.removeItem(ANSWER_KEY);
  try {
    return JSON.parse(raw) as CallbackMessage;
  } catch {
    return undefined;
  }
}

/** The code of an answer to `pending`, or the McpAuthError it amounts to. */
export function codeOf(
  msg: Extract<CallbackMessage, { type: 'mcp-elements:sign-in-callback' }>,
  pending: PendingSignIn,
  /** Whether more than one authorization server is in play for this hub (mix-up defence). */
  severalIssuers = false,
): string {
  if (Date.now() > pending.expiresAt) throw new McpAuthError('expired', 'The sign-in took too long; sign in again.');
  // RFC 9207: a response from another issuer is not acted on, not even its error
  if (msg.iss !== undefined && pending.issuer !== undefined && msg.iss !== pending.issuer)
    throw new McpAuthError(
      'issuer-mismatch',
      'The authorization response did not come from the authorization server sign-in started with (RFC 9207 iss check); it was refused.',
    );
  if (msg.error) {
    const code = /^[a-z_]{1,64}$/.test(msg.error) ? msg.error : 'error';
    throw new McpAuthError('access-denied', `The authorization server did not grant access (${code}).`);
  }
  // RFC 9700 §4.4.2: one redirect URI serves every authorization server, so with more than one
  // in play only `iss` tells which one answered; without it, a code could be another server's
  // (a mix-up): refuse it rather than send it to this sign-in's token endpoint
  if (msg.iss === undefined && severalIssuers)
    throw new McpAuthError(
      'issuer-missing',
      'The authorization response carries no iss, and this page signs in to more than one authorization server: it cannot tell which one answered (RFC 9700 mix-up defence), so the code was not used. The authorization server must send iss (RFC 9207).',
    );
  if (!msg.code) throw new McpAuthError('sign-in-failed', 'The authorization response carries no code.');
  return msg.code;
}
