import { McpEvent } from './mcp-event.js';
export interface McpSignInRequiredDetail {
  readonly serverId: string;
  /** The server's name, for a message to the user. */
  readonly name: string;
  /**
   * `sign-in-required`: no usable token (never signed in, signed out, or the refresh token was
   * refused); `insufficient-scope`: the token lacks a scope the server asked for (step-up).
   */
  readonly reason: 'sign-in-required' | 'insufficient-scope';
  /** The authorization server, once known. */
  readonly issuer?: string;
  /** Scopes the server's challenge named. */
  readonly scopes?: readonly string[];
  /** The tool call waiting on the sign-in, when a call hit it. */
  readonly callId?: string;
}

/**
 * `mcp-sign-in-required`: a server needs the user to sign in (its status is `needs-sign-in`).
 * Call `hub.signIn(serverId)` from a click handler. Carries no token, code or URL.
 */
export class McpSignInRequiredEvent extends McpEvent<'mcp-sign-in-required', McpSignInRequiredDetail> {
  static readonly eventName = 'mcp-sign-in-required';
  constructor(detail: McpSignInRequiredDetail) {
    super('mcp-sign-in-required', detail);
  }
}
