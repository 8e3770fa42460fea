// Loading stored records at start (corrupt ones set aside) and keeping other tabs in step over
// a BroadcastChannel that carries only `{ kind, id }`.
import {
  McpServerAddedEvent,
  McpServerRemovedEvent,
  McpServerUpdatedEvent,
  McpToolSelectionChangedEvent,
} from '../../events/index.js';
import { StoredAssistantProfileSchema, type AssistantProfile } from '../assistants/profile.js';
import { interruptedRecord, TERMINAL, type ToolCallRecord } from '../calls/records.js';
import { KEYS, type HubContext, type SyncMessage } from '../context.js';
import { dropFromJournal, peekJournal } from './journal.js';
import { TASK_TERMINAL } from '../session/task-vocabulary.js';
import { CatalogueSchema, ServerConfigSchema, toIssues, type ServerConfig } from '../schemas.js';
import { setAssistant, setCatalogue, setServer, toolsChanged } from '../state.js';
import type { ServerCatalogue } from '../types.js';

/** Move a corrupt record to `quarantine:<key>` with a warning naming the key (never the values). */
async function quarantine(ctx: HubContext, key: string, value: unknown, why: string): Promise<void> {
  ctx.warn(`Set aside the corrupt record "${key}": ${why}`);
  await ctx.storage.set(KEYS.quarantine + key, value).catch(() => {});
  await ctx.storage.delete(key).catch(() => {});
}

/** A call whose server-side task was still running: the hub follows it again after load. */
function followsTask(call: ToolCallRecord): boolean {
  return !TERMINAL.has(call.status) && !!call.task && !TASK_TERMINAL.has(call.task.status);
}

/**
 * A call that only waited for the user's decision never ran: it still waits after a reload (the
 * pipeline asks again). Not a view's call: the view that made it is gone with the page.
 */
function keepsWaiting(call: ToolCallRecord): boolean {
  return call.status === 'awaiting-approval' && call.source !== 'app' && !call.task;
}

/**
 * A call the page was running when it went away never finished: say so. A call with a task runs
 * on the server without the page, so it stays `running` (the pipeline resumes polling it); one
 * that waited for approval waits again.
 */
function settleInterrupted(call: ToolCallRecord): ToolCallRecord {
  if (TERMINAL.has(call.status) || keepsWaiting(call)) return call;
  if (followsTask(call)) return call.status === 'running' ? call : { ...call, status: 'running' };
  return interruptedRecord(call);
}

function isCallRecord(value: unknown): value is ToolCallRecord {
  const r = value as ToolCallRecord | undefined;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    typeof r.status === 'string' &&
    typeof r.createdAt === 'number'
  );
}

/**
 * A stored call record with both names of its assistant: records written before the rename
 * carry only `gptId`. Stored records are not rewritten for this (older bundles read `gptId`).
 */
function withAssistantId(call: ToolCallRecord): ToolCallRecord {
  const { assistantId, gptId } = call as Partial<ToolCallRecord>;
  if (typeof assistantId === 'string' && typeof gptId === 'string') return call;
  if (typeof gptId === 'string') return { ...call, assistantId: gptId };
  if (typeof assistantId === 'string') return { ...call, gptId: assistantId };
  return call;
}

/**
 * Records stored before calls had a `denied` status were `cancelled` with the code `denied` or
 * `vetoed`: shown as what they were (in memory; the stored record is left as it is).
 */
function withDeniedStatus(call: ToolCallRecord): ToolCallRecord {
  const code = call.error?.code;
  return call.status === 'cancelled' && (code === 'denied' || code === 'vetoed') ? { ...call, status: 'denied' } : call;
}

/**
 * Read every stored record into the snapshot. Calls found unfinished come back `interrupted`
 * (those waiting for approval keep waiting, those with a task keep running); they are handed to
 * `rewrite` so the history writes them back.
 */
export async function loadRecords(
  ctx: HubContext,
  rewrite: (calls: ToolCallRecord[]) => Promise<boolean>,
): Promise<void> {
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
      const r = StoredAssistantProfileSchema.safeParse(value);
      if (r.success) assistants[r.data.assistantId] = Object.freeze(r.data);
      else await quarantine(ctx, key, value, 'not a valid assistant profile');
    } else if (key.startsWith(KEYS.call)) {
      if (!isCallRecord(value)) {
        await quarantine(ctx, key, value, 'not a valid tool call record');
        continue;
      }
      const record = withDeniedStatus(withAssistantId(value));
      const settled = settleInterrupted(record);
      if (settled !== record) fixed.push(settled);
      calls[record.id] = Object.freeze(settled);
    }
  }
  // records the last page could only journal (its IndexedDB write did not finish): a stored
  // record that already ended wins; otherwise the journal's is newer
  const journaled = peekJournal(ctx.storeName);
  for (const j of journaled) {
    if (!isCallRecord(j) || (calls[j.id] && TERMINAL.has(calls[j.id].status))) continue;
    const settled = Object.freeze(settleInterrupted(withAssistantId(j)));
    calls[j.id] = settled;
    fixed.push(settled);
  }
  const now = Date.now();
  const active: Record<string, ToolCallRecord> = {};
  for (const [id, c] of Object.entries(calls))
    if (followsTask(c) || keepsWaiting(c)) {
      active[id] = c;
      delete calls[id];
    }
  ctx.store.update((s) => ({
    ...s,
    ready: true,
    activeCalls: Object.keys(active).length ? Object.freeze({ ...active, ...s.activeCalls }) : s.activeCalls,
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
  // written now, after the state holds them (retention runs on it); the journal goes once its
  // records are in IndexedDB (a failed write keeps it for the next load)
  const ids = journaled
    .map((j) => (j as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string');
  if (fixed.length)
    void rewrite(fixed).then((written) => {
      if (written) dropFromJournal(ctx.storeName, ids);
    });
  else dropFromJournal(ctx.storeName, ids);
}

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
