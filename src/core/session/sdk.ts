// Sessions over the SDK v2 client: Streamable HTTP (2026-07-28 negotiated with server/discover, or
// the 2025 initialize handshake) and legacy HTTP+SSE.
import {
  type Client,
  SSEClientTransport,
  SdkError,
  SseError,
  StreamableHTTPClientTransport,
  type CompleteRequestParams,
  type JSONRPCMessage,
  type LoggingLevel,
  type DiscoverResult,
  type ListToolsResult,
  type McpSubscription,
  type SubscriptionFilter,
  type Tool,
} from '@modelcontextprotocol/client';
import type { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpConnectionError } from '../errors.js';
import { DROPPED_MARK, signInError, TOO_LARGE_MARK, toConnectionError } from './errors.js';
import { transportFetch, type FetchRecord, type StreamState } from './fetch.js';
import { paramHeaders, scanHeaderParams } from './param-headers.js';
import { keepValidTools, type DroppedTool, type LoosePage } from './tools.js';
import type { CallOptions, ClientAnswers, McpSession, OpenOptions, ProtocolEra, RequestOptions } from './types.js';
import { newClient } from './sdk-client.js';
import {
  TaskWire,
  followTask,
  takeTaskHandle,
  taskFormFor,
  taskFromError,
  type InputRequest,
  type TaskForm,
  type TaskStart,
  type TaskState,
} from './tasks.js';

