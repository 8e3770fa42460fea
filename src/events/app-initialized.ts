import { McpEvent } from './mcp-event.js';

export interface McpAppInitializedDetail {
  readonly viewId: string;
  readonly serverId: string;
  readonly resourceUri: string;
  readonly callId?: string;
  /** `sandbox` (the proxy on a second origin) or `opaque-fallback`. */
  readonly mode: 'sandbox' | 'opaque-fallback';
}

/** `mcp-app-initialized`: an MCP App view finished its handshake (`ui/notifications/initialized`) and gets its tool input next. */
export class McpAppInitializedEvent extends McpEvent<'mcp-app-initialized', McpAppInitializedDetail> {
  static readonly eventName = 'mcp-app-initialized';
  constructor(detail: McpAppInitializedDetail) {
    super('mcp-app-initialized', detail);
  }
}
