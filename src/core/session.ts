import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import {
  CallToolResultSchema,
  ErrorCode,
  ListToolsResultSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  type ListPromptsResult,
  type ListResourceTemplatesResult,
  type ListResourcesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError, redact } from './errors.js';
import type { ConcreteTransport } from './types.js';
import type { TransportKind } from './schemas.js';

/** Options every request takes. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds. */
  timeout?: number;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}

/** One open conversation with a server, whatever the transport. */
export interface McpSession {
  readonly kind: ConcreteTransport;
  readonly serverInfo?: Implementation;
  readonly capabilities?: ServerCapabilities;
  readonly protocolVersion?: string;
  readonly sessionId?: string;
  readonly instructions?: string;
  listTools(cursor: string | undefined, options: RequestOptions): Promise<ListToolsResult>;
  listResources(cursor: string | undefined, options: RequestOptions): Promise<ListResourcesResult>;
  listResourceTemplates(cursor: string | undefined, options: RequestOptions): Promise<ListResourceTemplatesResult>;
  listPrompts(cursor: string | undefined, options: RequestOptions): Promise<ListPromptsResult>;
  callTool(name: string, args: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult>;
  readResource(uri: string, options: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, options: RequestOptions): Promise<GetPromptResult>;
  /** Called when the server says one of its lists changed. */
  onListChanged?: (list: 'tools' | 'resources' | 'prompts') => void;
  /** Called when the connection closes without close() being called. */
  onClosed?: () => void;
  close(): Promise<void>;
}

export interface OpenOptions {
  url: string;
  transport: TransportKind;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Values to scrub from every error message. */
  secrets: Iterable<string>;
  clientInfo: Implementation;
  fetch?: typeof fetch;
  /** Largest response body accepted for one request (bytes). */
  maxResponseBytes?: number;
}

/** JSON-RPC error code we use internally for an oversized response. */
export const TOO_LARGE_CODE = -32099;

/**
 * Count a response body's bytes and fail it once it passes `max`: a hostile or broken server
 * cannot make the page buffer an unbounded result.
 */
function capBody(res: Response, max: number, onExceed: (e: McpConnectionError) => void): Response {
  const tooLarge = () =>
    new McpConnectionError(
      'too-large',
      `The server's response is larger than the ${Math.round(max / 1048576)} MB limit; it was discarded.`,
    );
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    void res.body?.cancel();
    const e = tooLarge();
    onExceed(e);
    throw e;
  }
  if (!res.body || !res.ok) return res;
  const reader = res.body.getReader();
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const { done, value } = await reader.read();
      if (done) return ctrl.close();
      n += value.byteLength;
      if (n > max) {
        void reader.cancel();
        const e = tooLarge();
        onExceed(e);
        ctrl.error(e);
        return;
      }
      ctrl.enqueue(value);
    },
    cancel: (r) => reader.cancel(r),
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const m = JSON.parse(body) as unknown;
    return (Array.isArray(m) ? m : [m]).flatMap((x) =>
      x && typeof x === 'object' && 'method' in x && 'id' in x ? [(x as { id: string | number }).id] : [],
    );
  } catch {
    return [];
  }
}

export const CORS_HINT =
  'If the server is running, it most likely does not send the CORS headers a browser client needs: ' +
  "Access-Control-Allow-Origin (this page's origin, or *), Access-Control-Allow-Headers including " +
  'content-type, mcp-session-id, mcp-protocol-version, authorization, last-event-id (and any custom auth header), ' +
  'and Access-Control-Expose-Headers: mcp-session-id.';

function crossOrigin(url: string): boolean {
  const here = (globalThis as { location?: Location }).location;
  if (!here?.origin || here.origin === 'null') return false;
  try {
    return new URL(url).origin !== here.origin;
  } catch {
    return false;
  }
}

