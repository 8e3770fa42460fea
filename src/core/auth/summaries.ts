// `state.signIns`: what the page may know of each OAuth server's sign-in (status, issuer,
// scopes, expiry, whether it can be refreshed, when the user signed in — never a token), kept
// in the store and in clear storage (`signin:<id>`), and told to the other tabs.
import { KEYS, type HubContext } from '../context.js';
import type { ServerConfig } from '../schemas.js';
import { withEntry } from '../store.js';
import type { HubState, SignInState } from '../types.js';

/** A server's URL, OAuth settings and timeout, when it is configured for OAuth sign-in. */
export function oauthOf(cfg: ServerConfig | undefined) {
  return cfg && cfg.auth.type === 'oauth'
    ? { url: cfg.url, auth: cfg.auth, timeout: cfg.timeout, revision: cfg.revision, relay: cfg.relay }
    : undefined;
}

const SIGNED_OUT: SignInState = Object.freeze({ status: 'signed-out' as const });

export class Summaries {
  constructor(private readonly ctx: HubContext) {}

  /** The stored summaries into the state; OAuth servers without one are signed out. */
  async load(): Promise<void> {
    const entries = await this.ctx.storage.entries().catch(() => [] as [string, unknown][]);
    const servers = this.ctx.store.state.servers;
    const found: Record<string, SignInState> = {};
    for (const [key, value] of entries) {
      if (!key.startsWith(KEYS.signIn)) continue;
      const id = key.slice(KEYS.signIn.length);
      if (oauthOf(servers[id]) && value && typeof value === 'object') found[id] = Object.freeze(value as SignInState);
    }
    for (const id of Object.keys(servers)) if (oauthOf(servers[id]) && !found[id]) found[id] = SIGNED_OUT;
    this.ctx.store.update((s) => ({ ...s, signIns: Object.freeze({ ...found, ...s.signIns }) }));
  }

  /** Servers added with OAuth start signed out. */
  added(state: HubState, previous: HubState): void {
    const added = Object.keys(state.servers).filter(
      (id) => !previous.servers[id] && oauthOf(state.servers[id]) && !state.signIns[id],
    );
    if (added.length && state.ready)
      queueMicrotask(() =>
        this.ctx.store.update((s) => ({
          ...s,
          signIns: Object.freeze({
            // still there: a change replayed late (the module loaded after it) may name a removed one
            ...Object.fromEntries(added.filter((id) => s.servers[id]).map((id) => [id, SIGNED_OUT])),
            ...s.signIns,
          }),
        })),
      );
  }

  /** Show `summary` (undefined: none) without storing it. */
  set(id: string, summary: SignInState | undefined): void {
    this.ctx.store.update((s) => ({ ...s, signIns: withEntry(s.signIns, id, summary) }));
  }

  /** Show and keep `summary`, and tell the other tabs. */
  async save(id: string, summary: SignInState): Promise<void> {
    this.set(id, summary);
    try {
      if (summary.status === 'signed-in') await this.ctx.storage.set(KEYS.signIn + id, summary);
      else await this.ctx.storage.delete(KEYS.signIn + id);
      this.ctx.broadcast('sign-in', id);
    } catch (e) {
      this.ctx.warn(`Could not keep the sign-in state of server "${id}": ${(e as Error).message}`);
    }
  }

  /** The stored summary (another tab changed it). */
  async read(id: string): Promise<SignInState | undefined> {
    const raw = await this.ctx.storage.get<SignInState>(KEYS.signIn + id).catch(() => undefined);
    if (raw) return Object.freeze(raw);
    return oauthOf(this.ctx.store.state.servers[id]) ? SIGNED_OUT : undefined;
  }

  /** The server was signed out of (signed out), or removed or no longer uses OAuth (no summary). */
  async signedOut(id: string): Promise<void> {
    if (oauthOf(this.ctx.store.state.servers[id])) return this.save(id, SIGNED_OUT);
    this.set(id, undefined);
    await this.ctx.storage.delete(KEYS.signIn + id).catch(() => {});
  }
}
