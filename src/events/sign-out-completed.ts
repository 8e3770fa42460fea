import { McpEvent, type ChangeSource } from './mcp-event.js';
export interface McpSignOutCompletedDetail {
  readonly serverId: string;
  /** Whether the authorization server confirmed revoking the tokens (RFC 7009). */
  readonly revoked: boolean;
  readonly source: ChangeSource;
}

/** `mcp-sign-out-completed`: a server's tokens were wiped (and revoked where the server supports it). */
export class McpSignOutCompletedEvent extends McpEvent<'mcp-sign-out-completed', McpSignOutCompletedDetail> {
  static readonly eventName = 'mcp-sign-out-completed';
  constructor(detail: McpSignOutCompletedDetail) {
    super('mcp-sign-out-completed', detail);
  }
}