/** A fetch that turns network-layer failures into a McpConnectionError explaining likely causes. */
function explainingFetch(
  base: typeof fetch | undefined,
  record: (e: McpConnectionError) => void,
  cap?: { max: number; onExceed: (ids: (string | number)[], e: McpConnectionError) => void },
): typeof fetch {
  return async (input, init) => {
    const f = base ?? globalThis.fetch;
    try {
      const res = await f(input, init);
      // only request/response bodies are capped; the long-lived GET stream is not one result
      if (cap && (init?.method ?? 'GET').toUpperCase() === 'POST')
        return capBody(res, cap.max, (e) => cap.onExceed(requestIds(init?.body), e));
      return res;
    } catch (e) {
      if (e instanceof McpConnectionError) throw e;
      if ((e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError') throw e;
      const url = input instanceof Request ? input.url : String(input);
      const origin = safeOrigin(url);
      const err = new McpConnectionError(
        'network',
        `Could not reach ${origin}. ` + (crossOrigin(url) ? CORS_HINT : 'Is the server running, and is the URL right?'),
        { cause: e },
      );
      record(err);
      throw err;
    }
  };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}

/** Map anything a transport or the SDK throws to a McpConnectionError with no secrets in it. */
export function toConnectionError(e: unknown, secrets: Iterable<string>, signal?: AbortSignal): McpConnectionError {
  const clean = (m: string) => redact(m, secrets);
  if (e instanceof McpConnectionError) {
    const m = clean(e.message);
    return m === e.message ? e : new McpConnectionError(e.code, m, { status: e.status, rpcCode: e.rpcCode });
  }
  if (signal?.aborted) {
    const r = signal.reason as Error | undefined;
    if (r?.name === 'TimeoutError') return new McpConnectionError('timeout', 'The request timed out.', { cause: e });
    return new McpConnectionError('aborted', 'The request was cancelled.', { cause: e });
  }
  if (e instanceof StreamableHTTPError || e instanceof SseError) {
    const status = typeof e.code === 'number' && e.code > 0 ? e.code : undefined;
    const detail = clean(e.message).slice(0, 500);
    if (status === 401 || status === 403)
      return new McpConnectionError('unauthorized', `The server refused the credentials (HTTP ${status}). ${detail}`, {
        status,
        cause: e,
      });
    if (status)
      return new McpConnectionError('http', `The server answered HTTP ${status}. ${detail}`, { status, cause: e });
    return new McpConnectionError('protocol', `Unexpected response from the server. ${detail}`, { cause: e });
  }
  if (e instanceof McpError) {
    if (e.code === TOO_LARGE_CODE)
      return new McpConnectionError('too-large', clean(e.message.replace(/^MCP error -?\d+: /, '')), {
        rpcCode: e.code,
        cause: e,
      });
    if (e.code === ErrorCode.RequestTimeout)
      return new McpConnectionError('timeout', `The server did not answer in time. ${clean(e.message)}`, {
        rpcCode: e.code,
        cause: e,
      });
    if (e.code === ErrorCode.ConnectionClosed)
      return new McpConnectionError('network', 'The connection to the server closed.', { rpcCode: e.code, cause: e });
    return new McpConnectionError('server', `The server returned an error: ${clean(e.message)}`, {
      rpcCode: e.code,
      cause: e,
    });
  }
  const err = e as Error | undefined;
  // JSON.parse throws a SyntaxError, but WebKit's Response.json() rejects with a DOMException
  // named SyntaxError ("The string did not match the expected pattern."): say what it means
  if (err instanceof SyntaxError || err?.name === 'SyntaxError')
    return new McpConnectionError(
      'protocol',
      `The server sent a malformed response (not valid JSON: ${clean(err.message).slice(0, 500)})`,
      { cause: e },
    );
  if (err?.name === 'ZodError' || err?.name === '$ZodError')
    return new McpConnectionError(
      'protocol',
      `The server sent a malformed response: ${clean(err.message).slice(0, 500)}`,
      { cause: e },
    );
  if (err?.name === 'TimeoutError') return new McpConnectionError('timeout', 'The request timed out.', { cause: e });
  if (err?.name === 'AbortError') return new McpConnectionError('aborted', 'The request was cancelled.', { cause: e });
  return new McpConnectionError('protocol', clean(err?.message ?? String(e)).slice(0, 500), { cause: e });
}

class SdkSession implements McpSession {
  onListChanged?: McpSession['onListChanged'];
  onClosed?: () => void;
  #closing = false;
  protocolVersion?: string;
  constructor(
    readonly kind: 'streamable-http' | 'sse',
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport | SSEClientTransport,
  ) {
    client.onclose = () => {
      if (!this.#closing) this.onClosed?.();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onListChanged?.('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.onListChanged?.('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.onListChanged?.('prompts'));
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
  get sessionId() {
    return this.transport instanceof StreamableHTTPClientTransport ? this.transport.sessionId : undefined;
  }
  listTools(cursor: string | undefined, options: RequestOptions) {
    return this.client.listTools(cursor ? { cursor } : undefined, options);
  }
  listResources(cursor: string | undefined, options: RequestOptions) {
    return this.client.listResources(cursor ? { cursor } : undefined, options);
  }
  listResourceTemplates(cursor: string | undefined, options: RequestOptions) {
    return this.client.listResourceTemplates(cursor ? { cursor } : undefined, options);
  }
  listPrompts(cursor: string | undefined, options: RequestOptions) {
    return this.client.listPrompts(cursor ? { cursor } : undefined, options);
  }
  async callTool(name: string, args: Record<string, unknown>, options: RequestOptions) {
    return (await this.client.callTool({ name, arguments: args }, CallToolResultSchema, {
      ...options,
      resetTimeoutOnProgress: !!options.onprogress,
    })) as CallToolResult;
  }
  readResource(uri: string, options: RequestOptions) {
    return this.client.readResource({ uri }, options);
  }
  getPrompt(name: string, args: Record<string, string>, options: RequestOptions) {
    return this.client.getPrompt({ name, arguments: args }, options);
  }
  async close() {
    this.#closing = true;
    await this.client.close().catch(() => {});
  }
}

/**
 * Plain JSON-RPC 2.0 over HTTP POST for endpoints that implement only tools/list and tools/call
 * (G4F-style). No initialize, no session, no notifications.
 */
class JsonRpcSession implements McpSession {
  readonly kind = 'jsonrpc' as const;
  #nextId = 1;
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly fetchFn: typeof fetch,
    private readonly secrets: Iterable<string>,
  ) {}
  get capabilities(): ServerCapabilities {
    return { tools: {} };
  }
  async rpc(method: string, params: unknown, { signal: caller, timeout }: RequestOptions): Promise<unknown> {
    const signals = [caller, timeout ? AbortSignal.timeout(timeout) : undefined].filter(Boolean) as AbortSignal[];
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    try {
      const res = await this.fetchFn(this.url, {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: this.#nextId++,
          method,
          ...(params === undefined ? {} : { params }),
        }),
        signal,
      });
      const text = await res.text();
      if (!res.ok && !text.trim().startsWith('{')) {
        throw new McpConnectionError(
          res.status === 401 || res.status === 403 ? 'unauthorized' : 'http',
          `The server answered HTTP ${res.status}.`,
          { status: res.status },
        );
      }
      const body = JSON.parse(text) as { result?: unknown; error?: { code?: number; message?: string } };
      if (body === null || typeof body !== 'object') throw new SyntaxError('response is not a JSON-RPC object');
      if (body.error) {
        const code = typeof body.error.code === 'number' ? body.error.code : ErrorCode.InternalError;
        throw new McpError(code, String(body.error.message ?? 'error'));
      }
      if (!('result' in body)) throw new SyntaxError('response has neither "result" nor "error"');
      return body.result;
    } catch (e) {
      throw toConnectionError(e, this.secrets, signal);
    }
  }
  async listTools(cursor: string | undefined, options: RequestOptions) {
    const r = await this.rpc('tools/list', cursor ? { cursor } : undefined, options);
    return parseResult(ListToolsResultSchema, r);
  }
  async callTool(name: string, args: Record<string, unknown>, options: RequestOptions) {
    const r = await this.rpc('tools/call', { name, arguments: args }, options);
    return parseResult(CallToolResultSchema, normaliseCallResult(r)) as CallToolResult;
  }
  async listResources() {
    return { resources: [] };
  }
  async listResourceTemplates() {
    return { resourceTemplates: [] };
  }
  async listPrompts() {
    return { prompts: [] };
  }
  async readResource(): Promise<ReadResourceResult> {
    throw new McpConnectionError('protocol', 'A plain JSON-RPC endpoint has no resources.');
  }
  async getPrompt(): Promise<GetPromptResult> {
    throw new McpConnectionError('protocol', 'A plain JSON-RPC endpoint has no prompts.');
  }
  async close() {}
}

function parseResult<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: Error } },
  v: unknown,
): T {
  const r = schema.safeParse(v);
  if (!r.success)
    throw new McpConnectionError('protocol', `The server sent a malformed response: ${r.error.message.slice(0, 500)}`);
  return r.data;
}

