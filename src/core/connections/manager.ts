// Connections: one session per server, opened with retries, discovered, re-initialised when
// the server's session expires, and reflected in `state.connections`.
import type { HubContext } from '../context.js';
import { McpAuthError, McpConfigError, McpConnectionError, McpElementsError, McpNotFoundError } from '../errors.js';
import { ServerConfigInputSchema, parseOrThrow, type ServerConfig, type ServerConfigInput } from '../schemas.js';
import { checkRefs, collectRefs, secretsOfServer } from '../servers/secrets.js';
import { checkMove } from '../servers/relays.js';
import type { CallToolResult, LoggingLevel, Tool } from '@modelcontextprotocol/client';
import type { CallOptions, ClientAnswers, McpSession, RequestOptions } from '../session/index.js';
import { loadSession } from './session-loader.js';

/** JSON-RPC `HeaderMismatch` (2026-07-28): headers and body disagree. */
const HEADER_MISMATCH = -32020;
import { McpToolsDroppedEvent } from '../../events/index.js';
import { setCatalogue, setConnectAttempt, setStatus, toolsChanged } from '../state.js';
import type { ConnectionState, ServerCatalogue } from '../types.js';
import { catalogueOf, discover, listTools } from './discovery.js';
import { Background, persistCatalogue } from './background.js';
import { SessionOpener, oauthError } from './opener.js';
import type { ConnectOptions, ConnectionAuth, ServerClient } from './types.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { checkComplete, complete } from './complete.js';

export type { ConnectOptions, ServerClient, ConnectionAuth } from './types.js';

/** An error that asks for sign-in (a missing or refused token, or a missing scope). */
function asksSignIn(e: unknown): e is McpAuthError {
  return e instanceof McpAuthError && (e.code === 'sign-in-required' || e.code === 'insufficient-scope');
}

export class Connections {
  readonly #sessions = new Map<string, McpSession>();
  readonly #connecting = new Map<string, { promise: Promise<ServerCatalogue>; abort: AbortController }>();
  readonly #reinit = new Map<string, Promise<McpSession>>();
  #auth?: ConnectionAuth;
  /** Work left running after a connect resolved (writes, the rest of discovery). */
  readonly #background: Background;
  /** Opening sessions, and their streams on the origins' budget (opener.ts). */
  readonly #opener: SessionOpener;
  /** Resource subscriptions (subscriptions.ts). */
  readonly subscriptions: ResourceSubscriptions;