export class SdkSession implements McpSession {
  onListChanged?: McpSession['onListChanged'];
  onResourceUpdated?: McpSession['onResourceUpdated'];
  onListenEnded?: McpSession['onListenEnded'];
  onClosed?: () => void;
  /** Called with tools dropped from a `tools/list` page on a 2026-07-28 connection. */
  onToolsDropped?: (dropped: readonly DroppedTool[]) => void;
  /** What the hub answers when the server asks (a task's input requests use it too). */
  answers?: ClientAnswers;
  #closing = false;
  /** Resources the server was told to report updates of. */
  #watched: readonly string[] = [];
  /** 2026-07-28: the listen stream the hub opened in place of the SDK's list-change one. */
  #listen?: McpSubscription;
  #relistened = false;
  /** 2026-07-28: the list changes the SDK's own listen stream was honoured for. */
  #listFlags?: SubscriptionFilter;
  /** Invalid tool definitions taken out of the last tools/list response, for its caller. */
  readonly #invalid: DroppedTool[] = [];
  #skills?: Promise<SkillsClient>;
  constructor(
    readonly kind: 'streamable-http' | 'sse',
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport | SSEClientTransport,
    private readonly stream: StreamState = {},
  ) {
    client.onclose = () => {
      if (!this.#closing) this.onClosed?.();
    };
  }
  /**
   * Run a request; when its response stream dropped before the answer, send it again once as a
   * new request. Only for requests that are safe to repeat: lists, reads, prompts, and tools the
   * server marks read-only or idempotent — a tool that changes something may already have run.
   */
  async #resend<T>(safe: boolean, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (!safe || toConnectionError(e, []).code !== 'dropped') throw e;
      return run();
    }
  }
  /** The server answered the 2025 GET stream 405: it offers none (kept in the catalogue). */
  get streamDeclined(): boolean | undefined {
    return this.stream.declined;
  }
  get era(): ProtocolEra {
    return this.client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  }
  get protocolVersion() {
    return this.client.getNegotiatedProtocolVersion();
  }
  get serverInfo() {
    return this.client.getServerVersion();
  }
  get capabilities() {
    return this.client.getServerCapabilities();
  }
  get instructions() {
    return this.client.getInstructions();
  }
  get discoverResult() {
    return this.client.getDiscoverResult() as Readonly<Record<string, unknown>> | undefined;
  }
  get sessionId() {
    return this.transport instanceof StreamableHTTPClientTransport ? this.transport.sessionId : undefined;
  }
  /** Raw pages (the SDK's own walk caps pages and hides what it drops). */
  async listTools(cursor: string | undefined, o: RequestOptions): Promise<ListToolsResult> {
    if (!this.capabilities?.tools) return { tools: [] };
    const page = await this.#resend(true, () =>
      this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, o),
    );
    const invalid = this.#invalid.splice(0);
    const { result, dropped } = keepValidTools(page, this.era === 'modern' && this.kind === 'streamable-http');
    if (invalid.length || dropped.length) this.onToolsDropped?.([...invalid, ...dropped]);
    return result;
  }

  /**
   * Look at each response before the SDK does. (1) The SDK validates a whole `tools/list` result
   * at once, so one malformed tool would fail the page: invalid tool definitions are taken out
   * (and reported by the listTools call that asked), the rest pass on unchanged. (2) A 2026-07-28
   * result without `resultType` is read as complete, as the revision tells clients to (SDK 2.4.0
   * rejects it as malformed).
   */
  guardResponses(): void {
    const transport = this.transport as { onmessage?: (m: JSONRPCMessage, extra?: unknown) => void };
    const inner = transport.onmessage;
    if (!inner) return;
    transport.onmessage = (message, extra) => {
      // a 2026-07-28 task handle: the SDK's codec refuses resultType "task" (session/tasks.ts)
      if (this.era === 'modern') message = takeTaskHandle(message) as typeof message;
      const result = (message as { result?: Record<string, unknown> }).result;
      if (result && typeof result === 'object') {
        let next = result;
        if (Array.isArray(result.tools)) {
          const { result: kept, dropped } = keepValidTools(result as unknown as LoosePage, false);
          if (dropped.length) {
            this.#invalid.push(...dropped);
            next = kept as unknown as Record<string, unknown>;
          }
        }
        if (this.era === 'modern' && !('resultType' in next)) next = { ...next, resultType: 'complete' };
        if (next !== result) message = { ...message, result: next } as typeof message;
      }
      inner.call(transport, message, extra);
    };
  }
  listResources(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.resources) return Promise.resolve({ resources: [] });
    return this.#resend(true, () =>
      this.client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, o),
    );
  }
  listResourceTemplates(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.resources) return Promise.resolve({ resourceTemplates: [] });
    return this.#resend(true, () =>
      this.client.request({ method: 'resources/templates/list', params: cursor ? { cursor } : {} }, o),
    );
  }
  listPrompts(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.prompts) return Promise.resolve({ prompts: [] });
    return this.#resend(true, () =>
      this.client.request({ method: 'prompts/list', params: cursor ? { cursor } : {} }, o),
    );
  }
  /** A tools/call; a task the server made of it (2026-07-28) is followed to its end. */
  async callTool(name: string, args: Record<string, unknown>, o: CallOptions) {
    try {
      return await this.#callTool(name, args, o);
    } catch (e) {
      const task = taskFromError(e);
      if (!task) throw e;
      return this.followTask(task, o);
    }
  }
  #callTool(name: string, args: Record<string, unknown>, o: CallOptions) {
    const { tool, ...rest } = o;
    let headers: Record<string, string> | undefined;
    if (tool && this.era === 'modern' && this.kind === 'streamable-http') {
      const scan = scanHeaderParams(tool.inputSchema);
      if (scan.valid && scan.params.length) headers = paramHeaders(scan.params, args);
    }
    const safe = !!(tool?.annotations?.readOnlyHint || tool?.annotations?.idempotentHint);
    return this.#resend(safe, () =>
      this.client.callTool(
        { name, arguments: args },
        {
          ...rest,
          resetTimeoutOnProgress: !!o.onprogress,
          ...(tool ? { toolDefinition: tool } : {}),
          ...(headers ? { headers } : {}),
        },
      ),
    );
  }
  taskForm(tool?: Tool): TaskForm | undefined {
    if (this.kind !== 'streamable-http' && this.era === 'modern') return undefined;
    return taskFormFor(this.era === 'modern' ? 'modern' : 'legacy', this.capabilities as never, tool);
  }
  #wire(tool?: Tool): TaskWire {
    const form = this.taskForm(tool) ?? (this.era === 'modern' ? '2026-07-28' : '2025-11-25');
    return new TaskWire(this.client, form);
  }
  async startTask(name: string, args: Record<string, unknown>, o: CallOptions & { ttlMs: number }): Promise<TaskStart> {
    const { ttlMs, ...rest } = o;
    if (this.taskForm(o.tool) === '2025-11-25') {
      const { signal, timeout } = rest;
      return this.#wire(o.tool).start(name, args, ttlMs, { signal, timeout });
    }
    // 2026-07-28: every request declares the extension; the server decides whether to make a task
    try {
      return { result: await this.#callTool(name, args, rest) };
    } catch (e) {
      const task = taskFromError(e);
      if (task) return { task };
      throw e;
    }
  }
  followTask(task: TaskState, o: RequestOptions & { onUpdate?: (task: TaskState) => void }) {
    const signal = o.signal ?? new AbortController().signal;
    const answer = (r: InputRequest, s: AbortSignal) => this.#answerInput(r, s);
    return followTask(this.#wire(), task, { signal, timeout: o.timeout, onUpdate: o.onUpdate, answer });
  }
  /** What a task waits on, answered by the same handlers as the server's own requests. */
  #answerInput(r: InputRequest, signal: AbortSignal): Promise<unknown> {
    const a = this.answers;
    const params = (r.params ?? {}) as never;
    if (a?.capabilities.elicitation && r.method === 'elicitation/create') return a.elicit(params, signal);
    if (a?.capabilities.sampling && r.method === 'sampling/createMessage') return a.sample(params, signal);
    if (a?.capabilities.roots && r.method === 'roots/list') return a.roots();
    return Promise.reject(
      new McpConnectionError(
        'input-required',
        `The task asks for ${r.method.slice(0, 100)}, which this page does not answer.`,
      ),
    );
  }
  async cancelTask(taskId: string, o: RequestOptions) {
    await this.#wire().cancel(taskId, o);
  }
  async setLogLevel(level: LoggingLevel, o: RequestOptions) {
    if (this.era === 'modern' || !this.capabilities?.logging) return;
    await this.client.setLoggingLevel(level, o);
  }
  async rootsChanged() {
    if (this.era !== 'modern') await this.client.sendRootsListChanged();
  }
  /** The SDK's skills client (SEP-2640) on this session, its module loaded on first use. */
  skills(): Promise<SkillsClient> {
    return (this.#skills ??= import('@modelcontextprotocol/client/ext/skills').then(
      (m) => new m.SkillsClient(this.client, { skipInvalid: true }),
    ));
  }
  readResource(uri: string, o: RequestOptions) {
    return this.#resend(true, () => this.client.readResource({ uri }, { ...o, cacheMode: 'bypass' }));
  }
  getPrompt(name: string, args: Record<string, string>, o: RequestOptions) {
    return this.#resend(true, () => this.client.getPrompt({ name, arguments: args }, o));
  }
  complete(params: CompleteRequestParams, o: RequestOptions) {
    return this.#resend(true, () => this.client.complete(params, o));
  }
  get listening(): boolean | undefined {
    if (this.era !== 'modern') return undefined;
    return !!(this.#relistened ? this.#listen : this.client.autoOpenedSubscription);
  }
  async watchResources(uris: readonly string[], o: RequestOptions): Promise<void> {
    if (this.era === 'modern') return this.#relisten(uris, o);
    // 2025: the server keeps the set per session; tell it the difference
    const next = new Set(uris);
    for (const uri of uris)
      if (!this.#watched.includes(uri)) {
        await this.client.subscribeResource({ uri }, o);
        this.#watched = [...this.#watched, uri];
      }
    for (const uri of this.#watched)
      if (!next.has(uri)) {
        await this.client.unsubscribeResource({ uri }, o);
        this.#watched = this.#watched.filter((u) => u !== uri);
      }
  }
  /**
   * 2026-07-28: a listen stream's filter is fixed, so a new set means a new stream — one stream
   * for the list changes and the resources together. The new one is opened (and acknowledged)
   * before the old one closes, so no notification falls into a gap.
   */
  async #relisten(uris: readonly string[], o: RequestOptions): Promise<void> {
    const client = this.client;
    const previous = this.#relistened ? this.#listen : client.autoOpenedSubscription;
    if (!this.#relistened) {
      const h = client.autoOpenedSubscription?.honoredFilter ?? {};
      this.#listFlags = {
        ...(h.toolsListChanged ? { toolsListChanged: true } : {}),
        ...(h.promptsListChanged ? { promptsListChanged: true } : {}),
        ...(h.resourcesListChanged ? { resourcesListChanged: true } : {}),
      };
    }
    const filter: SubscriptionFilter = {
      ...this.#listFlags,
      ...(uris.length ? { resourceSubscriptions: [...uris] } : {}),
    };
    let next: McpSubscription | undefined;
    if (Object.keys(filter).length) {
      // no signal: aborting the caller's request later must not end the stream
      next = await client.listen(filter, { ...(o.timeout ? { timeout: o.timeout } : {}) });
      const honored = next.honoredFilter.resourceSubscriptions ?? [];
      const refused = uris.filter((u) => !honored.includes(u));
      if (refused.length) {
        await next.close();
        throw new McpConnectionError(
          'unsupported',
          `The server did not accept update notifications for ${refused.join(', ')}.`,
        );
      }
    }
    this.#relistened = true;
    this.#listen = next;
    this.#watched = [...uris];
    this.#whenEnded(next);
    if (previous && previous !== next) await previous.close();
  }
  /**
   * Report the current listen stream dropping (ended without the server's graceful close: a server
   * that closes it gracefully meant to, e.g. on shutdown, and is not asked again).
   */
  #whenEnded(listen: McpSubscription | undefined): void {
    void listen?.closed.then((cause) => {
      const current = this.#relistened ? this.#listen : this.client.autoOpenedSubscription;
      if (cause === 'remote' && current === listen && !this.#closing) this.onListenEnded?.();
    });
  }
  /** Follow the SDK's own list-change stream (opened at connect) the same way. */
  followListen(): void {
    if (!this.#relistened) this.#whenEnded(this.client.autoOpenedSubscription);
  }
  async close() {
    this.#closing = true;
    await this.client.close().catch(() => {});
  }
}

