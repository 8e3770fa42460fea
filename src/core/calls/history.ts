// Call records in state and in IndexedDB: in-flight calls in `activeCalls`, finished ones in
// `calls` (history), written behind the call path with retention applied in the same write.
import { namedAssistant, type AssistantRef } from '../assistants/profile.js';
import { KEYS, type HubContext } from '../context.js';
import { withEntries } from '../store.js';
import type { HubState } from '../types.js';
import { interruptedRecord, TERMINAL, type ToolCallRecord } from './records.js';

/** How long a call must be in flight before its state is written (ms). */
const IN_FLIGHT_WRITE_DELAY = 150;
/**
 * Finished calls are written within this delay (ms), many to a transaction in a burst; a reload
 * sooner puts them in the page-hide journal instead.
 */
const FINISHED_WRITE_DELAY = 40;
/**
 * With memory storage (a backend hub, a page without IndexedDB) nothing is made durable by a
 * write, so records wait longer for theirs: each write applies retention (a copy of the calls
 * map, a sort), which a backend making a call every few ms paid on every call at a shorter delay
 * (decision 037). Retention is late by at most this much; `flush()` and
 * `dispose()` apply it at once.
 */
const MEMORY_WRITE_DELAY = 250;
/**
 * With more calls than this in flight, their changes are applied to the snapshot up to
 * BURST_COALESCE_MS after they happen (any read of `state` applies them at once): each
 * application copies the maps, and one per network response made 500 concurrent calls cost
 * O(n²) copying (decision 033). Below it, at the end of each task.
 */
const BURST_CALLS = 64;
const BURST_COALESCE_MS = 8;

export class CallHistory {
  /** Records changed since the snapshot last took them (store.defer applies them in one go). */
  readonly #pending = new Map<string, ToolCallRecord>();
  readonly #dirty = new Map<string, ToolCallRecord | undefined>();
  /** Records in an IndexedDB write that has not finished (the page-hide journal takes them too). */
  readonly #writing = new Map<string, ToolCallRecord>();
  #timer?: ReturnType<typeof setTimeout>;
  #delay = 0;
  /** Between `pagehide` and a `pageshow` (back from the back-forward cache). */
  #leaving = false;
  /** After `beforeunload`, until a `pageshow` or a call that succeeds (the user stayed). */
  #mayLeave = false;
  /** Calls in flight at the last application, over BURST_CALLS. */
  #burst = false;

  constructor(private readonly ctx: HubContext) {}

  get(id: string): ToolCallRecord | undefined {
    const s = this.ctx.store.settled;
    return this.#pending.get(id) ?? s.activeCalls[id] ?? s.calls[id];
  }

