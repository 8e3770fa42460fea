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
import type { HubContext } from '../context.js';
import { McpAuthError, McpConfigError, McpNotFoundError } from '../errors.js';
import type { ServerConfig } from '../schemas.js';
import { setStatus } from '../state.js';
import { asAuthError, callbackFromUrl, codeOf, pageUrl, takeRedirectAnswer } from './answer.js';
import { Announcements, type Attempt, Attempts, waitForSignIn } from './attempts.js';
import { ClientKeys } from './client-keys.js';
import { CALLBACK_CHANNEL, RETURN_KEY, type CallbackMessage } from './callback-keys.js';
import type { SignInPage } from './options.js';
import { isMachine, Machines, type IdentityPolicy, type MachineConfig } from './machine.js';
import { checkSignInOptions, type HubSignInOptions, type SignInOptions } from './options.js';
import type { ConnectionState, HubState } from '../types.js';
import { ServerOAuth, type OAuthHost } from './provider.js';
import { claimPending, dropPending, names, pendingIssuers, summaryOf, type PendingSignIn } from './records.js';
import { revokeAndWipe } from './revoke.js';
import { STEP_UP_LIMIT, StepUpRefusals } from './step-up.js';
import { oauthOf, Summaries } from './summaries.js';
import type { AuthProvider } from '@modelcontextprotocol/client';

export type { SignInOptions } from './options.js';
export { callbackFromUrl } from './answer.js';

/** What sign-in needs from the connections. */
export interface SignInControl {
  connect(id: string): Promise<unknown>;
  closeSession(id: string): Promise<void>;
}

export class SignIns {
  readonly #servers = new Map<string, ServerOAuth>();
  readonly #machines: Machines;
  readonly keys: ClientKeys; // machine client keys (`private_key_jwt`)
  readonly #summaries: Summaries;
  readonly #attempts = new Attempts();
  /** Step-up: what each server's last sign-in asked for, and the scopes refused after it. */
  readonly #lastAsked = new Map<string, string>();
  readonly #stepUps = new Map<string, StepUpRefusals>();
  /** Servers whose step-up ended (STEP_UP_LIMIT reached): the error their status shows. */
  readonly #stepUpEnded = new Map<string, McpAuthError>();
  readonly #announcements = new Announcements();
  /** Authorization URLs being prepared in the background, by server. */
  readonly #preparing = new Map<string, Promise<unknown>>();
  /**
   * States of full-page sign-ins this page has left for: their vault records must outlive the
   * page's last moments (a server's 401 before it unloads would otherwise replace the prepared
   * sign-in and drop the very record the answer comes back for).
   */
  readonly #leaving = new Set<string>();
  readonly #channel?: BroadcastChannel;
  readonly #host: OAuthHost;
  #redirectUrl?: string;
  #clientMetadataUrl?: string;
  #dpop: 'auto' | 'prefer' | 'off' = 'auto';

