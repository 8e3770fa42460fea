import { McpEvent } from './mcp-event.js';
import type { AuthErrorCode } from '../core/errors.js';
export interface McpSignInFailedDetail {
  readonly serverId: string;
  readonly error: { readonly code: AuthErrorCode; readonly message: string; readonly endpoint?: string };
}

/** `mcp-sign-in-failed`: an interactive sign-in ended without tokens (`hub.signIn` rejects with the same error). */
export class McpSignInFailedEvent extends McpEvent<'mcp-sign-in-failed', McpSignInFailedDetail> {
  static readonly eventName = 'mcp-sign-in-failed';
  constructor(detail: McpSignInFailedDetail) {
    super('mcp-sign-in-failed', detail);
  }
}
