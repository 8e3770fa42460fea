// One OAuth server's client side: the SDK's `OAuthClientProvider` backed by the hub's vault
// (tokens by server and issuer, client registrations by issuer, the sign-in in progress with
// its PKCE verifier; see records.ts). The SDK's `auth()` does discovery (RFC 9728, RFC 8414 /
// OpenID), registration (pre-registered id → Client ID Metadata Document → Dynamic Client
// Registration), PKCE, the `resource` parameter, the RFC 9207 `iss` check and the token
// requests; this file adds what a browser page needs around it: the endpoint rules, PKCE S256
// required, errors that name the endpoint, and the sign-in prepared ahead of the user's click.
// Refresh and the transports' AuthProvider are in refresh.ts, scope choice in step-up.ts.
import {
  auth,
  checkResourceAllowed,
  computeScopeUnion,
  resourceUrlFromServerUrl,
  type AuthProvider,
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { McpAuthError } from '../errors.js';
import type { AuthOAuth } from '../schemas.js';
import type { SignInState } from '../types.js';
import { accountOf } from './id-token.js';
import type { RecordStorage } from '../persistence/storage.js';
import type { Vault } from '../persistence/vault.js';
import { dpopAlgFor, dpopFetch, DpopKey } from './dpop.js';
import { checkAuthorizationServer, describeEndpoint, endpointOf, OAuthFetch, toAuthError } from './fetch.js';
import { withLock } from './locks.js';
import { urlProblem } from '../schemas.js';
import { fetchThroughRelay } from '../relay-url.js';
import {
  names,
  randomState,
  SIGN_IN_TTL_MS,
  summaryOf,
  UNPROMPTED_MAX,
  UNPROMPTED_WINDOW_MS,
  type PendingSignIn,
  type TokenSet,
} from './records.js';
import { refreshTokens, transportAuth, type Refreshable } from './refresh.js';
import { registrationAllows, ScopeRequest } from './step-up.js';

/** What a server's OAuth client needs from the hub. */
export interface OAuthHost {
  readonly vault: Vault;
  /** When to use DPoP (the hub's `dpop` option). */
  dpop(): 'auto' | 'prefer' | 'off';
  /** Where DPoP keys (non-extractable CryptoKeys) are kept. */
  readonly storage: Pick<RecordStorage, 'get' | 'set' | 'delete'>;
  readonly storeName: string;
  readonly fetch?: typeof fetch;
  /** The redirect URI registered with authorization servers (same origin as the page). */
  redirectUrl(): string | undefined;
  readonly clientName: string;
  /** The host's Client ID Metadata Document URL, when it publishes one. */
  readonly clientMetadataUrl?: string;
  /** The server's current URL and OAuth settings (undefined once removed). */
  config(
    serverId: string,
  ): { url: string; auth: AuthOAuth; timeout: number; revision?: string; relay?: string } | undefined;
  /** The protocol revision the server's connection negotiated, if it ever connected. */
  negotiated(serverId: string): string | undefined;
  /** Tokens changed: keep the summary, tell the state and other tabs. */
  tokensChanged(serverId: string, summary: SignInState): void;
  /** Whether a sign-in attempt (an open popup or redirect) waits on this `state`. */
  inUse(state: string): boolean;
}

/** The OAuth client of one server. */
export class ServerOAuth implements OAuthClientProvider, Refreshable {
  #tokens?: TokenSet | null;
  #discovery?: OAuthDiscoveryState;
  #resource?: string;
  /** A sign-in being prepared by `auth()` (state, verifier, url). */
  #draft?: { state?: string; verifier?: string; url?: string; scope?: string };
  /** The sign-in whose code is being exchanged. */
  #exchanging?: PendingSignIn;
  #log?: OAuthFetch;
  #busy?: Promise<void>;
  readonly #scopes = new ScopeRequest(() => this.host.config(this.serverId)?.auth.scopes);
  readonly #dpop: DpopKey;
  /** The scope an interactive sign-in being prepared asks for (a registration must allow it). */
  #registering?: string;
  /** A prepared sign-in (authorization URL ready): `hub.signIn` opens it without waiting. */
  prepared?: PendingSignIn;
  /** When sign-ins were prepared without a click (a 401 / 403 asked), within the window. */
  readonly #unprompted: number[] = [];

  constructor(
    private readonly host: OAuthHost,
    readonly serverId: string,
  ) {
    this.#dpop = new DpopKey(host.storage, serverId);
  }

  get #config() {
    const c = this.host.config(this.serverId);
    if (!c) throw new McpAuthError('sign-in-failed', 'The server was removed.');
    return c;
  }

  get #lockName() {
    return `mcp-elements:${this.host.storeName}:oauth:${this.serverId}`;
  }

  // ---- OAuthClientProvider (called by the SDK's auth()) --------------------------------------

  get redirectUrl(): string | undefined {
    // a code is redeemed with the redirect URI its authorization request carried (issue 27 item 5)
    return this.#exchanging?.redirectUrl ?? this.host.redirectUrl();
  }

  get clientMetadataUrl(): string | undefined {
    return this.host.config(this.serverId)?.auth.clientMetadataUrl ?? this.host.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.redirectUrl;
    const scopes = this.host.config(this.serverId)?.auth.scopes;
    return {
      client_name: this.host.clientName,
      redirect_uris: redirect ? [redirect] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // a page in a browser is a web application, even on localhost
      application_type: 'web',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    const state = randomState();
    this.#draft = { ...this.#draft, state };
    return state;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    // auth() asks for the client right after discovery: the place to refuse an authorization
    // server the hub cannot use before anything (a registration) is sent to it
    checkAuthorizationServer(this.discoveryState(), this.#log, this.#revision20250326Defaults());
    const { auth: settings } = this.#config;
    const issuer = ctx?.issuer ?? this.#discovery?.authorizationServerMetadata?.issuer;
    if (settings.clientId) {
      // a pre-registered confidential client (Node, a backend): its secret, opened from the vault
      const secret = settings.clientSecret ? await this.host.vault.get(settings.clientSecret) : undefined;
      return {
        client_id: settings.clientId,
        ...(secret ? { client_secret: secret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    if (!issuer) return undefined;
    const redirect = this.redirectUrl ?? '';
    const info = await this.host.vault.unseal<StoredOAuthClientInformation>(names.client(issuer, redirect));
    // a client registered for fewer scopes than a new sign-in asks for (a step-up) is refused
    // them by the authorization server (RFC 7591 `scope`): register again with the wider set
    return info && registrationAllows(info, this.#registering) ? info : undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer || this.#config.auth.clientId) return;
    if (info.client_secret) this.host.vault.remember(info.client_secret);
    await this.host.vault.seal(names.client(issuer, this.redirectUrl ?? ''), info);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const set = await this.tokenSet();
    if (!set) return undefined;
    if (ctx && set.issuer !== ctx.issuer && set.issuer.replace(/\/$/, '') !== ctx.issuer.replace(/\/$/, ''))
      return undefined;
    return set.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const now = Date.now();
    const previous = this.#tokens ?? undefined;
    const renewed = !this.#exchanging && !!previous;
    // the ID token is read for the account's name (display only) and not kept
    const { id_token: idToken, ...kept } = tokens;
    // a refresh keeps the time the user signed in, and the account unless a new ID token names one
    const account = accountOf(idToken) ?? (renewed ? previous.account : undefined);
    const set: TokenSet = {
      issuer: ctx?.issuer ?? tokens.issuer ?? previous?.issuer ?? '',
      resource: this.#resource ?? resourceUrlFromServerUrl(this.#config.url).href,
      ...(this.#config.relay ? { relay: this.#config.relay } : {}),
      tokens: kept,
      obtainedAt: now,
      signedInAt: renewed ? previous.signedInAt : now,
      ...(account ? { account } : {}),
    };
    this.host.vault.remember(tokens.access_token);
    if (tokens.refresh_token) this.host.vault.remember(tokens.refresh_token);
    if (typeof idToken === 'string') this.host.vault.remember(idToken);
    await this.host.vault.seal(names.tokens(this.serverId), set);
    this.#tokens = set;
    this.host.tokensChanged(this.serverId, summaryOf(set));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    const problem = urlProblem(authorizationUrl.href);
    if (problem)
      throw new McpAuthError(
        'insecure-endpoint',
        `Refused to open ${describeEndpoint(authorizationUrl.href, this.#metadata)}: an OAuth endpoint ${problem}.`,
        { endpoint: endpointOf(authorizationUrl) },
      );
    this.#draft = { ...this.#draft, url: authorizationUrl.href };
  }

  /** DPoP for the token requests, where the hub's `dpop` option and both servers say so (dpop.ts). */
  async dpop(): Promise<DpopSession | undefined> {
    const d = this.discoveryState();
    const alg = dpopAlgFor(this.host.dpop(), d?.authorizationServerMetadata, d?.resourceMetadata);
    return alg ? this.#dpop.session(alg) : undefined;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#draft = { ...this.#draft, verifier: codeVerifier };
  }

  codeVerifier(): string {
    const v = this.#exchanging?.verifier ?? this.#draft?.verifier;
    if (!v) throw new McpAuthError('sign-in-failed', 'No sign-in is in progress for this server.');
    return v;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#exchanging?.discovery ?? this.#discovery;
  }

  saveResourceUrl(resourceUrl: string): void {
    this.#resource = resourceUrl;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope === 'all' || scope === 'verifier') this.#draft = undefined;
    if (scope === 'all' || scope === 'client') {
      const issuer = this.#metadata?.issuer;
      if (typeof issuer === 'string' && !this.host.config(this.serverId)?.auth.clientId)
        await this.host.vault.remove(names.client(issuer, this.redirectUrl ?? ''));
    }
    if (scope === 'all' || scope === 'tokens') await this.forgetTokens();
  }

  /**
   * Whether this server gets the 2025-03-26 default endpoints (`/authorize`, `/token`,
   * `/register` at the server's origin) when its authorization server publishes no metadata:
   * only a server of that revision. Every later revision requires Protected Resource Metadata,
   * so a server that has none, whose authorization server is its own origin, and that is not
   * pinned to (nor ever negotiated) a later revision is one; anything else is refused.
   */
  #revision20250326Defaults(): boolean {
    const d = this.discoveryState();
    const c = this.host.config(this.serverId);
    if (!c || d?.resourceMetadata || !d?.authorizationServerUrl) return false;
    const legacy = (v: string | undefined) => v === undefined || v === 'auto' || v === '2025-03-26';
    if (!legacy(c.revision) || !legacy(this.host.negotiated(this.serverId))) return false;
    try {
      return new URL(d.authorizationServerUrl).origin === new URL(c.url).origin;
    } catch {
      return false;
    }
  }

  // ---- what the hub uses -----------------------------------------------------------------------

  get #metadata(): Readonly<Record<string, unknown>> | undefined {
    return this.discoveryState()?.authorizationServerMetadata as Readonly<Record<string, unknown>> | undefined;
  }

  /** The discovered authorization server metadata, if any (for revocation). */
  get metadata(): Readonly<Record<string, unknown>> | undefined {
    return this.#metadata;
  }

  /** The stored tokens, if they were issued for this server's current URL. */
  async tokenSet(reload = false): Promise<TokenSet | undefined> {
    if (reload || this.#tokens === undefined)
      this.#tokens = (await this.host.vault.unseal<TokenSet>(names.tokens(this.serverId))) ?? null;
    const set = this.#tokens;
    if (!set) return undefined;
    const config = this.host.config(this.serverId);
    if (!config) return undefined;
    // tokens go only to the resource they were issued for: a changed URL outside it drops them
    const allowed = checkResourceAllowed({
      requestedResource: resourceUrlFromServerUrl(config.url),
      configuredResource: set.resource,
    });
    if (!allowed) return undefined;
    // nor through another relay than the one they were obtained through (issue 33 item 2)
    if ((set.relay ?? '') !== (config.relay ?? '')) return undefined;
    this.host.vault.remember(set.tokens.access_token);
    if (set.tokens.refresh_token) this.host.vault.remember(set.tokens.refresh_token);
    return set;
  }

  rediscover(): void {
    this.#discovery = undefined;
  }

  /** Drop the cached tokens (another tab changed them). */
  reload(): void {
    this.#tokens = undefined;
  }

  async forgetTokens(): Promise<void> {
    this.#tokens = null;
    await this.host.vault.remove(names.tokens(this.serverId));
    this.host.tokensChanged(this.serverId, Object.freeze({ status: 'signed-out' as const }));
  }

  /** The scope to ask for: the configured scopes, everything challenged so far, and `extra`. */
  scopeFor(extra?: string): string | undefined {
    return this.#scopes.scopeFor(extra);
  }

  /** Run the SDK's auth() with the hub's fetch; errors become McpAuthError. */
  async authorize(options: {
    scope?: string;
    resourceMetadataUrl?: URL;
    authorizationCode?: string;
    iss?: string;
    force?: boolean;
  }): Promise<'AUTHORIZED' | 'REDIRECT'> {
    const config = this.#config;
    // a relayed server's authorization server is reached through the same relay (its URLs unchanged)
    const base = config.relay ? fetchThroughRelay(config.relay, this.host.fetch) : this.host.fetch;
    const log = new OAuthFetch(base, config.timeout * 1000, config.relay);
    this.#log = log;
    this.#draft = undefined;
    try {
      return await auth(this, {
        serverUrl: config.url,
        fetchFn: log.fetch,
        ...(options.scope ? { scope: options.scope } : {}),
        ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {}),
        ...(options.authorizationCode !== undefined
          ? { authorizationCode: options.authorizationCode, ...(options.iss ? { iss: options.iss } : {}) }
          : {}),
        ...(options.force ? { forceReauthorization: true } : {}),
      });
    } catch (e) {
      throw toAuthError(e, log, this.#metadata, this.host.vault.knownValues);
    }
  }

  /** After auth() answered REDIRECT: the prepared sign-in, kept (encrypted) until answered. */
  async keepDraft(scope: string | undefined, returnTo?: string): Promise<PendingSignIn> {
    const d = this.#draft;
    if (!d?.url || !d.state || !d.verifier)
      throw new McpAuthError('sign-in-failed', 'The authorization request could not be prepared.');
    const now = Date.now();
    const issuer = this.#metadata?.issuer;
    const pending: PendingSignIn = {
      serverId: this.serverId,
      state: d.state,
      verifier: d.verifier,
      url: d.url,
      ...(this.#config.relay ? { relay: this.#config.relay } : {}),
      ...(typeof issuer === 'string' ? { issuer } : {}),
      ...(this.#discovery ? { discovery: this.#discovery } : {}),
      ...(scope ? { scope } : {}),
      createdAt: now,
      expiresAt: now + SIGN_IN_TTL_MS,
      ...(returnTo ? { returnTo } : {}),
      ...(this.redirectUrl ? { redirectUrl: this.redirectUrl } : {}),
    };
    this.#draft = undefined;
    await this.host.vault.seal(names.pending(pending.state), pending);
    // one prepared sign-in per server: the one it replaces goes, unless an open sign-in uses it
    await this.dropPrepared();
    this.prepared = pending;
    return pending;
  }

  /** Forget the prepared sign-in (its vault record too) unless an open sign-in waits on it. */
  async dropPrepared(): Promise<void> {
    const p = this.prepared;
    this.prepared = undefined;
    if (p && !this.host.inUse(p.state)) await this.host.vault.remove(names.pending(p.state)).catch(() => {});
  }

  /**
   * Whether a server's 401 / 403 may prepare a sign-in now, without the user's click: at most
   * UNPROMPTED_MAX per window (a hostile server's answers must not run discovery, registration
   * and pending records without end). Counts the one it allows.
   */
  mayPrepareUnprompted(now = Date.now()): boolean {
    while (this.#unprompted.length && now - this.#unprompted[0]! > UNPROMPTED_WINDOW_MS) this.#unprompted.shift();
    if (this.#unprompted.length >= UNPROMPTED_MAX) return false;
    this.#unprompted.push(now);
    return true;
  }

  /**
   * Prepare an interactive sign-in: discovery, registration, PKCE; resolves with the
   * authorization URL to open. The tokens held (if any) stay until new ones arrive.
   */
  prepare(options: { scope?: string; returnTo?: string } = {}): Promise<PendingSignIn> {
    return this.single(async () => {
      // discover afresh: the server may have moved to another authorization server
      this.#discovery = undefined;
      // a step-up keeps what was granted (RFC 6749 §3.3 union, as the MCP spec asks)
      const granted = (await this.tokenSet())?.tokens.scope;
      const scope = computeScopeUnion(this.scopeFor(options.scope), granted);
      this.#registering = scope;
      const result = await this.authorize({ scope, force: true }).finally(() => (this.#registering = undefined));
      if (result !== 'REDIRECT') throw new McpAuthError('sign-in-failed', 'The authorization server issued no URL.');
      return this.keepDraft(scope, options.returnTo);
    });
  }

  /** A prepared sign-in still fresh enough to open, if any. */
  fresh(now = Date.now()): PendingSignIn | undefined {
    const p = this.prepared;
    return p && p.expiresAt - now > 60_000 ? p : undefined;
  }

  /** Redeem an authorization code of a sign-in this server started. */
  exchange(pending: PendingSignIn, code: string, iss: string | undefined): Promise<TokenSet> {
    return this.single(async () => {
      // the code goes through the relay the sign-in started through, or nowhere
      if ((pending.relay ?? '') !== (this.#config.relay ?? ''))
        throw new McpAuthError('sign-in-failed', "The server's relay changed during the sign-in; sign in again.");
      this.#exchanging = pending;
      try {
        const result = await this.authorize({
          authorizationCode: code,
          ...(iss !== undefined ? { iss } : {}),
          ...(pending.scope ? { scope: pending.scope } : {}),
        });
        if (result !== 'AUTHORIZED') throw new McpAuthError('sign-in-failed', 'The code was not redeemed.');
      } finally {
        if (pending.discovery) this.#discovery = pending.discovery;
        this.#exchanging = undefined;
      }
      if (this.prepared?.state === pending.state) this.prepared = undefined;
      const set = await this.tokenSet();
      if (!set) throw new McpAuthError('sign-in-failed', 'No tokens were stored.');
      return set;
    });
  }

  /** One OAuth exchange at a time per server, across tabs. */
  single<T>(fn: () => Promise<T>): Promise<T> {
    const run = (this.#busy ?? Promise.resolve()).then(
      () => withLock(this.#lockName, fn),
      () => withLock(this.#lockName, fn),
    );
    this.#busy = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /** Refresh now unless someone (another tab) already did since `stale` was read. */
  refresh(stale: TokenSet | undefined): Promise<void> {
    return refreshTokens(this, stale);
  }

  /**
   * The transport's view: a token before every request, a second chance on 401, and (for a
   * DPoP-bound token) the `DPoP` scheme with a proof on every request (`wrapFetch`).
   */
  readonly authProvider: AuthProvider & { wrapFetch: (f: typeof fetch) => typeof fetch } = {
    ...transportAuth(this),
    wrapFetch: dpopFetch(
      async () => ((await this.#boundToken()) ? this.#dpop.session() : undefined),
      () => this.#boundToken(),
      // through a relay, each proof still names the server's own URL (dpop.ts)
      () => this.host.config(this.serverId)?.relay,
    ),
  };

  async #boundToken(): Promise<string | undefined> {
    const t = (await this.tokenSet())?.tokens;
    return t?.token_type?.toLowerCase() === 'dpop' ? t.access_token : undefined;
  }
}