  /** Calls, newest first, optionally of one assistant. */
  list(filter: AssistantRef = {}): ToolCallRecord[] {
    const s = this.ctx.store.state;
    const assistantId = namedAssistant(filter);
    return [...Object.values(s.activeCalls), ...Object.values(s.calls)]
      .filter((c) => !assistantId || c.assistantId === assistantId)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  // Calls in flight live in the `activeCalls` map, which changes several times per call; a call
  // moves to `calls` (history, possibly thousands) once, when it ends. Changes are deferred and
  // applied together (one copy of each map per burst, not per change): with 500 calls in flight,
  // copying both maps on every change was a large share of the call path (decision 033).
  put(record: ToolCallRecord): ToolCallRecord {
    // a page going away has its requests cut off: a running call that fails then was ended by
    // the page, not by its server. Firefox stops them as the navigation starts, after
    // `beforeunload` and well before `pagehide` (the reload test saw 34 of 50 calls "error"); it
    // also fails the fetch of a chunk a pending call waits for (the validator), as `network`
    const before = this.get(record.id)?.status;
    if (
      record.status === 'error' &&
      (before === 'running' || (before === 'pending' && record.error?.code === 'network'))
    ) {
      if (this.#leaving || (this.#mayLeave && record.error?.code === 'network')) record = interruptedRecord(record);
    } else if (record.status === 'success') this.#mayLeave = false; // the page stayed after all
    const frozen = Object.freeze(record);
    const done = TERMINAL.has(record.status);
    if (this.#pending.size === 0) this.ctx.store.defer((s) => this.#apply(s), this.#burst ? BURST_COALESCE_MS : 0);
    this.#pending.delete(record.id); // keep the order of changes
    this.#pending.set(record.id, frozen);
    this.#dirty.set(record.id, frozen);
    this.#schedule(
      this.ctx.storage.kind === 'memory' ? MEMORY_WRITE_DELAY : done ? FINISHED_WRITE_DELAY : IN_FLIGHT_WRITE_DELAY,
    );
    return frozen;
  }

  #apply(s: HubState): HubState {
    const records = [...this.#pending.values()];
    this.#pending.clear();
    const ended = records.filter((r) => TERMINAL.has(r.status));
    const active = records.map((r): [string, ToolCallRecord | undefined] => [
      r.id,
      TERMINAL.has(r.status) ? undefined : r,
    ]);
    const moved = active.some(([id, r]) => r || s.activeCalls[id]);
    const activeCalls = moved ? withEntries(s.activeCalls, active) : s.activeCalls;
    if (moved) this.#burst = Object.keys(activeCalls).length > BURST_CALLS;
    return {
      ...s,
      activeCalls,
      calls: ended.length
        ? withEntries(
            s.calls,
            ended.map((r) => [r.id, r] as const),
          )
        : s.calls,
    };
  }

  patch(id: string, patch: Partial<ToolCallRecord>): ToolCallRecord {
    return this.put({ ...this.get(id), ...patch } as ToolCallRecord);
  }

  /** `beforeunload`: the page may be about to go (the host may still keep it). */
  mayLeave(): void {
    this.#mayLeave = true;
  }

  /** The page came back (back-forward cache): calls fail for their own reasons again. */
  returned(): void {
    this.#leaving = false;
    this.#mayLeave = false;
  }

  /** Records changed outside the call path (e.g. found unfinished at load), written now; true once written. */
  rewrite(records: readonly ToolCallRecord[]): Promise<boolean> {
    for (const r of records) this.#dirty.set(r.id, r);
    return this.flush();
  }

  /**
   * The page is going away: hand the records still waiting for their write to `write` (the page
   * shell's journal, persistence/journal.ts), synchronously.
   */
  journal(write: (records: ToolCallRecord[]) => void): void {
    this.#leaving = true;
    // records whose write is under way too: a reload aborts that transaction
    const records = new Map([...this.#writing, ...this.#dirty]);
    write([...records.values()].filter((r): r is ToolCallRecord => !!r));
  }

  // History is written behind the call path: records are coalesced and written in one
  // transaction, and retention is applied there too. A finished call is written within
  // FINISHED_WRITE_DELAY; a call in flight only if it is still in flight a moment later (most
  // calls finish first, which saves a write per call); `pagehide` writes whatever is pending.
  #schedule(delay = 0) {
    if (this.#timer && this.#delay <= delay) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#delay = delay;
    this.#timer = setTimeout(() => void this.flush(), delay);
  }

  /** Write every pending record now (one transaction); false when the write failed. */
  async flush(): Promise<boolean> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const deletes = this.#prune();
    if (!this.#dirty.size && !deletes.length) return true;
    const writes: [string, unknown][] = [];
    const batch = new Map<string, ToolCallRecord>();
    for (const [id, r] of this.#dirty)
      if (r) {
        writes.push([KEYS.call + id, r]);
        batch.set(id, r);
      }
    this.#dirty.clear();
    for (const [id, r] of batch) this.#writing.set(id, r);
    try {
      await this.ctx.storage.batch(
        writes,
        deletes.map((id) => KEYS.call + id),
      );
      return true;
    } catch (e) {
      this.ctx.warn(`Could not save the tool call history: ${(e as Error).message}`);
      return false;
    } finally {
      for (const [id, r] of batch) if (this.#writing.get(id) === r) this.#writing.delete(id);
    }
  }

  /** Drop the oldest finished calls of each assistant beyond the history limit. */
  #prune(): string[] {
    const calls = Object.values(this.ctx.store.state.calls);
    const limit = this.ctx.limits.historyLimit;
    if (calls.length <= limit) return [];
    const byAssistant = new Map<string, ToolCallRecord[]>();
    for (const c of calls) {
      const list = byAssistant.get(c.assistantId) ?? [];
      list.push(c);
      byAssistant.set(c.assistantId, list);
    }
    const drop: string[] = [];
    for (const list of byAssistant.values()) {
      if (list.length <= limit) continue;
      list.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
      for (const c of list.slice(limit)) if (TERMINAL.has(c.status)) drop.push(c.id);
    }
    if (drop.length) this.#forget(drop);
    return drop;
  }

  #forget(ids: readonly string[]) {
    this.ctx.store.update((s) => {
      const next = { ...s.calls };
      for (const id of ids) delete next[id];
      return { ...s, calls: Object.freeze(next) };
    });
    for (const id of ids) this.#dirty.delete(id);
  }

  /** Remove finished calls (of one assistant, or all) from state and storage. */
  async clear(filter: AssistantRef = {}): Promise<void> {
    const assistantId = namedAssistant(filter);
    await this.ctx.ready;
    const ids = Object.values(this.ctx.store.state.calls)
      .filter((c) => TERMINAL.has(c.status) && (!assistantId || c.assistantId === assistantId))
      .map((c) => c.id);
    this.#forget(ids);
    await this.ctx.storage.batch(
      [],
      ids.map((id) => KEYS.call + id),
    );
  }
}
