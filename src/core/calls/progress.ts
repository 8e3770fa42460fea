// A server may send progress as fast as it likes (the fault matrix sends 10,000 notifications in
// one stream): each one would replace the call record, re-render every card and fire an event.
// Progress is therefore passed on at most once per interval per call — the first at once, then
// the newest of each interval — and the newest is always passed on before the call settles.

/** Progress of a running call, as kept on its record. */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Default: at most ten progress updates a second per call. */
export const PROGRESS_INTERVAL_MS = 100;

/** Rate-limit `apply`; `flush()` passes on what is still waiting (call it before settling). */
export function progressLimiter(apply: (p: CallProgress) => void, intervalMs = PROGRESS_INTERVAL_MS) {
  let waiting: CallProgress | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    timer = undefined;
    if (!waiting) return;
    const p = waiting;
    waiting = undefined;
    apply(p);
    timer = setTimeout(release, intervalMs);
  };
  return {
    push(p: CallProgress): void {
      waiting = p;
      if (!timer) release();
    },
    flush(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (waiting) {
        const p = waiting;
        waiting = undefined;
        apply(p);
      }
    },
  };
}
