// Loading stored records at start (corrupt ones set aside) and keeping other tabs in step over
// a BroadcastChannel that carries only `{ kind, id }`.
import {
  McpServerAddedEvent,
  McpServerRemovedEvent,
  McpServerUpdatedEvent,
  McpToolSelectionChangedEvent,
} from '../../events/index.js';
import { AssistantProfileSchema, type AssistantProfile } from '../assistants/profile.js';
import { TERMINAL, type ToolCallRecord } from '../calls/records.js';
import { KEYS, type HubContext, type SyncMessage } from '../context.js';
import { takeJournal } from './journal.js';
import { CatalogueSchema, ServerConfigSchema, toIssues, type ServerConfig } from '../schemas.js';
import { setAssistant, setCatalogue, setServer, toolsChanged } from '../state.js';
import type { ServerCatalogue } from '../types.js';

/** Move a corrupt record to `quarantine:<key>` with a warning naming the key (never the values). */
async function quarantine(ctx: HubContext, key: string, value: unknown, why: string): Promise<void> {
  ctx.warn(`Set aside the corrupt record "${key}": ${why}`);
  await ctx.storage.set(KEYS.quarantine + key, value).catch(() => {});
  await ctx.storage.delete(key).catch(() => {});
}

/** A call the page was running when it went away never finished: say so. */
function settleInterrupted(c: ToolCallRecord): ToolCallRecord {
  if (TERMINAL.has(c.status)) return c;
  return {
    ...c,
    status: 'interrupted',
    endedAt: c.endedAt ?? Date.now(),
    error: { code: 'interrupted', message: 'The page was closed or reloaded before this call finished.' },
  };
}

function isCallRecord(c: unknown): c is ToolCallRecord {
  const r = c as ToolCallRecord | undefined;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    typeof r.status === 'string' &&
    typeof r.createdAt === 'number'
  );
}

/**
 * Read every stored record into the snapshot. Calls found unfinished come back `interrupted`;
 * they are handed to `rewrite` so the history writes them back.
 */
export async function loadRecords(ctx: HubContext, rewrite: (calls: ToolCallRecord[]) => void): Promise<void> {
  await ctx.storage.probe();
  const rows = await ctx.storage.entries();
  const servers: Record<string, ServerConfig> = {};
  const catalogues: Record<string, ServerCatalogue> = {};
  const assistants: Record<string, AssistantProfile> = {};
  const calls: Record<string, ToolCallRecord> = {};
  const fixed: ToolCallRecord[] = [];
  for (const [key, value] of rows) {
    ctx.storage.remember(key, value);
    if (!key.startsWith(KEYS.server)) continue;
    const r = ServerConfigSchema.safeParse(value);
    if (r.success) servers[r.data.id] = Object.freeze(r.data);
    else {
      const why = toIssues(r.error)
        .map((i) => `${i.path || '(record)'} ${i.message}`)
        .join('; ');
      await quarantine(ctx, key, value, why);
    }
  }
  for (const [key, value] of rows) {
    if (key.startsWith(KEYS.catalogue)) {
      const r = CatalogueSchema.safeParse(value);
      if (r.success && servers[r.data.serverId]) catalogues[r.data.serverId] = Object.freeze(value as ServerCatalogue);
      else if (!r.success) await quarantine(ctx, key, value, 'not a valid catalogue');
    } else if (key.startsWith(KEYS.assistant)) {
      const r = AssistantProfileSchema.safeParse(value);
      if (r.success) assistants[r.data.gptId] = Object.freeze(r.data);
      else await quarantine(ctx, key, value, 'not a valid assistant profile');
    } else if (key.startsWith(KEYS.call)) {
      if (!isCallRecord(value)) {
        await quarantine(ctx, key, value, 'not a valid tool call record');
        continue;
      }
      const settled = settleInterrupted(value);
      if (settled !== value) fixed.push(settled);
      calls[value.id] = Object.freeze(settled);
    }
  }
  // records the last page could only journal (its IndexedDB write did not finish): a stored
  // record that already ended wins; otherwise the journal's is newer
  for (const j of takeJournal(ctx.storeName)) {
    if (!isCallRecord(j) || (calls[j.id] && TERMINAL.has(calls[j.id].status))) continue;
    const settled = Object.freeze(settleInterrupted(j));
    calls[j.id] = settled;
    fixed.push(settled);
  }
  if (fixed.length) rewrite(fixed);
  const now = Date.now();
  ctx.store.update((s) => ({
    ...s,
    ready: true,
    assistants: Object.freeze({ ...assistants, ...s.assistants }),
    calls: Object.freeze({ ...calls, ...s.calls }),
    servers: Object.freeze({ ...s.servers, ...servers }),
    catalogues: Object.freeze({ ...s.catalogues, ...catalogues }),
    connections: Object.freeze(
      Object.fromEntries(
        Object.keys({ ...s.servers, ...servers }).map((id) => [
          id,
          s.connections[id] ?? Object.freeze({ status: 'disconnected' as const, since: now }),
        ]),
      ),
    ),
  }));
}

/** What a remote change needs from the connections. */
export interface RemoteHooks {
  /** Close a server's session (it was removed in another tab). */
  close(id: string): Promise<void>;
  /** Whether this tab holds a live session (then its own catalogue wins). */
  hasSession(id: string): boolean;
}

/** Keeps this hub in step with other tabs of the same origin and store. */
export class TabSync {
  readonly #channel?: BroadcastChannel;

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
      const r = AssistantProfileSchema.safeParse(await ctx.storage.get(KEYS.assistant + msg.id));
      if (!r.success) return;
      setAssistant(ctx, r.data);
      ctx.emit(new McpToolSelectionChangedEvent({ gptId: r.data.gptId, profile: r.data, source: 'remote' }));
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
