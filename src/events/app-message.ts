import { McpEvent } from './mcp-event.js';

export interface McpAppMessageDetail {
  /** The `<mcp-app-view>` that sent it. */
  readonly viewId: string;
  readonly serverId: string;
  /** The call the view shows, when it shows one. */
  readonly callId?: string;
  /** Always `user` (SEP-1865 `ui/message`). */
  readonly role: string;
  /** MCP content blocks (text, image, …): server data, render it as text. */
  readonly content: readonly unknown[];
}

/** `mcp-app-message`: an MCP App view asks to add a message to the conversation (`ui/message`). Cancelable: `preventDefault()` refuses it (the view is told). The host adds it to its chat. */
export class McpAppMessageEvent extends McpEvent<'mcp-app-message', McpAppMessageDetail> {
  static readonly eventName = 'mcp-app-message';
  constructor(detail: McpAppMessageDetail) {
    super('mcp-app-message', detail, { cancelable: true });
  }
}
