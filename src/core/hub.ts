import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { McpConfigError, McpConnectionError, McpElementsError, McpNotFoundError } from './errors.js';
import {
  CatalogueSchema,
  ServerConfigInputSchema,
  ServerConfigPatchSchema,
  ServerConfigSchema,
  looksSecret,
  parseOrThrow,
  toIssues,
  type SecretRef,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigPatch,
  type StoredAuth,
  type StoredHeader,
} from './schemas.js';
import { defaultStorage, ResilientStorage, type RecordStorage } from './storage.js';
import { Store, withEntry } from './store.js';
import { fromMcpJson, toMcpJson, type McpJsonEntryError } from './mcp-json.js';
import { Vault } from './vault.js';
import { openSession, toConnectionError, type McpSession, type RequestOptions } from './session.js';
import type { ConnectionState, ConnectionStatus, HubState, ServerCatalogue } from './types.js';
import {
  AssistantPatchSchema,
  AssistantProfileSchema,
  assistantTools,
  defaultProfile,
  gptIdSchema,
  isTrusted,
  type AssistantPatch,
  type AssistantProfile,
} from './assistants.js';
import {
  Limiter,
  McpToolError,
  TERMINAL,
  errorInfo,
  outcomeOf,
  validateArguments,
  type ApprovalSource,
  type ToolCallRecord,
} from './calls.js';
import {
  adapters,
  PROVIDERS,
  type ModelTool,
  type Provider,
  type ProviderToolCall,
  type ToolOutcome,
} from './providers/index.js';
import {
  McpServerAddedEvent,
  McpServerRemovedEvent,
  McpServerStatusChangedEvent,
  McpServerUpdatedEvent,
  McpStorageDegradedEvent,
  McpToolsChangedEvent,
  McpToolCallRequestEvent,
  McpToolCallAwaitingApprovalEvent,
  McpToolCallStartedEvent,
  McpToolCallProgressEvent,
  McpToolCallCompletedEvent,
  McpToolCallFailedEvent,
  McpToolCallCancelledEvent,
  McpToolSelectionChangedEvent,
  type ChangeSource,
  type McpHubEventMap,
} from '../events/index.js';

const SERVER = 'server:';
const CATALOGUE = 'catalogue:';
const QUARANTINE = 'quarantine:';
const ASSISTANT = 'assistant:';
const CALL = 'call:';
/** How long a call must be in flight before its state is written (ms). */
const IN_FLIGHT_WRITE_DELAY = 150;

export interface McpHubOptions {
  /** IndexedDB database name (one per hub family). Default `mcp-elements`. */
  storeName?: string;
  /** Storage to use instead of IndexedDB (tests, Node). */
  storage?: RecordStorage;
  /** Where events are dispatched besides the hub itself. Default: `window` when there is one. `null` for none. */
  eventTarget?: EventTarget | null;
  /** Keep other tabs of the same origin in step. Default true where BroadcastChannel exists. */
  broadcast?: boolean;
  /** fetch used for every server request. */
  fetch?: typeof fetch;
  /** The client name and version sent at initialize. */
  clientInfo?: Implementation;
  /** Where warnings go. Default `console`. Never receives a secret. */
  logger?: Pick<Console, 'warn'>;
  /** Tool calls kept per assistant (newest first). Default 1,000. */
  historyLimit?: number;
  /** Tool calls running at once per server; more wait in order. Default 10. */
  callConcurrency?: number;
  /** Largest response accepted from a server for one request, in bytes. Default 10 MB. */
  maxResponseBytes?: number;
}

/** What `hub.callTool()` takes. Give `name` (model-facing) or `serverId` + `tool`. */
export interface CallToolOptions {
  /** The model-facing name from `toolsFor` (`<server>__<tool>`). */
  name?: string;
  serverId?: string;
  /** The MCP tool name on `serverId`. */
  tool?: string;
  arguments?: Record<string, unknown>;
  /** The assistant whose selection and approval policy apply. Default `default`. */
  gptId?: string;
  signal?: AbortSignal;
  /** `user` for calls a person started (e.g. "Try it"): no approval step. Default `model`. */
  source?: 'model' | 'user';
  /** The provider's id for the call, kept on the record. */
  providerCallId?: string;
  /** Set when the provider's arguments could not be parsed; the call is answered as invalid. */
  argumentsError?: string;
}

/** Options of `hub.runToolCalls()`. */
export interface RunToolCallsOptions {
  gptId?: string;
  signal?: AbortSignal;
  /**
   * Tool calls that are not MCP tools of this assistant: `return` hands them back untouched in
   * `unhandled` (default, for hosts with tools of their own); `error` answers them as unknown.
   */
  unknownTools?: 'return' | 'error';
  /** Run a host tool call and give its result; its answer joins `messages` in order. */
  runHostTool?: (call: ProviderToolCall) => Promise<string | ToolOutcome>;
}

/** What `hub.runToolCalls()` returns. */
export interface RunToolCallsResult {
  /** Append these to the conversation before the next model request (provider format). */
  messages: unknown[];
  /** One provider-format result per answered call, in the order of the calls. */
  results: unknown[];
  /** The host's own tool calls, untouched (provider format), when not run by `runHostTool`. */
  unhandled: unknown[];
  /** The MCP calls' records, in the order of the calls. */
  calls: ToolCallRecord[];
}

/** Options of `hub.runConversation()`. */
export interface RunConversationOptions {
  provider: Provider;
  gptId?: string;
  /** Call your LLM with the conversation and tools; return its assistant message/response. */
  complete: (messages: unknown[], tools: unknown[]) => Promise<unknown>;
  messages: unknown[];
  /** Model turns at most. Default 8. */
  maxSteps?: number;
  signal?: AbortSignal;
  runHostTool?: RunToolCallsOptions['runHostTool'];
}

/** The assistant registry: `hub.assistants`. */
export interface AssistantRegistry {
  /** The profile (the defaults when nobody configured this assistant). */
  get(gptId?: string): AssistantProfile;
  list(): AssistantProfile[];
  update(gptId: string, patch: AssistantPatch): Promise<AssistantProfile>;
  /** Select a server for the assistant: `true` all its tools, a list some, `false` none. */
  setServer(gptId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile>;
  /** Add or remove a tool from the assistant's trusted tools. */
  trust(gptId: string, serverId: string, tool: string, trusted?: boolean): Promise<AssistantProfile>;
}

/** The call history and approval handle: `hub.calls`. */
export interface CallRegistry {
  get(id: string): ToolCallRecord | undefined;
  /** Calls, newest first, optionally of one assistant. */
  list(filter?: { gptId?: string }): ToolCallRecord[];
  /**
   * Let a call waiting for approval run. `always` adds the tool to the assistant's trusted tools
   * (and moves an `always-ask` assistant to `trusted-only`, so it is not asked again).
   */
  approve(id: string, options?: { always?: boolean }): void;
  /** Refuse a call waiting for approval; the model is told. */
  deny(id: string, reason?: string): void;
  /** Cancel a call (waiting, queued or running; the server is told). */
  cancel(id: string): void;
  /** Remove finished calls from history. */
  clear(filter?: { gptId?: string }): Promise<void>;
}

/** Options for `hub.connect()`. */
export interface ConnectOptions {
  signal?: AbortSignal;
}

/** What opening a session needs: a stored config, or a form's parsed input. */
type ConnectTarget = Pick<ServerConfig, 'url' | 'transport' | 'timeout'> & {
  auth: StoredAuth | NonNullable<ReturnType<typeof ServerConfigInputSchema.parse>['auth']>;
  headers: readonly { name: string; value: string | SecretRef; secret?: boolean }[];
};

type Msg = { from: string; kind: 'server' | 'catalogue' | 'assistant'; id: string };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** Exponential backoff with jitter: 250 ms, 500 ms, 1 s … capped at 5 s, each scaled by 0.5–1. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(5000, 250 * 2 ** attempt);
  return Math.round(base * (0.5 + random() / 2));
}

