import type {
  Tool,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Prompt,
  Implementation,
} from '@modelcontextprotocol/client';

/** The MCP shapes the hub hands out, under one import for hosts and elements. */
export type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from './schemas.js';
import type { AssistantProfile } from './assistants/profile.js';
import type { ToolCallRecord } from './calls/records.js';
import type { ElicitationRecord, SamplingRecord, ServerLogEntry } from './answers/records.js';

/** `needs-sign-in`: the server wants a signed-in user (OAuth); `hub.signIn(id)` from a click. */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error' | 'needs-sign-in';

/** A connection error as kept in state and sent in events: code and message only, no secrets. */
export interface ConnectionErrorInfo {
  readonly code: string;
  readonly message: string;
  readonly status?: number;
}

/** Live status of one server. */
export interface ConnectionState {
  readonly status: ConnectionStatus;
  readonly error?: ConnectionErrorInfo;
  /** When the status last changed (epoch ms). */
  readonly since: number;
  /** While connected: the protocol revision negotiated (absent for a plain JSON-RPC endpoint). */
  readonly protocolVersion?: string;
  /** While connected: `modern` (2026-07-28), `legacy` (2025 handshake) or `jsonrpc` (no handshake). */
  readonly era?: 'modern' | 'legacy' | 'jsonrpc';
  /** While connected: the transport in use. */
  readonly transport?: ConcreteTransport;
  /**
   * While connecting: the attempt running (1-based), of how many at most (`retries` + 1), when
   * the connect began and when its budget ends (epoch ms). The budget is the server's `timeout`,
   * once, across every attempt and the backoff between them.
   */
  readonly attempt?: ConnectAttempt;
}

/** Progress of a connect: see `ConnectionState.attempt`. */
export interface ConnectAttempt {
  readonly number: number;
  readonly of: number;
  readonly startedAt: number;
  readonly deadline: number;
}

export type ConcreteTransport = 'streamable-http' | 'sse' | 'jsonrpc';

/** What a server offers, as last discovered. Persisted per server. */
export interface ServerCatalogue {
  readonly serverId: string;
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
  readonly serverInfo?: Implementation;
  readonly protocolVersion?: string;
  readonly era?: 'modern' | 'legacy' | 'jsonrpc';
  readonly sessionId?: string;
  readonly transport?: ConcreteTransport;
  readonly instructions?: string;
  readonly discoveredAt: number;
  /**
   * True while only the tools are in: a connection reports `connected` as soon as its tools are
   * listed, and resources, templates and prompts follow (then `mcp-tools-changed` with reason
   * `discovered`). Absent on a complete catalogue.
   */
  readonly partial?: boolean;
  /** Until when (epoch ms) the lists may be reused without asking (2026-07-28 `ttlMs`). */
  readonly listsFreshUntil?: number;
  /** The server's 2026-07-28 `server/discover` answer, reused to connect while fresh. */
  readonly discover?: Readonly<Record<string, unknown>>;
  readonly discoverFreshUntil?: number;
  /** The server answered its 2025 GET stream 405: the next connect does not ask again. */
  readonly streamDeclined?: boolean;
  /**
   * The model-facing names given to this server's tools (`assistants/given-names.ts`), kept so a
   * name once handed to a model keeps meaning the same tool; given under `serverName` (a rename
   * names the tools anew). Only tools in `tools` have an entry.
   */
  readonly givenNames?: GivenNames;
  /**
   * The connection settings `transport` and `era` were found with (`connectionKey`: URL, transport,
   * revision, auth type, header names; no secret): an edit of other fields (enabled, name) keeps
   * them the answer to try first.
   */
  readonly connectedWith?: string;
}

/** The names given to one server's tools, by MCP tool name. */
export interface GivenNames {
  readonly serverName: string;
  readonly tools: Readonly<Record<string, string>>;
}

/** Where the hub keeps its records right now. */
export interface StorageState {
  readonly mode: 'indexeddb' | 'memory';
  /** Set when IndexedDB failed and the hub fell back to memory. */
  readonly warning?: string;
}

/**
 * Where the user stands with an OAuth server. Never holds a token: only who issued it, what it
 * allows and until when.
 */
export interface SignInState {
  /** `pending`: a sign-in window is open (or the page is on its way to the authorization server). */
  readonly status: 'signed-out' | 'pending' | 'signed-in';
  /** The authorization server (its issuer identifier). */
  readonly issuer?: string;
  /**
   * Who signed in, for display: the `name`, else `preferred_username`, else `email` claim of the
   * ID token the authorization server sent (it sends one when the scopes asked for include
   * `openid`), cleaned and at most 80 characters. Set when signed in (a step-up's `pending`
   * keeps it); absent when no ID token named anyone. The ID token itself is never kept.
   */
  readonly account?: string;
  /** Scopes granted (signed in) or asked for (pending). */
  readonly scopes?: readonly string[];
  /** When the access token expires (epoch ms), if the server said. */
  readonly expiresAt?: number;
  /** Whether the hub holds a refresh token (it renews the access token without the user). */
  readonly refreshable?: boolean;
  /** When the user signed in (epoch ms). */
  readonly signedInAt?: number;
}

/** The hub's whole state: one immutable snapshot. */
export interface HubState {
  readonly ready: boolean;
  readonly servers: Readonly<Record<string, ServerConfig>>;
  readonly connections: Readonly<Record<string, ConnectionState>>;
  readonly catalogues: Readonly<Record<string, ServerCatalogue>>;
  readonly storage: StorageState;
  /** Assistant profiles that were configured (others use the defaults). */
  readonly assistants: Readonly<Record<string, AssistantProfile>>;
  /** Finished tool calls (persisted history, newest kept), by call id. */
  readonly calls: Readonly<Record<string, ToolCallRecord>>;
  /** Tool calls in flight (pending, awaiting approval, running), by call id. */
  readonly activeCalls: Readonly<Record<string, ToolCallRecord>>;
  /** What servers asked the user for (forms, URLs), pending and recently answered. Memory only. */
  readonly elicitations: Readonly<Record<string, ElicitationRecord>>;
  /** Servers' requests for the host's model, with their approval and review state. Memory only. */
  readonly samplings: Readonly<Record<string, SamplingRecord>>;
  /** The latest log messages per server (a bounded ring, text only). Memory only. */
  readonly logs: Readonly<Record<string, readonly ServerLogEntry[]>>;
  /** OAuth servers: signed in or not, by server id (servers with other auth are absent). */
  readonly signIns: Readonly<Record<string, SignInState>>;
  /** Problems found while loading (corrupt records set aside), newest last. */
  readonly warnings: readonly string[];
  /** Resource URIs the hub is subscribed to, by server id (while connected). Memory only. */
  readonly resourceSubscriptions: Readonly<Record<string, readonly string[]>>;
}
