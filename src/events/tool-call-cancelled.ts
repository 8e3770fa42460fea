import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallCancelledDetail {
  readonly call: ToolCallRecord;
  /** Always `cancelled` (a refused call is `mcp-tool-call-denied`). */
  readonly reason: 'cancelled';
}

/** `mcp-tool-call-cancelled`: a call was cancelled (by `hub.calls.cancel`, the card's Cancel, or the caller's signal). */
export class McpToolCallCancelledEvent extends McpEvent<'mcp-tool-call-cancelled', McpToolCallCancelledDetail> {
  static readonly eventName = 'mcp-tool-call-cancelled';
  constructor(detail: McpToolCallCancelledDetail) {
    super('mcp-tool-call-cancelled', detail);
  }
}
