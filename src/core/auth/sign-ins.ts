// Sign-in to OAuth servers for the hub: `hub.signIn(id)` (a popup opened in the caller's task),
// the answer from the host's redirect page (over a BroadcastChannel, so it works when COOP cuts
// `window.opener`), `hub.signOut(id)` (tokens wiped and revoked), `needs-sign-in` and its events,
// and `state.signIns`. The OAuth protocol itself is the SDK's, driven through ServerOAuth.
import {
  McpServerStatusChangedEvent,
  McpSignInCompletedEvent,
  McpSignInFailedEvent,
  McpSignInRequiredEvent,
  McpSignOutCompletedEvent,
} from '../../events/index.js';
import { KEYS, type HubContext } from '../context.js';
import { McpAuthError, McpConfigError, McpElementsError, McpNotFoundError } from '../errors.js';
import { clientMetadataUrlProblem, urlProblem, type ServerConfig } from '../schemas.js';
import { setStatus } from '../state.js';
import { withEntry } from '../store.js';
import type { SignInState } from '../types.js';
import { ANSWER_KEY, CALLBACK_CHANNEL, RETURN_KEY, type CallbackMessage } from './callback.js';
import { authErrorIn } from './fetch.js';
import { withLock } from './locks.js';
import { names, ServerOAuth, summaryOf, type OAuthHost, type PendingSignIn } from './provider.js';
import { revokeTokens } from './revoke.js';
import { MachineOAuth, type MachineConfig } from './machine.js';
import type { AuthProvider } from '@modelcontextprotocol/client';

/** Options of `hub.signIn()`. */
export interface SignInOptions {
  /**
   * Open the authorization URL yourself instead of a popup (Node, tests, a host's own window).
   * Resolve with the URL the authorization server redirected to (with `code` and `state`) to
   * finish here; resolve with nothing when the host's redirect page calls `completeSignIn()`.
   */
  open?: (authorizationUrl: string) => void | string | Promise<void | string>;
  /**
   * When the browser blocks the popup: `redirect` (default) takes this page to the
   * authorization server and back (the redirect page returns here, and the hub finishes the
   * sign-in on load; the promise never settles: the page goes away); `none` rejects with
   * `popup-blocked`.
   */
  fallback?: 'redirect' | 'none';
}

/** What sign-in needs from the connections. */
export interface SignInControl {
  connect(id: string): Promise<unknown>;
  closeSession(id: string): Promise<void>;
}

interface Attempt {
  state?: string;
  resolve(): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

const POPUP = { width: 520, height: 720 };

function popupFeatures(): string {
  const w = globalThis as unknown as Partial<Window>;
  const left = Math.max(0, Math.round((w.screenX ?? 0) + ((w.outerWidth ?? POPUP.width) - POPUP.width) / 2));
  const top = Math.max(0, Math.round((w.screenY ?? 0) + ((w.outerHeight ?? POPUP.height) - POPUP.height) / 2));
  return `popup=yes,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`;
}

/** The page's own URL (origin and path): the default redirect URI. */
function pageUrl(): string | undefined {
  const here = (globalThis as { location?: Location }).location;
  if (!here?.origin || here.origin === 'null') return undefined;
  return `${here.origin}${here.pathname}`;
}

function oauthOf(cfg: ServerConfig | undefined) {
  return cfg && cfg.auth.type === 'oauth' ? { url: cfg.url, auth: cfg.auth, timeout: cfg.timeout } : undefined;
}

export class SignIns {
  readonly #servers = new Map<string, ServerOAuth>();
  readonly #machines = new Map<string, MachineOAuth>();
  readonly #attempts = new Map<string, Attempt>();
  /** Authorization URLs being prepared in the background, by server. */
  readonly #preparing = new Map<string, Promise<unknown>>();
  readonly #channel?: BroadcastChannel;
  readonly #host: OAuthHost;
  readonly #unsubscribe: () => void;
  #redirectUrl?: string;
  #clientMetadataUrl?: string;