/** Open a Streamable HTTP or SSE session; errors become McpConnectionError. */
export async function openSdk(
  kind: 'streamable-http' | 'sse',
  o: OpenOptions,
  record: FetchRecord,
  /** Skip the 2026-07-28 probe: the server spoke the 2025 handshake last time (session/index.ts). */
  handshake2025 = false,
): Promise<SdkSession> {
  const url = new URL(o.url);
  const holder: { session?: SdkSession } = {};
  const client = newClient(
    o,
    kind,
    handshake2025,
    (l) => holder.session?.onListChanged?.(l),
    (uri) => holder.session?.onResourceUpdated?.(uri),
  );
  // a request the server will not answer (its response too large, its stream ended first) fails
  // at once, with a marked error, instead of at its timeout: the client reads it as the answer
  // (through the transport it is connected to)
  const fail = (ids: (string | number)[], message: string, mark: string) => {
    for (const id of ids)
      client.transport?.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message, data: { mark } } });
  };
  const stream: StreamState = {};
  const fetchFn = transportFetch(
    kind,
    o,
    record,
    {
      onExceed: (ids, e) => fail(ids, e.message, TOO_LARGE_MARK),
      // a stream that ended before its answer: 2026-07-28 streams never resume, and a 2025 stream
      // without event ids cannot either. Legacy HTTP+SSE answers on the GET stream, never in a
      // POST's body: Cloudflare's McpAgent answers each POST 202 with Content-Type
      // text/event-stream and the body `Accepted`
      ...(kind === 'streamable-http'
        ? {
            onBroken: (ids: (string | number)[], resumable: boolean) => {
              if (!resumable || client.getProtocolEra() === 'modern')
                fail(ids, 'The connection dropped before the server answered.', DROPPED_MARK);
            },
          }
        : {}),
    },
    stream,
  );
  const requestInit: RequestInit = { headers: o.headers };
  // OAuth: step-up on 403 insufficient_scope needs the user's click, so the transport reports
  // it (InsufficientScopeError) instead of re-authorizing by itself
  const auth = o.authProvider ? { authProvider: o.authProvider } : {};
  const transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(url, {
          requestInit,
          fetch: fetchFn,
          ...auth,
          ...(o.authProvider ? { onInsufficientScope: 'throw' as const } : {}),
        })
      : new SSEClientTransport(url, { requestInit, fetch: fetchFn, eventSourceInit: { fetch: fetchFn }, ...auth });
  const session = (holder.session = new SdkSession(kind, client, transport, stream));
  session.onToolsDropped = o.onToolsDropped;
  session.answers = o.answers;
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      client
        .connect(transport, {
          signal,
          timeout: o.timeoutMs,
          ...(o.prior && kind === 'streamable-http'
            ? { prior: { kind: 'modern', discover: o.prior as unknown as DiscoverResult } }
            : {}),
        })
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  } catch (e) {
    await client.close().catch(() => {});
    const auth = signInError(e);
    if (auth) throw auth;
    // EventSource hides the fetch error; use the one our fetch recorded
    const net = e instanceof SseError || (e instanceof SdkError && kind === 'sse') ? record.lastNetwork : undefined;
    throw toConnectionError(net ?? e, o.secrets, signal);
  }
  session.guardResponses();
  session.followListen();
  // a 2025 session the origin had no stream for was built without list-change handlers (on
  // 2026-07-28 they would open `subscriptions/listen`); its server may still send list changes on
  // ordinary response streams: hear them (the hub coalesces a storm of them)
  if (o.notifications === false && session.era === 'legacy')
    for (const l of ['tools', 'resources', 'prompts'] as const)
      client.setNotificationHandler(`notifications/${l}/list_changed`, () => holder.session?.onListChanged?.(l));
  return session;
}
