import { McpEvent } from './mcp-event.js';
export interface McpToolsChangedDetail {
  readonly serverId: string;
  readonly toolCount: number;
  readonly resourceCount: number;
  readonly promptCount: number;
  readonly reason: 'connected' | 'list-changed' | 'loaded' | 'removed';
}

/** `mcp-tools-changed`: a server's discovered catalogue (tools, resources, prompts) changed. */
export class McpToolsChangedEvent extends McpEvent<'mcp-tools-changed', McpToolsChangedDetail> {
  static readonly eventName = 'mcp-tools-changed';
  constructor(detail: McpToolsChangedDetail) {
    super('mcp-tools-changed', detail);
  }
}
