// Loading stored records into the snapshot at start (corrupt ones set aside; calls found
// unfinished settled). Runs in every runtime; a page adds its journal (persistence/journal.ts)
// through the `journal` port.
import { StoredAssistantProfileSchema, type AssistantProfile } from '../assistants/profile.js';
import { interruptedRecord, TERMINAL, type ToolCallRecord } from '../calls/records.js';
import { KEYS, type HubContext } from '../context.js';
import { TASK_TERMINAL } from '../session/task-vocabulary.js';
import { CatalogueSchema, ServerConfigSchema, toIssues, type ServerConfig } from '../schemas.js';
import type { ServerCatalogue } from '../types.js';

/** Records a page could only journal when it went away (the page shell's; none elsewhere). */
export interface RecordJournal {
  /** The journal's records, left in place. */
  peek(storeName: string): ToolCallRecord[];
  /** Remove records from the journal (they are in storage now). */
  drop(storeName: string, ids: readonly string[]): void;
}

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
  journal?: RecordJournal,
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
  const journaled = journal?.peek(ctx.storeName) ?? [];
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
      if (written) journal?.drop(ctx.storeName, ids);
    });
  else journal?.drop(ctx.storeName, ids);
}
