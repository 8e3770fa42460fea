import { McpStorageDegradedEvent, type McpHubEventMap } from '../events/index.js';
import { Assistants, type AssistantRegistry, type ToolsForOptions } from './assistants/registry.js';
import { Conversation, type RunConversationOptions, type RunConversationResult } from './calls/conversation.js';
import type { RunToolCallsOptions, RunToolCallsResult } from './calls/conversation.js';
import { CallHistory } from './calls/history.js';
import { CallPipeline, type CallToolOptions } from './calls/pipeline.js';
import type { CallRegistry, ToolCallRecord } from './calls/records.js';
import { Connections, type ConnectOptions, type ServerClient } from './connections/manager.js';
import { randomId, type HubContext, type McpHubOptions } from './context.js';
import type { McpJsonEntryError } from './mcp-json.js';
import { loadRecords, TabSync } from './persistence/sync.js';
import type { ModelTool, Provider } from './providers/index.js';
import type { ServerConfig, ServerConfigInput } from './schemas.js';
import { Servers, type ServerRegistry } from './servers/registry.js';
import { defaultStorage, ResilientStorage } from './storage.js';
import { Store } from './store.js';
import type { ConnectionState, HubState, ServerCatalogue } from './types.js';
import { Vault } from './vault.js';

/**
 * The page's MCP hub: servers kept in IndexedDB, secrets in the vault, one SDK Client per
 * connected server, and an immutable snapshot (`hub.store`) that elements and hosts subscribe to.
 * Use `getHub()` for the page's shared instance; construct one directly only for isolation.
 *
 * A façade: each part lives in its own module and shares a `HubContext` (src/core/context.ts).
 */
export class McpHub extends EventTarget {
  /** The hub's state; subscribe to be told of every change. */
  readonly store: Store<HubState>;
  /** Resolves once stored records are loaded. Every async method awaits it for you. */
  readonly ready: Promise<void>;
  readonly servers: ServerRegistry;
  readonly assistants: AssistantRegistry;
  readonly calls: CallRegistry;
  /** The IndexedDB database this hub uses. */
  readonly storeName: string;
  readonly #target: EventTarget | null;
  readonly #log: Pick<Console, 'warn'>;
  readonly #sync: TabSync;
  readonly #servers: Servers;
  readonly #connections: Connections;
  readonly #assistants: Assistants;
  readonly #history: CallHistory;
  readonly #pipeline: CallPipeline;
  readonly #conversation: Conversation;
  #onPageHide?: () => void;

