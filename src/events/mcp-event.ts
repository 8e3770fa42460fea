/** Base of every mcp-* event: an Event with a typed, read-only detail. Bubbles and is composed. */
export class McpEvent<T extends string, D> extends Event {
  declare readonly type: T;
  readonly detail: D;
  constructor(type: T, detail: D, init: { cancelable?: boolean } = {}) {
    super(type, { bubbles: true, composed: true, cancelable: init.cancelable ?? false });
    this.detail = Object.freeze(detail);
  }
}

/** Where a change came from: this hub, or another tab sharing the store. */
export type ChangeSource = 'local' | 'remote';
