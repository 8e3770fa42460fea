// Calls restored `awaiting-approval` after a load, asked about again. The kernel's own restore
// has no other tab to coordinate with: it asks about each such call here. A page's shell gives
// the pipeline its Web Locks restore instead (persistence/approval-restore.ts), which asks only
// once no other tab of the store holds the call.
import type { CallHistory } from './history.js';
import type { ToolCallRecord } from './records.js';
import type { HubContext } from '../context.js';

/** What the restore asks of the call pipeline. */
export interface RestoredCalls {
  /** Whether the pipeline drives this call now (on this page). */
  driving(id: string): boolean;
  /** Ask about a restored call here, through the rest of the path (its lock is held). */
  ask(record: ToolCallRecord): Promise<void>;
  /** Tell who waits for the call that it ended (another tab settled it). */
  ended(record: ToolCallRecord): void;
}

/** What the pipeline and the approvals ask of a restore. */
export interface ApprovalCoordination {
  /** Where a call restored waiting is decided, while it is not decided here. */
  pending(id: string): 'restoring' | 'elsewhere' | undefined;
  /** Hold the call while this hub asks about it (and runs it); false when another holds it. */
  hold(id: string, ifAvailable?: boolean): Promise<boolean>;
  /** Let go of a call once its final record is written. */
  release(id: string): void;
  /** Ask again for every call that was waiting for approval when the last hub went away. */
  resume(): void;
  dispose(): void;
}

/** How a pipeline makes its restore (the page shell passes the Web Locks one). */
export type MakeRestore = (ctx: HubContext, history: CallHistory, calls: RestoredCalls) => ApprovalCoordination;

/** The calls restored `awaiting-approval` that this hub does not drive yet: each restore's to ask about. */
export function restoredWaiting(ctx: HubContext, calls: RestoredCalls): ToolCallRecord[] {
  return Object.values(ctx.store.state.activeCalls).filter(
    (r) => r.status === 'awaiting-approval' && !calls.driving(r.id),
  );
}

/** The kernel's restore: nobody else shares the store, so every restored call is asked about here. */
export class LocalRestore implements ApprovalCoordination {
  readonly #restoring = new Set<string>();
  constructor(
    private readonly ctx: HubContext,
    private readonly calls: RestoredCalls,
  ) {}

  pending(id: string): 'restoring' | undefined {
    return this.#restoring.has(id) ? 'restoring' : undefined;
  }

  async hold(): Promise<boolean> {
    return true;
  }

  release(): void {}

  resume(): void {
    for (const r of restoredWaiting(this.ctx, this.calls)) {
      this.#restoring.add(r.id);
      void this.#rearm(r);
    }
  }

  async #rearm(record: ToolCallRecord): Promise<void> {
    await this.hold(); // asked a moment later, as the page's restore does once its lock is granted
    this.#restoring.delete(record.id);
    await this.calls.ask(record);
  }

  dispose(): void {}
}

export const localRestore: MakeRestore = (ctx, _history, calls) => new LocalRestore(ctx, calls);
