// Calls waiting for approval across tabs and reloads (the page's side of the call pipeline): each
// call this page asks about or runs is held under a Web Lock named for the store and the call, so
// another tab that loads the same store meanwhile does not ask about it too (a call allowed in two
// tabs would run twice). After a load, a call restored `awaiting-approval` is asked about here
// only once its lock is free; while another tab holds it, this page waits for that tab's outcome.
// Without Web Locks (Node 20, outside secure contexts) there is nothing to coordinate with.
import type { CallHistory } from '../calls/history.js';
import { TERMINAL, type ToolCallRecord } from '../calls/records.js';
import { restoredWaiting, type ApprovalCoordination, type MakeRestore, type RestoredCalls } from '../calls/restore.js';
import { KEYS, type HubContext } from '../context.js';

/** The page's Web Locks (absent in Node 20 and outside secure contexts). */
const locks = (): LockManager | undefined => (globalThis as { navigator?: Navigator }).navigator?.locks;

export class ApprovalRestore implements ApprovalCoordination {
  /** The locks this page holds on calls it asks about or runs (by id), and how to let go. */
  readonly #held = new Map<string, () => void>();
  /** Calls restored waiting that another tab of this store is deciding on. */
  readonly #elsewhere = new Set<string>();
  /** Calls restored waiting whose lock this page is still asking for. */
  readonly #restoring = new Set<string>();
  /** Aborted by `dispose`: stops waiting for other tabs' locks. */
  readonly #gone = new AbortController();

  constructor(
    private readonly ctx: HubContext,
    private readonly history: CallHistory,
    private readonly calls: RestoredCalls,
  ) {}

  /** Where a call restored waiting is decided, while it is not decided here. */
  pending(id: string): 'restoring' | 'elsewhere' | undefined {
    return this.#restoring.has(id) ? 'restoring' : this.#elsewhere.has(id) ? 'elsewhere' : undefined;
  }

  #lockName(id: string): string {
    return `mcp-elements:${this.ctx.storeName}:call:${id}`;
  }

  /** Hold the call's lock while this page asks about it (and runs it); `ifAvailable`: false when another page holds it. */
  async hold(id: string, ifAvailable = false): Promise<boolean> {
    const l = locks();
    if (!l || this.#held.has(id)) return true;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    if (!ifAvailable) {
      // a call this page just made: nobody else knows its id; let go even if released before granted
      this.#held.set(id, release);
      l.request(this.#lockName(id), () => held).catch(() => {});
      return true;
    }
    return new Promise<boolean>((resolve) => {
      l.request(this.#lockName(id), { ifAvailable }, (lock) => {
        resolve(!!lock);
        if (!lock) return undefined;
        this.#held.set(id, release);
        return held;
      }).catch(() => resolve(true)); // no lock to be had here: nothing to coordinate with
    });
  }

  /** Let go of a call's lock once its final record is written (the next holder reads it). */
  release(id: string): void {
    const release = this.#held.get(id);
    if (!release) return;
    this.#held.delete(id);
    void this.history.flush().finally(release);
  }

  /**
   * Ask again for every call that was waiting for approval when the last page went away (after
   * load): a decision runs it through the rest of the path as if the page had never gone.
   */
  resume(): void {
    for (const r of restoredWaiting(this.ctx, this.calls)) {
      this.#restoring.add(r.id);
      void this.#rearm(r);
    }
  }

  async #rearm(record: ToolCallRecord): Promise<void> {
    const mine = await this.hold(record.id, true);
    if (!mine) this.#elsewhere.add(record.id);
    this.#restoring.delete(record.id);
    if (!mine) return this.#whenFree(record);
    await this.calls.ask(record);
  }

  /**
   * Another tab of this store asks about (or runs) the call: once it lets go, take what it
   * stored — the call's end, or, if that tab closed while the call still waited, ask here.
   */
  async #whenFree(record: ToolCallRecord): Promise<void> {
    const l = locks()!;
    try {
      await l.request(this.#lockName(record.id), { signal: this.#gone.signal }, async () => {
        const stored = (await this.ctx.storage.get(KEYS.call + record.id)) as ToolCallRecord | undefined;
        if (stored && typeof stored === 'object' && TERMINAL.has(stored.status))
          this.calls.ended(this.history.put(stored));
      });
    } catch {
      return; // this hub was disposed first
    } finally {
      this.#elsewhere.delete(record.id);
    }
    const now = this.history.get(record.id);
    if (now?.status === 'awaiting-approval' && !this.calls.driving(record.id)) await this.#rearm(now);
  }

  /** Stop waiting for other tabs' locks (the hub is going away). */
  dispose(): void {
    this.#gone.abort();
  }
}

/** The page's restore for the call pipeline (the page shell passes it). */
export const lockedRestore: MakeRestore = (ctx, history, calls) => new ApprovalRestore(ctx, history, calls);
