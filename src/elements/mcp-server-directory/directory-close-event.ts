// An element's event, kept in the directory's chunk (the hub never dispatches it).
import { McpEvent } from '../../events/mcp-event.js';

export interface McpDirectoryCloseDetail {
  /** The server just added from the directory; absent when Close was pressed. */
  readonly serverId?: string;
}

/** `mcp-directory-close`: the directory is done (Close pressed, or a server added). */
export class McpDirectoryCloseEvent extends McpEvent<'mcp-directory-close', McpDirectoryCloseDetail> {
  static readonly eventName = 'mcp-directory-close';
  constructor(detail: McpDirectoryCloseDetail) {
    super('mcp-directory-close', detail);
  }
}
