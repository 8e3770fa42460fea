import { McpEvent, type ChangeSource } from './mcp-event.js';
export interface McpSignInCompletedDetail {
  readonly serverId: string;
  readonly issuer: string;
  /** Scopes the authorization server granted. */
  readonly scopes: readonly string[];
  /** When the access token expires (epoch ms), if the server said. */
  readonly expiresAt?: number;
  /** Whether the hub can refresh the access token without the user. */
  readonly refreshable: boolean;
  readonly source: ChangeSource;
}

/** `mcp-sign-in-completed`: the user signed in to a server; its tokens are in the vault. */
export class McpSignInCompletedEvent extends McpEvent<'mcp-sign-in-completed', McpSignInCompletedDetail> {
  static readonly eventName = 'mcp-sign-in-completed';
  constructor(detail: McpSignInCompletedDetail) {
    super('mcp-sign-in-completed', detail);
  }
}
