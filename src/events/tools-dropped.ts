import { McpEvent } from './mcp-event.js';
export interface McpToolsDroppedDetail {
  readonly serverId: string;
  /** Each tool left out, with why (server-provided names: render as text). */
  readonly tools: readonly { readonly name: string; readonly reason: string }[];
}

/**
 * `mcp-tools-dropped`: tools a server listed were left out of its catalogue because the client
 * must not offer them (a 2026-07-28 tool whose `x-mcp-header` declarations are invalid). The
 * server's other tools stay usable.
 */
export class McpToolsDroppedEvent extends McpEvent<'mcp-tools-dropped', McpToolsDroppedDetail> {
  static readonly eventName = 'mcp-tools-dropped';
  constructor(detail: McpToolsDroppedDetail) {
    super('mcp-tools-dropped', detail);
  }
}