  constructor(
    private readonly ctx: HubContext,
    options: { redirectUrl?: string; clientMetadataUrl?: string },
    private readonly control: SignInControl,
  ) {
    this.#redirectUrl = options.redirectUrl;
    this.#clientMetadataUrl = options.clientMetadataUrl;
    const clientMetadataUrl = () => this.#clientMetadataUrl;
    this.#host = {
      vault: ctx.vault,
      storeName: ctx.storeName,
      fetch: ctx.fetch,
      clientName: ctx.clientInfo.name,
      get clientMetadataUrl() {
        return clientMetadataUrl();
      },
      redirectUrl: () => this.#redirectUrl ?? pageUrl(),
      config: (id) => oauthOf(ctx.store.state.servers[id]),
      tokensChanged: (id, summary) => void this.#saveSummary(id, summary),
    };
    if (typeof BroadcastChannel !== 'undefined') {
      this.#channel = new BroadcastChannel(CALLBACK_CHANNEL);
      this.#channel.onmessage = (e: MessageEvent<CallbackMessage>) => void this.#onCallback(e.data);
      (this.#channel as { unref?: () => void }).unref?.();
    }
    // a server removed, or moved to another URL or auth: its tokens go (they were for that resource)
    this.#unsubscribe = ctx.store.subscribe((state, previous) => {
      if (state.servers === previous.servers) return;
      // a new OAuth server starts signed out
      const added = Object.keys(state.servers).filter(
        (id) => !previous.servers[id] && oauthOf(state.servers[id]) && !state.signIns[id],
      );
      if (added.length && state.ready)
        queueMicrotask(() =>
          this.ctx.store.update((s) => ({
            ...s,
            signIns: Object.freeze({
              ...Object.fromEntries(added.map((id) => [id, Object.freeze({ status: 'signed-out' as const })])),
              ...s.signIns,
            }),
          })),
        );
      for (const [id, before] of Object.entries(previous.servers)) {
        const now = state.servers[id];
        // machine credentials: a changed config fetches a new token with it
        if (before.auth.type === 'client-credentials' && (now?.auth !== before.auth || now?.url !== before.url)) {
          this.#machines.get(id)?.reset();
          this.#machines.delete(id);
        }
        if (before.auth.type !== 'oauth') continue;
        if (!now) void this.#forget(id, before, true);
        else if (now.auth.type !== 'oauth' || now.url !== before.url)
          void this.#forget(id, before, now.auth.type !== 'oauth');
      }
    });
    void ctx.ready.then(() => this.#load());
  }

  /** Validate the sign-in options: a redirect URL of this origin, a usable metadata document URL. */
  /**
   * The hub's sign-ins: options checked (McpConfigError), then wired to the connections, which
   * use them for every OAuth server's auth from then on.
   */
  static forHub(
    ctx: HubContext,
    options: { redirectUrl?: string; clientMetadataUrl?: string },
    connections: SignInControl & { useAuth(auth: SignIns): void },
  ): SignIns {
    const given = {
      ...(options.redirectUrl !== undefined ? { redirectUrl: options.redirectUrl } : {}),
      ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    };
    SignIns.checkOptions(given);
    const signIns = new SignIns(ctx, given, {
      connect: (id) => connections.connect(id),
      closeSession: (id) => connections.closeSession(id),
    });
    connections.useAuth(signIns);
    return signIns;
  }

  static checkOptions(options: { redirectUrl?: string; clientMetadataUrl?: string }): void {
    const issues: { path: string; message: string }[] = [];
    const value = options.redirectUrl;
    if (value !== undefined) {
      const problem = urlProblem(value);
      const here = (globalThis as { location?: Location }).location;
      if (problem) issues.push({ path: 'redirectUrl', message: problem });
      else if (here?.origin && here.origin !== 'null' && new URL(value).origin !== here.origin)
        issues.push({
          path: 'redirectUrl',
          message: `must be a page of this origin (${here.origin}): it hands the code back here`,
        });
    }
    if (options.clientMetadataUrl !== undefined) {
      const problem = clientMetadataUrlProblem(options.clientMetadataUrl);
      if (problem) issues.push({ path: 'clientMetadataUrl', message: problem });
    }
    if (issues.length) throw new McpConfigError(issues);
  }

