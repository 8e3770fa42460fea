import { McpEvent } from './mcp-event.js';
import type { ServerLogEntry } from '../core/answers/records.js';
export interface McpServerLogDetail {
  readonly serverId: string;
  readonly entry: ServerLogEntry;
}

/** `mcp-server-log`: a server sent a log message (`notifications/message`), kept as text. */
export class McpServerLogEvent extends McpEvent<'mcp-server-log', McpServerLogDetail> {
  static readonly eventName = 'mcp-server-log';
  constructor(detail: McpServerLogDetail) {
    super('mcp-server-log', detail);
  }
}
