// Keeping a server's tokens fresh without asking the user: the `AuthProvider` the transports
// call (a token before every request, a second chance on 401), refresh ahead of expiry, and
// refresh on 401. Every exchange runs one at a time per server and across tabs (`single`):
// with rotating refresh tokens two refreshes would present the same token twice, and most
// authorization servers then revoke the whole grant. Inside, the tokens are re-read from the
// vault, so a refresh another request or tab already did is used instead of refreshing again.
import { extractWWWAuthenticateParams, type AuthProvider } from '@modelcontextprotocol/client';
import { McpAuthError } from '../errors.js';
import type { PendingSignIn, TokenSet } from './records.js';

/** What refreshing needs of a server's OAuth client. */
export interface Refreshable {
  tokenSet(reload?: boolean): Promise<TokenSet | undefined>;
  forgetTokens(): Promise<void>;
  scopeFor(extra?: string): string | undefined;
  /** One OAuth exchange at a time per server, across tabs. */
  single<T>(fn: () => Promise<T>): Promise<T>;
  /** The SDK's auth() without a code: a refresh, or an authorization URL (`REDIRECT`). */
  authorize(options: { scope?: string; resourceMetadataUrl?: URL }): Promise<'AUTHORIZED' | 'REDIRECT'>;
  /** Forget the discovered metadata: the next exchange discovers afresh. */
  rediscover(): void;
  /** Keep the authorization URL auth() prepared, for the user's click. */
  keepDraft(scope: string | undefined): Promise<PendingSignIn>;
  /** Whether a sign-in may be prepared without a click now (counts it). */
  mayPrepareUnprompted(): boolean;
  /** Forget the prepared sign-in: the click prepares a new one. */
  dropPrepared(): Promise<void>;
}

/** A token obtained at `obtainedAt`, for `expiresIn` seconds, is renewed once less than a minute, or half its life, is left. */
export function renewDue(obtainedAt: number, expiresIn: unknown, now = Date.now()): boolean {
  if (typeof expiresIn !== 'number' || expiresIn <= 0) return false;
  const end = obtainedAt + expiresIn * 1000;
  return end - now < Math.min(60_000, (end - obtainedAt) / 2);
}

/** Refresh once less than a minute, or half the token's life, is left. */
export function dueForRefresh(set: TokenSet, now = Date.now()): boolean {
  return renewDue(set.obtainedAt, set.tokens.expires_in, now);
}

export function signInRequired(scope?: string): McpAuthError {
  return new McpAuthError('sign-in-required', 'Sign in to use this server.', scope ? { scope } : undefined);
}

/** Refresh now unless someone (another tab) already did since `stale` was read. */
export function refreshTokens(o: Refreshable, stale: TokenSet | undefined): Promise<void> {
  return o.single(async () => {
    const fresh = await o.tokenSet(true);
    if (fresh && stale && fresh.tokens.access_token !== stale.tokens.access_token && !dueForRefresh(fresh)) return;
    if (!fresh?.tokens.refresh_token) throw signInRequired();
    const result = await o.authorize({});
    if (result === 'REDIRECT') {
      await o.keepDraft(undefined);
      throw signInRequired();
    }
  });
}

/** The transport's view of a server's OAuth client. */
export function transportAuth(o: Refreshable): AuthProvider {
  let lastSent: string | undefined;
  return {
    token: async () => {
      let set = await o.tokenSet();
      if (!set) return undefined;
      if (dueForRefresh(set) && set.tokens.refresh_token) {
        // a failed refresh leaves the current token: the server decides, and a 401 comes back here
        await refreshTokens(o, set).catch(() => {});
        set = await o.tokenSet();
      }
      lastSent = set?.tokens.access_token;
      return lastSent;
    },
    onUnauthorized: async ({ response }) => {
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      const sent = lastSent;
      const asked = o.scopeFor(scope);
      await o.single(async () => {
        const fresh = await o.tokenSet(true);
        // another request (or tab) renewed the token meanwhile: retry with it
        if (fresh && fresh.tokens.access_token !== sent && !dueForRefresh(fresh)) return;
        if (fresh && !fresh.tokens.refresh_token) await o.forgetTokens();
        // nothing to refresh: this 401 would only prepare a sign-in; a server answering 401 to
        // everything gets a few, then the user's click prepares one (issue 27 item 5)
        if (!fresh?.tokens.refresh_token && !o.mayPrepareUnprompted()) {
          await o.dropPrepared();
          throw signInRequired(scope);
        }
        // a refused token is when a server may have moved to another authorization server
        // (SEP-2352): discover afresh, so the refresh or the new sign-in goes to the right one
        o.rediscover();
        const result = await o.authorize({
          ...(asked ? { scope: asked } : {}),
          ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        });
        if (result === 'REDIRECT') {
          // the refresh token (if any) was refused, or there was none: the user must sign in;
          // the authorization URL is ready for their click
          await o.keepDraft(asked);
          if ((await o.tokenSet(true)) !== undefined) await o.forgetTokens();
          throw signInRequired(scope);
        }
      });
    },
  };
}
