// What the hub tells the outside: events (on the hub and on the page), warnings (console and
// `state.warnings`), and the switch to memory when IndexedDB is unavailable.
import { McpStorageDegradedEvent, type McpHubEventMap } from '../events/index.js';
import type { Store } from './store.js';
import type { HubState } from './types.js';

export class HubOutput {
  constructor(
    private readonly hub: EventTarget,
    /** The page (`window`), or null where there is none (Node), or what the host chose. */
    private readonly target: EventTarget | null,
    private readonly log: Pick<Console, 'warn'>,
    private readonly store: () => Store<HubState>,
  ) {}

  /** Dispatch on the hub and on the page; false when a cancelable event was vetoed on either. */
  emit(event: McpHubEventMap[keyof McpHubEventMap]): boolean {
    let ok = this.hub.dispatchEvent(event);
    if (this.target && this.target !== this.hub) {
      const Ctor = event.constructor as new (d: unknown) => Event;
      ok = this.target.dispatchEvent(new Ctor(event.detail)) && ok;
    }
    return ok;
  }

  warn(message: string): void {
    this.log.warn(`[mcp-elements] ${message}`);
    this.store().update((s) => ({ ...s, warnings: Object.freeze([...s.warnings, message].slice(-50)) }));
  }

  degrade(reason: string): void {
    const warning = `IndexedDB is unavailable (${reason}); servers and settings are kept in memory for this page only.`;
    this.store().update((s) => ({ ...s, storage: Object.freeze({ mode: 'memory', warning }) }));
    this.log.warn(`[mcp-elements] ${warning}`);
    this.emit(new McpStorageDegradedEvent({ reason, mode: 'memory' }));
  }
}