  /** Change where authorization servers send the user back, or the Client ID Metadata Document URL. */
  setOptions(options: { redirectUrl?: string; clientMetadataUrl?: string }): void {
    SignIns.checkOptions(options);
    if (options.redirectUrl !== undefined) this.#redirectUrl = options.redirectUrl;
    if (options.clientMetadataUrl !== undefined) this.#clientMetadataUrl = options.clientMetadataUrl;
  }

  /** The OAuth client of a server configured for OAuth. */
  server(id: string): ServerOAuth | undefined {
    if (!oauthOf(this.ctx.store.state.servers[id])) return undefined;
    let s = this.#servers.get(id);
    if (!s) this.#servers.set(id, (s = new ServerOAuth(this.#host, id)));
    return s;
  }

  /**
   * What a transport uses for an OAuth server (`id`), or for machine credentials (`target`: the
   * stored config, or a form's config being tested); for an OAuth config being tested, one that
   * never signs in.
   */
  authProviderFor(id: string | undefined, target?: { url: string; timeout: number; auth: unknown }): AuthProvider {
    const auth = target?.auth as MachineConfig['auth'] & { type?: string };
    if (target && auth?.type === 'client-credentials') {
      const stored = id ? this.ctx.store.state.servers[id] : undefined;
      if (!id || stored?.auth.type !== 'client-credentials' || stored.url !== target.url || stored.auth !== target.auth)
        return new MachineOAuth(this.ctx.vault, () => target as MachineConfig, this.ctx.fetch).authProvider;
      let m = this.#machines.get(id);
      if (!m) {
        m = new MachineOAuth(
          this.ctx.vault,
          () => {
            const c = this.ctx.store.state.servers[id];
            return c?.auth.type === 'client-credentials' ? (c as MachineConfig) : undefined;
          },
          this.ctx.fetch,
        );
        this.#machines.set(id, m);
      }
      return m.authProvider;
    }
    const s = id ? this.server(id) : undefined;
    if (s) return s.authProvider;
    return {
      token: async () => undefined,
      onUnauthorized: async () => {
        throw new McpAuthError('sign-in-required', 'This server needs sign-in: save it, then sign in.');
      },
    };
  }

