// An element's event, kept in the directory's chunk (the hub never dispatches it).
import { McpEvent } from '../../events/mcp-event.js';

export interface McpDirectoryClosedDetail {
  /** The server just added from the directory; absent when Close was pressed. */
  readonly serverId?: string;
}

/** `mcp-directory-closed`: the directory closed (Close pressed, or a server added). */
export class McpDirectoryClosedEvent extends McpEvent<'mcp-directory-closed', McpDirectoryClosedDetail> {
  static readonly eventName = 'mcp-directory-closed';
  constructor(detail: McpDirectoryClosedDetail) {
    super('mcp-directory-closed', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mcp-directory-closed': McpDirectoryClosedEvent;
  }
}
