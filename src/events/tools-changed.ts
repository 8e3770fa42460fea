import { McpEvent } from './mcp-event.js';
export interface McpToolsChangedDetail {
  readonly serverId: string;
  readonly toolCount: number;
  readonly resourceCount: number;
  readonly promptCount: number;
  /**
   * `connected`: the tools are in (resources, templates and prompts may follow); `discovered`:
   * they followed; `list-changed`: the server's lists changed (or a re-list was asked for);
   * `loaded`: from storage or another tab; `removed`: the server is gone.
   */
  readonly reason: ToolsChangedReason;
}

export type ToolsChangedReason = 'connected' | 'discovered' | 'list-changed' | 'loaded' | 'removed';

/** `mcp-tools-changed`: a server's discovered catalogue (tools, resources, prompts) changed. */
export class McpToolsChangedEvent extends McpEvent<'mcp-tools-changed', McpToolsChangedDetail> {
  static readonly eventName = 'mcp-tools-changed';
  constructor(detail: McpToolsChangedDetail) {
    super('mcp-tools-changed', detail);
  }
}
