import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { McpConnectionError, McpElementsError } from '../errors.js';
import type { AssistantRef } from '../assistants/profile.js';
import type { ToolOutcome } from '../providers/types.js';
import type { TaskForm, TaskStatus } from '../session/task-vocabulary.js';

/**
 * The server's task a call runs as (MCP tasks: the 2025-11-25 form or the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension). A call with a task survives a reload: the hub polls
 * it again after load instead of marking the call `interrupted`.
 */
export interface CallTask {
  readonly id: string;
  readonly form: TaskForm;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The server's suggested polling interval (ms). */
  readonly pollIntervalMs?: number;
  /** When the hub last heard of the task (epoch ms). */
  readonly updatedAt: number;
}

/** `needs-sign-in`: the server asked for sign-in (OAuth); the call resumes once the user signed in. */
export type ToolCallStatus =
  | 'pending'
  | 'awaiting-approval'
  | 'needs-sign-in'
  | 'running'
  | 'success'
  | 'error'
  | 'denied'
  | 'cancelled'
  | 'interrupted';
export const TERMINAL: ReadonlySet<ToolCallStatus> = new Set([
  'success',
  'error',
  'denied',
  'cancelled',
  'interrupted',
]);

/** A call the page's going away cut off (a reload, a closed tab), as it is recorded. */
export function interruptedRecord(call: ToolCallRecord): ToolCallRecord {
  return {
    ...call,
    status: 'interrupted',
    endedAt: call.endedAt ?? Date.now(),
    error: { code: 'interrupted', message: 'The page was closed or reloaded before this call finished.' },
  };
}

/** How a call came to run (or not). */
/** `app-read-only` / `app-granted`: a view's call of a read-only tool, or one the user allowed for the view. */
export type ApprovalSource =
  'auto' | 'trusted' | 'user-once' | 'user-always' | 'user-initiated' | 'app-read-only' | 'app-granted';

/** One tool call, as kept in history and shown by `<mcp-tool-call>`. */
export interface ToolCallRecord {
  readonly id: string;
  /** The assistant whose call this is. */
  readonly assistantId: string;
  /** @deprecated use assistantId (the same value; kept for hosts and older bundles reading records) */
  readonly gptId: string;
  readonly serverId: string;
  readonly serverName: string;
  /** The MCP tool name. */
  readonly tool: string;
  readonly toolTitle?: string;
  /** The model-facing name (`<server>__<tool>`). */
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly status: ToolCallStatus;
  /** Who asked: the model (through a provider message), the user (e.g. "Try it") or an MCP App view. */
  readonly source: 'model' | 'user' | 'app';
  /** The provider's id for this call, when it came from a provider message. */
  readonly providerCallId?: string;
  /** Why the provider's arguments could not be read (the call is answered as invalid, never sent). */
  readonly argumentsError?: string;
  /** For a call started by `hub.calls.runAgain()`: the id of the call it repeats. */
  readonly rerunOf?: string;
  readonly annotations?: Tool['annotations'];
  readonly approval?: ApprovalSource;
  readonly createdAt: number;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly durationMs?: number;
  readonly progress?: { readonly progress: number; readonly total?: number; readonly message?: string };
  /** Set when the server runs the call as a task. */
  readonly task?: CallTask;
  readonly result?: {
    readonly content: CallToolResult['content'];
    readonly structuredContent?: Record<string, unknown>;
    readonly isError?: boolean;
    /**
     * Set when the server's result did not follow the spec (e.g. no `content`): what was wrong.
     * What it sent is kept (as structured content and its JSON as text) and the server's log says so.
     */
    readonly nonConformant?: string;
  };
  /** Why the call did not succeed. Codes: denied, vetoed, cancelled, invalid-arguments, tool-error, timeout, too-large, not-connected, network, http, unauthorized, protocol, server, output-invalid, interrupted, task-cancelled, url-required, server-unavailable (a model's call to a server whose last connect failed: not sent, not asked). */
  readonly error?: { readonly code: string; readonly message: string };
}

/** A thrown-away error for calls that never reach a server. */
export class McpToolError extends McpElementsError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'McpToolError'; // a literal: the CDN build minifies class names
  }
}

/** What to tell the model about a finished call. */
export function outcomeOf(record: ToolCallRecord): ToolOutcome {
  const { result, error } = record;
  if (result && (record.status === 'success' || error?.code === 'tool-error')) {
    return {
      isError: record.status !== 'success',
      content: result.content,
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    };
  }
  const text =
    error?.code === 'denied'
      ? `The user denied this tool call${error.message && error.message !== 'Denied.' ? `: ${error.message}` : '.'} Do not retry it unless the user asks.`
      : error?.code === 'vetoed'
        ? 'The application did not allow this tool call.'
        : error?.code === 'cancelled'
          ? 'The tool call was cancelled before it finished.'
          : error?.code === 'invalid-arguments'
            ? `Invalid arguments, the call was not sent: ${error.message}. Fix the arguments and call the tool again.`
            : `The tool call failed: ${error?.message ?? 'unknown error'}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** An error's code and message for a record. */
export function errorInfo(e: unknown): { code: string; message: string } {
  if (e instanceof McpConnectionError) {
    if (e.code === 'server' && /output schema|structured content/i.test(e.message))
      return { code: 'output-invalid', message: e.message };
    return { code: e.code, message: e.message };
  }
  if (e instanceof McpElementsError) return { code: e.code, message: e.message };
  return { code: 'error', message: (e as Error)?.message ?? String(e) };
}

/** The call history and approval handle: `hub.calls`. */
/** Options of `hub.calls.runAgain()`. */
export interface RunAgainOptions {
  signal?: AbortSignal;
  /** Called once with the new record (status `pending`) before anything else happens. */
  onCall?: (record: ToolCallRecord) => void;
}

export interface CallRegistry {
  get(id: string): ToolCallRecord | undefined;
  /** Calls, newest first, optionally of one assistant. */
  list(filter?: AssistantRef): ToolCallRecord[];
  /**
   * Let a call waiting for approval run. `always` adds the tool to the assistant's trusted tools
   * (and moves an `always-ask` assistant to `trusted-only`, so it is not asked again).
   */
  approve(id: string, options?: { always?: boolean }): void;
  /** Refuse a call waiting for approval; the model is told. */
  deny(id: string, reason?: string): void;
  /** Cancel a call (waiting, queued or running; the server is told). */
  cancel(id: string): void;
  /**
   * Run a finished call again (e.g. one `interrupted` by a reload): the same tool, arguments,
   * assistant and provider call id, as a new call through the normal path (veto, approval,
   * validation) whose record names the old one in `rerunOf`. Rejects with `McpNotFoundError` for
   * an unknown id and `McpToolError` (`not-finished`, `not-rerunnable` for a view's call).
   */
  runAgain(id: string, options?: RunAgainOptions): Promise<ToolCallRecord>;
  /** Remove finished calls from history (of one assistant, or all). */
  clear(filter?: AssistantRef): Promise<void>;
}
