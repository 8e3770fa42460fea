import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallFailedDetail {
  readonly call: ToolCallRecord;
  readonly error: { readonly code: string; readonly message: string };
}

/** `mcp-tool-call-failed`: a call ended in an error (invalid arguments, tool error result, timeout, transport failure…). */
export class McpToolCallFailedEvent extends McpEvent<'mcp-tool-call-failed', McpToolCallFailedDetail> {
  static readonly eventName = 'mcp-tool-call-failed';
  constructor(detail: McpToolCallFailedDetail) {
    super('mcp-tool-call-failed', detail);
  }
}
