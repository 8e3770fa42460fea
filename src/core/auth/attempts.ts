// What waits on sign-in. The sign-ins a caller of `hub.signIn()` is waiting on: one per server,
// each a promise that settles when the answer is redeemed, fails, expires, is replaced by a
// newer sign-in, or the user signs out (settling removes it, and its expiry timer, in one
// place). And a tool call waiting for the user to sign in (`waitForSignIn`), here or in another tab.
import type { HubContext } from '../context.js';
import { McpAuthError, McpNotFoundError } from '../errors.js';

export interface Attempt {
  /** The `state` of its authorization request, once prepared. */
  state?: string;
  resolve(): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
  /** The user closed the sign-in window: an expiry is then a cancellation, not an error. */
  windowClosed?: boolean;
}

export class Attempts {
  readonly #byServer = new Map<string, Attempt>();

  /** Start waiting on a sign-in to `id`; a previous one is cancelled (replaced). */
  start(id: string): { attempt: Attempt; done: Promise<void> } {
    this.cancel(id, 'A newer sign-in to this server replaced this one.');
    let attempt!: Attempt;
    const done = new Promise<void>((resolve, reject) => {
      attempt = { resolve, reject };
    });
    this.#byServer.set(id, attempt);
    return { attempt, done };
  }

  get(id: string): Attempt | undefined {
    return this.#byServer.get(id);
  }

  /** The server whose attempt has this `state`. */
  serverOf(state: string): string | undefined {
    for (const [id, a] of this.#byServer) if (a.state === state) return id;
    return undefined;
  }

  /** Give up after `ms` with `expired`. */
  expireIn(id: string, attempt: Attempt, ms: number): void {
    attempt.timer = setTimeout(
      () =>
        this.settle(
          id,
          attempt,
          attempt.windowClosed
            ? new McpAuthError('cancelled', 'The sign-in window was closed.')
            : new McpAuthError('expired', 'The sign-in was not finished in time; sign in again.'),
        ),
      ms,
    );
  }

  /** Settle `attempt` of server `id`: resolved without `error`, else rejected with it. */
  settle(id: string, attempt: Attempt | undefined, error?: unknown): void {
    if (!attempt) return;
    if (this.#byServer.get(id) === attempt) this.#byServer.delete(id);
    clearTimeout(attempt.timer);
    if (error === undefined) attempt.resolve();
    else attempt.reject(error);
  }

  /** Cancel the attempt of `id`, if any. */
  cancel(id: string, message: string): void {
    this.settle(id, this.#byServer.get(id), new McpAuthError('cancelled', message));
  }

  cancelAll(message: string): void {
    for (const id of [...this.#byServer.keys()]) this.cancel(id, message);
  }
}

/**
 * Resolves once the user signed in to server `id` after `since` (the `signedInAt` seen before)
 * and the server was connected again with the new token (or failed to be); rejects when the
 * server is removed or `signal` aborts.
 */
export function waitForSignIn(ctx: Pick<HubContext, 'store'>, id: string, since: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const stop = () => {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    const unsubscribe = ctx.store.subscribe(
      (state) => {
        const s = state.signIns[id];
        if (!state.servers[id]) {
          stop();
          reject(new McpNotFoundError('server', id));
        } else if (s?.status === 'signed-in' && (s.signedInAt ?? 0) > since) {
          const status = state.connections[id]?.status;
          if (status === 'connecting' || (status === 'needs-sign-in' && state.servers[id].enabled)) return;
          stop();
          resolve();
        }
      },
      { lazy: true },
    ); // reads no call records
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `mcp-sign-in-required` once per occurrence: a request refused for sign-in while calls run on
 * the server is announced by the call it belonged to (with its `callId`), so the connections'
 * announcement without one is held until those calls are done, and dropped if one of them
 * announces first. Exact, not timed: the calls say when they start and settle.
 */
export class Announcements {
  readonly #running = new Map<string, number>();
  readonly #held = new Map<string, () => void>();

  /** A call runs on the server; the returned function (idempotent) says it settled. */
  hold(id: string): () => void {
    this.#running.set(id, (this.#running.get(id) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.#running.get(id) ?? 1) - 1;
      if (left > 0) return void this.#running.set(id, left);
      this.#running.delete(id);
      const emit = this.#held.get(id);
      this.#held.delete(id);
      emit?.();
    };
  }

  /** Announce now; or, without a call id while calls run on the server, when they are done (unless one announces). */
  announce(id: string, emit: () => void, callId?: string): void {
    if (!callId && this.#running.has(id)) return void this.#held.set(id, emit);
    this.#held.delete(id);
    emit();
  }
}