  constructor(
    private readonly ctx: HubContext,
    options: HubSignInOptions,
    private readonly control: SignInControl,
    identity: IdentityPolicy | undefined,
    private readonly page: SignInPage,
  ) {
    this.keys = new ClientKeys(ctx);
    this.#machines = new Machines(ctx, this.keys, identity);
    this.#summaries = new Summaries(ctx);
    this.#redirectUrl = options.redirectUrl;
    this.#clientMetadataUrl = options.clientMetadataUrl;
    this.#dpop = options.dpop ?? 'auto';
    const clientMetadataUrl = () => this.#clientMetadataUrl;
    this.#host = {
      vault: ctx.vault,
      storage: ctx.storage,
      storeName: ctx.storeName,
      fetch: ctx.fetch,
      clientName: ctx.clientInfo.name,
      get clientMetadataUrl() {
        return clientMetadataUrl();
      },
      redirectUrl: () => this.#redirectUrl ?? pageUrl(),
      dpop: () => this.#dpop,
      config: (id) => oauthOf(ctx.store.state.servers[id]),
      tokensChanged: (id, summary) => void this.#summaries.save(id, summary),
      inUse: (state) => !!this.#attempts.serverOf(state) || this.#leaving.has(state),
      negotiated: (id) => ctx.store.state.connections[id]?.protocolVersion,
    };
    if (typeof BroadcastChannel !== 'undefined') {
      this.#channel = new BroadcastChannel(CALLBACK_CHANNEL);
      this.#channel.onmessage = (e: MessageEvent<CallbackMessage>) => void this.#onCallback(e.data);
      (this.#channel as { unref?: () => void }).unref?.();
    }
    void ctx.ready.then(() => this.#load());
  }

  /**
   * The servers changed (the loader forwards every change, those made before this module loaded
   * included): a new OAuth server starts signed out; a server removed, or moved to another URL,
   * relay or auth, loses its tokens (they were for that resource, sent through that relay).
   */
  serversChanged(state: HubState, previous: HubState): void {
    this.#summaries.added(state, previous);
    for (const [id, before] of Object.entries(previous.servers)) {
      const now = state.servers[id];
      this.#machines.changed(id, before, now);
      if (before.auth.type !== 'oauth') continue;
      if (!now) void this.#forget(id, before, true);
      else if (now.auth.type !== 'oauth' || now.url !== before.url || now.relay !== before.relay)
        void this.#forget(id, before, now.auth.type !== 'oauth');
    }
  }

  /** Change where authorization servers send the user back, or the Client ID Metadata Document URL. */
  setOptions(options: HubSignInOptions): void {
    const given = checkSignInOptions(options);
    this.#redirectUrl = given.redirectUrl ?? this.#redirectUrl;
    this.#clientMetadataUrl = given.clientMetadataUrl ?? this.#clientMetadataUrl;
    this.#dpop = given.dpop ?? this.#dpop;
  }

  /** The OAuth client of an OAuth server. */
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
    if (target && isMachine(auth?.type)) return this.#machines.authProvider(id, target as MachineConfig);
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
    // sign-ins nobody finished (a closed tab, a hostile server's 401s) do not pile up
    await dropPending(this.ctx).catch(() => {});
    await this.#summaries.load();
    await this.#resumeRedirect();
  }

  /** Another tab signed in or out of a server: drop cached tokens and re-read the summary. */
  async remoteChanged(id: string): Promise<void> {
    this.#servers.get(id)?.reload();
    const summary = await this.#summaries.read(id);
    const previous = this.ctx.store.state.signIns[id];
    this.#summaries.set(id, summary);
    if (summary?.status === 'signed-in' && previous?.signedInAt !== summary.signedInAt) {
      const attempt = this.#attempts.get(id);
      if (this.ctx.store.state.connections[id]?.status === 'needs-sign-in')
        await this.control.connect(id).catch(() => {});
      this.#attempts.settle(id, attempt);
    }
  }

