import { McpEvent } from './mcp-event.js';
import type { ServerConfig } from '../core/schemas.js';
import type { ChangeSource } from './mcp-event.js';
export interface McpServerAddedDetail {
  readonly server: ServerConfig;
  readonly source: ChangeSource;
}

/** `mcp-server-added`: a server config was stored. The config holds vault references, never secrets. */
export class McpServerAddedEvent extends McpEvent<'mcp-server-added', McpServerAddedDetail> {
  static readonly eventName = 'mcp-server-added';
  constructor(detail: McpServerAddedDetail) {
    super('mcp-server-added', detail);
  }
}
