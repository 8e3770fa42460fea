// Connections: one session per server, opened with retries, discovered, re-initialised when
// the server's session expires, and reflected in `state.connections`.
import { KEYS, type HubContext } from '../context.js';
import { McpConfigError, McpConnectionError, McpElementsError, McpNotFoundError } from '../errors.js';
import {
  ServerConfigInputSchema,
  ServerConfigSchema,
  parseOrThrow,
  type ServerConfig,
  type ServerConfigInput,
} from '../schemas.js';
import { openHeaders, checkRefs, collectRefs, type ConnectTarget } from '../servers/secrets.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  openSession,
  toConnectionError,
  type CallOptions,
  type McpSession,
  type RequestOptions,
} from '../session/index.js';

/** JSON-RPC `HeaderMismatch` (2026-07-28): headers and body disagree. */
const HEADER_MISMATCH = -32020;
import { McpToolsDroppedEvent } from '../../events/index.js';
import { setCatalogue, setServer, setStatus, toolsChanged } from '../state.js';
import type { ConnectionState, ServerCatalogue } from '../types.js';
import { catalogueOf, discover, listRest, listTools, type DiscoverySlot, type Listed } from './discovery.js';
import { OriginBudget } from './origins.js';
import { backoffDelay, retryable, sleep } from './retry.js';

/** Options for `hub.connect()`. */
export interface ConnectOptions {
  signal?: AbortSignal;
  /**
   * `tools-first` (default): resolve once the tools are listed; resources, templates and prompts
   * follow in the background. `complete`: resolve once they are listed too.
   */
  discovery?: 'tools-first' | 'complete';
}

/** A low-level handle on one connected server (no approval policy). Hosts normally use `hub.callTool`. */
export interface ServerClient {
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): ReturnType<McpSession['callTool']>;
  readResource(uri: string, options?: RequestOptions): ReturnType<McpSession['readResource']>;
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): ReturnType<McpSession['getPrompt']>;
  /** Re-list tools, resources and prompts now. */
  refresh(options?: RequestOptions): Promise<ServerCatalogue>;
}

export class Connections {
  readonly #sessions = new Map<string, McpSession>();
  readonly #connecting = new Map<string, { promise: Promise<ServerCatalogue>; abort: AbortController }>();
  readonly #reinit = new Map<string, Promise<McpSession>>();
  /** Per server: the background listing of resources, templates and prompts after a connect. */
  readonly #rest = new Map<string, Promise<ServerCatalogue>>();
  /** Work left running after a connect resolved (writes, the rest of discovery): dispose waits for it. */
  readonly #background = new Set<Promise<unknown>>();
  readonly #origins: OriginBudget;

  constructor(private readonly ctx: HubContext) {
    this.#origins = new OriginBudget(ctx.limits.connectionsPerOrigin);
  }