  /** 401 (or 403 insufficient_scope): `needs-sign-in`, one `mcp-sign-in-required`, the authorization URL prepared. */
  needsSignIn(id: string, err: McpAuthError, callId?: string): McpAuthError | undefined {
    const cfg = this.ctx.store.state.servers[id];
    if (!cfg) return undefined;
    const before = this.ctx.store.state.connections[id];
    const reason = err.code === 'insufficient-scope' ? 'insufficient-scope' : 'sign-in-required';
    // a scope still refused after STEP_UP_LIMIT sign-ins that asked for it: no sign-in again
    if (reason === 'insufficient-scope' && err.scope) {
      let refusals = this.#stepUps.get(id);
      if (!refusals) this.#stepUps.set(id, (refusals = new StepUpRefusals()));
      if (refusals.refused(err.scope, this.#lastAsked.get(id), this.ctx.store.state.signIns[id]?.signedInAt)) {
        const ended = new McpAuthError(
          'insufficient-scope',
          `Server "${cfg.name}" still refuses scope "${err.scope}" after ${STEP_UP_LIMIT} sign-ins that asked for it: the account was not granted it. Sign in with an account that has it (hub.signIn), or ask for access.`,
          { scope: err.scope },
        );
        this.#stepUpEnded.set(id, ended);
        setStatus(this.ctx, id, 'error', ended);
        return ended;
      }
    }
    setStatus(this.ctx, id, 'needs-sign-in', err);
    if (before?.status !== 'needs-sign-in' || callId || before.error?.code !== err.code) {
      const issuer = this.server(id)?.metadata?.issuer;
      const event = new McpSignInRequiredEvent({
        serverId: id,
        name: cfg.name,
        reason,
        ...(typeof issuer === 'string' ? { issuer } : {}),
        ...(err.scope ? { scopes: err.scope.split(' ').filter(Boolean) } : {}),
        ...(callId ? { callId } : {}),
      });
      this.#announcements.announce(id, () => this.ctx.emit(event), callId);
    }
    // ready the authorization URL so the click opens it at once; a step-up asks for the new
    // scope on top of everything asked for so far
    const server = this.server(id);
    if (err.scope) server?.scopeFor(err.scope);
    if (server && !this.#preparing.has(id) && (!server.fresh() || reason === 'insufficient-scope')) {
      // a few without a click; then the stale one goes and the click prepares (issue 27 item 5)
      if (!server.mayPrepareUnprompted()) return void server.dropPrepared();
      const p = server.prepare().catch(() => undefined);
      this.#preparing.set(id, p);
      void p.finally(() => this.#preparing.delete(id));
    }
  }

  /** The error a server's ended step-up shows (STEP_UP_LIMIT reached), until an explicit sign-in. */
  stepUpEnded(id: string): McpAuthError | undefined {
    return this.#stepUpEnded.get(id);
  }

  /** A call runs on the server: see Announcements (the returned function says it settled). */
  callRunning(id: string): () => void {
    return this.#announcements.hold(id);
  }

  /** A call waits on sign-in (the event names it); resolves once signed in here or in another tab, rejects on cancel. */
  waitFor(id: string, err: McpAuthError, callId: string, signal: AbortSignal): Promise<void> {
    const since = this.ctx.store.state.signIns[id]?.signedInAt ?? 0;
    const ended = this.needsSignIn(id, err, callId);
    if (ended) return Promise.reject(ended);
    return waitForSignIn(this.ctx, id, since, signal);
  }

  /**
   * Sign in to a server: opens the authorization server's page in a popup, in the caller's task
   * (call it from a click handler: no `await` happens before `window.open`). Resolves once the
   * tokens are stored and the server was connected again (or that failed), with the server's
   * connection state then; rejects with McpAuthError.
   */
  signIn(id: string, options: SignInOptions = {}, opened?: Window | null): Promise<ConnectionState> {
    const cfg = this.ctx.store.state.servers[id];
    if (!cfg) return Promise.reject(new McpNotFoundError('server', id));
    if (cfg.auth.type !== 'oauth')
      return Promise.reject(
        new McpConfigError([{ path: 'auth', message: `server "${cfg.name}" does not use OAuth sign-in` }]),
      );
    const server = this.server(id)!;
    // the user signs in on purpose after a step-up ended (another account, access granted since)
    if (this.#stepUpEnded.delete(id)) this.#stepUps.get(id)?.clear();
    const prepared = server.fresh();
    let popup: Window | null = null;
    if (!options.open) {
      try {
        // `opened`: the loader opened it in the click, before this module was loaded
        popup = opened !== undefined ? opened : this.page.openPopup(id, prepared?.url);
      } catch (e) {
        return Promise.reject(e as Error);
      }
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
    }
    const { attempt, done: settled } = this.#attempts.start(id);
    // the prepared sign-in is this attempt's from now on (nothing may replace and drop it)
    if (prepared) attempt.state = prepared.state;
    const done = settled.then(
      () => this.ctx.store.state.connections[id] ?? { status: 'disconnected' as const, since: 0 },
    );
    if (popup) this.#watchWindow(id, attempt, popup);
    void (async () => {
      try {
        await this.ctx.ready;
        const pending = await this.#pending(id, server, prepared);
        attempt.state = pending.state;
        this.#attempts.expireIn(id, attempt, Math.max(1000, pending.expiresAt - Date.now()));
        this.#summaries.set(id, {
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
        if (!prepared && popup) this.page.closePopup(popup);
        this.#attempts.settle(id, attempt, err);
      }
    })();
    return done;
  }

  /**
   * The user closed the sign-in window: "Signing in…" ends within a poll (250 ms), so Sign in
   * can be pressed again. The attempt itself stays open until it expires or is replaced: an
   * authorization page with `Cross-Origin-Opener-Policy` cuts the link to its window, which then
   * reads as closed while the user is still signing in there, and its answer must still count.
   */
  #watchWindow(id: string, attempt: Attempt, popup: Window) {
    const timer = setInterval(() => {
      if (this.#attempts.get(id) !== attempt) return clearInterval(timer);
      if (!popup.closed) return;
      attempt.windowClosed = true;
      const current = this.ctx.store.state.signIns[id];
      if (current?.status !== 'pending') return;
      clearInterval(timer);
      this.#summaries.set(id, { ...current, status: 'signed-out' });
    }, 250);
    (timer as { unref?: () => void }).unref?.();
  }

  /** The sign-in to open: the one prepared at the click, else the one being prepared, else a new one. */
  async #pending(id: string, server: ServerOAuth, prepared: PendingSignIn | undefined): Promise<PendingSignIn> {
    return prepared ?? ((await this.#preparing.get(id)) as PendingSignIn | undefined) ?? (await server.prepare());
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
  ): Promise<never> {
    try {
      await this.ctx.ready;
      const pending = await this.#pending(id, server, prepared);
      this.#leaving.add(pending.state);
      session.setItem(RETURN_KEY, JSON.stringify({ state: pending.state, returnTo: location.href }));
      this.#summaries.set(id, { ...(this.ctx.store.state.signIns[id] ?? {}), status: 'pending' });
      location.assign(pending.url);
    } catch (e) {
      const err = asAuthError(e);
      this.#failed(id, err);
      throw err;
    }
    // the page is leaving: this promise never settles
    return new Promise<never>(() => {});
  }

  /** Back from a full-page sign-in: finish it with the answer the redirect page left. */
  async #resumeRedirect(): Promise<void> {
    const msg = takeRedirectAnswer();
    if (msg) await this.#onCallback(msg).catch(() => {});
  }

  #failed(id: string, err: McpAuthError) {
    const current = this.ctx.store.state.signIns[id];
    if (current?.status === 'pending') this.#summaries.set(id, { ...current, status: 'signed-out' });
    this.ctx.emit(
      new McpSignInFailedEvent({
        serverId: id,
        error: { code: err.code, message: err.message, ...(err.endpoint ? { endpoint: err.endpoint } : {}) },
      }),
    );
  }

  /** The server whose pending sign-in has this state, if this hub (or another tab of its store) started it. */
  async #findPending(state: string): Promise<string | undefined> {
    const waiting = this.#attempts.serverOf(state);
    if (waiting) return waiting;
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
    const pending = await claimPending(this.ctx.vault, this.ctx.storeName, msg.state, id);
    if (!pending) return;
    this.#channel?.postMessage({ type: 'mcp-elements:sign-in-ack', state: msg.state } satisfies CallbackMessage);
    const attempt = this.#attempts.get(id);
    try {
      const several = msg.iss === undefined && (await this.#issuersInPlay(pending)) > 1;
      const set = await server.exchange(pending, codeOf(msg, pending, several), msg.iss);
      this.#lastAsked.set(id, pending.scope ?? '');
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
      this.#attempts.settle(id, attempt);
    } catch (e) {
      const err = asAuthError(e);
      // direct: the caller (signIn) reports and settles it, so `mcp-sign-in-failed` fires once
      if (direct) throw err;
      this.#failed(id, err);
      this.#attempts.settle(id, attempt, err);
    }
  }

  /**
   * How many authorization servers this hub deals with: those of the sign-in answered, of every
   * server's sign-in state, of the servers' discovered metadata and of the sign-ins in progress
   * in the vault (other tabs' too).
   */
  async #issuersInPlay(pending: PendingSignIn): Promise<number> {
    const all = [
      pending.issuer,
      ...Object.values(this.ctx.store.state.signIns).map((s) => s?.issuer),
      ...[...this.#servers.values()].map((s) => s.metadata?.issuer),
      ...(await pendingIssuers(this.ctx)),
    ];
    return new Set(all.flatMap((i) => (typeof i === 'string' && i ? [i.replace(/\/$/, '')] : []))).size;
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
    this.#attempts.cancel(id, 'Signed out.');
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
    this.#lastAsked.delete(id);
    this.#stepUps.delete(id);
    this.#stepUpEnded.delete(id);
    try {
      return await revokeAndWipe(this.ctx, id, {
        cfg,
        ...(server ? { server } : {}),
        redirectUrl: this.#host.redirectUrl() ?? '',
        dropRegistration,
      });
    } finally {
      if (server) {
        server.prepared = undefined;
        server.reload();
      }
      this.#servers.delete(id);
      await this.#summaries.signedOut(id);
    }
  }

  dispose(): void {
    this.#channel?.close();
    this.#attempts.cancelAll('The page is closing.');
  }
}
