// The seed's chat backend as a Fetch handler: a chat request carrying `mcp_servers` → discovery
// (TTL cache, dropped on error) → the request's servers' tools merged with the host's built-in
// tools under `server__tool` names → an OpenAI-compatible streamed model call → tool calls routed
// to their servers → results back to the model → the final answer, streamed to the page as SSE.
// It is the page's hub (src/core) in a backend: memory storage, no DOM, same names, validation,
// limits and tool loop (`hub.runConversation`).
import { McpHub, MemoryStorage, type McpHubOptions, type ProviderToolCall, type RecordStorage } from '../core/index.js';
import { createGuard, guardedFetch, type GuardOptions } from '../relay/guard.js';
import { Cors } from '../relay/headers.js';
import { RelayRefusal } from '../relay/targets.js';
import { DiscoveryCache, type Discovered, type RequestServer, type ServerOutcome } from './discovery.js';
import { streamCompletion, type ModelOptions } from './model.js';

/** Finished calls the backend hub keeps in memory (per assistant slot) unless `hub.historyLimit` says. */
const BACKEND_HISTORY_LIMIT = 50;

/** A tool of the host's own, offered to the model beside the MCP tools. */
export interface BuiltinTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  run(args: Record<string, unknown>): string | Promise<string>;
}

/** Options of `createChatHandler()`. See docs/API.md, "Relay and backend hub". */
export interface ChatHandlerOptions {
  model: ModelOptions;
  /**
   * The SSRF rules for the servers a request names (the relay's: allowlist, or open mode with
   * https only and private addresses refused). Default `{ open: true }`, which on Node and
   * Lambda needs `resolve` (and `fetch`, to pin) from `mcp-chat-elements/relay/node`: without
   * them creating the handler throws (a name resolving to a private address would pass).
   * Cloudflare Workers' fetch reaches public addresses only, so there the default works as is.
   */
  servers?: GuardOptions;
  /** How long a discovered server is reused, ms. Default 5 minutes. */
  discoveryTtlMs?: number;
  tools?: readonly BuiltinTool[];
  /** A durable store for the hub's records; default memory (secrets never leave the process). */
  storage?: RecordStorage;
  /** Page origins answered with CORS. Default none. */
  origins?: readonly string[];
  /** Model turns per request. Default 8. */
  maxSteps?: number;
  /** Servers per request at most. Default 10. */
  maxServers?: number;
  /** Largest request body, bytes. Default 1 MB. */
  maxRequestBytes?: number;
  /** More hub options (limits, clientInfo); storage, events and fetch are the handler's. */
  hub?: Omit<McpHubOptions, 'storage' | 'fetch' | 'eventTarget' | 'broadcast'>;
}

/** The chat request the handler reads. */
export interface ChatRequest {
  messages: unknown[];
  mcp_servers?: RequestServer[];
}

export type ChatHandler = ((request: Request) => Promise<Response>) & { readonly hub: McpHub };

function parseChat(body: unknown, maxServers: number): ChatRequest {
  const b = body as Partial<ChatRequest> | null;
  if (!b || typeof b !== 'object') throw new RelayRefusal(400, 'the body must be a JSON object');
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    throw new RelayRefusal(400, '"messages" must be a non-empty list');
  const servers = b.mcp_servers ?? [];
  if (!Array.isArray(servers)) throw new RelayRefusal(400, '"mcp_servers" must be a list');
  if (servers.length > maxServers) throw new RelayRefusal(400, `"mcp_servers" lists more than ${maxServers} servers`);
  servers.forEach((s, i) => {
    if (!s || typeof s.name !== 'string' || !s.name || typeof s.url !== 'string')
      throw new RelayRefusal(400, `mcp_servers[${i}] needs a "name" and a "url"`);
    if (
      s.headers !== undefined &&
      (typeof s.headers !== 'object' || Object.values(s.headers).some((v) => typeof v !== 'string'))
    )
      throw new RelayRefusal(400, `mcp_servers[${i}].headers must map names to strings`);
    try {
      new URL(s.url);
    } catch {
      throw new RelayRefusal(400, `mcp_servers[${i}].url is not a URL`);
    }
  });
  return { messages: b.messages, mcp_servers: servers };
}

/**
 * Assistant profiles for requests in flight: a request takes a free slot (`req-<n>`), sets its
 * servers, and gives it back; so profiles are bounded by the requests running at once.
 */
