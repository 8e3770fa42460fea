// Shared plumbing for requests that wait on a person: a record in one state branch, a promise the
// server's request awaits, and settling both exactly once (an answer, or the server giving up).
import type { HubContext } from '../context.js';
import { withEntry } from '../store.js';
import type { HubState } from '../types.js';

type Branch = 'elicitations' | 'samplings';
type RecordOf<B extends Branch> = HubState[B][string];

/** How many answered requests each branch keeps for the elements to show, newest last. */
const KEEP_SETTLED = 50;

export class PendingRequests<B extends Branch, A> {
  readonly #waiting = new Map<string, { resolve: (a: A) => void; reject: (e: unknown) => void }>();
  constructor(
    private readonly ctx: HubContext,
    private readonly branch: B,
  ) {}

  get(id: string): RecordOf<B> | undefined {
    return this.ctx.store.state[this.branch][id] as RecordOf<B> | undefined;
  }

  isWaiting(id: string): boolean {
    return this.#waiting.has(id);
  }

  /** Put a record in state and wait for its answer; an abort settles it with `onAbort`. */
  wait(record: RecordOf<B>, signal: AbortSignal, onAbort: () => void): Promise<A> {
    this.put(record);
    return new Promise<A>((resolve, reject) => {
      this.#waiting.set(record.id, { resolve, reject });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Replace a record (frozen) in state. */
  put(record: RecordOf<B>): void {
    this.ctx.store.update((s) => {
      let branch = withEntry(s[this.branch] as Record<string, RecordOf<B>>, record.id, Object.freeze(record));
      const ids = Object.keys(branch);
      if (ids.length > KEEP_SETTLED * 2) {
        // forget the oldest answered ones; never a waiting one
        const old = ids.filter((i) => !this.#waiting.has(i) && i !== record.id).slice(0, ids.length - KEEP_SETTLED);
        for (const i of old) branch = withEntry(branch, i, undefined);
      }
      return { ...s, [this.branch]: branch };
    });
  }

  /** The host took the request over (`preventDefault()`): say so on the record as it is now (maybe answered already). */
  markHost(id: string): void {
    const current = this.get(id);
    if (current && !current.host) this.put({ ...current, host: true });
  }

  /** Settle a waiting request once: the record's final state, and the answer (or error) for the server. */
  settle(record: RecordOf<B>, outcome: { answer: A } | { error: unknown }): boolean {
    const w = this.#waiting.get(record.id);
    if (!w) return false;
    this.#waiting.delete(record.id);
    this.put(record);
    if ('answer' in outcome) w.resolve(outcome.answer);
    else w.reject(outcome.error);
    return true;
  }

  /** The call running on a server when a request arrives, when there is exactly one. */
  callOn(serverId: string): string | undefined {
    const running = Object.values(this.ctx.store.state.activeCalls).filter(
      (c) => c.serverId === serverId && c.status === 'running',
    );
    return running.length === 1 ? running[0]!.id : undefined;
  }
}
