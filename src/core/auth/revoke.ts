// Sign-out's part on tokens: revocation (RFC 7009), the refresh token first (revoking it ends
// the grant at most servers), then the access token. Best effort: the tokens, the pending
// sign-ins and (unless another server of the issuer uses it) the DCR registration are wiped
// locally whatever the authorization server says. A redirect from the revocation endpoint is
// followed only within its origin (session/redirects.ts): the body carries the tokens.
import {
  discoverAuthorizationServerMetadata,
  selectClientAuthMethod,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { HubContext } from '../context.js';
import type { ServerConfig } from '../schemas.js';
import type { Vault } from '../persistence/vault.js';
import { forgetDpopKey } from './dpop.js';
import { OAuthFetch } from './fetch.js';
import { fetchThroughRelay } from '../relay-url.js';
import { fetchWithinOrigin } from '../session/redirects.js';
import { dropPending, names, type TokenSet } from './records.js';

export interface RevokeContext {
  vault: Vault;
  fetch?: typeof fetch;
  redirectUrl: string;
  /** A pre-registered client id, if the server's config has one. */
  clientId?: string;
  /** The authorization server metadata, when already discovered. */
  metadata?: Readonly<Record<string, unknown>>;
  timeoutMs: number;
}

/** Revoke a server's tokens; true when the authorization server revoked the grant (the refresh token, else the access token). */
export async function revokeTokens(set: TokenSet, c: RevokeContext): Promise<boolean> {
  const log = new OAuthFetch(c.fetch, c.timeoutMs);
  const metadata =
    c.metadata?.issuer === set.issuer
      ? c.metadata
      : ((await discoverAuthorizationServerMetadata(set.issuer, { fetchFn: log.fetch }).catch(() => undefined)) as
          Readonly<Record<string, unknown>> | undefined);
  const endpoint = typeof metadata?.revocation_endpoint === 'string' ? metadata.revocation_endpoint : undefined;
  if (!endpoint) return false;
  const client: StoredOAuthClientInformation | undefined = c.clientId
    ? { client_id: c.clientId }
    : await c.vault.unseal<StoredOAuthClientInformation>(names.client(set.issuer, c.redirectUrl));
  if (!client) return false;
  const supported = Array.isArray(metadata?.revocation_endpoint_auth_methods_supported)
    ? (metadata.revocation_endpoint_auth_methods_supported as string[])
    : Array.isArray(metadata?.token_endpoint_auth_methods_supported)
      ? (metadata.token_endpoint_auth_methods_supported as string[])
      : [];
  const method = selectClientAuthMethod(client, supported);
  const revoke = async (token: string, hint: 'refresh_token' | 'access_token') => {
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    const body = new URLSearchParams({ token, token_type_hint: hint });
    if (method === 'client_secret_basic' && client.client_secret)
      headers.set(
        'authorization',
        `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`)}`,
      );
    else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
    }
    // the body holds the token (and maybe the client secret): a redirect to another origin is
    // refused, never replayed there
    const res = await fetchWithinOrigin(log.fetch, endpoint, { method: 'POST', headers, body });
    await res.text().catch(() => '');
    return res.ok;
  };
  // revoking the refresh token ends the grant; a self-contained (JWT) access token often cannot
  // be revoked (`unsupported_token_type`, RFC 7009 §2.2.1) and simply expires: ask anyway
  const refreshRevoked = set.tokens.refresh_token
    ? await revoke(set.tokens.refresh_token, 'refresh_token').catch(() => false)
    : undefined;
  const accessRevoked = await revoke(set.tokens.access_token, 'access_token').catch(() => false);
  return refreshRevoked ?? accessRevoked;
}

/**
 * Revoke (best effort) and wipe server `serverId`'s tokens and pending sign-ins; with
 * `dropRegistration`, its DCR registration too unless configured or used by another signed-in
 * server of the same issuer. True when the authorization server revoked the grant.
 */
export async function revokeAndWipe(
  ctx: Pick<HubContext, 'vault' | 'fetch' | 'storage' | 'store'>,
  serverId: string,
  c: {
    cfg: ServerConfig;
    server?: {
      tokenSet(reload?: boolean): Promise<TokenSet | undefined>;
      metadata?: Readonly<Record<string, unknown>>;
    };
    redirectUrl: string;
    dropRegistration: boolean;
  },
): Promise<boolean> {
  let revoked = false;
  const configuredId = c.cfg.auth.type === 'oauth' ? c.cfg.auth.clientId : undefined;
  try {
    const set = c.server ? await c.server.tokenSet(true).catch(() => undefined) : undefined;
    const raw = set ?? (await ctx.vault.unseal<TokenSet>(names.tokens(serverId)));
    if (raw) {
      revoked = await revokeTokens(raw, {
        vault: ctx.vault,
        fetch: c.cfg.relay ? fetchThroughRelay(c.cfg.relay, ctx.fetch) : ctx.fetch,
        redirectUrl: c.redirectUrl,
        clientId: configuredId,
        metadata: c.server?.metadata,
        timeoutMs: c.cfg.timeout * 1000,
      }).catch(() => false);
      if (c.dropRegistration && !configuredId) {
        const others = Object.values(ctx.store.state.signIns).filter((s) => s.issuer === raw.issuer).length;
        if (others <= 1) await ctx.vault.remove(names.client(raw.issuer, c.redirectUrl));
      }
    }
  } finally {
    await ctx.vault.remove(names.tokens(serverId)).catch(() => {});
    await forgetDpopKey(ctx.storage, serverId);
    await dropPending(ctx, serverId);
  }
  return revoked;
}
