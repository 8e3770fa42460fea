import type {
  AuthProvider,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotification,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  ReadResourceResult,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { ProtocolRevision, TransportKind } from '../schemas.js';
import type { TaskForm, TaskStart, TaskState } from './tasks.js';
import type { ConcreteTransport } from '../types.js';

/** Options every request takes. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds. */
  timeout?: number;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}

/** Options of a tool call: the tool's definition lets the client mirror `x-mcp-header` parameters. */
export interface CallOptions extends RequestOptions {
  tool?: Tool;
}

/**
 * `modern`: 2026-07-28 (server/discover, no session); `legacy`: the 2025 initialize handshake
 * (2024-11-05 … 2025-11-25); `jsonrpc`: a plain JSON-RPC tool endpoint with no handshake.
 */
export type ProtocolEra = 'modern' | 'legacy' | 'jsonrpc';

/**
 * What the hub answers when a server asks the client (2025: server→client requests; 2026-07-28:
 * `input_required` rounds the SDK fulfils through the same handlers). Built per server by the hub's
 * answers part; the session only wires it to the SDK client.
 */
export interface ClientAnswers {
  readonly capabilities: ClientCapabilities;
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  sample(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  roots(): Promise<ListRootsResult>;
  onLog(params: LoggingMessageNotification['params']): void;
  /** 2025-11-25 URL elicitation finished out of band. */
  onElicitationComplete(elicitationId: string): void;
}

/** One open conversation with a server, whatever the transport. */
export interface McpSession {
  readonly kind: ConcreteTransport;
  /** A 2025 session whose server answered the GET stream 405 (it offers none). */
  readonly streamDeclined?: boolean;
  readonly era: ProtocolEra;
  readonly serverInfo?: Implementation;
  readonly capabilities?: ServerCapabilities;
  readonly protocolVersion?: string;
  readonly sessionId?: string;
  readonly instructions?: string;
  /** The 2026-07-28 `server/discover` result (with its `ttlMs`), to connect again without asking. */
  readonly discoverResult?: Readonly<Record<string, unknown>>;
  listTools(cursor: string | undefined, o: RequestOptions): Promise<ListToolsResult>;
  listResources(cursor: string | undefined, o: RequestOptions): Promise<ListResourcesResult>;
  listResourceTemplates(cursor: string | undefined, o: RequestOptions): Promise<ListResourceTemplatesResult>;
  listPrompts(cursor: string | undefined, o: RequestOptions): Promise<ListPromptsResult>;
  callTool(name: string, args: Record<string, unknown>, o: CallOptions): Promise<CallToolResult>;
  readResource(uri: string, o: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, o: RequestOptions): Promise<GetPromptResult>;
  /** `completion/complete`; absent where there is no SDK client (plain JSON-RPC). */
  complete?(params: CompleteRequestParams, o: RequestOptions): Promise<CompleteResult>;
  /** Called when the server says one of its lists changed. */
  onListChanged?: (list: 'tools' | 'resources' | 'prompts') => void;
  /**
   * Make the server report updates of exactly these resources (the whole set, not a change):
   * 2025 revisions send `resources/subscribe` / `resources/unsubscribe` for the difference;
   * 2026-07-28 re-opens `subscriptions/listen` with them (and the list changes it listened to).
   * Absent where the transport has no notifications (plain JSON-RPC).
   */
  watchResources?(uris: readonly string[], o: RequestOptions): Promise<void>;
  /** Whether the session holds a 2026-07-28 listen stream now (undefined on other eras). */
  readonly listening?: boolean;
  /** Called with the URI of each `notifications/resources/updated`. */
  onResourceUpdated?: (uri: string) => void;
  /** 2026-07-28: the session's listen stream dropped (ended without the server's graceful close). */
  onListenEnded?: () => void;
  /** The SDK's skills client (SEP-2640) on this session; absent where there is no SDK client (plain JSON-RPC). */
  skills?(): Promise<SkillsClient>;
  /** Called when the connection closes without close() being called. */
  onClosed?: () => void;
  /** 2025 revisions: `logging/setLevel`. */
  setLogLevel?(level: LoggingLevel, o: RequestOptions): Promise<void>;
  /** 2025 revisions: tell the server the roots changed. */
  rootsChanged?(): Promise<void>;
  /** Which form of tasks this session offers for `tool` (none: undefined). */
  taskForm?(tool?: Tool): TaskForm | undefined;
  /** A tools/call that may become a task (the server decides on 2026-07-28; asked for on 2025-11-25). */
  startTask?(name: string, args: Record<string, unknown>, o: CallOptions & { ttlMs: number }): Promise<TaskStart>;
  /** Follow a task to its end at the server's polling interval; stops (without cancelling) on abort. */
  followTask?(task: TaskState, o: RequestOptions & { onUpdate?: (task: TaskState) => void }): Promise<CallToolResult>;
  /** Ask the server to cancel a task (cooperative). */
  cancelTask?(taskId: string, o: RequestOptions): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  url: string;
  transport: TransportKind;
  /** The protocol revision to speak: `auto` negotiates, anything else is pinned. */
  revision?: ProtocolRevision;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Values to scrub from every error message. */
  secrets: Iterable<string>;
  clientInfo: Implementation;
  fetch?: typeof fetch;
  /** Largest response body accepted for one request (bytes). */
  maxResponseBytes?: number;
  /** A fresh `server/discover` result from an earlier connection: connect with no probe. */
  /**
   * `auto` only: what the server spoke when this config last connected (its stored catalogue),
   * tried first, so a plain JSON-RPC or legacy SSE server is not probed (and its CORS preflight
   * tripped) with Streamable HTTP on every load. Anything else it answers falls back to the
   * usual order.
   */
  known?: {
    transport: 'streamable-http' | 'sse' | 'jsonrpc';
    era?: 'modern' | 'legacy' | 'jsonrpc';
    /** The server answered its 2025 GET stream 405: do not ask again. */
    streamDeclined?: boolean;
  };
  prior?: Readonly<Record<string, unknown>>;
  /** How to answer the server's requests (capabilities are declared from it). */
  answers?: ClientAnswers;
  /** Tools a `tools/list` page listed that the client must not offer, with why. */
  onToolsDropped?: (tools: readonly { name: string; reason: string }[]) => void;
  /** OAuth: a token before every request, and what to do on 401 (Streamable HTTP and SSE). */
  /** `wrapFetch`: what the auth adds below the transport (DPoP proofs on every request). */
  authProvider?: AuthProvider & { wrapFetch?: (f: typeof fetch) => typeof fetch };
  /**
   * Whether the session may hold a long-lived stream for server notifications (the 2025 GET
   * event stream, 2026-07-28 `subscriptions/listen`). Default true; without it the server's list
   * changes are not heard (connections/origins.ts says why a hub may refuse one).
   */
  notifications?: boolean;
  /** The server declined the 2025 GET event stream: no stream is held after all. */
  onStreamUnused?: () => void;
  /** The server declines the GET event stream (a 405, or remembered from one): kept for reloads. */
  onStreamDeclined?: () => void;
  /**
   * Resolves when the 2025 GET event stream may take a connection (a hub defers it behind the
   * origin's discovery: connections/origins.ts); absent: at once.
   */
  streamOpen?: (signal?: AbortSignal) => Promise<void>;
}
