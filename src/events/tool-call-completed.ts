import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallCompletedDetail {
  readonly call: ToolCallRecord;
}

/** `mcp-tool-call-completed`: a call returned a successful result. */
export class McpToolCallCompletedEvent extends McpEvent<'mcp-tool-call-completed', McpToolCallCompletedDetail> {
  static readonly eventName = 'mcp-tool-call-completed';
  constructor(detail: McpToolCallCompletedDetail) {
    super('mcp-tool-call-completed', detail);
  }
}
