import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallCancelledDetail {
  readonly call: ToolCallRecord;
  readonly reason: 'denied' | 'vetoed' | 'cancelled';
}

/** `mcp-tool-call-cancelled`: a call was denied by the user, vetoed by the host, or cancelled. */
export class McpToolCallCancelledEvent extends McpEvent<'mcp-tool-call-cancelled', McpToolCallCancelledDetail> {
  static readonly eventName = 'mcp-tool-call-cancelled';
  constructor(detail: McpToolCallCancelledDetail) {
    super('mcp-tool-call-cancelled', detail);
  }
}
