import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallStartedDetail {
  readonly call: ToolCallRecord;
}

/** `mcp-tool-call-started`: a call was sent to its server. */
export class McpToolCallStartedEvent extends McpEvent<'mcp-tool-call-started', McpToolCallStartedDetail> {
  static readonly eventName = 'mcp-tool-call-started';
  constructor(detail: McpToolCallStartedDetail) {
    super('mcp-tool-call-started', detail);
  }
}