  constructor(
    private readonly ctx: HubContext,
    /** How each server's session answers the server's requests (elicitation, sampling, roots, logs). */
    private readonly answersFor?: (serverId: string) => ClientAnswers,
  ) {
    this.#opener = new SessionOpener(ctx, {
      authProviderFor: (authId, target) =>
        target.auth.type === 'oauth'
          ? this.#auth?.authProviderFor(authId)
          : this.#auth?.authProviderFor(authId, target),
      ...(answersFor ? { answersFor } : {}),
      dropped: (id, tools) => this.#dropped(id, tools),
      secrets: () => this.#secrets,
      streamDeclined: (id) => this.#streamDeclined(id),
    });
    this.#background = new Background(
      ctx,
      (id) => this.#secretsOf(id),
      (url) => this.#opener.slot(url),
    );
    this.subscriptions = new ResourceSubscriptions(ctx, {
      session: (id) => this.#sessions.get(id),
      withSession: (id, options, run) => this.withSession(id, options, run),
      holdStream: (session) => this.#opener.holdStream(session),
      streamIdle: (session) => this.#opener.streamIdle(session),
    });
  }

  /** The live sessions (to tell servers the roots changed). */
  sessions(): McpSession[] {
    return [...this.#sessions.values()];
  }

  /** Reconnect every connected server (the client's capabilities changed). */
  reconnectConnected(): void {
    for (const id of this.#sessions.keys()) this.reconnect(id);
  }

  /** `logging/setLevel` on a connected server (2025 revisions; 2026-07-28 has no such request). */
  async setLogLevel(id: string, level: LoggingLevel): Promise<void> {
    await this.withSession(id, {}, (session, request) => session.setLogLevel?.(level, request) ?? Promise.resolve());
  }

  /** Wire sign-in in (the hub does, once both parts exist). */
  useAuth(auth: ConnectionAuth): void {
    this.#auth = auth;
  }

  get #secrets(): Iterable<string> {
    return this.ctx.vault.knownValues;
  }

  /** What to scrub from one server's errors (a scoped vault: that server's own secrets too). */
  #secretsOf(id: string): Iterable<string> {
    return secretsOfServer(this.ctx.vault, this.ctx.store.settled.servers[id]);
  }

  /** Current status of a server (disconnected when unknown). */
  status(id: string): ConnectionState {
    return this.ctx.store.state.connections[id] ?? { status: 'disconnected', since: 0 };
  }

  /** The live session of a server, if this hub holds one. */
  sessionOf(id: string): McpSession | undefined {
    return this.#sessions.get(id);
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
      const started = this.#connect(id, signal, options.catalogue).finally(() => {
        if (this.#connecting.get(id)?.promise === started) this.#connecting.delete(id);
      });
      this.#connecting.set(id, { promise: started, abort });
      promise = started;
    }
    if (options.discovery !== 'complete') return promise;
    return promise.then((c) => this.#background.rest(id) ?? this.ctx.store.state.catalogues[id] ?? c);
  }

  async #connect(id: string, signal: AbortSignal, given?: ConnectOptions['catalogue']): Promise<ServerCatalogue> {
    const { ctx } = this;
    await ctx.ready;
    const cfg = ctx.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    if (!cfg.enabled)
      throw new McpConfigError([{ path: 'enabled', message: 'the server is disabled; enable it to connect' }]);
    await this.closeSession(id);
    setStatus(ctx, id, 'connecting');
    // one budget for the whole connect (every attempt, the backoff between, the tools list): the
    // server's timeout; before, each of 1 + retries attempts had it (4 × 30 s by default)
    const startedAt = Date.now();
    const deadline = startedAt + cfg.timeout * 1000;
    const overBudget = AbortSignal.timeout(cfg.timeout * 1000);
    const outer = signal;
    signal = AbortSignal.any([outer, overBudget]);
    let tried = 1;
    const budget = {
      deadline,
      onAttempt: (n: number, of: number) => {
        tried = n;
        setConnectAttempt(ctx, id, { number: n, of, startedAt, deadline });
      },
    };
    let session: McpSession | undefined;
    try {
      // a catalogue still fresh by the server's own cache hints (2026-07-28 ttlMs), from this
      // config: connect without the discover probe and without listing again
      const cached = ctx.store.state.catalogues[id];
      const at = Date.now();
      // strictly after the config's last change: clocks are coarse (Firefox rounds Date.now()), and
      // a catalogue from the same millisecond as an edit may be the old config's
      const usable = cached && cached.era === 'modern' && cached.discoveredAt > cfg.updatedAt;
      const prior = usable && (cached.discoverFreshUntil ?? 0) > at ? cached.discover : undefined;
      // what this config spoke last time (stored across loads): tried first under `auto`
      // (unless an edit changed how to connect: renaming or switching a server off and on
      // keeps it, so a G4F-style server's refused probe is not repeated)
      const known =
        cached?.transport && (cached.discoveredAt > cfg.updatedAt || cached.connectedWith === connectionKey(cfg))
          ? {
              transport: cached.transport,
              ...(cached.era ? { era: cached.era } : {}),
              ...(cached.streamDeclined ? { streamDeclined: true } : {}),
            }
          : undefined;
      session = await this.#opener.open({ cfg, signal, retries: cfg.retries, id, prior, known, budget });
      // tools first: the connection is usable once they are in; the rest follows
      const fresh =
        !!given || (usable && session.era === 'modern' && (cached.listsFreshUntil ?? 0) > at && !cached.partial);
      const tools = fresh
        ? undefined
        : await listTools(
            session,
            { signal, timeout: Math.max(1, deadline - Date.now()) },
            this.#opener.slot(cfg.url, signal),
          );
      const listed = tools ? catalogueOf(id, session, tools) : given ? { ...given, serverId: id } : cached;
      if (!ctx.store.state.servers[id]) throw new McpNotFoundError('server', id);
      this.#adopt(id, session);
      // a reconnect keeps what the hub was subscribed to: told to the new session before `connected`
      await this.subscriptions.restore(id, session);
      // as the state holds it: with the names its tools were given
      const catalogue = setCatalogue(ctx, id, { ...listed, connectedWith: connectionKey(cfg) });
      setStatus(ctx, id, 'connected', undefined, {
        ...(session.protocolVersion ? { protocolVersion: session.protocolVersion } : {}),
        era: session.era,
        transport: session.kind,
      });
      toolsChanged(ctx, id, 'connected');
      this.#background.afterConnect(id, session, catalogue, cfg, tools, () => this.#sessions.get(id) === session);
      return catalogue;
    } catch (e) {
      await session?.close();
      let err =
        e instanceof McpElementsError ? e : (await loadSession()).toConnectionError(e, this.#secretsOf(id), signal);
      if (overBudget.aborted && !outer.aborted && (err.code === 'timeout' || err.code === 'aborted'))
        err = new McpConnectionError(
          'timeout',
          `No connection within ${cfg.timeout} s (attempt ${tried} of ${cfg.retries + 1}).`,
          { cause: e },
        );
      if (asksSignIn(err) && this.#auth) this.#auth.needsSignIn(id, err);
      else setStatus(ctx, id, 'error', err);
      throw err;
    }
  }

  /** Tools the session left out (invalid x-mcp-header): say so once per listing. */
  /**
   * The server declined its GET stream (405). A catalogue built before the answer came lacks
   * that, and the next load would ask again (a failed request in the console): keep it on the
   * stored catalogue too.
   */
  #streamDeclined(id: string) {
    const cat = this.ctx.store.state.catalogues[id];
    if (!cat || cat.streamDeclined) return;
    void persistCatalogue(this.ctx, id, setCatalogue(this.ctx, id, { ...cat, streamDeclined: true }));
  }

  #dropped(id: string | undefined, tools: readonly { name: string; reason: string }[]) {
    const name = id ? (this.ctx.store.state.servers[id]?.name ?? id) : 'the server being tested';
    for (const t of tools) this.ctx.warn(`Left out tool "${t.name}" of ${name}: ${t.reason}`);
    if (id) this.ctx.emit(new McpToolsDroppedEvent({ serverId: id, tools: tools.map((t) => ({ ...t })) }));
  }

  #adopt(id: string, session: McpSession) {
    this.#sessions.set(id, session);
    this.subscriptions.adopt(id, session);
    // a storm of list changes costs one re-list running and at most one after it (the SDK
    // debounces its own list-change handlers, not every session has them)
    let relist: Promise<void> | undefined;
    let again = false;
    const run = (): Promise<void> =>
      this.refresh(id)
        .catch((e) => this.ctx.warn(`Could not re-list after a change on server "${id}": ${(e as Error).message}`))
        .then(() => {
          if (again && this.#sessions.get(id) === session) {
            again = false;
            return run();
          }
          relist = undefined;
        });
    session.onListChanged = () => {
      if (relist) again = true;
      else relist = run();
    };
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
      secrets: this.#secretsOf(id),
      slot: this.#opener.slot(url, options.signal),
    });
  }

  /** Keep and store a catalogue; returns it as the state holds it (with its tools' names). */
  async #saveCatalogue(id: string, listed: ServerCatalogue): Promise<ServerCatalogue> {
    const catalogue = setCatalogue(this.ctx, id, listed);
    await persistCatalogue(this.ctx, id, catalogue);
    return catalogue;
  }

  /** Re-list everything on the server now, keep and announce it. */
  async refresh(id: string, options: RequestOptions = {}): Promise<ServerCatalogue> {
    const url = this.ctx.store.state.servers[id]?.url ?? '';
    const listed = await this.withSession(id, options, (session, request) => this.#discover(id, url, session, request));
    const catalogue = await this.#saveCatalogue(id, listed);
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
    this.subscriptions.drop(id);
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
    options: { serverId?: string; signal?: AbortSignal; confirmSecrets?: boolean } = {},
  ): Promise<ServerCatalogue> {
    const { ctx } = this;
    await ctx.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const owner = options.serverId ? ctx.store.state.servers[options.serverId] : undefined;
    if (options.serverId && !owner) throw new McpNotFoundError('server', options.serverId);
    checkRefs(parsed, owner ? collectRefs(owner) : []);
    // the server's stored secrets go only where they were entered for: a URL on another origin
    // (or another relay) in the form is a move, and Test connection refuses it as Save does
    if (owner) checkMove(owner, parsed, options.confirmSecrets);
    const signal = options.signal ?? new AbortController().signal;
    // an OAuth server is tested with the tokens of the server being edited, if they were issued
    // for this very URL (a token goes to no other resource); a one-off session: no notification stream
    const authId = owner?.auth.type === 'oauth' && owner.url === parsed.url ? owner.id : undefined;
    const session = await this.#opener.open({ cfg: parsed, signal, retries: 0, authId, notifications: false });
    try {
      return await this.#discover(options.serverId ?? 'test', parsed.url, session, {
        signal,
        timeout: parsed.timeout * 1000,
      });
    } catch (e) {
      throw (await loadSession()).toConnectionError(e, this.#secrets, signal);
    } finally {
      await session.close();
    }
  }

  /** Close a server's session (the stored config and catalogue stay). */
  async disconnect(id: string): Promise<void> {
    this.#connecting.get(id)?.abort.abort(new McpConnectionError('aborted', 'Disconnected.'));
    this.subscriptions.drop(id);
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
      // a session exists, so the connection chunk is loaded: this resolves at once
      const { signInError, toConnectionError } = await loadSession();
      const auth = signInError(e);
      if (auth || (cfg.auth.type === 'oauth' && toConnectionError(e, [], request.signal).code === 'unauthorized')) {
        const err = oauthError(cfg, auth ?? toConnectionError(e, this.#secretsOf(id), request.signal));
        if (asksSignIn(err)) {
          // without a token the session is of no use; a missing scope concerns only this request
          if (err.code === 'sign-in-required' && this.#sessions.get(id) === session) await this.closeSession(id);
          this.#auth?.needsSignIn(id, err);
        }
        throw err;
      }
      const err = toConnectionError(e, this.#secretsOf(id), request.signal);
      if (!(err.code === 'http' && err.status === 404 && session.sessionId)) throw err;
      const fresh = await this.#reinitialize(id, session, cfg);
      try {
        return await run(fresh, request);
      } catch (e2) {
        throw toConnectionError(e2, this.#secretsOf(id), request.signal);
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
        const fresh = await this.#opener.open({ cfg, signal: new AbortController().signal, retries: 0, id });
        this.#adopt(id, fresh);
        await this.subscriptions.restore(id, fresh);
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
      complete: async (params, options = {}) => {
        checkComplete(params);
        return this.withSession(id, options, (session, request) => complete(session, params, request));
      },
      refresh: (options = {}) => this.refresh(id, options),
    };
  }

  /** Stop connects in flight, close every session, and let writes begun after a connect land. */
  async dispose(): Promise<void> {
    for (const c of this.#connecting.values()) c.abort.abort();
    await Promise.all([...this.#sessions.keys()].map((id) => this.closeSession(id)));
    await this.#background.settled();
  }
}

/** What decides how to reach a server (no secret: header names and the auth type only). */
export function connectionKey(cfg: ServerConfig): string {
  return JSON.stringify([cfg.url, cfg.transport, cfg.revision, cfg.auth.type, cfg.headers.map((h) => h.name).sort()]);
}
