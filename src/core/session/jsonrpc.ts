// Plain JSON-RPC endpoints (G4F-style): tools/list and tools/call over HTTP POST, nothing else.
import {
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/client';
import { McpConnectionError } from '../errors.js';
import { toConnectionError } from './errors.js';
import { normaliseCallResult } from './call-result.js';
import { keepValidTools, LOOSE_TOOL_PAGE, type DroppedTool, type LoosePage } from './tools.js';
import type { McpSession, RequestOptions } from './types.js';

/**
 * Plain JSON-RPC 2.0 over HTTP POST for endpoints that implement only tools/list and tools/call
 * (G4F-style). No initialize, no session, no notifications.
 */
export class JsonRpcSession implements McpSession {
  readonly kind = 'jsonrpc' as const;
  readonly era = 'jsonrpc' as const;
  onToolsDropped?: (dropped: readonly DroppedTool[]) => void;
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
  async rpc(method: string, params: unknown, o: RequestOptions): Promise<unknown> {
    const signals = [o.signal, o.timeout ? AbortSignal.timeout(o.timeout) : undefined].filter(Boolean) as AbortSignal[];
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    try {
      const id = this.#nextId++;
      // redirects only within the origin: the session's fetch (fetch.ts jsonRpcFetch)
      const res = await this.fetchFn(this.url, {
        method: 'POST',
        // a stateless Streamable HTTP server answers plain JSON-RPC too, if the client accepts SSE
        headers: { ...this.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
        signal,
      });
      const raw = await res.text();
      const text = /^text\/event-stream/i.test(res.headers.get('content-type') ?? '') ? answerInStream(raw, id) : raw;
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
        const code = typeof body.error.code === 'number' ? body.error.code : ProtocolErrorCode.InternalError;
        throw new ProtocolError(code, String(body.error.message ?? 'error'));
      }
      if (!('result' in body)) throw new SyntaxError('response has neither "result" nor "error"');
      return body.result;
    } catch (e) {
      throw toConnectionError(e, this.secrets, signal);
    }
  }
  async listTools(cursor: string | undefined, o: RequestOptions) {
    const r = await this.rpc('tools/list', cursor ? { cursor } : undefined, o);
    const page = parseResult<LoosePage>(LOOSE_TOOL_PAGE, r);
    const { result, dropped } = keepValidTools(page, false);
    if (dropped.length) this.onToolsDropped?.(dropped);
    return result;
  }
  async callTool(name: string, args: Record<string, unknown>, o: RequestOptions) {
    const r = await this.rpc('tools/call', { name, arguments: args }, o);
    return parseResult<CallToolResult>(specTypeSchemas.CallToolResult, normaliseCallResult(r));
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

/** The JSON-RPC answer to request `id` among the `data:` lines of an SSE body. */
function answerInStream(body: string, id: number): string {
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    try {
      const m = JSON.parse(data) as { id?: unknown };
      if (m && m.id === id) return data;
    } catch {
      // not JSON: not the answer
    }
  }
  throw new SyntaxError('the event stream held no answer to the request');
}

function parseResult<T>(schema: { '~standard': { validate(v: unknown): unknown } }, v: unknown): T {
  const r = schema['~standard'].validate(v) as { value?: unknown; issues?: readonly { message: string }[] };
  if (r.issues)
    throw new McpConnectionError(
      'protocol',
      `The server sent a malformed response: ${r.issues
        .map((i) => i.message)
        .join('; ')
        .slice(0, 500)}`,
    );
  return r.value as T;
}
