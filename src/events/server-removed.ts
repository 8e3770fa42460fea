import { McpEvent } from './mcp-event.js';
import type { ChangeSource } from './mcp-event.js';
export interface McpServerRemovedDetail {
  readonly serverId: string;
  readonly name?: string;
  readonly source: ChangeSource;
}

/** `mcp-server-removed`: a server config was removed. */
export class McpServerRemovedEvent extends McpEvent<'mcp-server-removed', McpServerRemovedDetail> {
  static readonly eventName = 'mcp-server-removed';
  constructor(detail: McpServerRemovedDetail) {
    super('mcp-server-removed', detail);
  }
}