  get #secrets(): Iterable<string> {
    return this.ctx.vault.knownValues;
  }

  /** Current status of a server (disconnected when unknown). */
  status(id: string): ConnectionState {
    return this.ctx.store.state.connections[id] ?? { status: 'disconnected', since: 0 };
  }

  /** Whether this hub holds a live session to the server. */
  hasSession(id: string): boolean {
    return this.#sessions.has(id);
  }

  /**
   * Connect (single-flight per server): a second call while one is in flight joins it. Resolves
   * once the tools are listed, or with `discovery: 'complete'` once everything is.
   */
  connect(id: string, options: ConnectOptions = {}): Promise<ServerCatalogue> {
    let promise = this.#connecting.get(id)?.promise;
    if (!promise) {
      const abort = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
      const started = this.#connect(id, signal).finally(() => {
        if (this.#connecting.get(id)?.promise === started) this.#connecting.delete(id);
      });
      this.#connecting.set(id, { promise: started, abort });
      promise = started;
    }
    if (options.discovery !== 'complete') return promise;
    return promise.then((c) => this.#rest.get(id) ?? this.ctx.store.state.catalogues[id] ?? c);
  }

  /** One unit of discovery work on a server's origin (origins.ts). */
  #slot(url: string, signal?: AbortSignal): DiscoverySlot {
    return (priority, work) => this.#origins.run(url, priority, work, signal);
  }

  /**
   * Open a session, retrying retryable failures with backoff; each attempt holds a request slot
   * of the origin. The session gets a stream for notifications only while the origin has one
   * to spare (`notifications: false` for a one-off session), and gives it back when closed.
   */
  async #open(
    cfg: ConnectTarget,
    signal: AbortSignal,
    retries: number,
    id?: string,
    prior?: Readonly<Record<string, unknown>>,
    notifications = true,
  ): Promise<McpSession> {
    const { headers, secrets } = await openHeaders(this.ctx.vault, cfg);
    let release = notifications ? this.#origins.reserveStream(cfg.url) : undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        const session = await this.#origins.run(
          cfg.url,
          'tools',
          () =>
            openSession({
              url: cfg.url,
              transport: cfg.transport,
              revision: cfg.revision,
              headers,
              timeoutMs: cfg.timeout * 1000,
              signal,
              secrets: [...secrets, ...this.#secrets],
              clientInfo: this.ctx.clientInfo,
              fetch: this.ctx.fetch,
              maxResponseBytes: this.ctx.limits.maxResponseBytes,
              onToolsDropped: (tools) => this.#dropped(id, tools),
              notifications: !!release,
              onStreamUnused: () => release?.(),
              ...(prior ? { prior } : {}),
            }),
          signal,
        );
        // a stream is held by a legacy SSE channel (always), a 2025 session (unless the server
        // declined its GET stream) and a 2026-07-28 session whose server announces list changes
        const changes = session.capabilities ?? {};
        const listens = !!(
          changes.tools?.listChanged ||
          changes.resources?.listChanged ||
          changes.prompts?.listChanged
        );
        if (session.kind === 'jsonrpc' || (session.era === 'modern' && !listens)) release?.();
        if (session.kind === 'sse') release ??= this.#origins.reserveStream(cfg.url, true);
        const close = session.close.bind(session);
        session.close = () => {
          release?.();
          return close();
        };
        return session;
      } catch (e) {
        const err = toConnectionError(e, [...secrets, ...this.#secrets], signal);
        if (attempt >= retries || !retryable(err) || signal.aborted) {
          release?.();
          throw err;
        }
        await sleep(backoffDelay(attempt), signal);
      }
    }
  }

  async #connect(id: string, signal: AbortSignal): Promise<ServerCatalogue> {
    const { ctx } = this;
    await ctx.ready;
    const cfg = ctx.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    if (!cfg.enabled)
      throw new McpConfigError([{ path: 'enabled', message: 'the server is disabled; enable it to connect' }]);
    await this.closeSession(id);
    setStatus(ctx, id, 'connecting');
    let session: McpSession | undefined;
    try {
      // a catalogue still fresh by the server's own cache hints (2026-07-28 ttlMs), from this
      // config: connect without the discover probe and without listing again
      const cached = ctx.store.state.catalogues[id];
      const at = Date.now();
      const usable = cached && cached.era === 'modern' && cached.discoveredAt >= cfg.updatedAt;
      const prior = usable && (cached.discoverFreshUntil ?? 0) > at ? cached.discover : undefined;
      session = await this.#open(cfg, signal, cfg.retries, id, prior);
      // tools first: the connection is usable once they are in; the rest follows
      const fresh = usable && session.era === 'modern' && (cached.listsFreshUntil ?? 0) > at && !cached.partial;
      const tools = fresh
        ? undefined
        : await listTools(session, { signal, timeout: cfg.timeout * 1000 }, this.#slot(cfg.url, signal));
      const catalogue = tools ? catalogueOf(id, session, tools) : cached;
      if (!ctx.store.state.servers[id]) throw new McpNotFoundError('server', id);
      this.#adopt(id, session);
      setCatalogue(ctx, id, catalogue);
      setStatus(ctx, id, 'connected', undefined, {
        ...(session.protocolVersion ? { protocolVersion: session.protocolVersion } : {}),
        era: session.era,
        transport: session.kind,
      });
      toolsChanged(ctx, id, 'connected');
      this.#afterConnect(id, session, catalogue, cfg, tools);
      return catalogue;
    } catch (e) {
      await session?.close();
      const err = e instanceof McpElementsError ? e : toConnectionError(e, this.#secrets, signal);
      setStatus(ctx, id, 'error', err);
      throw err;
    }
  }

  /**
   * Off the connect path: persist the catalogue and `lastConnectedAt`, and after a tools-first
   * connect list resources, templates and prompts (behind every tool list of the origin), then
   * announce them (`mcp-tools-changed`, reason `discovered`). Dropped once the session is replaced.
   */
  #afterConnect(
    id: string,
    session: McpSession,
    first: ServerCatalogue,
    cfg: ServerConfig,
    tools: Listed<Pick<ServerCatalogue, 'tools'>> | undefined,
  ): void {
    const { ctx } = this;
    const current = () => this.#sessions.get(id) === session;
    const track = <T>(p: Promise<T>): Promise<T> => {
      this.#background.add(p);
      void p.catch(() => {}).finally(() => this.#background.delete(p));
      return p;
    };
    void track(
      (async () => {
        const now = Date.now();
        await this.#persistCatalogue(id, first);
        try {
          const rec = await ctx.storage.update<ServerConfig | undefined>(KEYS.server + id, (old) =>
            old ? { ...old, lastConnectedAt: now } : old,
          );
          if (rec && current()) setServer(ctx, id, ServerConfigSchema.parse(rec));
        } catch (e) {
          ctx.warn(`Could not record the connection time of server "${id}": ${(e as Error).message}`);
        }
      })(),
    );
    if (!tools) return;
    const rest = track(
      (async (): Promise<ServerCatalogue> => {
        const listed = await listRest(
          id,
          session,
          { timeout: cfg.timeout * 1000 },
          { warn: (message) => current() && ctx.warn(message), secrets: this.#secrets, slot: this.#slot(cfg.url) },
        );
        const latest = ctx.store.state.catalogues[id];
        // a refresh (list change) may have listed everything meanwhile: keep the newer catalogue
        if (!current() || !latest?.partial) return latest ?? first;
        const complete = catalogueOf(id, session, tools, listed);
        setCatalogue(ctx, id, complete);
        toolsChanged(ctx, id, 'discovered');
        await this.#persistCatalogue(id, complete);
        return complete;
      })(),
    );
    this.#rest.set(id, rest);
    void rest
      .catch(() => {})
      .finally(() => {
        if (this.#rest.get(id) === rest) this.#rest.delete(id);
      });
  }

  /** Tools the session left out (invalid x-mcp-header): say so once per listing. */
  #dropped(id: string | undefined, tools: readonly { name: string; reason: string }[]) {
    const name = id ? (this.ctx.store.state.servers[id]?.name ?? id) : 'the server being tested';
    for (const t of tools) this.ctx.warn(`Left out tool "${t.name}" of ${name}: ${t.reason}`);
    if (id) this.ctx.emit(new McpToolsDroppedEvent({ serverId: id, tools: tools.map((t) => ({ ...t })) }));
  }

  #adopt(id: string, session: McpSession) {
    this.#sessions.set(id, session);
    session.onListChanged = () =>
      void this.refresh(id).catch((e) =>
        this.ctx.warn(`Could not re-list after a change on server "${id}": ${(e as Error).message}`),
      );
    session.onClosed = () => {
      if (this.#sessions.get(id) !== session) return;
      this.#sessions.delete(id);
      void session.close(); // gives its stream back
      setStatus(
        this.ctx,
        id,
        'disconnected',
        new McpConnectionError('network', 'The connection to the server closed.'),
      );
    };
  }

  #discover(id: string, url: string, session: McpSession, options: RequestOptions): Promise<ServerCatalogue> {
    return discover(id, session, options, {
      warn: (message) => this.ctx.warn(message),
      secrets: this.#secrets,
      slot: this.#slot(url, options.signal),
    });
  }

  async #saveCatalogue(id: string, catalogue: ServerCatalogue) {
    setCatalogue(this.ctx, id, catalogue);
    await this.#persistCatalogue(id, catalogue);
  }

  /** Write a catalogue for reloads and other tabs; a failure only warns. */
  async #persistCatalogue(id: string, catalogue: ServerCatalogue) {
    if (!this.ctx.store.state.servers[id]) return; // removed meanwhile: write nothing back
    try {
      await this.ctx.storage.set(KEYS.catalogue + id, catalogue);
      this.ctx.broadcast('catalogue', id);
    } catch (e) {
      this.ctx.warn(`Could not persist the catalogue of server "${id}": ${(e as Error).message}`);
    }
  }

  /** Re-list everything on the server now, keep and announce it. */
  async refresh(id: string, options: RequestOptions = {}): Promise<ServerCatalogue> {
    const url = this.ctx.store.state.servers[id]?.url ?? '';
    const catalogue = await this.withSession(id, options, (session, request) =>
      this.#discover(id, url, session, request),
    );
    await this.#saveCatalogue(id, catalogue);
    toolsChanged(this.ctx, id, 'list-changed');
    return catalogue;
  }

  async closeSession(id: string): Promise<void> {
    const s = this.#sessions.get(id);
    if (!s) return;
    this.#sessions.delete(id);
    await s.close();
  }

  /** Close the session and stop a connect in flight (the server is going away). */
  async close(id: string): Promise<void> {
    await this.closeSession(id);
    this.#connecting.get(id)?.abort.abort();
  }

  /** Reconnect a connected server (its address or credentials changed). */
  reconnect(id: string): void {
    if (this.#sessions.has(id)) void this.connect(id).catch(() => {});
  }

  /**
   * Try a config without saving it: connect, discover, disconnect. For an edit form pass the
   * server's id so the secrets it keeps (as references) can be used.
   */
  async testConnection(
    input: ServerConfigInput,
    options: { serverId?: string; signal?: AbortSignal } = {},
  ): Promise<ServerCatalogue> {
    const { ctx } = this;
    await ctx.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const owner = options.serverId ? ctx.store.state.servers[options.serverId] : undefined;
    if (options.serverId && !owner) throw new McpNotFoundError('server', options.serverId);
    checkRefs(parsed, owner ? collectRefs(owner) : []);
    const signal = options.signal ?? new AbortController().signal;
    // a one-off session: no notification stream
    const session = await this.#open(parsed, signal, 0, undefined, undefined, false);
    try {
      return await this.#discover(options.serverId ?? 'test', parsed.url, session, {
        signal,
        timeout: parsed.timeout * 1000,
      });
    } catch (e) {
      throw toConnectionError(e, this.#secrets, signal);
    } finally {
      await session.close();
    }
  }

  /** Close a server's session (the stored config and catalogue stay). */
  async disconnect(id: string): Promise<void> {
    this.#connecting.get(id)?.abort.abort(new McpConnectionError('aborted', 'Disconnected.'));
    await this.closeSession(id);
    if (this.ctx.store.state.servers[id] && this.status(id).status !== 'disconnected')
      setStatus(this.ctx, id, 'disconnected');
  }

  /**
   * Run one request on a server's session. A 404 on a request that carried a session id means
   * the session expired: re-initialize once and retry the request.
   */
  async withSession<T>(
    id: string,
    options: RequestOptions,
    run: (session: McpSession, request: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const { ctx } = this;
    // on the call path: `settled` skips applying other calls' deferred records (store.ts)
    if (!ctx.store.settled.ready) await ctx.ready;
    const cfg = ctx.store.settled.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    const session = this.#sessions.get(id);
    if (!session) throw new McpConnectionError('not-connected', `Server "${cfg.name}" is not connected.`);
    const request: RequestOptions = { timeout: cfg.timeout * 1000, ...options };
    try {
      return await run(session, request);
    } catch (e) {
      const err = toConnectionError(e, this.#secrets, request.signal);
      if (!(err.code === 'http' && err.status === 404 && session.sessionId)) throw err;
      const fresh = await this.#reinitialize(id, session, cfg);
      try {
        return await run(fresh, request);
      } catch (e2) {
        throw toConnectionError(e2, this.#secrets, request.signal);
      }
    }
  }

  /** A new session for an expired one (single-flight per server). */
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
        const fresh = await this.#open(cfg, new AbortController().signal, 0, id);
        this.#adopt(id, fresh);
        const cat = this.ctx.store.state.catalogues[id];
        if (cat)
          setCatalogue(this.ctx, id, {
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
        setStatus(this.ctx, id, 'error', err);
        throw err;
      }
    })().finally(() => this.#reinit.delete(id));
    this.#reinit.set(id, p);
    return p;
  }

  /**
   * Call a tool on a connected server with its definition from the catalogue, so 2026-07-28
   * `x-mcp-header` parameters are mirrored into headers. A `HeaderMismatch` (-32020) answer
   * means the definition was stale: re-list once and retry with the fresh one, as the spec asks.
   */
  async callTool(
    id: string,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const tool = options.tool ?? this.ctx.store.settled.catalogues[id]?.tools.find((t) => t.name === name);
    const run = (definition: Tool | undefined) =>
      this.withSession(id, options, (session, request) =>
        session.callTool(name, args, { ...request, onprogress: options.onprogress, tool: definition }),
      );
    try {
      return await run(tool);
    } catch (e) {
      if (!(e instanceof McpConnectionError && e.code === 'server' && e.rpcCode === HEADER_MISMATCH)) throw e;
      const fresh = await this.refresh(id, { signal: options.signal });
      return run(fresh.tools.find((t) => t.name === name));
    }
  }

  /** A low-level handle on a connected server. Requests use the server's timeout unless given one. */
  client(id: string): ServerClient {
    return {
      callTool: (name, args = {}, options = {}) => this.callTool(id, name, args, options),
      readResource: (uri, options = {}) =>
        this.withSession(id, options, (session, request) => session.readResource(uri, request)),
      getPrompt: (name, args = {}, options = {}) =>
        this.withSession(id, options, (session, request) => session.getPrompt(name, args, request)),
      refresh: (options = {}) => this.refresh(id, options),
    };
  }

  /** Stop connects in flight, close every session, and let writes begun after a connect land. */
  async dispose(): Promise<void> {
    for (const c of this.#connecting.values()) c.abort.abort();
    await Promise.all([...this.#sessions.keys()].map((id) => this.closeSession(id)));
    await Promise.allSettled([...this.#background]);
  }
}
