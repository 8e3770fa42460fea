// Sign-in (src/core/auth, and the SDK's OAuth code it pulls in) loaded only when the page needs
// it: a server uses OAuth or machine credentials, or a full-page sign-in came back. Until then
// the hub holds this small stand-in, which the connections, the call pipeline and the hub talk
// to as they would to the sign-ins themselves. It keeps the options, forwards every change of
// the servers (so nothing done before the module arrived is missed), opens the sign-in popup in
// the click even while the module is still loading, and delegates everything else once loaded.
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { ClientKeyInfo, CreateClientKeyOptions } from './auth/client-keys.js';
import type { IdentityAssertionSource, IdentityPolicy } from './auth/jwt-bearer.js';
import {
  checkSignInOptions,
  endpointAllowed,
  type HubSignInOptions,
  type SignInOptions,
  type SignInPage,
} from './auth/options.js';
import type { SignInControl, SignIns } from './auth/sign-ins.js';
import type { ConnectionAuth } from './connections/manager.js';
import type { HubContext } from './context.js';
import { McpAuthError, McpConfigError } from './errors.js';
import type { ServerConfig } from './schemas.js';
import type { ConnectionState, HubState } from './types.js';

type TransportAuth = AuthProvider & { wrapFetch?: (f: typeof fetch) => typeof fetch };

const usesSignIn = (cfg: ServerConfig | undefined) =>
  cfg?.auth.type === 'oauth' || cfg?.auth.type === 'client-credentials' || cfg?.auth.type === 'jwt-bearer';

/** Where there is no page (a backend): a sign-in needs the caller's `open`. */
const NO_PAGE: SignInPage = {
  openPopup() {
    throw new McpAuthError('popup-blocked', 'Sign-in needs a browser window here; pass `open` to hub.signIn().');
  },
  closePopup() {},
  answerWaiting: () => false,
};