  async #load() {
    const entries = await this.ctx.storage.entries().catch(() => [] as [string, unknown][]);
    const found: Record<string, SignInState> = {};
    for (const [key, value] of entries) {
      if (!key.startsWith(KEYS.signIn)) continue;
      const id = key.slice(KEYS.signIn.length);
      if (oauthOf(this.ctx.store.state.servers[id]) && value && typeof value === 'object')
        found[id] = Object.freeze(value as SignInState);
    }
    for (const id of Object.keys(this.ctx.store.state.servers))
      if (oauthOf(this.ctx.store.state.servers[id]) && !found[id]) found[id] = Object.freeze({ status: 'signed-out' });
    this.ctx.store.update((s) => ({ ...s, signIns: Object.freeze({ ...found, ...s.signIns }) }));
    await this.#resumeRedirect();
  }

  #setSummary(id: string, summary: SignInState | undefined) {
    this.ctx.store.update((s) => ({ ...s, signIns: withEntry(s.signIns, id, summary) }));
  }

  async #saveSummary(id: string, summary: SignInState) {
    this.#setSummary(id, summary);
    try {
      if (summary.status === 'signed-in') await this.ctx.storage.set(KEYS.signIn + id, summary);
      else await this.ctx.storage.delete(KEYS.signIn + id);
      this.ctx.broadcast('sign-in', id);
    } catch (e) {
      this.ctx.warn(`Could not keep the sign-in state of server "${id}": ${(e as Error).message}`);
    }
  }

  /** Another tab signed in or out of a server: drop cached tokens and re-read the summary. */
  async remoteChanged(id: string): Promise<void> {
    this.#servers.get(id)?.reload();
    const raw = await this.ctx.storage.get<SignInState>(KEYS.signIn + id).catch(() => undefined);
    const summary = raw
      ? Object.freeze(raw)
      : oauthOf(this.ctx.store.state.servers[id])
        ? { status: 'signed-out' as const }
        : undefined;
    const previous = this.ctx.store.state.signIns[id];
    this.#setSummary(id, summary);
    if (summary?.status === 'signed-in' && previous?.signedInAt !== summary.signedInAt) {
      const attempt = this.#attempts.get(id);
      this.#attempts.delete(id);
      if (this.ctx.store.state.connections[id]?.status === 'needs-sign-in')
        void this.control.connect(id).catch(() => {});
      attempt?.resolve();
    }
  }

  /**
   * A server answered 401 (or 403 insufficient_scope): status `needs-sign-in`, one
   * `mcp-sign-in-required`, and the authorization URL prepared for the user's click.
   */
  needsSignIn(id: string, err: McpAuthError, callId?: string): void {
    const cfg = this.ctx.store.state.servers[id];
    if (!cfg) return;
    const before = this.ctx.store.state.connections[id];
    const reason = err.code === 'insufficient-scope' ? 'insufficient-scope' : 'sign-in-required';
    setStatus(this.ctx, id, 'needs-sign-in', err);
    if (before?.status !== 'needs-sign-in' || callId || before.error?.code !== err.code) {
      const server = this.server(id);
      const issuer = server?.metadata?.issuer;
      this.ctx.emit(
        new McpSignInRequiredEvent({
          serverId: id,
          name: cfg.name,
          reason,
          ...(typeof issuer === 'string' ? { issuer } : {}),
          ...(err.scope ? { scopes: err.scope.split(' ').filter(Boolean) } : {}),
          ...(callId ? { callId } : {}),
        }),
      );
    }
    // ready the authorization URL so the click opens it at once; a step-up asks for the new
    // scope on top of everything asked for so far
    const server = this.server(id);
    if (err.scope) server?.scopeFor(err.scope);
    if (server && !this.#preparing.has(id) && (!server.fresh() || reason === 'insufficient-scope')) {
      const p = server.prepare().catch(() => undefined);
      this.#preparing.set(id, p);
      void p.finally(() => this.#preparing.delete(id));
    }
  }

  /**
   * A tool call waits on sign-in: `mcp-sign-in-required` names it; resolves once the user
   * signed in (here or in another tab), rejects when the call is cancelled.
   */
  waitFor(id: string, err: McpAuthError, callId: string, signal: AbortSignal): Promise<void> {
    const since = this.ctx.store.state.signIns[id]?.signedInAt ?? 0;
    this.needsSignIn(id, err, callId);
    return new Promise<void>((resolve, reject) => {
      const stop = () => {
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        stop();
        reject(signal.reason);
      };
      const unsubscribe = this.ctx.store.subscribe((state) => {
        const s = state.signIns[id];
        if (!state.servers[id]) {
          stop();
          reject(new McpNotFoundError('server', id));
        } else if (s?.status === 'signed-in' && (s.signedInAt ?? 0) > since) {
          // and once the server was connected again with the new token (or failed to be)
          const status = state.connections[id]?.status;
          if (status === 'connecting' || (status === 'needs-sign-in' && state.servers[id].enabled)) return;
          stop();
          resolve();
        }
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Sign in to a server: opens the authorization server's page in a popup, in the caller's task
   * (call it from a click handler: no `await` happens before `window.open`). Resolves once the
   * tokens are stored and the server was connected again; rejects with McpAuthError.
   */
  signIn(id: string, options: SignInOptions = {}): Promise<void> {
    const cfg = this.ctx.store.state.servers[id];
    if (!cfg) return Promise.reject(new McpNotFoundError('server', id));
    if (cfg.auth.type !== 'oauth')
      return Promise.reject(
        new McpConfigError([{ path: 'auth', message: `server "${cfg.name}" does not use OAuth sign-in` }]),
      );
    const server = this.server(id)!;
    const prepared = server.fresh();
    let popup: Window | null = null;
    if (!options.open) {
      const w = globalThis as unknown as Partial<Window>;
      if (typeof w.open !== 'function')
        return Promise.reject(
          new McpAuthError('popup-blocked', 'Sign-in needs a browser window here; pass `open` to hub.signIn().'),
        );
      // synchronously, in the caller's task: a popup opened after an await is blocked
      popup = w.open(prepared?.url ?? 'about:blank', `mcp-sign-in-${id}`, popupFeatures()) ?? null;
      const session = (globalThis as { sessionStorage?: Storage }).sessionStorage;
      if (!popup && options.fallback !== 'none' && session && typeof location !== 'undefined')
        return this.#redirect(id, server, prepared, session);
      if (!popup) {
        const err = new McpAuthError(
          'popup-blocked',
          'The browser blocked the sign-in window. Allow pop-ups for this page, or call hub.signIn() from a click.',
        );
        this.ctx.emit(new McpSignInFailedEvent({ serverId: id, error: { code: err.code, message: err.message } }));
        return Promise.reject(err);
      }
      try {
        // the authorization server's page gets no handle on ours; the answer comes back over
        // a BroadcastChannel, which needs none either
        popup.opener = null;
      } catch {
        // cross-origin already: nothing to cut
      }
    }
    const previous = this.#attempts.get(id);
    if (previous) {
      this.#attempts.delete(id);
      clearTimeout(previous.timer);
      previous.reject(new McpAuthError('cancelled', 'A newer sign-in to this server replaced this one.'));
    }
    let attempt!: Attempt;
    const done = new Promise<void>((resolve, reject) => {
      attempt = { resolve, reject };
    });
    this.#attempts.set(id, attempt);
    const finish = (e: unknown) => {
      if (this.#attempts.get(id) === attempt) this.#attempts.delete(id);
      clearTimeout(attempt.timer);
      attempt.reject(e);
    };
    void (async () => {
      try {
        await this.ctx.ready;
        const background = (await this.#preparing.get(id)) as PendingSignIn | undefined;
        const pending = prepared ?? background ?? (await server.prepare());
        attempt.state = pending.state;
        attempt.timer = setTimeout(
          () => finish(new McpAuthError('expired', 'The sign-in was not finished in time; sign in again.')),
          Math.max(1000, pending.expiresAt - Date.now()),
        );
        this.#setSummary(id, {
          ...(this.ctx.store.state.signIns[id] ?? {}),
          status: 'pending',
          ...(pending.issuer ? { issuer: pending.issuer } : {}),
        });
        if (options.open) {
          const answer = await options.open(pending.url);
          if (typeof answer === 'string') await this.#onCallback(callbackFromUrl(answer), true);
        } else if (popup && !prepared) {
          if (popup.closed) throw new McpAuthError('cancelled', 'The sign-in window was closed.');
          popup.location.replace(pending.url);
        }
      } catch (e) {
        const err = asAuthError(e);
        this.#failed(id, err);
        try {
          if (popup && !popup.closed && !prepared) popup.close();
        } catch {
          // not ours to close any more
        }
        finish(err);
      }
    })();
    return done;
  }

  /**
   * The popup was blocked: sign in with this very page. The sign-in (state, PKCE verifier) is
   * sealed in the vault like any other; sessionStorage remembers where to come back to, and the
   * redirect page leaves the answer there for the hub of the page it returns to.
   */
  async #redirect(
    id: string,
    server: ServerOAuth,
    prepared: PendingSignIn | undefined,
    session: Storage,
  ): Promise<void> {
    try {
      await this.ctx.ready;
      const pending =
        prepared ?? ((await this.#preparing.get(id)) as PendingSignIn | undefined) ?? (await server.prepare());
      session.setItem(RETURN_KEY, JSON.stringify({ state: pending.state, returnTo: location.href }));
      this.#setSummary(id, { ...(this.ctx.store.state.signIns[id] ?? {}), status: 'pending' });
      location.assign(pending.url);
    } catch (e) {
      const err = asAuthError(e);
      this.#failed(id, err);
      throw err;
    }
    // the page is leaving: this promise never settles
    return new Promise<void>(() => {});
  }

  /** Back from a full-page sign-in: finish it with the answer the redirect page left. */
  async #resumeRedirect(): Promise<void> {
    const session = (globalThis as { sessionStorage?: Storage }).sessionStorage;
    const raw = session?.getItem(ANSWER_KEY);
    if (!session || !raw) return;
    session.removeItem(ANSWER_KEY);
    let msg: CallbackMessage | undefined;
    try {
      msg = JSON.parse(raw) as CallbackMessage;
    } catch {
      return;
    }
    await this.#onCallback(msg).catch(() => {});
  }

  #failed(id: string, err: McpAuthError) {
    const current = this.ctx.store.state.signIns[id];
    if (current?.status === 'pending') this.#setSummary(id, { ...current, status: 'signed-out' });
    this.ctx.emit(
      new McpSignInFailedEvent({
        serverId: id,
        error: { code: err.code, message: err.message, ...(err.endpoint ? { endpoint: err.endpoint } : {}) },
      }),
    );
  }

  /** The server whose pending sign-in has this state, if this hub (or another tab of its store) started it. */
  async #findPending(state: string): Promise<string | undefined> {
    for (const [id, a] of this.#attempts) if (a.state === state) return id;
    for (const [id, s] of this.#servers) if (s.prepared?.state === state) return id;
    const pending = await this.ctx.vault.unseal<PendingSignIn>(names.pending(state));
    return pending && oauthOf(this.ctx.store.state.servers[pending.serverId]) ? pending.serverId : undefined;
  }

  /** The redirect page handed back an authorization response. */
  async #onCallback(msg: CallbackMessage | undefined, direct = false): Promise<void> {
    if (!msg || msg.type !== 'mcp-elements:sign-in-callback' || typeof msg.state !== 'string') return;
    await this.ctx.ready;
    const id = await this.#findPending(msg.state);
    if (!id) {
      if (direct)
        throw new McpAuthError('sign-in-failed', 'The answer does not belong to a sign-in of this page (state).');
      return;
    }
    const server = this.server(id);
    if (!server) return;
    // claim it: two tabs of the store may both hold this pending sign-in; one redeems the code
    const pending = await withLock(`mcp-elements:${this.ctx.storeName}:sign-in:${msg.state}`, async () => {
      const p = await this.ctx.vault.unseal<PendingSignIn>(names.pending(msg.state));
      if (!p || p.state !== msg.state || p.serverId !== id) return undefined;
      await this.ctx.vault.remove(names.pending(msg.state));
      return p;
    });
    if (!pending) return;
    this.#channel?.postMessage({ type: 'mcp-elements:sign-in-ack', state: msg.state } satisfies CallbackMessage);
    const attempt = this.#attempts.get(id);
    try {
      if (Date.now() > pending.expiresAt)
        throw new McpAuthError('expired', 'The sign-in took too long; sign in again.');
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
      if (!msg.code) throw new McpAuthError('sign-in-failed', 'The authorization response carries no code.');
      const set = await server.exchange(pending, msg.code, msg.iss);
      const summary = summaryOf(set);
      this.ctx.emit(
        new McpSignInCompletedEvent({
          serverId: id,
          issuer: set.issuer,
          scopes: summary.scopes ?? [],
          ...(summary.expiresAt ? { expiresAt: summary.expiresAt } : {}),
          refreshable: !!summary.refreshable,
          source: 'local',
        }),
      );
      if (this.ctx.store.state.servers[id]?.enabled) await this.control.connect(id).catch(() => {});
      if (this.#attempts.get(id) === attempt) this.#attempts.delete(id);
      clearTimeout(attempt?.timer);
      attempt?.resolve();
    } catch (e) {
      const err = asAuthError(e);
      this.#failed(id, err);
      if (this.#attempts.get(id) === attempt) this.#attempts.delete(id);
      clearTimeout(attempt?.timer);
      attempt?.reject(err);
      if (direct) throw err;
    }
  }

  /**
   * Sign out of a server: revoke its tokens where the authorization server supports RFC 7009,
   * wipe them (and the client registration, unless another server still uses it), close the
   * session. The server's status becomes `needs-sign-in`.
   */
  async signOut(id: string): Promise<void> {
    await this.ctx.ready;
    const cfg = this.ctx.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    if (cfg.auth.type !== 'oauth')
      throw new McpConfigError([{ path: 'auth', message: `server "${cfg.name}" does not use OAuth sign-in` }]);
    const attempt = this.#attempts.get(id);
    if (attempt) {
      this.#attempts.delete(id);
      clearTimeout(attempt.timer);
      attempt.reject(new McpAuthError('cancelled', 'Signed out.'));
    }
    const revoked = await this.#forget(id, cfg, true);
    await this.control.closeSession(id);
    const before = this.ctx.store.state.connections[id]?.status;
    setStatus(this.ctx, id, 'needs-sign-in', new McpAuthError('sign-in-required', 'Signed out.'));
    if (before === 'needs-sign-in')
      this.ctx.emit(
        new McpServerStatusChangedEvent({ serverId: id, status: 'needs-sign-in', previous: 'needs-sign-in' }),
      );
    this.ctx.emit(new McpSignOutCompletedEvent({ serverId: id, revoked, source: 'local' }));
  }

  /** Revoke (best effort) and wipe a server's tokens and pending sign-in. */
  async #forget(id: string, cfg: ServerConfig, dropRegistration: boolean): Promise<boolean> {
    const server = this.#servers.get(id) ?? this.server(id);
    let revoked = false;
    try {
      const set = server ? await server.tokenSet(true).catch(() => undefined) : undefined;
      const raw = set ?? (await this.ctx.vault.unseal<import('./provider.js').TokenSet>(names.tokens(id)));
      if (raw) {
        revoked = await revokeTokens(raw, {
          vault: this.ctx.vault,
          fetch: this.ctx.fetch,
          redirectUrl: this.#host.redirectUrl() ?? '',
          clientId: cfg.auth.type === 'oauth' ? cfg.auth.clientId : undefined,
          metadata: server?.metadata,
          timeoutMs: cfg.timeout * 1000,
        }).catch(() => false);
        if (dropRegistration && !(cfg.auth.type === 'oauth' && cfg.auth.clientId)) {
          const others = Object.values(this.ctx.store.state.signIns).filter((s) => s.issuer === raw.issuer).length;
          if (others <= 1) await this.ctx.vault.remove(names.client(raw.issuer, this.#host.redirectUrl() ?? ''));
        }
      }
    } finally {
      await this.ctx.vault.remove(names.tokens(id)).catch(() => {});
      await this.#dropPending(id);
      if (server) {
        server.prepared = undefined;
        server.reload();
      }
      this.#servers.delete(id);
      if (this.ctx.store.state.servers[id] && oauthOf(this.ctx.store.state.servers[id]))
        await this.#saveSummary(id, Object.freeze({ status: 'signed-out' as const }));
      else {
        this.#setSummary(id, undefined);
        await this.ctx.storage.delete(KEYS.signIn + id).catch(() => {});
      }
    }
    return revoked;
  }

  /** Forget every sign-in in progress of a server (it was signed out of, removed or moved). */
  async #dropPending(id: string): Promise<void> {
    const entries = await this.ctx.storage.entries().catch(() => [] as [string, unknown][]);
    const prefix = `secret:${names.pending('')}`;
    await Promise.all(
      entries
        .filter(([key]) => key.startsWith(prefix))
        .map(async ([key]) => {
          const state = key.slice(prefix.length);
          const p = await this.ctx.vault.unseal<PendingSignIn>(names.pending(state));
          // those of this server, and any that expired (nobody can use them any more)
          if (!p || p.serverId === id || p.expiresAt < Date.now())
            await this.ctx.vault.remove(names.pending(state)).catch(() => {});
        }),
    );
  }

  dispose(): void {
    this.#unsubscribe();
    this.#channel?.close();
    for (const [id, a] of this.#attempts) {
      clearTimeout(a.timer);
      a.reject(new McpAuthError('cancelled', 'The page is closing.'));
      this.#attempts.delete(id);
    }
  }
}

function asAuthError(e: unknown): McpAuthError {
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