/**
 * G4F-style endpoints may answer tools/call with `content` as one object, or a string, or with a
 * bare value instead of a result object. Normalise to an MCP CallToolResult.
 */
export function normaliseCallResult(raw: unknown): unknown {
  if (typeof raw === 'string') return { content: [{ type: 'text', text: raw }] };
  if (raw === null || typeof raw !== 'object') return { content: [{ type: 'text', text: JSON.stringify(raw) }] };
  const o = raw as Record<string, unknown>;
  if (!('content' in o)) return { ...o, content: [{ type: 'text', text: JSON.stringify(raw) }] };
  const c = o.content;
  if (Array.isArray(c)) return o;
  if (typeof c === 'string') return { ...o, content: [{ type: 'text', text: c }] };
  if (c && typeof c === 'object') {
    const item = c as Record<string, unknown>;
    return { ...o, content: [typeof item.type === 'string' ? item : { type: 'text', text: JSON.stringify(item) }] };
  }
  return { ...o, content: [] };
}

function newClient(info: Implementation): Client {
  return new Client(info, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
}

async function openSdk(
  kind: 'streamable-http' | 'sse',
  options: OpenOptions,
  makeFetch: (onExceed: (ids: (string | number)[], e: McpConnectionError) => void) => typeof fetch,
  lastNetwork: () => McpConnectionError | undefined,
): Promise<SdkSession> {
  const url = new URL(options.url);
  // assigned once the transport exists; the fetch wrapper below needs it first
  // eslint-disable-next-line prefer-const
  let transportRef: StreamableHTTPClientTransport | SSEClientTransport | undefined;
  // an oversized response fails its request at once (for SSE responses the transport would
  // otherwise wait for the timeout): answer the request ids of that POST with an error
  const fetchFn = makeFetch((ids, e) => {
    for (const id of ids)
      transportRef?.onmessage?.({ jsonrpc: '2.0', id, error: { code: TOO_LARGE_CODE, message: e.message } });
  });
  const requestInit: RequestInit = { headers: options.headers };
  const transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(url, { requestInit, fetch: fetchFn })
      : new SSEClientTransport(url, { requestInit, fetch: fetchFn, eventSourceInit: { fetch: fetchFn } });
  transportRef = transport;
  const client = newClient(options.clientInfo);
  const session = new SdkSession(kind, client, transport);
  // capture the negotiated version for both transports
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    session.protocolVersion = v;
    setVersion?.(v);
  };
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      client
        .connect(transport, { signal, timeout: options.timeoutMs })
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  } catch (e) {
    await client.close().catch(() => {});
    // EventSource hides the fetch error; use the one our fetch recorded
    const net = e instanceof SseError ? lastNetwork() : undefined;
    throw toConnectionError(net ?? e, options.secrets, signal);
  }
  return session;
}

