// `hub.connect(id, { signIn })`: one awaitable path for a host without a click to wait for (Node,
// a backend, a CLI): connect; while the server asks for sign-in (401, or 403 insufficient_scope),
// sign in with the host's `open` and go on; resolve once connected. Sign-ins to one server are
// queued: a connect that needs one while another is under way waits for it instead of starting a
// second (which would replace the first), then asks the server again. A step-up the hub ended
// (the scope still refused after STEP_UP_LIMIT sign-ins that asked for it, auth/step-up.ts) ends
// the connect with that `insufficient-scope` error: signing in again cannot help, and only an
// explicit `hub.signIn()` starts a fresh count.
import type { SignInOptions } from '../auth/options.js';
import { McpAuthError, McpConfigError } from '../errors.js';
import type { ConnectionState, ServerCatalogue } from '../types.js';

/** How many sign-ins one `connect(id, { signIn })` may go through (a server that keeps asking stops there). */
export const MAX_SIGN_INS_PER_CONNECT = 3;

/** The `signIn` option of `hub.connect()`. */
export interface ConnectSignInOptions extends Pick<SignInOptions, 'open'> {
  /** Sign-ins this connect may go through before it gives up with the server's last refusal. Default 3. */
  maxSignIns?: number;
}

/** What the connect-with-sign-in loop needs from the hub. */
export interface SignInConnectParts {
  signIn(id: string, options: SignInOptions): Promise<ConnectionState>;
  catalogue(id: string): ServerCatalogue | undefined;
  /** The `insufficient-scope` error of a step-up the hub ended for this server, if it did. */
  stepUpEnded(id: string): McpAuthError | undefined;
}

/** Check the `signIn` option of `hub.connect()` (McpConfigError). */
export function checkConnectSignIn(options: unknown): ConnectSignInOptions {
  const o = options as ConnectSignInOptions;
  const issues: { path: string; message: string }[] = [];
  if (!o || typeof o !== 'object') issues.push({ path: 'signIn', message: 'must be an object ({ open })' });
  else {
    if (o.open !== undefined && typeof o.open !== 'function')
      issues.push({ path: 'signIn.open', message: 'must be a function (authorizationUrl) => redirect URL' });
    if (o.maxSignIns !== undefined && !(Number.isInteger(o.maxSignIns) && o.maxSignIns >= 0 && o.maxSignIns <= 10))
      issues.push({ path: 'signIn.maxSignIns', message: 'must be a whole number from 0 to 10' });
  }
  if (issues.length) throw new McpConfigError(issues);
  return o;
}

const asksSignIn = (e: unknown): e is McpAuthError =>
  e instanceof McpAuthError && (e.code === 'sign-in-required' || e.code === 'insufficient-scope');

export class SignInQueue {
  /** The sign-in under way per server, which later askers join. */
  readonly #running = new Map<string, Promise<ConnectionState>>();
  constructor(private readonly parts: SignInConnectParts) {}

  /** Sign in to `id` once: joins a sign-in of this queue already under way for it. */
  signIn(id: string, options: SignInOptions): Promise<ConnectionState> {
    let p = this.#running.get(id);
    if (!p) {
      p = this.parts.signIn(id, options).finally(() => {
        if (this.#running.get(id) === p) this.#running.delete(id);
      });
      this.#running.set(id, p);
    }
    return p;
  }

  /** Connect, signing in as often as the server asks (up to `maxSignIns`); resolves with the catalogue once connected. */
  async connect(
    id: string,
    options: ConnectSignInOptions,
    connect: () => Promise<ServerCatalogue>,
  ): Promise<ServerCatalogue> {
    const max = options.maxSignIns ?? MAX_SIGN_INS_PER_CONNECT;
    const open = options.open ? { open: options.open } : {};
    for (let signIns = 0; ; signIns++) {
      try {
        return await connect();
      } catch (e) {
        if (asksSignIn(e) && e.code === 'insufficient-scope') this.#throwIfEnded(id);
        if (!asksSignIn(e) || signIns >= max) throw e;
      }
      // the sign-in reconnects when it is done: connected then means there is nothing left to do;
      // a step-up it ended, and this connect ends too; anything else, and the next connect says
      // what the server wants now
      const state = await this.signIn(id, open);
      const catalogue = this.parts.catalogue(id);
      if (state.status === 'connected' && catalogue) return catalogue;
      if (state.status === 'error' && state.error?.code === 'insufficient-scope') this.#throwIfEnded(id);
    }
  }

  #throwIfEnded(id: string): void {
    const ended = this.parts.stepUpEnded(id);
    if (ended) throw ended;
  }
}
