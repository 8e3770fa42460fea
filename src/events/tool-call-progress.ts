import { McpEvent } from './mcp-event.js';
export interface McpToolCallProgressDetail {
  readonly callId: string;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** `mcp-tool-call-progress`: the server reported progress on a running call. */
export class McpToolCallProgressEvent extends McpEvent<'mcp-tool-call-progress', McpToolCallProgressDetail> {
  static readonly eventName = 'mcp-tool-call-progress';
  constructor(detail: McpToolCallProgressDetail) {
    super('mcp-tool-call-progress', detail);
  }
}
