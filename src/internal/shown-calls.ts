// Which tool calls have a <mcp-tool-call> card on the page: a request linked to such a call is
// shown in the card, and <mcp-elicitation> shows the rest (unlinked, or linked to a call no card
// shows, e.g. one run from the explorer). One registry per page, even with two bundle copies.
type Registry = { counts: Map<string, number>; target: EventTarget };
const KEY = Symbol.for('mcp-elements.shown-calls');
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[KEY] ??= {
  counts: new Map(),
  target: new EventTarget(),
});

/** A card started (or stopped) showing a call. */
export function showCall(callId: string, shown: boolean): void {
  const n = (registry.counts.get(callId) ?? 0) + (shown ? 1 : -1);
  if (n > 0) registry.counts.set(callId, n);
  else registry.counts.delete(callId);
  registry.target.dispatchEvent(new Event('change'));
}

/** True when a card on the page shows this call. */
export function isCallShown(callId: string): boolean {
  return registry.counts.has(callId);
}

/** Be told when cards come and go; returns the unsubscribe function. */
export function onShownCallsChange(listener: () => void): () => void {
  registry.target.addEventListener('change', listener);
  return () => registry.target.removeEventListener('change', listener);
}
