import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallRequestDetail {
  readonly call: ToolCallRecord;
}

/** `mcp-tool-call-request`: a tool call is about to be considered (before approval and before anything runs). Cancelable: `preventDefault()` denies the call. */
export class McpToolCallRequestEvent extends McpEvent<'mcp-tool-call-request', McpToolCallRequestDetail> {
  static readonly eventName = 'mcp-tool-call-request';
  constructor(detail: McpToolCallRequestDetail) {
    super('mcp-tool-call-request', detail, { cancelable: true });
  }
}
