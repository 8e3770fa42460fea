// Sessions over the SDK v2 client: Streamable HTTP (2026-07-28 negotiated with server/discover, or
// the 2025 initialize handshake) and legacy HTTP+SSE.
import {
  Client,
  SSEClientTransport,
  SdkError,
  SseError,
  StreamableHTTPClientTransport,
  type ClientOptions,
  type DiscoverResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/client';
import type { McpConnectionError } from '../errors.js';
import { MODERN_REVISION, type ProtocolRevision } from '../schemas.js';
import { TOO_LARGE_MARK, toConnectionError } from './errors.js';
import type { FetchRecord } from './fetch.js';
import { paramHeaders, scanHeaderParams } from './param-headers.js';
import type { CallOptions, McpSession, OpenOptions, ProtocolEra, RequestOptions } from './types.js';
import { SchemaValidator } from './validator.js';

type Lists = 'tools' | 'resources' | 'prompts';

/** A tool the client must not offer: its `x-mcp-header` declarations break SEP-2243. */
export interface DroppedTool {
  readonly name: string;
  readonly reason: string;
}

export class SdkSession implements McpSession {
  onListChanged?: McpSession['onListChanged'];
  onClosed?: () => void;
  /** Called with tools dropped from a `tools/list` page on a 2026-07-28 connection. */
  onToolsDropped?: (dropped: readonly DroppedTool[]) => void;
  #closing = false;
  constructor(
    readonly kind: 'streamable-http' | 'sse',
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport | SSEClientTransport,
  ) {
    client.onclose = () => {
      if (!this.#closing) this.onClosed?.();
    };
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
  /** Raw pages (the SDK's own aggregate walk caps pages and hides what it drops). */
  async listTools(cursor: string | undefined, o: RequestOptions): Promise<ListToolsResult> {
    if (!this.capabilities?.tools) return { tools: [] };
    const page = await this.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, o);
    if (this.era !== 'modern') return page;
    const dropped: DroppedTool[] = [];
    const tools = page.tools.filter((t: Tool) => {
      const scan = scanHeaderParams(t.inputSchema);
      if (!scan.valid) dropped.push({ name: t.name, reason: scan.reason });
      return scan.valid;
    });
    if (dropped.length) this.onToolsDropped?.(dropped);
    return dropped.length ? { ...page, tools } : page;
  }
  listResources(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.resources) return Promise.resolve({ resources: [] });
    return this.client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, o);
  }
  listResourceTemplates(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.resources) return Promise.resolve({ resourceTemplates: [] });
    return this.client.request({ method: 'resources/templates/list', params: cursor ? { cursor } : {} }, o);
  }
  listPrompts(cursor: string | undefined, o: RequestOptions) {
    if (!this.capabilities?.prompts) return Promise.resolve({ prompts: [] });
    return this.client.request({ method: 'prompts/list', params: cursor ? { cursor } : {} }, o);
  }
  async callTool(name: string, args: Record<string, unknown>, o: CallOptions) {
    const { tool, ...rest } = o;
    let headers: Record<string, string> | undefined;
    if (tool && this.era === 'modern' && this.kind === 'streamable-http') {
      const scan = scanHeaderParams(tool.inputSchema);
      if (scan.valid && scan.params.length) headers = paramHeaders(scan.params, args);
    }
    return this.client.callTool(
      { name, arguments: args },
      {
        ...rest,
        resetTimeoutOnProgress: !!o.onprogress,
        ...(tool ? { toolDefinition: tool } : {}),
        ...(headers ? { headers } : {}),
      },
    );
  }
  readResource(uri: string, o: RequestOptions) {
    return this.client.readResource({ uri }, { ...o, cacheMode: 'bypass' });
  }
  getPrompt(name: string, args: Record<string, string>, o: RequestOptions) {
    return this.client.getPrompt({ name, arguments: args }, o);
  }
  async close() {
    this.#closing = true;
    await this.client.close().catch(() => {});
  }
}

