import { McpEvent } from './mcp-event.js';
import type { ServerConfig } from '../core/schemas.js';
import type { ChangeSource } from './mcp-event.js';
export interface McpServerUpdatedDetail {
  readonly server: ServerConfig;
  readonly previous?: ServerConfig;
  readonly source: ChangeSource;
}

/** `mcp-server-updated`: a stored server config changed. */
export class McpServerUpdatedEvent extends McpEvent<'mcp-server-updated', McpServerUpdatedDetail> {
  static readonly eventName = 'mcp-server-updated';
  constructor(detail: McpServerUpdatedDetail) {
    super('mcp-server-updated', detail);
  }
}
