// Machine credentials (the `client_credentials` grant, no user): the SDK's auth() discovers the
// authorization server and asks its token endpoint; this provider gives it the client id and
// the secret (opened from the vault when needed) or a client assertion signed with a
// non-extractable key (`private_key_jwt`, client-keys.ts), the grant, and keeps the access token
// in memory only — a new one is one request away, so nothing long-lived is stored beyond the
// secret or key itself. Tokens are renewed ahead of expiry and on 401, one request at a time.
// The same client runs the JWT-bearer grant (`jwt-bearer`, jwt-bearer.ts): the host's assertion,
// exchanged for an ID-JAG at the identity provider first (`id-jag`) or sent as is (`workload`).
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type * as Sdk from '@modelcontextprotocol/client';
import type { HubContext } from '../context.js';
import { McpAuthError } from '../errors.js';
import type { ServerConfig } from '../schemas.js';
import type { SecretRef } from '../schemas.js';
import type { Vault } from '../persistence/vault.js';
import type { ClientKeys } from './client-keys.js';
import { OAuthFetch, toAuthError } from './fetch.js';
import { fetchThroughRelay } from '../relay-url.js';
import { exchangeForIdJag, hostAssertion, idpNotAllowed, JWT_BEARER_GRANT, type IdentityPolicy } from './jwt-bearer.js';

export type { IdentityPolicy } from './jwt-bearer.js';

const NO_IDENTITY: IdentityPolicy = { sources: new Map(), idpAllowed: () => false };
import { renewDue } from './refresh.js';
import { canonicalJson } from '../canonical-json.js';

/** The stored settings of a server with machine credentials. */
export interface MachineConfig {
  readonly url: string;
  readonly timeout: number;
  readonly name?: string;
  /** The relay the server is reached through: the token requests go through it too. */
  readonly relay?: string;
  readonly auth: {
    readonly type: 'client-credentials' | 'jwt-bearer';
    readonly clientId: string;
    readonly clientSecret?: SecretRef | string;
    readonly keyId?: string;
    readonly method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
    readonly scopes?: readonly string[];
    readonly flow?: 'id-jag' | 'workload';
    readonly idp?: {
      readonly tokenEndpoint: string;
      readonly clientId: string;
      readonly clientSecret?: SecretRef | string;
    };
  };
}

/** Whether a server's auth kind is machine credentials (a token without a user's sign-in). */
export const isMachine = (type: string | undefined): type is MachineConfig['auth']['type'] =>
  type === 'client-credentials' || type === 'jwt-bearer';

export class MachineOAuth implements Sdk.OAuthClientProvider {
  #tokens?: { tokens: Sdk.StoredOAuthTokens; obtainedAt: number };
  #secret?: string;
  #discovery?: Sdk.OAuthDiscoveryState;
  #busy?: Promise<void>;
  #lastSent?: string;
  /** Where the SDK's discovery found the authorization server (issuer) and the resource. */
  #issuer?: string;
  #resource?: string;
  #fetchFn?: typeof fetch;

  constructor(
    private readonly vault: Vault,
    private readonly config: () => MachineConfig | undefined,
    private readonly fetchImpl?: typeof fetch,
    private readonly keys?: ClientKeys,
    private readonly identity: IdentityPolicy = NO_IDENTITY,
    private readonly serverId = '',
  ) {}

  /**
   * `private_key_jwt` (RFC 7523 §2.2): a fresh client assertion for every token request, its
   * audience the authorization server's issuer identifier. Undefined for the secret methods,
   * which the SDK applies itself.
   */
  get addClientAuthentication(): Sdk.AddClientAuthentication | undefined {
    const a = this.config()?.auth;
    if (a?.method !== 'private_key_jwt') return undefined;
    return async (_headers, params, url, metadata) => {
      if (!a.keyId || !this.keys) throw new McpAuthError('token-request-failed', 'No client key is configured.');
      const audience = metadata?.issuer ?? String(url);
      params.set('client_id', a.clientId);
      params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      params.set('client_assertion', await this.keys.assertion(a.keyId, a.clientId, audience));
    };
  }