class AssistantSlots {
  readonly #free: string[] = [];
  #count = 0;
  take(): string {
    return this.#free.pop() ?? `req-${++this.#count}`;
  }
  release(id: string): void {
    this.#free.push(id);
  }
}

/** The backend chat handler. See docs/API.md, "Relay and backend hub". */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const guard = createGuard(options.servers ?? { open: true });
  const hub = new McpHub({
    ...options.hub,
    // a backend keeps a short call history: every call copies the history map and each write
    // prunes it, so the page's 1000 cost ~1.5 ms of CPU per call once full (bench/backend.mjs)
    historyLimit: options.hub?.historyLimit ?? BACKEND_HISTORY_LIMIT,
    storeName: options.hub?.storeName ?? 'mcp-elements-server',
    storage: options.storage ?? new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
    fetch: guardedFetch(guard),
  });
  const cache = new DiscoveryCache(hub, guard, { ttlMs: options.discoveryTtlMs ?? 5 * 60_000 });
  const slots = new AssistantSlots();
  const cors = new Cors(options.origins);
  const builtins = new Map((options.tools ?? []).map((t) => [t.name, t]));
  const builtinDefs = [...builtins.values()].map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));

  const handler = async (request: Request): Promise<Response> => {
    const origin = request.headers.get('origin');
    const fail = (status: number, error: string) =>
      new Response(JSON.stringify({ error }), {
        status,
        headers: { 'content-type': 'application/json', ...cors.headers(origin) },
      });
    if (request.method === 'OPTIONS') return cors.preflight(request);
    if (!cors.allows(origin)) return fail(403, 'origin not allowed');
    if (request.method !== 'POST') return fail(405, 'POST a chat request');
    let chat: ChatRequest;
    try {
      const text = await request.text();
      if (text.length > (options.maxRequestBytes ?? 1024 * 1024)) throw new RelayRefusal(413, 'request body too large');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new RelayRefusal(400, 'the body is not valid JSON');
      }
      chat = parseChat(body, options.maxServers ?? 10);
    } catch (e) {
      return e instanceof RelayRefusal ? fail(e.status, e.message) : fail(400, 'the request could not be read');
    }

    const encoder = new TextEncoder();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const send = (event: string, data: unknown) =>
      writer.write(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)).catch(() => {});
    let discovered: Discovered | undefined;
    let assistant: string | undefined;
    const callIds: string[] = [];
    void (async () => {
      try {
        await hub.ready;
        discovered = await cache.discover(chat.mcp_servers ?? []);
        const outcomes: ServerOutcome[] = discovered.outcomes;
        for (const o of outcomes) void send('server', o);
        const ready = outcomes.filter((o) => o.status === 'ready').map((o) => o.id!);
        assistant = slots.take();
        const assistantId = assistant;
        await hub.assistants.update(assistantId, {
          approval: 'auto',
          servers: Object.fromEntries(ready.map((id) => [id, {}])),
        });
        const result = await hub.runConversation({
          provider: 'openai',
          assistantId,
          messages: chat.messages,
          maxSteps: options.maxSteps,
          signal: request.signal,
          complete: (messages, tools) =>
            streamCompletion(
              options.model,
              messages,
              [...builtinDefs, ...tools],
              (text) => void send('delta', { content: text }),
              request.signal,
            ),
          runHostTool: async (call: ProviderToolCall) => {
            const tool = builtins.get(call.name);
            if (!tool) return { isError: true, content: [{ type: 'text', text: `Unknown tool ${call.name}` }] };
            void send('tool', { name: call.name, builtin: true });
            return tool.run(call.arguments ?? {});
          },
          onCall: (record) => {
            callIds.push(record.id); // a failed call drops its server's cached catalogue (discovery.ts)
            void send('tool', { name: record.name, server: record.serverName, tool: record.tool });
          },
        });
        await send('done', { message: result.reply, steps: result.steps, stopped: result.stopped });
      } catch (e) {
        await send('error', { error: e instanceof Error ? e.message : String(e) });
      } finally {
        if (assistant) slots.release(assistant);
        await discovered?.close(callIds);
        await writer.close().catch(() => {});
      }
    })();
    return new Response(readable, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', ...cors.headers(origin) },
    });
  };
  return Object.assign(handler, { hub });
}