/** Open a session with the configured transport; `auto` falls back as documented. */
export async function openSession(options: OpenOptions): Promise<McpSession> {
  let lastNet: McpConnectionError | undefined;
  const max = options.maxResponseBytes;
  const makeFetch = (onExceed: (ids: (string | number)[], e: McpConnectionError) => void) =>
    explainingFetch(options.fetch, (e) => (lastNet = e), max ? { max, onExceed } : undefined);
  const fetchFn = makeFetch(() => {});
  const jsonrpc = async () => {
    const s = new JsonRpcSession(options.url, options.headers, fetchFn, options.secrets);
    // a probe: the endpoint must answer tools/list
    await s.listTools(undefined, { signal: options.signal, timeout: options.timeoutMs });
    return s;
  };
  switch (options.transport) {
    case 'streamable-http':
    case 'sse':
      return openSdk(options.transport, options, makeFetch, () => lastNet);
    case 'jsonrpc':
      return jsonrpc();
    case 'auto': {
      try {
        return await openSdk('streamable-http', options, makeFetch, () => lastNet);
      } catch (e) {
        const err = e as McpConnectionError;
        if (err.code === 'server' && err.rpcCode === ErrorCode.MethodNotFound) return jsonrpc();
        if (err.code === 'http' && [400, 404, 405].includes(err.status ?? 0)) {
          try {
            return await openSdk('sse', options, makeFetch, () => lastNet);
          } catch (e2) {
            const err2 = e2 as McpConnectionError;
            throw new McpConnectionError(err.code, `${err.message} (Tried legacy HTTP+SSE too: ${err2.message})`, {
              status: err.status,
              cause: e2,
            });
          }
        }
        throw err;
      }
    }
  }
}
