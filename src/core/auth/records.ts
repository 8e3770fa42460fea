// What sign-in keeps in the vault, and the names it keeps it under: a server's tokens (with the
// issuer and the RFC 8707 resource they were issued for), client registrations by issuer and
// redirect URI, and the sign-ins in progress (state, PKCE verifier, discovery) by `state`, which
// expire after ten minutes. Everything here is sealed (encrypted); the summary derived from a
// token set (`summaryOf`) is the only part that is stored or shown in clear, and holds no secret.
import type { OAuthDiscoveryState, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { HubContext } from '../context.js';
import type { SignInState } from '../types.js';
import type { Vault } from '../persistence/vault.js';
import { withLock } from './locks.js';

/**
 * Sign-ins a server's 401 / 403 may prepare without the user's click (discovery, registration,
 * a pending record), per server and window; beyond, the click prepares one.
 */
export const UNPROMPTED_MAX = 3;
export const UNPROMPTED_WINDOW_MS = 10 * 60 * 1000;
/** How long a started sign-in (state, PKCE verifier) stays usable. */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** Prefix of every `state` the hub sends, so a redirect page can tell a sign-in of ours. */
export const STATE_PREFIX = 'mcpe.';

/** Tokens as kept in the vault for one server. */
export interface TokenSet {
  readonly issuer: string;
  /** The RFC 8707 resource the tokens were issued for: they go to no other URL. */
  readonly resource: string;
  /** The relay the tokens were obtained through (a relay sees them): they go through no other. */
  readonly relay?: string;
  readonly tokens: StoredOAuthTokens;
  readonly obtainedAt: number;
  readonly signedInAt: number;
  /** Who signed in, for display (from the ID token's claims; the ID token itself is not kept). */
  readonly account?: string;
}

/** A sign-in in progress, as kept in the vault until the authorization server answers. */
export interface PendingSignIn {
  readonly serverId: string;
  readonly state: string;
  readonly verifier: string;
  /** The authorization URL (holds the state and the PKCE challenge, never the verifier). */
  readonly url: string;
  /** The relay the sign-in started through: the code is redeemed through no other. */
  readonly relay?: string;
  readonly issuer?: string;
  readonly discovery?: OAuthDiscoveryState;
  readonly scope?: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Set for a full-page redirect: where to send the user back after signing in. */
  readonly returnTo?: string;
  /**
   * The redirect URI the authorization request carried: the code is redeemed with it (RFC 6749
   * §4.1.3), whichever tab or redirect option redeems it. Absent in records of older versions.
   */
  readonly redirectUrl?: string;
}

/** Vault names (the vault adds `secret:`). */
export const names = {
  tokens: (serverId: string) => `oauth:tokens:${serverId}`,
  /** Keyed by `state`: a sign-in opened in a popup stays valid when another one is prepared. */
  pending: (state: string) => `oauth:pending:${state}`,
  client: (issuer: string, redirectUrl: string) => `oauth:client:${issuer} ${redirectUrl}`,
};

/** A fresh `state` value: 24 random bytes, base64url, after the hub's prefix. */
export function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return (
    STATE_PREFIX +
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
  );
}

/** When the access token expires (epoch ms), if the server said. */
export function expiresAt(set: TokenSet): number | undefined {
  const s = set.tokens.expires_in;
  return typeof s === 'number' && s > 0 ? set.obtainedAt + s * 1000 : undefined;
}

/** What the state and events show of a token set: no token, only issuer, account, scopes, expiry. */
export function summaryOf(set: TokenSet): SignInState {
  const end = expiresAt(set);
  return Object.freeze({
    status: 'signed-in' as const,
    issuer: set.issuer,
    ...(set.account ? { account: set.account } : {}),
    scopes: Object.freeze((set.tokens.scope ?? '').split(' ').filter(Boolean)),
    ...(end ? { expiresAt: end } : {}),
    refreshable: !!set.tokens.refresh_token,
    signedInAt: set.signedInAt,
  });
}

/**
 * Take a pending sign-in out of the vault for server `serverId`: two tabs of a store may both
 * hold it, and only the one that claims it (under a lock) redeems the code.
 */
export function claimPending(
  vault: Vault,
  storeName: string,
  state: string,
  serverId: string,
): Promise<PendingSignIn | undefined> {
  return withLock(`mcp-elements:${storeName}:sign-in:${state}`, async () => {
    const p = await vault.unseal<PendingSignIn>(names.pending(state));
    if (!p || p.state !== state || p.serverId !== serverId) return undefined;
    await vault.remove(names.pending(state));
    return p;
  });
}

/** The issuers of every sign-in in progress in the vault (this tab's and other tabs'). */
export async function pendingIssuers(ctx: Pick<HubContext, 'storage' | 'vault'>): Promise<string[]> {
  const entries = await ctx.storage.entries().catch(() => [] as [string, unknown][]);
  const prefix = `secret:${names.pending('')}`;
  const found = await Promise.all(
    entries
      .filter(([key]) => key.startsWith(prefix))
      .map(([key]) => ctx.vault.unseal<PendingSignIn>(names.pending(key.slice(prefix.length))).catch(() => undefined)),
  );
  return found.flatMap((p) => (p?.issuer && p.expiresAt >= Date.now() ? [p.issuer] : []));
}

/**
 * Forget every sign-in in progress of a server (signed out of, removed or moved), and every
 * expired one; without a server, only the expired ones (on load).
 */
export async function dropPending(ctx: Pick<HubContext, 'storage' | 'vault'>, serverId?: string): Promise<void> {
  const entries = await ctx.storage.entries().catch(() => [] as [string, unknown][]);
  const prefix = `secret:${names.pending('')}`;
  await Promise.all(
    entries
      .filter(([key]) => key.startsWith(prefix))
      .map(async ([key]) => {
        const state = key.slice(prefix.length);
        const p = await ctx.vault.unseal<PendingSignIn>(names.pending(state));
        // those of this server, and any that expired (nobody can use them any more)
        if (!p || p.serverId === serverId || p.expiresAt < Date.now())
          await ctx.vault.remove(names.pending(state)).catch(() => {});
      }),
  );
}