function retryable(e: McpConnectionError): boolean {
  if (e.code === 'network' || e.code === 'timeout') return true;
  if (e.code === 'http') return (e.status ?? 0) >= 500 || e.status === 408 || e.status === 429;
  return false;
}

function collectRefs(c: Pick<ServerConfig, 'auth' | 'headers'>): SecretRef[] {
  const refs: SecretRef[] = [];
  const a = c.auth;
  if (a.type === 'bearer') refs.push(a.token);
  if (a.type === 'api-key') refs.push(a.key);
  if (a.type === 'basic') refs.push(a.password);
  for (const h of c.headers) if (typeof h.value !== 'string') refs.push(h.value);
  return refs;
}

async function listAll<R extends { nextCursor?: string }, T>(
  page: (cursor?: string) => Promise<R>,
  pick: (r: R) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await page(cursor);
    out.push(...pick(r));
    cursor = r.nextCursor;
    if (!cursor) return out;
    if (seen.has(cursor))
      throw new McpConnectionError('protocol', 'The server repeated a pagination cursor; stopped listing.');
    seen.add(cursor);
  }
  throw new McpConnectionError('protocol', 'The server returned more than 1000 pages; stopped listing.');
}

/** A low-level handle on one connected server (no approval policy). Hosts normally use `hub.callTool`. */
export interface ServerClient {
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): ReturnType<McpSession['callTool']>;
  readResource(uri: string, options?: RequestOptions): ReturnType<McpSession['readResource']>;
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): ReturnType<McpSession['getPrompt']>;
  /** Re-list tools, resources and prompts now. */
  refresh(options?: RequestOptions): Promise<ServerCatalogue>;
}

/** The server registry: `hub.servers`. */
export interface ServerRegistry {
  list(): ServerConfig[];
  get(id: string): ServerConfig | undefined;
  add(input: ServerConfigInput): Promise<ServerConfig>;
  update(id: string, patch: ServerConfigPatch): Promise<ServerConfig>;
  remove(id: string): Promise<void>;
}

/**
 * The page's MCP hub: servers kept in IndexedDB, secrets in the vault, one SDK Client per
 * connected server, and an immutable snapshot (`hub.store`) that elements and hosts subscribe to.
 * Use `getHub()` for the page's shared instance; construct one directly only for isolation.
 */
export class McpHub extends EventTarget {
  /** The hub's state; subscribe to be told of every change. */
  readonly store: Store<HubState>;
  /** Resolves once stored records are loaded. Every async method awaits it for you. */
  readonly ready: Promise<void>;
  readonly servers: ServerRegistry;
  /** The IndexedDB database this hub uses. */
  readonly storeName: string;
  readonly #id = randomId('hub');
  readonly #storage: ResilientStorage;
  readonly #vault: Vault;
  readonly #target: EventTarget | null;
  readonly #channel?: BroadcastChannel;
  readonly #fetch?: typeof fetch;
  readonly #clientInfo: Implementation;
  readonly #log: Pick<Console, 'warn'>;
  readonly #sessions = new Map<string, McpSession>();
  readonly #connecting = new Map<string, { promise: Promise<ServerCatalogue>; abort: AbortController }>();
  readonly #reinit = new Map<string, Promise<McpSession>>();
  readonly assistants: AssistantRegistry;
  readonly calls: CallRegistry;
  readonly #historyLimit: number;
  readonly #concurrency: number;
  readonly #maxBytes: number;
  readonly #limiters = new Map<string, Limiter>();
  readonly #approvals = new Map<string, (d: { ok: boolean; always?: boolean; reason?: string }) => void>();
  readonly #controllers = new Map<string, AbortController>();
  readonly #dirty = new Map<string, ToolCallRecord | undefined>();
  #flushTimer?: ReturnType<typeof setTimeout>;
  #flushDelay = 0;
  #onPageHide?: () => void;
  #toolsMemo = new Map<
    string,
    { servers: unknown; catalogues: unknown; profile: unknown; tools: ModelTool[]; byName: Map<string, ModelTool> }
  >();

  constructor(options: McpHubOptions = {}) {
    super();
    const name = options.storeName ?? 'mcp-elements';
    this.storeName = name;
    this.#log = options.logger ?? console;
    this.#fetch = options.fetch;
    this.#clientInfo = options.clientInfo ?? { name: 'mcp-elements', version: '0.1.0' };
    this.#target =
      options.eventTarget !== undefined ? options.eventTarget : typeof window !== 'undefined' ? window : null;
    const onDegrade = (reason: string) => this.#degrade(reason);
    this.#storage = options.storage
      ? new ResilientStorage(options.storage, onDegrade)
      : defaultStorage(name, onDegrade);
    this.#vault = new Vault(this.#storage);
    this.store = new Store<HubState>({
      ready: false,
      servers: {},
      connections: {},
      catalogues: {},
      storage: { mode: this.#storage.kind },
      assistants: {},
      calls: {},
      activeCalls: {},
      warnings: [],
    });
    this.#historyLimit = options.historyLimit ?? 1000;
    this.#concurrency = options.callConcurrency ?? 10;
    this.#maxBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
    if ((options.broadcast ?? true) && typeof BroadcastChannel !== 'undefined') {
      this.#channel = new BroadcastChannel(`mcp-elements:${name}`);
      this.#channel.onmessage = (e: MessageEvent<Msg>) => void this.#onRemote(e.data);
      // in Node an open channel would keep the process alive
      (this.#channel as { unref?: () => void }).unref?.();
    }
    const hub = this;
    this.servers = {
      list: () =>
        Object.values(hub.store.state.servers).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
      get: (id) => hub.store.state.servers[id],
      add: (input) => hub.#add(input),
      update: (id, patch) => hub.#update(id, patch),
      remove: (id) => hub.#remove(id),
    };
    this.assistants = {
      get: (gptId = 'default') => hub.store.state.assistants[gptId] ?? defaultProfile(gptId),
      list: () => Object.values(hub.store.state.assistants),
      update: (gptId, patch) => hub.#updateAssistant(gptId, patch),
      setServer: (gptId, serverId, selection) => hub.#setAssistantServer(gptId, serverId, selection),
      trust: (gptId, serverId, tool, trusted = true) => hub.#trust(gptId, serverId, tool, trusted),
    };
    this.calls = {
      get: (id) => hub.store.state.activeCalls[id] ?? hub.store.state.calls[id],
      list: (filter = {}) =>
        [...Object.values(hub.store.state.activeCalls), ...Object.values(hub.store.state.calls)]
          .filter((c) => !filter.gptId || c.gptId === filter.gptId)
          .sort((a, b) => b.createdAt - a.createdAt),
      approve: (id, o = {}) => hub.#decide(id, { ok: true, always: !!o.always }),
      deny: (id, reason) => hub.#decide(id, { ok: false, reason }),
      cancel: (id) => hub.#cancelCall(id),
      clear: (filter = {}) => hub.#clearCalls(filter.gptId),
    };
    this.ready = this.#load();
    if (typeof addEventListener === 'function' && typeof window !== 'undefined') {
      this.#onPageHide = () => void this.#flush();
      addEventListener('pagehide', this.#onPageHide);
    }
  }

  /** Typed addEventListener for hub events. */
  override addEventListener<K extends keyof McpHubEventMap>(
    type: K,
    listener: (ev: McpHubEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    super.addEventListener(type, listener, options);
  }

  // ---- state helpers ----------------------------------------------------------------------

  /** Dispatch on the hub and on the page; false when a cancelable event was vetoed on either. */
  #emit(event: McpHubEventMap[keyof McpHubEventMap]): boolean {
    let ok = this.dispatchEvent(event);
    if (this.#target && this.#target !== this) {
      const Ctor = event.constructor as new (d: unknown) => Event;
      ok = this.#target.dispatchEvent(new Ctor(event.detail)) && ok;
    }
    return ok;
  }

  #warn(message: string) {
    this.#log.warn(`[mcp-elements] ${message}`);
    this.store.update((s) => ({ ...s, warnings: Object.freeze([...s.warnings, message].slice(-50)) }));
  }

  #degrade(reason: string) {
    const warning = `IndexedDB is unavailable (${reason}); servers and settings are kept in memory for this page only.`;
    this.store.update((s) => ({ ...s, storage: Object.freeze({ mode: 'memory', warning }) }));
    this.#log.warn(`[mcp-elements] ${warning}`);
    this.#emit(new McpStorageDegradedEvent({ reason, mode: 'memory' }));
  }

  #setServer(id: string, cfg: ServerConfig | undefined) {
    this.store.update((s) => ({
      ...s,
      servers: withEntry(s.servers, id, cfg ? Object.freeze(cfg) : undefined),
      connections: cfg
        ? s.connections[id]
          ? s.connections
          : withEntry(s.connections, id, Object.freeze({ status: 'disconnected' as const, since: Date.now() }))
        : withEntry(s.connections, id, undefined),
    }));
  }

