import { McpEvent } from './mcp-event.js';
import type { ToolCallRecord } from '../core/calls/records.js';
export interface McpToolCallDeniedDetail {
  readonly call: ToolCallRecord;
  /** `denied`: the user said no (or the page closed while asking); `vetoed`: the host's `mcp-tool-call-request` listener prevented it. */
  readonly reason: 'denied' | 'vetoed';
}

/** `mcp-tool-call-denied`: a call was refused before it ran (status `denied`); it never reached the server. */
export class McpToolCallDeniedEvent extends McpEvent<'mcp-tool-call-denied', McpToolCallDeniedDetail> {
  static readonly eventName = 'mcp-tool-call-denied';
  constructor(detail: McpToolCallDeniedDetail) {
    super('mcp-tool-call-denied', detail);
  }
}
