// Must be first: configures zod before anything parses (a backend imports the kernel, not core/index).
import './zod-setup.js';
import { Assistants, type AssistantRegistry, type ToolsForOptions } from './assistants/registry.js';
import { Conversation, type RunConversationOptions, type RunConversationResult } from './calls/conversation.js';
import type { RunToolCallsOptions, RunToolCallsResult } from './calls/conversation.js';
import { CallHistory } from './calls/history.js';
import { CallPipeline, type CallToolOptions } from './calls/pipeline.js';
import type { CallRegistry, ToolCallRecord } from './calls/records.js';
import { Answers, type AnswerTypes as A } from './answers/index.js';
import { Connections, type ConnectOptions, type ServerClient } from './connections/manager.js';
import { offersCompletions } from './connections/complete.js';
import { assistantRegistry, callRegistry, emptyHubState, HubEventTarget, serverRegistry } from './registries.js';
import type { ClientKeyInfo, CreateClientKeyOptions } from './auth/client-keys.js';
import type { SignInOptions } from './auth/options.js';
import type { IdentityAssertionSource } from './auth/jwt-bearer.js';
import { LazySignIns } from './sign-in-loader.js';
import { checkConnectSignIn, SignInQueue } from './connections/connect-with-sign-in.js';
import { Skills, type LoadedSkill, type SkillEntry, type SkillFileContent } from './skills/index.js';
import { limitsOf, type HubContext, type McpHubOptions } from './context.js';
import type { McpJsonEntryError } from './servers/mcp-json.js';
import { loadRecords, type RecordJournal } from './persistence/load.js';
import type { RemoteHooks } from './persistence/sync.js';
import type { MakeRestore } from './calls/restore.js';
import type { SignInPage } from './auth/options.js';
import type { SyncMessage } from './context.js';
import { watchProtocolErrors } from './answers/protocol-log.js';
import type { ModelTool, Provider } from './providers/index.js';
import type { ServerConfig, ServerConfigInput } from './schemas.js';
import { Servers, type ServerRegistry } from './servers/registry.js';
import { checkRelayOptions, relayAllowed } from './servers/relays.js';
import { MemoryStorage, ResilientStorage } from './persistence/storage.js';
import { Store } from './store.js';
import type { ConnectionState, HubState, ServerCatalogue } from './types.js';
import { Vault } from './persistence/vault.js';
import { HubOutput } from './output.js';
import { AppViews, type AppModelContext, type AppsStatus } from './apps/app-views.js';

/** Options of a kernel built directly (a backend): a page's `McpHubOptions` without tab sync. */
export type HubKernelOptions = Omit<McpHubOptions, 'broadcast'>;

/**
 * What a runtime adds above the kernel (a page's: core/shell/page-shell.ts). Every part is
 * optional; without a shell the kernel keeps records in memory (or the `storage` given), tells
 * only itself (and `eventTarget`) of events, and has no other hub to keep in step with.
 */
export interface HubShell {
  /** Where events are dispatched besides the hub (a page: `window`). */
  readonly eventTarget?: EventTarget | null;
  /** The storage when the host gave none (a page: IndexedDB, falling back to memory). */
  storage?(name: string, onDegrade: (reason: string) => void): ResilientStorage;
  /** Records the last page could only journal when it went away. */
  readonly journal?: RecordJournal;
  /** Keep other hubs of the same store in step (a page: other tabs). */
  tabSync?(ctx: HubContext, hooks: RemoteHooks): TabLink;
  /** How calls restored waiting for approval are asked about again (a page: under Web Locks). */
  readonly restore?: MakeRestore;
  /** Follow the page's lifecycle (journal and flush on `pagehide`); returns what stops it. */
  followLifecycle?(
    storeName: string,
    history: Pick<CallHistory, 'returned' | 'journal' | 'flush' | 'mayLeave'>,
    pipeline: Pick<CallPipeline, 'pageShown' | 'pageHidden'>,
  ): () => void;
  /** The sign-in popup and the full-page sign-in's answer. */
  readonly signIn?: SignInPage;
}