export class LazySignIns implements ConnectionAuth {
  #loaded?: SignIns;
  #loading?: Promise<SignIns>;
  #options: HubSignInOptions;
  /** Server changes seen before the module was loaded, replayed to it. */
  readonly #changes: [HubState, HubState][] = [];
  readonly #unsubscribe: () => void;
  #disposed = false;
  /** The page's identity assertion functions (`jwt-bearer` servers), by server id or `*`. */
  readonly #assertions = new Map<string, IdentityAssertionSource>();
  /** The sources and the IdP token endpoints their assertions may go to (`idpTokenEndpoints`). */
  readonly #identity: IdentityPolicy = {
    sources: this.#assertions,
    idpAllowed: (url) => this.idpAllowed(url),
  };

  constructor(
    private readonly ctx: HubContext,
    options: HubSignInOptions,
    private readonly control: SignInControl,
    private readonly page?: SignInPage,
  ) {
    this.#options = checkSignInOptions(options);
    this.#unsubscribe = ctx.store.subscribe(
      (state, previous) => {
        if (state.servers === previous.servers) return;
        if (this.#loaded) return this.#loaded.serversChanged(state, previous);
        const involved = [...Object.values(state.servers), ...Object.values(previous.servers)].some(usesSignIn);
        if (!involved) return;
        this.#changes.push([state, previous]);
        void this.load();
      },
      { lazy: true },
    ); // servers only: call records need not be applied promptly for it
    void ctx.ready.then(() => {
      if (Object.values(ctx.store.state.servers).some(usesSignIn) || page?.answerWaiting()) void this.load();
    });
  }

  /**
   * The hub's sign-ins: options checked (McpConfigError), then wired to the connections, which
   * use them for every OAuth server's auth from then on.
   */
  static forHub(
    ctx: HubContext,
    options: HubSignInOptions,
    connections: Pick<SignInControl, 'connect' | 'closeSession'> & { useAuth(auth: ConnectionAuth): void },
    page?: SignInPage,
  ): LazySignIns {
    const signIns = new LazySignIns(
      ctx,
      options,
      {
        connect: (id) => connections.connect(id),
        closeSession: (id) => connections.closeSession(id),
      },
      page,
    );
    connections.useAuth(signIns);
    return signIns;
  }

  static checkOptions = checkSignInOptions;

  /** The sign-in module, loaded once (a dynamic import: its own chunk in the CDN build). */
  load(): Promise<SignIns> {
    this.#loading ??= import('./auth/sign-ins.js').then((m) => {
      const s = new m.SignIns(this.ctx, this.#options, this.control, this.#identity, this.page ?? NO_PAGE);
      for (const [state, previous] of this.#changes.splice(0)) s.serversChanged(state, previous);
      this.#loaded = s;
      if (this.#disposed) s.dispose();
      return s;
    });
    return this.#loading;
  }

  setOptions(options: HubSignInOptions): void {
    const given = checkSignInOptions(options);
    this.#options = { ...this.#options, ...given };
    this.#loaded?.setOptions(given);
  }

  /** Whether the page allows identity assertions to be posted to this IdP token endpoint. */
  idpAllowed(tokenEndpoint: string): boolean {
    return endpointAllowed(this.#options.idpTokenEndpoints, tokenEndpoint);
  }

  /** `hub.setIdentityAssertion()`: the function a `jwt-bearer` server's token requests ask (null removes it). */
  setIdentityAssertion(serverId: string, source: IdentityAssertionSource | null): void {
    if (typeof serverId !== 'string' || !serverId)
      throw new McpConfigError([{ path: 'serverId', message: 'must be a server id, or "*" for every server' }]);
    if (source !== null && typeof source !== 'function')
      throw new McpConfigError([{ path: 'source', message: 'must be a function returning the assertion, or null' }]);
    if (source) this.#assertions.set(serverId, source);
    else this.#assertions.delete(serverId);
  }

  authProviderFor(id: string | undefined, target?: Parameters<SignIns['authProviderFor']>[1]): TransportAuth {
    if (this.#loaded) return this.#loaded.authProviderFor(id, target);
    // resolved once: a machine config being tested gets one client, not one per call
    const real = this.load().then((s) => s.authProviderFor(id, target) as TransportAuth);
    return {
      token: async () => (await real).token(),
      onUnauthorized: async (context) => (await real).onUnauthorized?.(context),
      wrapFetch: (f) => async (input, init) => {
        const p = await real;
        return (p.wrapFetch ? p.wrapFetch(f) : f)(input, init);
      },
    };
  }

  needsSignIn(id: string, err: McpAuthError, callId?: string): void {
    if (this.#loaded) this.#loaded.needsSignIn(id, err, callId);
    else void this.load().then((s) => s.needsSignIn(id, err, callId));
  }

  /** A step-up that ended for this server (nothing ended before the module was needed). */
  stepUpEnded(id: string): McpAuthError | undefined {
    return this.#loaded?.stepUpEnded(id);
  }

  /** A call runs on the server (sign-in announcements: one per occurrence); a no-op before the module is needed. */
  callRunning(id: string): () => void {
    return this.#loaded ? this.#loaded.callRunning(id) : () => {};
  }

  waitFor(id: string, err: McpAuthError, callId: string, signal: AbortSignal): Promise<void> {
    if (this.#loaded) return this.#loaded.waitFor(id, err, callId, signal);
    return this.load().then((s) => s.waitFor(id, err, callId, signal));
  }

  /** `hub.signIn()`: the popup opens here, in the caller's task, even before the module is loaded. */
  signIn(id: string, options: SignInOptions = {}): Promise<ConnectionState> {
    if (this.#loaded) return this.#loaded.signIn(id, options);
    let opened: Window | null | undefined;
    const w = globalThis as unknown as Partial<Window>;
    if (this.page && !options.open && typeof w.open === 'function' && usesSignIn(this.ctx.store.state.servers[id]))
      opened = this.page.openPopup(id);
    return this.load().then((s) => s.signIn(id, options, opened));
  }

  signOut(id: string): Promise<void> {
    return this.load().then((s) => s.signOut(id));
  }

  /** Another tab signed in or out of a server. */
  async remoteChanged(id: string): Promise<void> {
    if (!this.#loaded && !usesSignIn(this.ctx.store.state.servers[id])) return;
    await (await this.load()).remoteChanged(id);
  }

  readonly keys = {
    create: (options: CreateClientKeyOptions): Promise<ClientKeyInfo> =>
      this.load().then((s) => s.keys.create(options)),
    remove: (keyId: string): Promise<void> => this.load().then((s) => s.keys.remove(keyId)),
  };

  dispose(): void {
    this.#disposed = true;
    this.#unsubscribe();
    this.#loaded?.dispose();
  }
}
