// What the call pipeline takes and passes between its steps: the options of `hub.callTool()`,
// the sign-in and URL-elicitation hooks, and a call while it runs.
import type { Tool } from '@modelcontextprotocol/client';
import type { AssistantRef } from '../assistants/profile.js';
import type { McpAuthError } from '../errors.js';
import type { ToolCallRecord } from './records.js';

/**
 * 2025-11-25 URL-elicitation-required (-32042): show the URLs the server named as requests of
 * the call and resolve with the user's answers (src/core/answers).
 */
export type UrlElicit = (
  serverId: string,
  callId: string,
  elicitations: unknown,
  signal: AbortSignal,
) => Promise<readonly { action: string }[]>;

/** What a call waiting on sign-in needs (src/core/auth). */
export interface SignInWait {
  /** Say the call waits (mcp-sign-in-required with its id); resolves once the user signed in. */
  waitFor(serverId: string, err: McpAuthError, callId: string, signal: AbortSignal): Promise<void>;
  /** The call runs on the server: a refusal is announced by the call, with its id (the function says it settled). */
  callRunning?(serverId: string): () => void;
}

/**
 * What `hub.callTool()` takes. Give `name` (model-facing) or `serverId` + `tool`. `assistantId`
 * (default `default`) is the assistant whose selection and approval policy apply.
 */
export interface CallToolOptions extends AssistantRef {
  /** The model-facing name from `toolsFor` (`<server>__<tool>`). */
  name?: string;
  serverId?: string;
  /** The MCP tool name on `serverId`. */
  tool?: string;
  arguments?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * `user` for calls a person started (e.g. "Try it"): no approval step. `app` for calls an MCP
   * App view makes (src/apps): only tools whose `visibility` includes `"app"`, found by
   * `serverId` + `tool` in the server's catalogue (not the assistant's selection); a tool without
   * `readOnlyHint: true` asks unless `appGranted`. Default `model`.
   */
  source?: 'model' | 'user' | 'app';
  /** For `source: 'app'`: the user already allowed this tool for this view ("Always" earlier). */
  appGranted?: boolean;
  /** The provider's id for the call, kept on the record. */
  providerCallId?: string;
  /** Set when the provider's arguments could not be parsed; the call is answered as invalid. */
  argumentsError?: string;
  /**
   * Called once with the new record (status `pending`) before anything else happens, so a host
   * can show the call (`<mcp-tool-call call-id>`) at once. What it throws is logged and ignored.
   */
  onCall?: (record: ToolCallRecord) => void;
}

/** A record while it is being built (records are frozen once put). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type Decision = { ok: boolean; always?: boolean; reason?: string; aborted?: boolean };
export type Ending = 'success' | 'error' | 'denied' | 'cancelled';
export type DenyReason = 'denied' | 'vetoed';

/** A call being run: its id, the resolved tool and the signal that cancels it. */
export interface Running {
  readonly id: string;
  readonly assistantId: string;
  readonly serverId: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly appGranted?: boolean;
}