/** A shell's link to the other hubs of its store. */
export interface TabLink {
  broadcast(kind: SyncMessage['kind'], id: string): void;
  close(): void;
}

/**
 * The runtime-neutral hub: servers, connections and their sessions, calls, assistants, answers,
 * providers and machine credentials over a record storage, with an immutable snapshot
 * (`hub.store`) to subscribe to. It touches no page API; a backend builds it directly, and a
 * page's `McpHub` is this kernel with the page shell (IndexedDB, tab sync, page lifecycle, Web
 * Locks, popup sign-in, window events) given to it.
 *
 * A façade: each part lives in its own module and shares a `HubContext` (src/core/context.ts).
 */
export class HubKernel extends HubEventTarget {
  /** The hub's state; subscribe to be told of every change. */
  readonly store: Store<HubState>;
  /** Resolves once stored records are loaded. Every async method awaits it for you. */
  readonly ready: Promise<void>;
  readonly servers: ServerRegistry;
  readonly assistants: AssistantRegistry;
  readonly calls: CallRegistry;
  /** The store's name (in a page, the IndexedDB database this hub uses). */
  readonly storeName: string;
  /** The relay the host offers for servers this page cannot reach (`relayUrl` option), if any. */
  readonly relayUrl?: string;
  readonly #sync?: TabLink;
  readonly #servers: Servers;
  readonly #connections: Connections;
  readonly #answers: Answers;
  readonly #assistants: Assistants;
  readonly #history: CallHistory;
  readonly #pipeline: CallPipeline;
  readonly #conversation: Conversation;
  readonly #signIns: LazySignIns;
  readonly #signInQueue: SignInQueue;
  readonly #vault: Vault;
  readonly #skills: Skills;
  readonly #leavePage: () => void;
  readonly #apps: AppViews;
  /** The relays an imported mcp.json may name (`relayUrl`, `allowedRelays`), normalized. */
  readonly #relays: readonly string[];