  #setCatalogue(id: string, cat: ServerCatalogue | undefined) {
    this.store.update((s) => ({ ...s, catalogues: withEntry(s.catalogues, id, cat ? Object.freeze(cat) : undefined) }));
  }

  #setStatus(id: string, status: ConnectionStatus, error?: McpElementsError) {
    const prev = this.store.state.connections[id];
    if (!this.store.state.servers[id]) return;
    const info = error
      ? Object.freeze({
          code: error.code,
          message: error.message,
          ...(error instanceof McpConnectionError && error.status ? { status: error.status } : {}),
        })
      : undefined;
    const next: ConnectionState = Object.freeze({ status, since: Date.now(), ...(info ? { error: info } : {}) });
    this.store.update((s) => ({ ...s, connections: withEntry(s.connections, id, next) }));
    if (prev?.status !== status || error)
      this.#emit(
        new McpServerStatusChangedEvent({
          serverId: id,
          status,
          previous: prev?.status ?? 'disconnected',
          ...(info ? { error: info } : {}),
        }),
      );
  }

  #toolsChanged(id: string, reason: 'connected' | 'list-changed' | 'loaded' | 'removed') {
    const c = this.store.state.catalogues[id];
    this.#emit(
      new McpToolsChangedEvent({
        serverId: id,
        toolCount: c?.tools.length ?? 0,
        resourceCount: c?.resources.length ?? 0,
        promptCount: c?.prompts.length ?? 0,
        reason,
      }),
    );
  }

  #broadcast(kind: Msg['kind'], id: string) {
    if (this.#storage.kind !== 'indexeddb') return;
    this.#channel?.postMessage({ from: this.#id, kind, id } satisfies Msg);
  }

  // ---- loading ----------------------------------------------------------------------------

  async #load() {
    await this.#storage.probe();
    const rows = await this.#storage.entries();
    const servers: Record<string, ServerConfig> = {};
    const catalogues: Record<string, ServerCatalogue> = {};
    for (const [key, value] of rows) {
      this.#storage.remember(key, value);
      if (key.startsWith(SERVER)) {
        const r = ServerConfigSchema.safeParse(value);
        if (r.success) servers[r.data.id] = Object.freeze(r.data);
        else
          await this.#quarantine(
            key,
            value,
            toIssues(r.error)
              .map((i) => `${i.path || '(record)'} ${i.message}`)
              .join('; '),
          );
      }
    }
    for (const [key, value] of rows) {
      if (!key.startsWith(CATALOGUE)) continue;
      const r = CatalogueSchema.safeParse(value);
      if (r.success && servers[r.data.serverId]) catalogues[r.data.serverId] = Object.freeze(value as ServerCatalogue);
      else if (!r.success) await this.#quarantine(key, value, 'not a valid catalogue');
    }
    const assistants: Record<string, AssistantProfile> = {};
    const calls: Record<string, ToolCallRecord> = {};
    for (const [key, value] of rows) {
      if (key.startsWith(ASSISTANT)) {
        const r = AssistantProfileSchema.safeParse(value);
        if (r.success) assistants[r.data.gptId] = Object.freeze(r.data);
        else await this.#quarantine(key, value, 'not a valid assistant profile');
      } else if (key.startsWith(CALL)) {
        const c = value as ToolCallRecord | undefined;
        if (
          !c ||
          typeof c !== 'object' ||
          typeof c.id !== 'string' ||
          typeof c.status !== 'string' ||
          typeof c.createdAt !== 'number'
        ) {
          await this.#quarantine(key, value, 'not a valid tool call record');
          continue;
        }
        // a call the page was running when it went away never finished: say so
        const fixed: ToolCallRecord = TERMINAL.has(c.status)
          ? c
          : {
              ...c,
              status: 'interrupted',
              endedAt: c.endedAt ?? Date.now(),
              error: { code: 'interrupted', message: 'The page was closed or reloaded before this call finished.' },
            };
        if (fixed !== c) this.#dirty.set(fixed.id, fixed);
        calls[c.id] = Object.freeze(fixed);
      }
    }
    if (this.#dirty.size) this.#scheduleFlush();
    const now = Date.now();
    this.store.update((s) => ({
      ...s,
      ready: true,
      assistants: Object.freeze({ ...assistants, ...s.assistants }),
      calls: Object.freeze({ ...calls, ...s.calls }),
      servers: Object.freeze({ ...s.servers, ...servers }),
      catalogues: Object.freeze({ ...s.catalogues, ...catalogues }),
      connections: Object.freeze(
        Object.fromEntries(
          Object.keys({ ...s.servers, ...servers }).map((id) => [
            id,
            s.connections[id] ?? Object.freeze({ status: 'disconnected' as const, since: now }),
          ]),
        ),
      ),
    }));
  }

  async #quarantine(key: string, value: unknown, why: string) {
    // the values may hold anything; log only the key and the reasons
    this.#warn(`Set aside the corrupt record "${key}": ${why}`);
    await this.#storage.set(QUARANTINE + key, value).catch(() => {});
    await this.#storage.delete(key).catch(() => {});
  }

  async #onRemote(msg: Msg) {
    if (!msg || msg.from === this.#id || this.#storage.kind !== 'indexeddb') return;
    await this.ready;
    if (msg.kind === 'server') {
      const raw = await this.#storage.get(SERVER + msg.id);
      const prev = this.store.state.servers[msg.id];
      const r = raw === undefined ? undefined : ServerConfigSchema.safeParse(raw);
      if (!r || !r.success) {
        if (!prev) return;
        await this.#closeSession(msg.id);
        this.#setServer(msg.id, undefined);
        this.#setCatalogue(msg.id, undefined);
        this.#emit(new McpServerRemovedEvent({ serverId: msg.id, name: prev.name, source: 'remote' }));
        return;
      }
      this.#setServer(msg.id, r.data);
      if (prev) this.#emit(new McpServerUpdatedEvent({ server: r.data, previous: prev, source: 'remote' }));
      else this.#emit(new McpServerAddedEvent({ server: r.data, source: 'remote' }));
    } else if (msg.kind === 'assistant') {
      const r = AssistantProfileSchema.safeParse(await this.#storage.get(ASSISTANT + msg.id));
      if (!r.success) return;
      this.#setAssistant(r.data);
      this.#emit(new McpToolSelectionChangedEvent({ gptId: r.data.gptId, profile: r.data, source: 'remote' }));
    } else if (!this.#sessions.has(msg.id)) {
      const raw = await this.#storage.get(CATALOGUE + msg.id);
      const r = CatalogueSchema.safeParse(raw);
      if (r.success && this.store.state.servers[msg.id]) {
        this.#setCatalogue(msg.id, raw as ServerCatalogue);
        this.#toolsChanged(msg.id, 'loaded');
      }
    }
  }

  // ---- registry ---------------------------------------------------------------------------

  /** Move clear secrets into the vault; returns stored forms and the refs created. */
  async #seal(auth: ServerConfigInput['auth'] | undefined, headers: ServerConfigInput['headers'] | undefined) {
    const created: SecretRef[] = [];
    const put = async (v: string | SecretRef) => {
      if (typeof v !== 'string') return v;
      const ref = await this.#vault.put(v);
      created.push(ref);
      return ref;
    };
    try {
      let sealedAuth: StoredAuth | undefined;
      if (auth) {
        const a = auth;
        if (a.type === 'bearer') sealedAuth = { type: 'bearer', token: await put(a.token) };
        else if (a.type === 'api-key')
          sealedAuth = { type: 'api-key', headerName: a.headerName ?? 'x-api-key', key: await put(a.key) };
        else if (a.type === 'basic')
          sealedAuth = { type: 'basic', username: a.username, password: await put(a.password) };
        else sealedAuth = { type: 'none' };
      }
      let sealedHeaders: StoredHeader[] | undefined;
      if (headers) {
        sealedHeaders = [];
        for (const h of headers) {
          const secret = h.secret ?? (typeof h.value !== 'string' || looksSecret(h.name));
          sealedHeaders.push({ name: h.name, value: secret ? await put(h.value) : h.value, secret });
        }
      }
      return { auth: sealedAuth, headers: sealedHeaders, created };
    } catch (e) {
      await Promise.all(created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw e;
    }
  }

  /** Refs given by the caller must belong to the record being edited (no borrowing other servers' secrets). */
  #checkRefs(input: { auth?: unknown; headers?: unknown }, allowed: SecretRef[]) {
    const ok = new Set(allowed.map((r) => r.secretRef));
    const issues: { path: string; message: string }[] = [];
    const walk = (v: unknown, path: string) => {
      if (v && typeof v === 'object') {
        if ('secretRef' in v && !ok.has(String((v as SecretRef).secretRef)))
          issues.push({ path, message: 'refers to a secret this server does not own' });
        else for (const [k, c] of Object.entries(v)) walk(c, path ? `${path}.${k}` : k);
      }
    };
    walk({ auth: input.auth, headers: input.headers }, '');
    if (issues.length) throw new McpConfigError(issues);
  }

  async #add(input: ServerConfigInput): Promise<ServerConfig> {
    await this.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const id = parsed.id ?? randomId('srv');
    if (this.store.state.servers[id])
      throw new McpConfigError([{ path: 'id', message: `a server with id "${id}" already exists` }]);
    this.#checkRefs(parsed, []);
    const sealed = await this.#seal(parsed.auth, parsed.headers);
    const now = Date.now();
    const record: ServerConfig = {
      ...parsed,
      id,
      auth: sealed.auth!,
      headers: sealed.headers!,
      createdAt: now,
      updatedAt: now,
    };
    const checked = ServerConfigSchema.parse(record);
    try {
      await this.#storage.set(SERVER + id, checked);
    } catch (e) {
      await Promise.all(sealed.created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw e;
    }
    this.#setServer(id, checked);
    this.#broadcast('server', id);
    this.#emit(new McpServerAddedEvent({ server: checked, source: 'local' }));
    return checked;
  }

  async #update(id: string, patch: ServerConfigPatch): Promise<ServerConfig> {
    await this.ready;
    const current = this.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    const parsed = parseOrThrow(ServerConfigPatchSchema, patch);
    this.#checkRefs(parsed, collectRefs(current));
    const sealed = await this.#seal(parsed.auth, parsed.headers);
    const fields: Partial<ServerConfig> = { ...parsed } as Partial<ServerConfig>;
    if (sealed.auth) fields.auth = sealed.auth;
    if (sealed.headers) fields.headers = sealed.headers;
    let gone = false;
    // Per-field last-write-wins: merge only the patched fields into the freshest stored record,
    // inside one IndexedDB transaction, so another tab's edit of other fields survives.
    const merged = await this.#storage.update<ServerConfig | undefined>(SERVER + id, (old) => {
      if (!old) {
        gone = true;
        return undefined;
      }
      return { ...old, ...fields, updatedAt: Math.max(Date.now(), old.updatedAt + 1) };
    });
    if (gone || !merged) {
      await this.#storage.delete(SERVER + id);
      await Promise.all(sealed.created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw new McpNotFoundError('server', id);
    }
    const next = ServerConfigSchema.parse(merged);
    // secrets the record no longer refers to
    const keep = new Set(collectRefs(next).map((r) => r.secretRef));
    await Promise.all(
      collectRefs(current)
        .filter((r) => !keep.has(r.secretRef))
        .map((r) => this.#vault.delete(r).catch(() => {})),
    );
    this.#setServer(id, next);
    this.#broadcast('server', id);
    this.#emit(new McpServerUpdatedEvent({ server: next, previous: current, source: 'local' }));
    const reconnect = ['url', 'transport', 'auth', 'headers', 'timeout'].some((k) => k in parsed);
    if (!next.enabled) await this.disconnect(id);
    else if (reconnect && this.#sessions.has(id)) void this.connect(id).catch(() => {});
    return next;
  }

  async #remove(id: string): Promise<void> {
    await this.ready;
    const current = this.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    await this.#closeSession(id);
    this.#connecting.get(id)?.abort.abort();
    await this.#storage.delete(SERVER + id);
    await this.#storage.delete(CATALOGUE + id);
    await Promise.all(collectRefs(current).map((r) => this.#vault.delete(r).catch(() => {})));
    this.#setServer(id, undefined);
    this.#setCatalogue(id, undefined);
    this.#broadcast('server', id);
    this.#emit(new McpServerRemovedEvent({ serverId: id, name: current.name, source: 'local' }));
  }

  // ---- connections ------------------------------------------------------------------------

  /** Current status of a server (disconnected when unknown). */
  status(id: string): ConnectionState {
    return this.store.state.connections[id] ?? { status: 'disconnected', since: 0 };
  }

  /** The last discovered catalogue of a server, if any. */
  catalogue(id: string): ServerCatalogue | undefined {
    return this.store.state.catalogues[id];
  }

  /** Headers for a server (stored, or a form's input with clear secrets), secrets decrypted. */
  async #headers(cfg: ConnectTarget): Promise<{ headers: Record<string, string>; secrets: string[] }> {
    const headers: Record<string, string> = {};
    const secrets: string[] = [];
    const open = async (v: string | SecretRef, secret = true) => {
      const s = typeof v === 'string' ? v : await this.#vault.get(v);
      if (secret) secrets.push(s);
      return s;
    };
    for (const h of cfg.headers) headers[h.name] = await open(h.value, h.secret ?? looksSecret(h.name));
    const a = cfg.auth;
    if (a.type === 'bearer') headers['Authorization'] = `Bearer ${await open(a.token)}`;
    else if (a.type === 'api-key') headers[a.headerName ?? 'x-api-key'] = await open(a.key);
    else if (a.type === 'basic') {
      const pw = await open(a.password);
      const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(`${a.username}:${pw}`)));
      secrets.push(b64);
      headers['Authorization'] = `Basic ${b64}`;
    }
    return { headers, secrets };
  }

  /**
   * Connect to a server (retrying with backoff as configured), discover its tools, resources and
   * prompts, and keep the session. Resolves with the catalogue; rejects with McpConnectionError.
   * A second call while one is in flight joins it.
   */
  connect(id: string, options: ConnectOptions = {}): Promise<ServerCatalogue> {
    const inflight = this.#connecting.get(id);
    if (inflight) return inflight.promise;
    const abort = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
    const promise = this.#connect(id, signal).finally(() => {
      if (this.#connecting.get(id)?.promise === promise) this.#connecting.delete(id);
    });
    this.#connecting.set(id, { promise, abort });
    return promise;
  }

  async #open(cfg: ConnectTarget, signal: AbortSignal, retries: number): Promise<McpSession> {
    const { headers, secrets } = await this.#headers(cfg);
    for (let attempt = 0; ; attempt++) {
      try {
        return await openSession({
          url: cfg.url,
          transport: cfg.transport,
          headers,
          timeoutMs: cfg.timeout * 1000,
          signal,
          secrets: [...secrets, ...this.#vault.knownValues],
          clientInfo: this.#clientInfo,
          fetch: this.#fetch,
          maxResponseBytes: this.#maxBytes,
        });
      } catch (e) {
        const err = toConnectionError(e, [...secrets, ...this.#vault.knownValues], signal);
        if (attempt >= retries || !retryable(err) || signal.aborted) throw err;
        await sleep(backoffDelay(attempt), signal);
      }
    }
  }

  async #connect(id: string, signal: AbortSignal): Promise<ServerCatalogue> {
    await this.ready;
    const cfg = this.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    if (!cfg.enabled)
      throw new McpConfigError([{ path: 'enabled', message: 'the server is disabled; enable it to connect' }]);
    await this.#closeSession(id);
    this.#setStatus(id, 'connecting');
    let session: McpSession | undefined;
    try {
      session = await this.#open(cfg, signal, cfg.retries);
      const catalogue = await this.#discover(id, session, { signal, timeout: cfg.timeout * 1000 });
      if (!this.store.state.servers[id]) throw new McpNotFoundError('server', id);
      this.#adopt(id, session);
      const now = Date.now();
      const [, rec] = await Promise.all([
        this.#saveCatalogue(id, catalogue),
        this.#storage.update<ServerConfig | undefined>(SERVER + id, (old) =>
          old ? { ...old, lastConnectedAt: now } : old,
        ),
      ]);
      if (rec) this.#setServer(id, ServerConfigSchema.parse(rec));
      this.#setStatus(id, 'connected');
      this.#toolsChanged(id, 'connected');
      return catalogue;
    } catch (e) {
      await session?.close();
      const err = e instanceof McpElementsError ? e : toConnectionError(e, this.#vault.knownValues, signal);
      this.#setStatus(id, 'error', err);
      throw err;
    }
  }

  #adopt(id: string, session: McpSession) {
    this.#sessions.set(id, session);
    session.onListChanged = () =>
      void this.#refresh(id).catch((e) =>
        this.#warn(`Could not re-list after a change on server "${id}": ${(e as Error).message}`),
      );
    session.onClosed = () => {
      if (this.#sessions.get(id) !== session) return;
      this.#sessions.delete(id);
      this.#setStatus(id, 'disconnected', new McpConnectionError('network', 'The connection to the server closed.'));
    };
  }

  async #discover(id: string, s: McpSession, o: RequestOptions): Promise<ServerCatalogue> {
    const caps = s.capabilities ?? {};
    // resources and prompts are optional extras: a failure there must not fail the connection
    const optional = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
      try {
        return await run();
      } catch (e) {
        this.#warn(
          `Could not list ${what} of server "${id}": ${toConnectionError(e, this.#vault.knownValues).message}`,
        );
        return [];
      }
    };
    // the lists are independent: ask for them at once
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      caps.tools
        ? listAll(
            (c) => s.listTools(c, o),
            (r) => r.tools,
          )
        : [],
      caps.resources
        ? optional('resources', () =>
            listAll(
              (c) => s.listResources(c, o),
              (r) => r.resources,
            ),
          )
        : [],
      caps.resources
        ? optional('resource templates', () =>
            listAll(
              (c) => s.listResourceTemplates(c, o),
              (r) => r.resourceTemplates,
            ),
          )
        : [],
      caps.prompts
        ? optional('prompts', () =>
            listAll(
              (c) => s.listPrompts(c, o),
              (r) => r.prompts,
            ),
          )
        : [],
    ]);
    return {
      serverId: id,
      tools,
      resources,
      resourceTemplates,
      prompts,
      ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
      ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
      ...(s.sessionId ? { sessionId: s.sessionId } : {}),
      ...(s.instructions ? { instructions: s.instructions } : {}),
      transport: s.kind,
      discoveredAt: Date.now(),
    };
  }

  async #saveCatalogue(id: string, c: ServerCatalogue) {
    this.#setCatalogue(id, c);
    try {
      await this.#storage.set(CATALOGUE + id, c);
      this.#broadcast('catalogue', id);
    } catch (e) {
      this.#warn(`Could not persist the catalogue of server "${id}": ${(e as Error).message}`);
    }
  }

  async #refresh(id: string, o: RequestOptions = {}): Promise<ServerCatalogue> {
    const catalogue = await this.#withSession(id, o, (s, ro) => this.#discover(id, s, ro));
    await this.#saveCatalogue(id, catalogue);
    this.#toolsChanged(id, 'list-changed');
    return catalogue;
  }

  async #closeSession(id: string) {
    const s = this.#sessions.get(id);
    if (!s) return;
    this.#sessions.delete(id);
    await s.close();
  }

  /**
   * Try a config without saving it: connect, discover, disconnect. For an edit form pass the
   * server's id so the secrets it keeps (as references) can be used. Resolves with what was
   * found (server info, protocol version, session id, tools…); rejects like `connect()`.
   */
  async testConnection(
    input: ServerConfigInput,
    options: { serverId?: string; signal?: AbortSignal } = {},
  ): Promise<ServerCatalogue> {
    await this.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const owner = options.serverId ? this.store.state.servers[options.serverId] : undefined;
    if (options.serverId && !owner) throw new McpNotFoundError('server', options.serverId);
    this.#checkRefs(parsed, owner ? collectRefs(owner) : []);
    const signal = options.signal ?? new AbortController().signal;
    const session = await this.#open(parsed, signal, 0);
    try {
      return await this.#discover(options.serverId ?? 'test', session, { signal, timeout: parsed.timeout * 1000 });
    } catch (e) {
      throw toConnectionError(e, this.#vault.knownValues, signal);
    } finally {
      await session.close();
    }
  }

  /** Every server as `mcp.json` text (`{ "mcpServers": … }`); secrets are written as `<redacted>`. */
  exportConfig(): string {
    return toMcpJson(this.servers.list());
  }

  /**
   * Add the servers of an `mcp.json` text. Every entry is validated; bad ones are reported in
   * `errors` (with field issues) and not imported; the good ones are added.
   */
  async importConfig(text: string): Promise<{ added: ServerConfig[]; errors: McpJsonEntryError[] }> {
    await this.ready;
    const { entries, errors } = fromMcpJson(text);
    const added: ServerConfig[] = [];
    const failed: McpJsonEntryError[] = [...errors];
    for (const e of entries) {
      try {
        added.push(await this.#add(e.input));
      } catch (err) {
        failed.push({
          name: e.name,
          issues: err instanceof McpConfigError ? err.issues : [{ path: '', message: (err as Error).message }],
        });
      }
    }
    return { added, errors: failed };
  }

  /** Close a server's session (the stored config and catalogue stay). */
  async disconnect(id: string): Promise<void> {
    this.#connecting.get(id)?.abort.abort(new McpConnectionError('aborted', 'Disconnected.'));
    await this.#closeSession(id);
    if (this.store.state.servers[id] && this.status(id).status !== 'disconnected') this.#setStatus(id, 'disconnected');
  }

  /**
   * Run one request on a server's session. A 404 on a request that carried a session id means
   * the session expired: re-initialize once and retry the request.
   */
  async #withSession<T>(
    id: string,
    options: RequestOptions,
    run: (s: McpSession, o: RequestOptions) => Promise<T>,
  ): Promise<T> {
    if (!this.store.state.ready) await this.ready;
    const cfg = this.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    const session = this.#sessions.get(id);
    if (!session) throw new McpConnectionError('not-connected', `Server "${cfg.name}" is not connected.`);
    const o: RequestOptions = { timeout: cfg.timeout * 1000, ...options };
    try {
      return await run(session, o);
    } catch (e) {
      const err = toConnectionError(e, this.#vault.knownValues, o.signal);
      if (!(err.code === 'http' && err.status === 404 && session.sessionId)) throw err;
      const fresh = await this.#reinitialize(id, session, cfg);
      try {
        return await run(fresh, o);
      } catch (e2) {
        throw toConnectionError(e2, this.#vault.knownValues, o.signal);
      }
    }
  }

  #reinitialize(id: string, stale: McpSession, cfg: ServerConfig): Promise<McpSession> {
    const pending = this.#reinit.get(id);
    if (pending) return pending;
    const p = (async () => {
      if (this.#sessions.get(id) !== stale) {
        const current = this.#sessions.get(id);
        if (current) return current;
      }
      await stale.close();
      try {
        const fresh = await this.#open(cfg, new AbortController().signal, 0);
        this.#adopt(id, fresh);
        const cat = this.store.state.catalogues[id];
        if (cat)
          this.#setCatalogue(id, {
            ...cat,
            sessionId: fresh.sessionId,
            protocolVersion: fresh.protocolVersion ?? cat.protocolVersion,
          });
        return fresh;
      } catch (e) {
        this.#sessions.delete(id);
        const err = new McpConnectionError(
          'session-expired',
          `The server's session expired and a new one could not be started: ${(e as Error).message}`,
          { cause: e },
        );
        this.#setStatus(id, 'error', err);
        throw err;
      }
    })().finally(() => this.#reinit.delete(id));
    this.#reinit.set(id, p);
    return p;
  }

  /** A low-level handle on a connected server. Requests use the server's timeout unless given one. */
  client(id: string): ServerClient {
    return {
      callTool: (name, args = {}, o = {}) => this.#withSession(id, o, (s, ro) => s.callTool(name, args, ro)),
      readResource: (uri, o = {}) => this.#withSession(id, o, (s, ro) => s.readResource(uri, ro)),
      getPrompt: (name, args = {}, o = {}) => this.#withSession(id, o, (s, ro) => s.getPrompt(name, args, ro)),
      refresh: (o = {}) => this.#refresh(id, o),
    };
  }

  // ---- assistants ---------------------------------------------------------------------------

  #setAssistant(p: AssistantProfile) {
    this.store.update((s) => ({ ...s, assistants: withEntry(s.assistants, p.gptId, Object.freeze(p)) }));
  }

  async #updateAssistant(gptId: string, patch: AssistantPatch): Promise<AssistantProfile> {
    await this.ready;
    const id = parseOrThrow(gptIdSchema, gptId);
    const parsed = parseOrThrow(AssistantPatchSchema, patch);
    const base = this.assistants.get(id);
    // per-field merge into the freshest stored profile (another tab may have changed other fields)
    const merged = await this.#storage.update<AssistantProfile>(ASSISTANT + id, (old) => ({
      ...(old ?? base),
      ...parsed,
      gptId: id,
      updatedAt: Math.max(Date.now(), (old?.updatedAt ?? 0) + 1),
    }));
    const profile = AssistantProfileSchema.parse(merged);
    this.#setAssistant(profile);
    this.#broadcast('assistant', id);
    this.#emit(new McpToolSelectionChangedEvent({ gptId: id, profile, source: 'local' }));
    return profile;
  }

  async #setAssistantServer(gptId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile> {
    await this.ready;
    if (!this.store.state.servers[serverId]) throw new McpNotFoundError('server', serverId);
    const current = this.assistants.get(gptId);
    const servers: Record<string, { tools?: string[] }> =
      current.servers === 'all'
        ? Object.fromEntries(Object.keys(this.store.state.servers).map((id) => [id, {}]))
        : { ...current.servers };
    if (selection === false) delete servers[serverId];
    else servers[serverId] = selection === true ? {} : { tools: [...new Set(selection)] };
    return this.#updateAssistant(gptId, { servers });
  }

  async #trust(
    gptId: string,
    serverId: string,
    tool: string,
    trusted: boolean,
    also: AssistantPatch = {},
  ): Promise<AssistantProfile> {
    await this.ready;
    const current = this.assistants.get(gptId);
    const rest = current.trusted.filter((t) => !(t.serverId === serverId && t.tool === tool));
    return this.#updateAssistant(gptId, { ...also, trusted: trusted ? [...rest, { serverId, tool }] : rest });
  }

  /** The tools an assistant may use, named for the model (memoised on the state's identity). */
  #tools(gptId: string) {
    const s = this.store.state;
    const profile = s.assistants[gptId];
    const memo = this.#toolsMemo.get(gptId);
    if (memo && memo.servers === s.servers && memo.catalogues === s.catalogues && memo.profile === profile) return memo;
    const tools = assistantTools(s, gptId);
    const next = {
      servers: s.servers,
      catalogues: s.catalogues,
      profile,
      tools,
      byName: new Map(tools.map((t) => [t.name, t])),
    };
    this.#toolsMemo.set(gptId, next);
    return next;
  }

  /** The tools an assistant may use, each as the model sees it (name, description, schema). */
  modelTools(options: { gptId?: string } = {}): ModelTool[] {
    return this.#tools(parseOrThrow(gptIdSchema, options.gptId ?? 'default')).tools;
  }

  /**
   * The assistant's tools in a provider's request format, to concatenate with the host's own
   * tools: `openai` (Chat Completions), `openai-responses`, `anthropic`, `gemini` (one
   * `{ functionDeclarations }` entry, or none when there are no tools).
   */
  toolsFor(provider: Provider, options: { gptId?: string } = {}): unknown[] {
    const adapter = adapters[provider];
    if (!adapter) throw new McpConfigError([{ path: 'provider', message: `must be one of ${PROVIDERS.join(', ')}` }]);
    return adapter.tools(this.modelTools(options));
  }

  // ---- calls --------------------------------------------------------------------------------

  // Calls in flight live in the small `activeCalls` map, which changes several times per call;
  // a call moves to `calls` (history, possibly thousands) once, when it ends.
  #putCall(record: ToolCallRecord) {
    const frozen = Object.freeze(record);
    const done = TERMINAL.has(record.status);
    this.store.update((s) => ({
      ...s,
      activeCalls: done
        ? s.activeCalls[record.id]
          ? withEntry(s.activeCalls, record.id, undefined)
          : s.activeCalls
        : withEntry(s.activeCalls, record.id, frozen),
      calls: done ? withEntry(s.calls, record.id, frozen) : s.calls,
    }));
    this.#dirty.set(record.id, frozen);
    this.#scheduleFlush(done ? 0 : IN_FLIGHT_WRITE_DELAY);
    return frozen;
  }

  #patchCall(id: string, patch: Partial<ToolCallRecord>): ToolCallRecord {
    const current = this.store.state.activeCalls[id] ?? this.store.state.calls[id];
    return this.#putCall({ ...current, ...patch } as ToolCallRecord);
  }

  // History is written behind the call path: records are coalesced and written in one
  // transaction, and retention is applied there too. A finished call is written on the next
  // tick; a call in flight only if it is still in flight a moment later (most calls finish
  // first, which saves a write per call); `pagehide` writes whatever is pending.
  #scheduleFlush(delay = 0) {
    if (this.#flushTimer && this.#flushDelay <= delay) return;
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushDelay = delay;
    this.#flushTimer = setTimeout(() => void this.#flush(), delay);
  }

  async #flush() {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const deletes = this.#prune();
    if (!this.#dirty.size && !deletes.length) return;
    const writes: [string, unknown][] = [];
    for (const [id, r] of this.#dirty) if (r) writes.push([CALL + id, r]);
    this.#dirty.clear();
    try {
      await this.#storage.batch(
        writes,
        deletes.map((id) => CALL + id),
      );
    } catch (e) {
      this.#warn(`Could not save the tool call history: ${(e as Error).message}`);
    }
  }

  /** Drop the oldest finished calls of each assistant beyond the history limit. */
  #prune(): string[] {
    const calls = Object.values(this.store.state.calls);
    if (calls.length <= this.#historyLimit) return [];
    const byGpt = new Map<string, ToolCallRecord[]>();
    for (const c of calls) {
      const list = byGpt.get(c.gptId) ?? [];
      list.push(c);
      byGpt.set(c.gptId, list);
    }
    const drop: string[] = [];
    for (const list of byGpt.values()) {
      if (list.length <= this.#historyLimit) continue;
      list.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
      for (const c of list.slice(this.#historyLimit)) if (TERMINAL.has(c.status)) drop.push(c.id);
    }
    if (drop.length) {
      this.store.update((s) => {
        const next = { ...s.calls };
        for (const id of drop) delete next[id];
        return { ...s, calls: Object.freeze(next) };
      });
      for (const id of drop) this.#dirty.delete(id);
    }
    return drop;
  }

  async #clearCalls(gptId?: string) {
    await this.ready;
    const ids = Object.values(this.store.state.calls)
      .filter((c) => TERMINAL.has(c.status) && (!gptId || c.gptId === gptId))
      .map((c) => c.id);
    this.store.update((s) => {
      const next = { ...s.calls };
      for (const id of ids) delete next[id];
      return { ...s, calls: Object.freeze(next) };
    });
    for (const id of ids) this.#dirty.delete(id);
    await this.#storage.batch(
      [],
      ids.map((id) => CALL + id),
    );
  }

  #decide(id: string, d: { ok: boolean; always?: boolean; reason?: string }) {
    const resolve = this.#approvals.get(id);
    if (!resolve) throw new McpToolError('not-awaiting-approval', `Call "${id}" is not waiting for approval.`);
    this.#approvals.delete(id);
    resolve(d);
  }

  #cancelCall(id: string) {
    const call = this.calls.get(id);
    if (!call) throw new McpNotFoundError('tool call', id);
    if (TERMINAL.has(call.status)) return;
    this.#controllers.get(id)?.abort(new McpToolError('cancelled', 'Cancelled by the user.'));
  }

  #end(
    id: string,
    status: 'success' | 'error' | 'cancelled',
    patch: Partial<ToolCallRecord>,
    reason?: 'denied' | 'vetoed' | 'cancelled',
  ): ToolCallRecord {
    const endedAt = Date.now();
    const before = this.store.state.activeCalls[id];
    const r = this.#patchCall(id, {
      ...patch,
      status,
      endedAt,
      ...(before?.startedAt ? { durationMs: endedAt - before.startedAt } : {}),
    });
    if (status === 'success') this.#emit(new McpToolCallCompletedEvent({ call: r }));
    else if (status === 'error')
      this.#emit(new McpToolCallFailedEvent({ call: r, error: r.error ?? { code: 'error', message: 'failed' } }));
    else this.#emit(new McpToolCallCancelledEvent({ call: r, reason: reason ?? 'cancelled' }));
    return r;
  }

  #resolveTarget(
    o: CallToolOptions,
    gptId: string,
  ): { serverId: string; tool: import('@modelcontextprotocol/sdk/types.js').Tool; name: string } {
    const s = this.store.state;
    if (o.name !== undefined) {
      const t = this.#tools(gptId).byName.get(o.name);
      if (!t) throw new McpToolError('unknown-tool', `"${o.name}" is not a tool of assistant "${gptId}".`);
      return { serverId: t.serverId, tool: t.tool, name: t.name };
    }
    if (!o.serverId || !o.tool)
      throw new McpConfigError([{ path: 'name', message: 'give name, or serverId and tool' }]);
    if (!s.servers[o.serverId]) throw new McpNotFoundError('server', o.serverId);
    if (o.source !== 'user') {
      // a model may only reach tools its assistant was given
      const t = this.#tools(gptId).tools.find((x) => x.serverId === o.serverId && x.tool.name === o.tool);
      if (!t) throw new McpToolError('unknown-tool', `"${o.tool}" is not a tool of assistant "${gptId}".`);
      return { serverId: t.serverId, tool: t.tool, name: t.name };
    }
    const tool = s.catalogues[o.serverId]?.tools.find((t) => t.name === o.tool);
    if (!tool)
      throw new McpToolError('unknown-tool', `Server "${s.servers[o.serverId].name}" has no tool "${o.tool}".`);
    const named = this.#tools(gptId).tools.find((x) => x.serverId === o.serverId && x.tool.name === o.tool);
    return { serverId: o.serverId, tool, name: named?.name ?? o.tool };
  }

  /**
   * One tool call through the whole path: `mcp-tool-call-request` (a host may veto), the
   * assistant's approval policy, argument validation, then execution (concurrency cap, timeout,
   * size cap, progress, cancellation) and history. Resolves with the finished record whatever
   * happened; rejects only for a call that cannot be identified (unknown tool or server).
   */
  async callTool(o: CallToolOptions): Promise<ToolCallRecord> {
    if (!this.store.state.ready) await this.ready;
    const gptId = parseOrThrow(gptIdSchema, o.gptId ?? 'default');
    const { serverId, tool, name } = this.#resolveTarget(o, gptId);
    const server = this.store.state.servers[serverId];
    const args = o.arguments ?? {};
    const record = this.#putCall({
      id: randomId('call'),
      gptId,
      serverId,
      serverName: server.name,
      tool: tool.name,
      ...((tool.title ?? tool.annotations?.title) ? { toolTitle: tool.title ?? tool.annotations?.title } : {}),
      name,
      arguments: args,
      status: 'pending',
      source: o.source ?? 'model',
      ...(o.providerCallId ? { providerCallId: o.providerCallId } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      createdAt: Date.now(),
    });
    const id = record.id;
    const controller = new AbortController();
    this.#controllers.set(id, controller);
    const signal = o.signal ? AbortSignal.any([o.signal, controller.signal]) : controller.signal;
    try {
      // 1. the host may veto before anything happens
      if (!this.#emit(new McpToolCallRequestEvent({ call: record }))) {
        return this.#end(
          id,
          'cancelled',
          { error: { code: 'vetoed', message: 'The application did not allow this call.' } },
          'vetoed',
        );
      }
      // 2. approval. Annotations are untrusted hints: they never approve anything by themselves.
      let approval: ApprovalSource;
      const profile = this.assistants.get(gptId);
      if (record.source === 'user') approval = 'user-initiated';
      else if (profile.approval === 'auto') approval = 'auto';
      else if (profile.approval === 'trusted-only' && isTrusted(profile, serverId, tool.name)) approval = 'trusted';
      else {
        const waiting = this.#patchCall(id, { status: 'awaiting-approval' });
        const decision = await new Promise<{ ok: boolean; always?: boolean; reason?: string; aborted?: boolean }>(
          (resolve) => {
            const onAbort = () => {
              this.#approvals.delete(id);
              resolve({ ok: false, aborted: true });
            };
            if (signal.aborted) return onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
            this.#approvals.set(id, (d) => {
              signal.removeEventListener('abort', onAbort);
              resolve(d);
            });
            this.#emit(new McpToolCallAwaitingApprovalEvent({ call: waiting }));
          },
        );
        if (decision.aborted)
          return this.#end(
            id,
            'cancelled',
            { error: { code: 'cancelled', message: 'Cancelled before approval.' } },
            'cancelled',
          );
        if (!decision.ok)
          return this.#end(
            id,
            'cancelled',
            { error: { code: 'denied', message: decision.reason?.trim() || 'Denied.' } },
            'denied',
          );
        // "Always allow" means "don't ask again for this tool": trust it, and if the assistant
        // asks for everything, move it to asking only for untrusted tools
        if (decision.always)
          await this.#trust(
            gptId,
            serverId,
            tool.name,
            true,
            this.assistants.get(gptId).approval === 'always-ask' ? { approval: 'trusted-only' } : {},
          );
        approval = decision.always ? 'user-always' : 'user-once';
      }
      // 3. arguments must match the input schema; invalid ones are never sent
      const problem = o.argumentsError ?? validateArguments(tool, args);
      if (problem) return this.#end(id, 'error', { approval, error: { code: 'invalid-arguments', message: problem } });
      // 4. execution, within the server's concurrency cap
      let limiter = this.#limiters.get(serverId);
      if (!limiter) this.#limiters.set(serverId, (limiter = new Limiter(this.#concurrency)));
      let release: () => void;
      try {
        release = await limiter.acquire(signal);
      } catch {
        return this.#end(
          id,
          'cancelled',
          { approval, error: { code: 'cancelled', message: 'Cancelled while waiting to run.' } },
          'cancelled',
        );
      }
      try {
        if (!this.#sessions.has(serverId)) await this.connect(serverId, { signal });
        const started = this.#patchCall(id, { status: 'running', approval, startedAt: Date.now() });
        this.#emit(new McpToolCallStartedEvent({ call: started }));
        const result = await this.#withSession(serverId, {}, (session, ro) =>
          session.callTool(tool.name, args, {
            ...ro,
            signal,
            onprogress: (p) => {
              const progress = {
                progress: p.progress,
                ...(p.total !== undefined ? { total: p.total } : {}),
                ...(p.message !== undefined ? { message: p.message } : {}),
              };
              this.#patchCall(id, { progress });
              this.#emit(new McpToolCallProgressEvent({ callId: id, ...progress }));
            },
          }),
        );
        const kept = {
          content: result.content ?? [],
          ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
          ...(result.isError ? { isError: true } : {}),
        };
        if (result.isError) {
          const first = kept.content.find((c) => c.type === 'text') as { text: string } | undefined;
          return this.#end(id, 'error', {
            result: kept,
            error: { code: 'tool-error', message: first?.text.slice(0, 2000) || 'The tool reported an error.' },
          });
        }
        return this.#end(id, 'success', { result: kept });
      } catch (e) {
        if (controller.signal.aborted || o.signal?.aborted)
          return this.#end(id, 'cancelled', { error: { code: 'cancelled', message: 'Cancelled.' } }, 'cancelled');
        return this.#end(id, 'error', { error: errorInfo(e) });
      } finally {
        release();
      }
    } finally {
      this.#controllers.delete(id);
      this.#approvals.delete(id);
    }
  }

  /**
   * Run every tool call in a provider's assistant message (or whole response), in parallel,
   * each through `callTool`; return what to append before the next model request. Denied,
   * invalid, failed and cancelled calls come back as results the model can read.
   */
  async runToolCalls(
    provider: Provider,
    assistantMessage: unknown,
    options: RunToolCallsOptions = {},
  ): Promise<RunToolCallsResult> {
    const adapter = adapters[provider];
    if (!adapter) throw new McpConfigError([{ path: 'provider', message: `must be one of ${PROVIDERS.join(', ')}` }]);
    await this.ready;
    const gptId = parseOrThrow(gptIdSchema, options.gptId ?? 'default');
    const { byName } = this.#tools(gptId);
    const found = adapter.readCalls(assistantMessage);
    const unhandled: unknown[] = [];
    const records: (ToolCallRecord | undefined)[] = [];
    const answers = await Promise.all(
      found.map(async (call, index): Promise<unknown | undefined> => {
        if (byName.has(call.name)) {
          const r = await this.callTool({
            name: call.name,
            arguments: call.arguments ?? {},
            ...(call.argumentsError ? { argumentsError: call.argumentsError } : {}),
            gptId,
            ...(options.signal ? { signal: options.signal } : {}),
            providerCallId: call.id,
          });
          records[index] = r;
          return adapter.result(call, outcomeOf(r));
        }
        if (options.runHostTool) {
          let out: string | ToolOutcome;
          try {
            out = await options.runHostTool(call);
          } catch (e) {
            out = {
              isError: true,
              content: [{ type: 'text', text: `The tool failed: ${(e as Error)?.message ?? String(e)}` }],
            };
          }
          return adapter.result(
            call,
            typeof out === 'string' ? { isError: false, content: [{ type: 'text', text: out }] } : out,
          );
        }
        if (options.unknownTools === 'error') {
          const names = [...byName.keys()].slice(0, 50).join(', ');
          return adapter.result(call, {
            isError: true,
            content: [
              { type: 'text', text: `There is no tool named "${call.name}". Available tools: ${names || 'none'}.` },
            ],
          });
        }
        unhandled.push(call.raw);
        return undefined;
      }),
    );
    const results = answers.filter((a) => a !== undefined);
    return {
      messages: adapter.messages(results),
      results,
      unhandled,
      calls: records.filter((r): r is ToolCallRecord => !!r),
    };
  }

  /**
   * Alternate model and tools until the model stops calling tools or `maxSteps` model turns
   * were taken. `complete(messages, tools)` calls the host's LLM and returns its reply.
   */
  async runConversation(
    o: RunConversationOptions,
  ): Promise<{ messages: unknown[]; reply: unknown; steps: number; stopped: 'done' | 'max-steps' }> {
    const adapter = adapters[o.provider];
    if (!adapter) throw new McpConfigError([{ path: 'provider', message: `must be one of ${PROVIDERS.join(', ')}` }]);
    const maxSteps = o.maxSteps ?? 8;
    const messages = [...o.messages];
    let reply: unknown;
    for (let step = 1; step <= maxSteps; step++) {
      o.signal?.throwIfAborted();
      reply = await o.complete([...messages], this.toolsFor(o.provider, { gptId: o.gptId }));
      messages.push(...adapter.replyMessages(reply));
      if (adapter.readCalls(reply).length === 0) return { messages, reply, steps: step, stopped: 'done' };
      const run = await this.runToolCalls(o.provider, reply, {
        gptId: o.gptId,
        signal: o.signal,
        unknownTools: 'error',
        ...(o.runHostTool ? { runHostTool: o.runHostTool } : {}),
      });
      messages.push(...run.messages);
    }
    return { messages, reply, steps: maxSteps, stopped: 'max-steps' };
  }

  /** Close every session and stop listening to other tabs. */
  async dispose(): Promise<void> {
    this.#channel?.close();
    if (this.#onPageHide) removeEventListener('pagehide', this.#onPageHide);
    for (const id of [...this.#approvals.keys()]) this.#decide(id, { ok: false, reason: 'The page is closing.' });
    for (const c of this.#controllers.values()) c.abort();
    await this.#flush();
    for (const c of this.#connecting.values()) c.abort.abort();
    await Promise.all([...this.#sessions.keys()].map((id) => this.#closeSession(id)));
  }
}

const HUB_KEY = Symbol.for('mcp-elements.hub');

/** The page's one hub, shared even by two copies of the bundle. */
export function getHub(): McpHub {
  const g = globalThis as { [HUB_KEY]?: McpHub };
  return (g[HUB_KEY] ??= new McpHub());
}