  get #config(): MachineConfig {
    const c = this.config();
    if (!c) throw new McpAuthError('sign-in-failed', 'The server was removed.');
    return c;
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): Sdk.OAuthClientMetadata {
    const scopes = this.config()?.auth.scopes;
    return {
      redirect_uris: [],
      grant_types: [this.config()?.auth.type === 'jwt-bearer' ? JWT_BEARER_GRANT : 'client_credentials'],
      token_endpoint_auth_method: this.config()?.auth.method ?? 'client_secret_basic',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  clientInformation(ctx?: Sdk.OAuthClientInformationContext): Sdk.StoredOAuthClientInformation {
    const { auth: a } = this.#config;
    return {
      client_id: a.clientId,
      ...(this.#secret ? { client_secret: this.#secret } : {}),
      token_endpoint_auth_method: a.method,
      ...(ctx?.issuer ? { issuer: ctx.issuer } : {}),
    } as Sdk.StoredOAuthClientInformation;
  }

  tokens(): Sdk.StoredOAuthTokens | undefined {
    return this.#tokens?.tokens;
  }

  saveTokens(tokens: Sdk.StoredOAuthTokens): void {
    this.vault.remember(tokens.access_token);
    this.#tokens = { tokens, obtainedAt: Date.now() };
  }

  redirectToAuthorization(): void {
    throw new McpAuthError('sign-in-failed', 'Machine credentials never send a user to sign in.');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new McpAuthError('sign-in-failed', 'Machine credentials use no PKCE verifier.');
  }

  saveDiscoveryState(state: Sdk.OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): Sdk.OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  saveAuthorizationServerUrl(issuer: string): void {
    this.#issuer = issuer;
  }

  saveResourceUrl(resource: string): void {
    this.#resource = resource;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const c = this.#config;
    const configured = c.auth.scopes?.join(' ');
    const asked = [...new Set([...(configured?.split(' ') ?? []), ...(scope?.split(' ') ?? [])])].filter(Boolean);
    const params =
      c.auth.type === 'jwt-bearer'
        ? new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await this.#grant(c, asked.join(' ')) })
        : new URLSearchParams({ grant_type: 'client_credentials' });
    if (asked.length) params.set('scope', asked.join(' '));
    return params;
  }

  /** The JWT-bearer grant: the host's assertion, exchanged at the identity provider for an ID-JAG first (`id-jag`). */
  async #grant(c: MachineConfig, scope: string): Promise<string> {
    const { flow, idp } = c.auth;
    // never send a user's ID token itself as a grant: id-jag without its identity provider stops here
    if (!flow || (flow === 'id-jag' && !idp))
      throw new McpAuthError('sign-in-failed', 'No identity provider is configured (auth.idp).');
    const resource = this.#resource ?? c.url;
    const issuer = this.#issuer;
    if (!issuer) throw new McpAuthError('metadata', 'The authorization server was not discovered.');
    const remember = (v: string) => this.vault.remember(v);
    // the user's ID token goes only to an identity provider the page named (issue 27 item 1):
    // checked before the page's function is even asked
    if (flow === 'id-jag' && idp && !this.identity.idpAllowed(idp.tokenEndpoint))
      throw idpNotAllowed(idp.tokenEndpoint, c.name ?? c.url);
    const assertion = await hostAssertion(
      this.identity.sources,
      Object.freeze({
        serverId: this.serverId,
        serverUrl: c.url,
        flow,
        issuer,
        resource,
        ...(scope ? { scope } : {}),
        ...(flow === 'id-jag' && idp ? { idpTokenEndpoint: idp.tokenEndpoint } : {}),
      }),
      c.name ?? c.url,
      remember,
      this.vault.knownValues,
    );
    if (flow === 'workload' || !idp) return assertion; // (!idp: only for workload, checked above)
    const secret = idp.clientSecret;
    return exchangeForIdJag(
      {
        tokenEndpoint: idp.tokenEndpoint,
        clientId: idp.clientId,
        ...(secret !== undefined
          ? { clientSecret: typeof secret === 'string' ? secret : await this.vault.get(secret) }
          : {}),
        idToken: assertion,
        audience: issuer,
        resource,
        ...(scope ? { scope } : {}),
        fetchFn: this.#fetchFn ?? this.fetchImpl ?? fetch,
      },
      remember,
      () => this.vault.knownValues,
    );
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  /** Drop the token (the config changed). */
  reset(): void {
    this.#tokens = undefined;
    this.#secret = undefined;
    this.#discovery = undefined;
  }

  #due(): boolean {
    const t = this.#tokens;
    return !t || renewDue(t.obtainedAt, t.tokens.expires_in);
  }

  /** Ask the token endpoint for a new access token (one request at a time). */
  #fetchToken(scope?: string, resourceMetadataUrl?: URL): Promise<void> {
    this.#busy ??= (async () => {
      const c = this.#config;
      const secret = c.auth.clientSecret;
      if (secret !== undefined) this.#secret ??= typeof secret === 'string' ? secret : await this.vault.get(secret);
      // a relayed server's authorization server (and identity provider) through the same relay,
      // its URLs unchanged: a page that cannot reach the server cannot reach them either
      const base = c.relay ? fetchThroughRelay(c.relay, this.fetchImpl) : this.fetchImpl;
      const log = new OAuthFetch(base, c.timeout * 1000, c.relay);
      this.#fetchFn = log.fetch;
      this.#tokens = undefined;
      try {
        await auth(this, {
          serverUrl: c.url,
          fetchFn: log.fetch,
          ...(scope ? { scope } : {}),
          ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        });
      } catch (e) {
        throw toAuthError(
          e,
          log,
          this.#discovery?.authorizationServerMetadata as Record<string, unknown> | undefined,
          this.vault.knownValues,
        );
      }
    })().finally(() => (this.#busy = undefined));
    return this.#busy;
  }

  /** The transports' view: a token before every request (fetched when missing or due), a new one on 401. */
  readonly authProvider: Sdk.AuthProvider = {
    token: async () => {
      if (this.#due()) await this.#fetchToken();
      this.#lastSent = this.#tokens?.tokens.access_token;
      return this.#lastSent;
    },
    onUnauthorized: async ({ response }) => {
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      // another request renewed it meanwhile: retry with that one
      if (this.#tokens && this.#tokens.tokens.access_token !== this.#lastSent) return;
      await this.#fetchToken(scope, resourceMetadataUrl);
    },
  };
}

/**
 * The hub's machine-credential clients, one per stored server (its token kept in memory until
 * the config changes); a form's config being tested gets a client of its own.
 */
export class Machines {
  readonly #byServer = new Map<string, MachineOAuth>();

  constructor(
    private readonly ctx: Pick<HubContext, 'vault' | 'fetch' | 'store'>,
    private readonly keys: ClientKeys,
    private readonly identity: IdentityPolicy = NO_IDENTITY,
  ) {}

  /** The transports' auth for `target`, a config with machine credentials (stored as server `id`, or being tested). */
  authProvider(id: string | undefined, target: MachineConfig & { auth: unknown }): Sdk.AuthProvider {
    const stored = id ? this.ctx.store.state.servers[id] : undefined;
    if (!id || !isMachine(stored?.auth.type) || !sameCredentials(stored, target))
      return new MachineOAuth(this.ctx.vault, () => target, this.ctx.fetch, this.keys, this.identity, id ?? '')
        .authProvider;
    let m = this.#byServer.get(id);
    if (!m) {
      m = new MachineOAuth(
        this.ctx.vault,
        () => {
          const c = this.ctx.store.state.servers[id];
          return isMachine(c?.auth.type) ? (c as MachineConfig) : undefined;
        },
        this.ctx.fetch,
        this.keys,
        this.identity,
        id,
      );
      this.#byServer.set(id, m);
    }
    return m.authProvider;
  }

  /** A server's config changed (or it was removed): a changed config fetches a new token with it. */
  changed(id: string, before: ServerConfig, now: ServerConfig | undefined): void {
    if (!isMachine(before.auth.type) || (now && sameCredentials(now, before))) return;
    this.#byServer.get(id)?.reset();
    this.#byServer.delete(id);
  }
}

/**
 * Whether two configs hold the same URL, relay and auth settings. Compared by value: a record
 * read back from storage (e.g. after the connection time is written) is a new object with the
 * same settings, and must keep the token fetched with them. Another relay would see the token.
 */
function sameCredentials(
  a: { url: string; relay?: string; auth: unknown },
  b: { url: string; relay?: string; auth: unknown },
): boolean {
  return (
    a.url === b.url && a.relay === b.relay && (a.auth === b.auth || canonicalJson(a.auth) === canonicalJson(b.auth))
  );
}
