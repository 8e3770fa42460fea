// Keeping other tabs in step over a BroadcastChannel that carries only `{ kind, id }` (the page
// shell's: core/shell/page-shell.ts). Loading stored records is persistence/load.ts.
import {
  McpServerAddedEvent,
  McpServerRemovedEvent,
  McpServerUpdatedEvent,
  McpToolSelectionChangedEvent,
} from '../../events/index.js';
import { StoredAssistantProfileSchema } from '../assistants/profile.js';
import { KEYS, type HubContext, type SyncMessage } from '../context.js';
import { CatalogueSchema, ServerConfigSchema } from '../schemas.js';
import { setAssistant, setCatalogue, setServer, toolsChanged } from '../state.js';
import type { ServerCatalogue } from '../types.js';

/** What a remote change needs from the connections. */
export interface RemoteHooks {
  /** Close a server's session (it was removed in another tab). */
  close(id: string): Promise<void>;
  /** Whether this tab holds a live session (then its own catalogue wins). */
  hasSession(id: string): boolean;
  /** Another tab signed in to or out of a server (OAuth). */
  signInChanged?(id: string): Promise<void>;
}

/** Keeps this hub in step with other tabs of the same origin and store. */
export class TabSync {
  #channel?: BroadcastChannel;

  constructor(
    private readonly ctx: HubContext,
    private readonly hubId: string,
    storeName: string,
    enabled: boolean,
    private readonly hooks: RemoteHooks,
  ) {
    if (!enabled || typeof BroadcastChannel === 'undefined') return;
    this.#channel = new BroadcastChannel(`mcp-elements:${storeName}`);
    this.#channel.onmessage = (e: MessageEvent<SyncMessage>) => void this.#onRemote(e.data);
    // in Node an open channel would keep the process alive
    (this.#channel as { unref?: () => void }).unref?.();
  }

  /** Tell other tabs a record changed (only when there is a shared store to re-read). */
  broadcast(kind: SyncMessage['kind'], id: string): void {
    if (this.ctx.storage.kind !== 'indexeddb') return;
    this.#channel?.postMessage({ from: this.hubId, kind, id } satisfies SyncMessage);
  }

  close(): void {
    this.#channel?.close();
    this.#channel = undefined; // writes still landing after dispose tell no one
  }

  async #onRemote(msg: SyncMessage) {
    const { ctx } = this;
    if (!msg || msg.from === this.hubId || ctx.storage.kind !== 'indexeddb') return;
    await ctx.ready;
    if (msg.kind === 'server') {
      const raw = await ctx.storage.get(KEYS.server + msg.id);
      const prev = ctx.store.state.servers[msg.id];
      const r = raw === undefined ? undefined : ServerConfigSchema.safeParse(raw);
      if (!r || !r.success) {
        if (!prev) return;
        await this.hooks.close(msg.id);
        setServer(ctx, msg.id, undefined);
        setCatalogue(ctx, msg.id, undefined);
        ctx.emit(new McpServerRemovedEvent({ serverId: msg.id, name: prev.name, source: 'remote' }));
        return;
      }
      setServer(ctx, msg.id, r.data);
      if (prev) ctx.emit(new McpServerUpdatedEvent({ server: r.data, previous: prev, source: 'remote' }));
      else ctx.emit(new McpServerAddedEvent({ server: r.data, source: 'remote' }));
    } else if (msg.kind === 'assistant') {
      const r = StoredAssistantProfileSchema.safeParse(await ctx.storage.get(KEYS.assistant + msg.id));
      if (!r.success) return;
      setAssistant(ctx, r.data);
      ctx.emit(
        new McpToolSelectionChangedEvent({ assistantId: r.data.assistantId, profile: r.data, source: 'remote' }),
      );
    } else if (msg.kind === 'sign-in') {
      await this.hooks.signInChanged?.(msg.id);
    } else if (!this.hooks.hasSession(msg.id)) {
      const raw = await ctx.storage.get(KEYS.catalogue + msg.id);
      const r = CatalogueSchema.safeParse(raw);
      if (r.success && ctx.store.state.servers[msg.id]) {
        setCatalogue(ctx, msg.id, raw as ServerCatalogue);
        toolsChanged(ctx, msg.id, 'loaded');
      }
    }
  }
}
