import { McpEvent } from './mcp-event.js';
import type { ConnectionState } from '../core/types.js';
export interface McpServerStatusChangedDetail {
  readonly serverId: string;
  readonly status: ConnectionState['status'];
  readonly previous: ConnectionState['status'];
  readonly error?: ConnectionState['error'];
}

/** `mcp-server-status-changed`: a server's connection status changed. */
export class McpServerStatusChangedEvent extends McpEvent<'mcp-server-status-changed', McpServerStatusChangedDetail> {
  static readonly eventName = 'mcp-server-status-changed';
  constructor(detail: McpServerStatusChangedDetail) {
    super('mcp-server-status-changed', detail);
  }
}