  constructor(options: McpHubOptions = {}) {
    super();
    const name = options.storeName ?? 'mcp-elements';
    this.storeName = name;
    this.#log = options.logger ?? console;
    this.#target =
      options.eventTarget !== undefined ? options.eventTarget : typeof window !== 'undefined' ? window : null;
    const onDegrade = (reason: string) => this.#degrade(reason);
    const storage = options.storage
      ? new ResilientStorage(options.storage, onDegrade)
      : defaultStorage(name, onDegrade);
    this.store = new Store<HubState>({
      ready: false,
      servers: {},
      connections: {},
      catalogues: {},
      storage: { mode: storage.kind },
      assistants: {},
      calls: {},
      activeCalls: {},
      warnings: [],
    });
    let loaded!: (p: Promise<void>) => void;
    this.ready = new Promise<void>((resolve) => (loaded = resolve));
    const ctx: HubContext = {
      storeName: name,
      store: this.store,
      storage,
      vault: new Vault(storage),
      fetch: options.fetch,
      clientInfo: options.clientInfo ?? { name: 'mcp-elements', version: '0.1.0' },
      limits: {
        historyLimit: options.historyLimit ?? 1000,
        callConcurrency: options.callConcurrency ?? 10,
        maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
        connectionsPerOrigin: options.connectionsPerOrigin ?? 6,
      },
      ready: this.ready,
      emit: (event) => this.#emit(event),
      warn: (message) => this.#warn(message),
      broadcast: (kind, id) => this.#sync.broadcast(kind, id),
    };
    this.#connections = new Connections(ctx);
    this.#servers = new Servers(ctx, this.#connections);
    this.#assistants = new Assistants(ctx);
    this.#history = new CallHistory(ctx);
    this.#pipeline = new CallPipeline(ctx, this.#history, this.#assistants, this.#connections);
    this.#conversation = new Conversation(ctx, this.#assistants, this.#pipeline);
    this.#sync = new TabSync(ctx, randomId('hub'), name, options.broadcast ?? true, this.#connections);

    const servers = this.#servers;
    this.servers = {
      list: () => servers.list(),
      get: (id) => servers.get(id),
      add: (input) => servers.add(input),
      update: (id, patch) => servers.update(id, patch),
      remove: (id) => servers.remove(id),
    };
    const assistants = this.#assistants;
    this.assistants = {
      get: (assistantId) => assistants.get(assistantId),
      list: () => assistants.list(),
      update: (assistantId, patch) => assistants.update(assistantId, patch),
      setServer: (assistantId, serverId, selection) => assistants.setServer(assistantId, serverId, selection),
      trust: (assistantId, serverId, tool, trusted = true) => assistants.trust(assistantId, serverId, tool, trusted),
      pin: (assistantId, serverId, tool, pinned = true) => assistants.pin(assistantId, serverId, tool, pinned),
    };
    const history = this.#history;
    const pipeline = this.#pipeline;
    this.calls = {
      get: (id) => history.get(id),
      list: (filter = {}) => history.list(filter),
      approve: (id, options = {}) => pipeline.decide(id, { ok: true, always: !!options.always }),
      deny: (id, reason) => pipeline.decide(id, { ok: false, reason }),
      cancel: (id) => pipeline.cancel(id),
      clear: (filter = {}) => history.clear(filter),
    };
    loaded(loadRecords(ctx, (calls) => history.rewrite(calls)));
    if (typeof addEventListener === 'function' && typeof window !== 'undefined') {
      this.#onPageHide = () => {
        history.journal();
        void history.flush();
      };
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

  // ---- connections --------------------------------------------------------------------------

  /** Current status of a server (disconnected when unknown). */
  status(id: string): ConnectionState {
    return this.#connections.status(id);
  }

  /** The last discovered catalogue of a server, if any. */
  catalogue(id: string): ServerCatalogue | undefined {
    return this.store.state.catalogues[id];
  }

  /**
   * Connect to a server (retrying with backoff as configured), list its tools and keep the
   * session. Resolves with the catalogue as soon as the tools are in (status `connected`);
   * resources, templates and prompts follow (`discovery: 'complete'` waits for them too).
   * Rejects with McpConnectionError. A second call while one is in flight joins it.
   */
  connect(id: string, options: ConnectOptions = {}): Promise<ServerCatalogue> {
    return this.#connections.connect(id, options);
  }

  /** Close a server's session (the stored config and catalogue stay). */
  disconnect(id: string): Promise<void> {
    return this.#connections.disconnect(id);
  }

  /**
   * Try a config without saving it: connect, discover, disconnect. For an edit form pass the
   * server's id so the secrets it keeps (as references) can be used. Resolves with what was
   * found (server info, protocol version, session id, tools…); rejects like `connect()`.
   */
  testConnection(
    input: ServerConfigInput,
    options: { serverId?: string; signal?: AbortSignal } = {},
  ): Promise<ServerCatalogue> {
    return this.#connections.testConnection(input, options);
  }

  /** A low-level handle on a connected server. Requests use the server's timeout unless given one. */
  client(id: string): ServerClient {
    return this.#connections.client(id);
  }

  // ---- mcp.json -----------------------------------------------------------------------------

  /** Every server as `mcp.json` text (`{ "mcpServers": … }`); secrets are written as `<redacted>`. */
  exportConfig(): string {
    return this.#servers.exportConfig();
  }

  /**
   * Add the servers of an `mcp.json` text. Every entry is validated; bad ones are reported in
   * `errors` (with field issues) and not imported; the good ones are added.
   */
  importConfig(text: string): Promise<{ added: ServerConfig[]; errors: McpJsonEntryError[] }> {
    return this.#servers.importConfig(text);
  }

  // ---- tools for the model ------------------------------------------------------------------

  /** The tools an assistant may use, each as the model sees it (name, description, schema). */
  modelTools(options: ToolsForOptions & { provider?: Provider } = {}): ModelTool[] {
    return this.#assistants.modelTools(options);
  }

  /**
   * The assistant's tools in a provider's request format, to concatenate with the host's own
   * tools: `openai` (Chat Completions), `openai-responses`, `anthropic`, `gemini` (one
   * `{ functionDeclarations }` entry, or none when there are no tools).
   */
  toolsFor(provider: Provider, options: ToolsForOptions = {}): unknown[] {
    return this.#assistants.toolsFor(provider, options);
  }

  // ---- calls --------------------------------------------------------------------------------

  /**
   * One tool call through the whole path: `mcp-tool-call-request` (a host may veto), the
   * assistant's approval policy, argument validation, then execution (concurrency cap, timeout,
   * size cap, progress, cancellation) and history. Resolves with the finished record whatever
   * happened; rejects only for a call that cannot be identified (unknown tool or server).
   */
  callTool(options: CallToolOptions): Promise<ToolCallRecord> {
    return this.#pipeline.callTool(options);
  }

  /**
   * Run every tool call in a provider's assistant message (or whole response), in parallel,
   * each through `callTool`; return what to append before the next model request. Denied,
   * invalid, failed and cancelled calls come back as results the model can read.
   */
  runToolCalls(
    provider: Provider,
    assistantMessage: unknown,
    options: RunToolCallsOptions = {},
  ): Promise<RunToolCallsResult> {
    return this.#conversation.runToolCalls(provider, assistantMessage, options);
  }

  /**
   * Alternate model and tools until the model stops calling tools or `maxSteps` model turns
   * were taken. `complete(messages, tools)` calls the host's LLM and returns its reply.
   */
  runConversation(options: RunConversationOptions): Promise<RunConversationResult> {
    return this.#conversation.runConversation(options);
  }

  /** Close every session and stop listening to other tabs. */
  async dispose(): Promise<void> {
    this.#sync.close();
    if (this.#onPageHide) removeEventListener('pagehide', this.#onPageHide);
    this.#pipeline.dispose();
    await this.#history.flush();
    await this.#connections.dispose();
  }
}

const HUB_KEY = Symbol.for('mcp-elements.hub');

/** The page's one hub, shared even by two copies of the bundle. */
export function getHub(): McpHub {
  const g = globalThis as { [HUB_KEY]?: McpHub };
  return (g[HUB_KEY] ??= new McpHub());
}
