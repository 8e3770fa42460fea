// What the connections offer and need: `hub.connect()`'s options, the low-level handle on a
// connected server, and what they ask of sign-in.
import type { AuthProvider, CompleteRequestParams, CompleteResult } from '@modelcontextprotocol/client';
import type { McpAuthError } from '../errors.js';
import type { ConnectTarget } from '../servers/secrets.js';
import type { CallOptions, McpSession, RequestOptions } from '../session/index.js';
import type { ServerCatalogue } from '../types.js';
import type { ConnectSignInOptions } from './connect-with-sign-in.js';

/** Options for `hub.connect()`. */
export interface ConnectOptions {
  signal?: AbortSignal;
  /**
   * `tools-first` (default): resolve once the tools are listed; resources, templates and prompts
   * follow in the background. `complete`: resolve once they are listed too.
   */
  discovery?: 'tools-first' | 'complete';
  /**
   * Sign in whenever the server asks (401, 403 insufficient_scope) and go on, resolving once
   * connected: for hosts with no click to wait for (Node). See docs/API.md.
   */
  signIn?: ConnectSignInOptions;
  /**
   * A catalogue the host already holds for this server's config (the backend hub's discovery
   * cache, mcp-chat-elements/server): the session is opened, and nothing is listed.
   */
  catalogue?: Omit<ServerCatalogue, 'serverId'>;
}

/** A low-level handle on one connected server (no approval policy). Hosts normally use `hub.callTool`. */
export interface ServerClient {
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): ReturnType<McpSession['callTool']>;
  readResource(uri: string, options?: RequestOptions): ReturnType<McpSession['readResource']>;
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): ReturnType<McpSession['getPrompt']>;
  /** `completion/complete`: values for a prompt argument or a resource template variable. See docs/API.md. */
  complete(params: CompleteRequestParams, options?: RequestOptions): Promise<CompleteResult>;
  /** Re-list tools, resources and prompts now. */
  refresh(options?: RequestOptions): Promise<ServerCatalogue>;
}

/** What the connections need from sign-in (src/core/auth): tokens, and what to do when one is missing. */
export interface ConnectionAuth {
  /**
   * The transport's token source for an OAuth server (`id` undefined: a config being tested),
   * or for machine credentials (`target`, the config being connected).
   */
  authProviderFor(id: string | undefined, target?: ConnectTarget): AuthProvider;
  /** The server wants the user to sign in: status `needs-sign-in` and `mcp-sign-in-required`. */
  needsSignIn(id: string, err: McpAuthError, callId?: string): void;
}