/** Client options for a revision setting: `auto` negotiates, a 2025 pin offers only that version. */
export function negotiation(
  revision: ProtocolRevision | undefined,
  kind: 'streamable-http' | 'sse',
): Pick<ClientOptions, 'versionNegotiation' | 'supportedProtocolVersions'> {
  // legacy HTTP+SSE predates server/discover: never probe there
  if ((!revision || revision === 'auto') && kind === 'sse') return { versionNegotiation: { mode: 'legacy' } };
  if (!revision || revision === 'auto') return { versionNegotiation: { mode: 'auto' } };
  if (revision === MODERN_REVISION) return { versionNegotiation: { mode: { pin: revision } } };
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [revision] };
}

function newClient(o: OpenOptions, kind: 'streamable-http' | 'sse', lists: (l: Lists) => void): Client {
  const changed = (l: Lists) => ({ autoRefresh: false, onChanged: () => lists(l) });
  return new Client(o.clientInfo, {
    capabilities: {},
    jsonSchemaValidator: new SchemaValidator(),
    // input_required rounds (2026-07-28) are answered by the SDK: a requestState-only round is
    // simply retried; the hub declares no elicitation/sampling/roots capability yet, so a server
    // cannot ask for those (it answers -32021, mapped to `input-required`), and a server that
    // never stops asking ends at the SDK's round cap — a typed error, never a hang.
    // With listChanged handlers a 2026-07-28 connection opens `subscriptions/listen`, a stream.
    ...(o.notifications === false
      ? {}
      : { listChanged: { tools: changed('tools'), resources: changed('resources'), prompts: changed('prompts') } }),
    ...negotiation(o.revision, kind),
  });
}

/**
 * The 2025 GET event stream through the stream budget: answered 405 locally (as a server without
 * one would) when the session may hold no stream, and reported unused when the server declines.
 */
function budgetedStream(fetchFn: typeof fetch, o: OpenOptions): typeof fetch {
  return async (input, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return fetchFn(input, init);
    if (o.notifications === false) return new Response(null, { status: 405, statusText: 'No stream to spare' });
    const res = await fetchFn(input, init);
    if (!res.ok) o.onStreamUnused?.();
    return res;
  };
}

/** Open a Streamable HTTP or SSE session; errors become McpConnectionError. */
export async function openSdk(
  kind: 'streamable-http' | 'sse',
  o: OpenOptions,
  makeFetch: (onExceed: (ids: (string | number)[], e: McpConnectionError) => void) => typeof fetch,
  record: FetchRecord,
): Promise<SdkSession> {
  const url = new URL(o.url);
  // assigned once the transport exists; the fetch wrapper below needs it first
  // eslint-disable-next-line prefer-const
  let transportRef: StreamableHTTPClientTransport | SSEClientTransport | undefined;
  // an oversized response fails its request at once (for SSE responses the transport would
  // otherwise wait for the timeout): answer the request ids of that POST with a marked error
  const fetchFn = makeFetch((ids, e) => {
    for (const id of ids)
      transportRef?.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: e.message, data: { mark: TOO_LARGE_MARK } },
      });
  });
  const requestInit: RequestInit = { headers: o.headers };
  const transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(url, { requestInit, fetch: budgetedStream(fetchFn, o) })
      : new SSEClientTransport(url, { requestInit, fetch: fetchFn, eventSourceInit: { fetch: fetchFn } });
  transportRef = transport;
  const holder: { session?: SdkSession } = {};
  const client = newClient(o, kind, (l) => holder.session?.onListChanged?.(l));
  const session = (holder.session = new SdkSession(kind, client, transport));
  session.onToolsDropped = o.onToolsDropped;
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
    // EventSource hides the fetch error; use the one our fetch recorded
    const net = e instanceof SseError || (e instanceof SdkError && kind === 'sse') ? record.lastNetwork : undefined;
    throw toConnectionError(net ?? e, o.secrets, signal);
  }
  return session;
}
