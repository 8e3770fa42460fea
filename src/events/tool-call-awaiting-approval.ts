import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallAwaitingApprovalDetail {
  readonly call: ToolCallRecord;
}

/** `mcp-tool-call-awaiting-approval`: a call waits for the user: resolve it with `hub.calls.approve(id)` or `hub.calls.deny(id)`. */
export class McpToolCallAwaitingApprovalEvent extends McpEvent<
  'mcp-tool-call-awaiting-approval',
  McpToolCallAwaitingApprovalDetail
> {
  static readonly eventName = 'mcp-tool-call-awaiting-approval';
  constructor(detail: McpToolCallAwaitingApprovalDetail) {
    super('mcp-tool-call-awaiting-approval', detail);
  }
}
