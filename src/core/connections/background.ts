// What a connect leaves running after it resolved (connections/manager.ts): writing the catalogue
// and `lastConnectedAt`, and after a tools-first connect listing resources, templates and prompts.
// Kept here so `connect({ discovery: 'complete' })` can wait for the rest and dispose for the writes.
import { withGivenNames } from '../assistants/given-names.js';
import { KEYS, type HubContext } from '../context.js';
import { ServerConfigSchema, type ServerConfig } from '../schemas.js';
import type { McpSession } from '../session/index.js';
import { setCatalogue, setServer, toolsChanged } from '../state.js';
import type { ServerCatalogue } from '../types.js';
import { catalogueOf, listRest, type DiscoverySlot, type Listed } from './discovery.js';

/** Write a catalogue for reloads and other tabs; a failure only warns. */
export async function persistCatalogue(ctx: HubContext, id: string, catalogue: ServerCatalogue): Promise<void> {
  if (!ctx.store.state.servers[id]) return; // removed meanwhile: write nothing back
  try {
    // with the names its tools were given (as setCatalogue put it in the state)
    await ctx.storage.set(KEYS.catalogue + id, withGivenNames(ctx.store.state, id, catalogue));
    ctx.broadcast('catalogue', id);
  } catch (e) {
    ctx.warn(`Could not persist the catalogue of server "${id}": ${(e as Error).message}`);
  }
}

export class Background {
  /** Per server: the background listing of resources, templates and prompts after a connect. */
  readonly #rest = new Map<string, Promise<ServerCatalogue>>();
  readonly #running = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: HubContext,
    private readonly secrets: (serverId: string) => Iterable<string>,
    private readonly slot: (url: string) => DiscoverySlot,
  ) {}

  /** The rest of the server's discovery, while it runs. */
  rest(id: string): Promise<ServerCatalogue> | undefined {
    return this.#rest.get(id);
  }

  /** Resolves once everything started so far has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#running.add(p);
    void p.catch(() => {}).finally(() => this.#running.delete(p));
    return p;
  }

  /**
   * Off the connect path: persist the catalogue and `lastConnectedAt`, and after a tools-first
   * connect list resources, templates and prompts (behind every tool list of the origin), then
   * announce them (`mcp-tools-changed`, reason `discovered`). Dropped once `current()` is false
   * (the session was replaced).
   */
  afterConnect(
    id: string,
    session: McpSession,
    first: ServerCatalogue,
    cfg: ServerConfig,
    tools: Listed<Pick<ServerCatalogue, 'tools'>> | undefined,
    current: () => boolean,
  ): void {
    const { ctx } = this;
    void this.#track(
      (async () => {
        const now = Date.now();
        await persistCatalogue(ctx, id, first);
        try {
          const rec = await ctx.storage.update<ServerConfig | undefined>(KEYS.server + id, (old) =>
            old ? { ...old, lastConnectedAt: now } : old,
          );
          if (rec && current()) setServer(ctx, id, ServerConfigSchema.parse(rec));
        } catch (e) {
          ctx.warn(`Could not record the connection time of server "${id}": ${(e as Error).message}`);
        }
      })(),
    );
    if (!tools) return;
    const rest = this.#track(
      (async (): Promise<ServerCatalogue> => {
        const listed = await listRest(
          id,
          session,
          { timeout: cfg.timeout * 1000 },
          { warn: (message) => current() && ctx.warn(message), secrets: this.secrets(id), slot: this.slot(cfg.url) },
        );
        const latest = ctx.store.state.catalogues[id];
        // a refresh (list change) may have listed everything meanwhile: keep the newer catalogue
        if (!current() || !latest?.partial) return latest ?? first;
        const complete = setCatalogue(ctx, id, catalogueOf(id, session, tools, listed));
        toolsChanged(ctx, id, 'discovered');
        await persistCatalogue(ctx, id, complete);
        return complete;
      })(),
    );
    this.#rest.set(id, rest);
    void rest
      .catch(() => {})
      .finally(() => {
        if (this.#rest.get(id) === rest) this.#rest.delete(id);
      });
  }
}