  constructor(options: HubKernelOptions = {}, shell: HubShell = {}) {
    super();
    const name = options.storeName ?? 'mcp-elements';
    LazySignIns.checkOptions(options); // bad sign-in options fail before anything is made
    this.#relays = checkRelayOptions(options);
    if (options.relayUrl !== undefined) this.relayUrl = options.relayUrl;
    this.#apps = new AppViews();
    this.#apps.setSandboxUrl(options.sandboxUrl);
    this.storeName = name;
    const target = shell.eventTarget !== undefined ? shell.eventTarget : (options.eventTarget ?? null);
    const out = new HubOutput(this, target, options.logger ?? console, () => this.store);
    const onDegrade = (reason: string) => out.degrade(reason);
    const storage = options.storage
      ? new ResilientStorage(options.storage, onDegrade)
      : (shell.storage?.(name, onDegrade) ?? new ResilientStorage(new MemoryStorage(), onDegrade));
    this.store = new Store<HubState>(emptyHubState(storage.kind));
    let loaded!: (p: Promise<void>) => void;
    this.ready = new Promise<void>((resolve) => (loaded = resolve));
    const ctx: HubContext = {
      storeName: name,
      store: this.store,
      storage,
      vault: (this.#vault = new Vault(storage, { scoped: options.secretScope === 'server' })),
      fetch: options.fetch,
      clientInfo: options.clientInfo ?? { name: 'mcp-elements', version: '0.1.0' },
      limits: limitsOf(options),
      ready: this.ready,
      emit: (event) => out.emit(event),
      warn: (message) => out.warn(message),
      broadcast: (kind, id) => this.#sync?.broadcast(kind, id),
    };
    this.#connections = new Connections(ctx, (id) => this.#answers.forServer(id));
    this.#apps.answers = this.#answers = new Answers(ctx, {
      sessions: () => this.#connections.sessions(),
      reconnectConnected: () => this.#connections.reconnectConnected(),
    });
    // the servers' "stderr": protocol failures into their log rings (answers/protocol-log.ts)
    watchProtocolErrors(this, (serverId, entry) => this.#answers.protocolError(serverId, entry));
    const connections = this.#connections;
    this.#signIns = LazySignIns.forHub(ctx, options, connections, shell.signIn);
    this.#signInQueue = new SignInQueue({
      signIn: (id, o) => this.signIn(id, o),
      catalogue: (id) => this.catalogue(id),
      stepUpEnded: (id) => this.#signIns.stepUpEnded(id),
    });
    this.#servers = new Servers(ctx, this.#connections, (id) => this.#assistants.forgetServer(id));
    this.#skills = new Skills(ctx, {
      withSession: (id, o, run) => connections.withSession(id, o, run),
      session: (id) => connections.sessionOf(id),
    });
    this.#assistants = new Assistants(ctx);
    this.#history = new CallHistory(ctx);
    this.#pipeline = new CallPipeline(
      ctx,
      this.#history,
      this.#assistants,
      this.#connections,
      this.#signIns,
      (serverId, callId, elicitations, signal) =>
        this.#answers.elicitations.urlRequired(serverId, callId, elicitations, signal),
      shell.restore,
    );
    this.#conversation = new Conversation(ctx, this.#assistants, this.#pipeline, this.#history);
    const signIns = this.#signIns;
    this.#sync = shell.tabSync?.(ctx, {
      close: (id) => connections.close(id),
      hasSession: (id) => connections.hasSession(id),
      signInChanged: (id) => signIns.remoteChanged(id),
    });

    this.servers = serverRegistry(this.#servers);
    this.assistants = assistantRegistry(this.#assistants);
    this.calls = callRegistry(this.#history, this.#pipeline);
    const history = this.#history;
    loaded(loadRecords(ctx, (calls) => history.rewrite(calls), shell.journal));
    // calls whose server-side task outlived the last page: follow them again; calls that were
    // waiting for approval: ask again
    const pipeline = this.#pipeline;
    void this.ready
      .then(() => {
        pipeline.resumeApprovals();
        return pipeline.resumeTasks();
      })
      .catch(() => {});
    this.#leavePage = shell.followLifecycle?.(name, history, pipeline) ?? (() => {});
  }

  // ---- connections --------------------------------------------------------------------------

  /**
   * Current status of a server (disconnected when unknown). For a server with MCP App views,
   * `apps` says how they are shown (sandbox origin, or the opaque fallback and what it cannot do).
   */
  status(id: string): ConnectionState & { readonly apps?: AppsStatus } {
    const state = this.#connections.status(id);
    const apps = this.#apps.status(this.store.state.catalogues[id]);
    return apps ? { ...state, apps } : state;
  }

  /**
   * How many clear secret values the hub holds in memory (servers' secrets, derived values kept
   * for redaction). With `secretScope: 'server'` it falls back once servers are removed: a
   * backend checks that no request's secrets outlive it.
   */
  get secretsHeld(): number {
    return this.#vault.heldValues;
  }

  // ---- MCP Apps (views: <mcp-app-view>, src/apps) ------------------------------------------

  /** The sandbox proxy page views run in; undefined: the opaque `srcdoc` fallback. */
  get sandboxUrl(): string | undefined {
    return this.#apps.sandboxUrl;
  }

  /** Set (or with `null` clear) the sandbox proxy page: https (http on loopback), no credentials; McpConfigError otherwise. */
  setSandboxUrl(url: string | null): void {
    this.#apps.setSandboxUrl(url);
  }

  /**
   * What views asked to add to the model's context (`ui/update-model-context`), newest per view:
   * the host adds it to its next model request. See docs/API.md, "MCP Apps".
   */
  modelContext(filter?: { serverId?: string }): AppModelContext[] {
    return this.#apps.modelContext(filter);
  }

  /** @internal The MCP Apps state src/apps writes (model contexts): not for hosts. */
  get appViews(): AppViews {
    return this.#apps;
  }

  /** A view's `notifications/message`, into its server's log (as the server's own log messages). */
  appLog(serverId: string, params: { level: string; logger?: string; data?: unknown }): void {
    this.#answers.log(serverId, { logger: 'view', ...params } as Parameters<Answers['log']>[1]);
  }

  /** The last discovered catalogue of a server, if any. */
  catalogue(id: string): ServerCatalogue | undefined {
    return this.store.state.catalogues[id];
  }

  /**
   * Connect (retrying; a second call joins the first), list tools first (then the rest), keep the
   * session. With `signIn`, sign in whenever the server asks and resolve once connected.
   */
  connect(id: string, options: ConnectOptions = {}): Promise<ServerCatalogue> {
    const { signIn, ...rest } = options;
    if (signIn === undefined) return this.#connections.connect(id, rest);
    try {
      checkConnectSignIn(signIn);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.#signInQueue.connect(id, signIn, () => this.#connections.connect(id, rest));
  }

  /** Close a server's session (the stored config and catalogue stay). */
  disconnect(id: string): Promise<void> {
    return this.#connections.disconnect(id);
  }

  /** Try a config without saving it: connect, discover, disconnect. See docs/API.md. */
  testConnection(
    input: ServerConfigInput,
    options: { serverId?: string; signal?: AbortSignal; confirmSecrets?: boolean } = {},
  ): Promise<ServerCatalogue> {
    return this.#connections.testConnection(input, options);
  }

  /** A low-level handle on a connected server. Requests use the server's timeout unless given one. */
  client(id: string): ServerClient {
    return this.#connections.client(id);
  }

  /** `mcp-resource-updated` when a resource of a connected server changes (kept across reconnects). See docs/API.md. */
  subscribeResource(id: string, uri: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#connections.subscriptions.subscribe(id, uri, options);
  }

  /** Whether a server is connected and offers completions (`completion/complete` through `client(id).complete`). */
  offersCompletions(id: string): boolean {
    return offersCompletions(this.#connections.sessionOf(id));
  }

  /** Whether a server is connected and offers resource subscriptions (`resources.subscribe`). */
  canSubscribeResources(id: string): boolean {
    return this.#connections.subscriptions.supported(id);
  }

  /** Stop `mcp-resource-updated` for a resource (resolves at once when not subscribed). */
  unsubscribeResource(id: string, uri: string): Promise<void> {
    return this.#connections.subscriptions.unsubscribe(id, uri);
  }

  // ---- skills (SEP-2640) ----------------------------------------------------------------------

  /** Whether a connected server offers skills (declared the `io.modelcontextprotocol/skills` extension). */
  offersSkills(id: string): boolean {
    return this.#skills.offered(id);
  }

  /** A connected server's skills (`skills/list`, every page); no skill file is read. See docs/API.md. */
  listSkills(id: string, options: { signal?: AbortSignal } = {}): Promise<SkillEntry[]> {
    return this.#skills.list(id, options);
  }

  /** Read and verify a skill's `SKILL.md` (size, digest, frontmatter); fires `mcp-skill-loaded`. See docs/API.md. */
  loadSkill(id: string, uri: string, options: { signal?: AbortSignal } = {}): Promise<LoadedSkill> {
    return this.#skills.load(id, uri, options);
  }

  /** Read and verify one supporting file of a skill, when the model or user needs it. */
  readSkillFile(
    id: string,
    skillUri: string,
    ref: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<SkillFileContent> {
    return this.#skills.readFile(id, skillUri, ref, options);
  }

  // ---- what servers ask of the client ---------------------------------------------------------

  /** Answer sampling with the host's model (declared only while set; each request is approved, then reviewed). */
  setSamplingHandler(handler: A.SamplingHandler | null, options?: A.SamplingOptions): void {
    this.#answers.setSamplingHandler(handler, options);
  }

  /** Answer a pending elicitation (`state.elicitations`): accept with content, decline or cancel. */
  respondToElicitation(id: string, response: A.ElicitationResponse): void {
    this.#answers.respondToElicitation(id, response);
  }

  /** Decide on a pending sampling request: `{ approve }`, then `{ send, text? }` after review. */
  respondToSampling(id: string, decision: A.SamplingResponse): void {
    this.#answers.respondToSampling(id, decision);
  }

  /** The roots (`file://` URIs) servers may work in; empty by default. */
  setRoots(roots: readonly { uri: string; name?: string }[]): void {
    this.#answers.setRoots(roots);
  }

  /** Ask a connected server to send log messages from `level` up (2025 revisions). */
  async setLogLevel(id: string, level: string): Promise<void> {
    await this.#connections.setLogLevel(id, Answers.checkLevel(level));
  }

  /** Forget the log messages kept for a server. */
  clearLog(id: string): void {
    this.#answers.clearLog(id);
  }

  // ---- sign-in (OAuth) ------------------------------------------------------------------------

  /** Sign in to an OAuth server; resolves with the connection state reached after it. See docs/API.md. */
  signIn(id: string, options: SignInOptions = {}): Promise<ConnectionState> {
    return this.#signIns.signIn(id, options);
  }

  /** Set `redirectUrl` / `clientMetadataUrl` / `dpop` / `idpTokenEndpoints` of a hub already made; McpConfigError for bad values. */
  setSignInOptions(
    options: Pick<McpHubOptions, 'redirectUrl' | 'clientMetadataUrl' | 'dpop' | 'idpTokenEndpoints'>,
  ): void {
    this.#signIns.setOptions(options);
  }

  /** Sign out: revoke the tokens where supported (RFC 7009) and wipe them; then `needs-sign-in`. */
  signOut(id: string): Promise<void> {
    return this.#signIns.signOut(id);
  }

  /** A key pair for `private_key_jwt` (the private key non-extractable, in IndexedDB). See docs/API.md. */
  createClientKey(options: CreateClientKeyOptions = {}): Promise<ClientKeyInfo> {
    return this.#signIns.keys.create(options);
  }

  /** Where `jwt-bearer` servers' identity assertions come from (`'*'`: every server); never stored. See docs/API.md. */
  setIdentityAssertion(serverId: string, source: IdentityAssertionSource | null): void {
    this.#signIns.setIdentityAssertion(serverId, source);
  }

  /** Delete a client key of `createClientKey()`. */
  deleteClientKey(keyId: string): Promise<void> {
    return this.#signIns.keys.remove(keyId);
  }

  // ---- mcp.json -----------------------------------------------------------------------------

  /** Every server as `mcp.json` text (`{ "mcpServers": … }`); secrets are written as `<redacted>`. */
  exportConfig(): string {
    return this.#servers.exportConfig();
  }

  /** Add the servers of an `mcp.json` text. See docs/API.md. */
  importConfig(text: string): Promise<{ added: ServerConfig[]; errors: McpJsonEntryError[] }> {
    return this.#servers.importConfig(text, {
      idpAllowed: (url) => this.#signIns.idpAllowed(url),
      relayAllowed: (url) => relayAllowed(this.#relays, url),
    });
  }

  // ---- tools for the model ------------------------------------------------------------------

  /** The tools an assistant may use, each as the model sees it (name, description, schema). */
  modelTools(options: ToolsForOptions & { provider?: Provider } = {}): ModelTool[] {
    return this.#assistants.modelTools(options);
  }

  /** The assistant's tools in a provider's format (openai, openai-responses, anthropic, gemini). */
  toolsFor(provider: Provider, options: ToolsForOptions = {}): unknown[] {
    return this.#assistants.toolsFor(provider, options);
  }

  // ---- calls --------------------------------------------------------------------------------

  /** One call: request event, approval, validation, execution, history; resolves with the record. */
  callTool(options: CallToolOptions): Promise<ToolCallRecord> {
    return this.#pipeline.callTool(options);
  }

  /** Run every tool call of a provider's assistant message; resolves with the messages to append. */
  runToolCalls(
    provider: Provider,
    assistantMessage: unknown,
    options: RunToolCallsOptions = {},
  ): Promise<RunToolCallsResult> {
    return this.#conversation.runToolCalls(provider, assistantMessage, options);
  }

  /** Alternate model and tools until the model stops calling tools or `maxSteps` model turns were taken. */
  runConversation(options: RunConversationOptions): Promise<RunConversationResult> {
    return this.#conversation.runConversation(options);
  }

  /** Close every session and stop listening to other tabs. */
  async dispose(): Promise<void> {
    this.#sync?.close();
    this.#signIns.dispose();
    this.#leavePage();
    this.#pipeline.dispose();
    await this.#history.flush();
    await this.#connections.dispose();
  }
}
