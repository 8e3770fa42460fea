// The seed's chat backend as a Fetch handler: a chat request carrying `mcp_servers` → discovery
// (TTL cache, dropped on error) → the request's servers' tools merged with the host's built-in
// tools under `server__tool` names → an OpenAI-compatible streamed model call → tool calls routed
// to their servers → results back to the model → the final answer, streamed to the page as SSE.
// It is the page's hub (src/core) in a backend: memory storage, no DOM, same names, validation,
// limits and tool loop (`hub.runConversation`).
// the kernel, not core/index (the page's entry): a backend's graph reaches no page module
import type { McpHubOptions } from '../core/context.js';
import { HubKernel } from '../core/kernel.js';
import { MemoryStorage, type RecordStorage } from '../core/persistence/storage.js';
import type { ProviderToolCall } from '../core/providers/types.js';
import { readCapped } from '../edge/body.js';
import { Cors } from '../edge/cors.js';
import { createGuard, guardedFetch, type GuardOptions } from '../edge/guard.js';
import { RateLimiter, defaultClientKey, type RateLimit } from '../edge/rate-limit.js';
import { RelayRefusal, refusalResponse } from '../edge/refusal.js';
import { onWorkers } from '../edge/runtime.js';
import { SseWriter } from '../edge/sse.js';
import { DiscoveryCache, type Discovered, type RequestServer, type ServerOutcome } from './discovery.js';
import { streamCompletion, type ModelOptions } from './model.js';

/** Finished calls the backend hub keeps in memory (per assistant slot) unless `hub.historyLimit` says. */
const BACKEND_HISTORY_LIMIT = 50;
/** Tools offered to the model per request by default: OpenAI's Chat Completions accepts at most 128. */
const DEFAULT_MAX_TOOLS = 128;
/** Tokens of tool definitions per request by default (characters / 4; decision 031). */
const DEFAULT_MAX_TOOL_TOKENS = 100_000;

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
  /** Largest request body, bytes (read no further: 413). Default 1 MB. */
  maxRequestBytes?: number;
  /** Time a client may take to send its body, ms (then 408). Default 10 s. */
  requestTimeoutMs?: number;
  /** Chat requests per client per window (then 429); `false` for none. Default 300 per minute. */
  rateLimit?: RateLimit | false;
  /**
   * The client a request counts against. Default: the adapter's `clientAddress` (`serveHandler`
   * passes the socket's); on Cloudflare Workers the `CF-Connecting-IP` Cloudflare sets; else one
   * shared bucket. Behind a proxy of your own, key on the header it sets.
   */
  clientKey?: (request: Request, info: ChatRequestInfo) => string;
  /**
   * MCP tools offered to the model per request at most (built-in tools count against it); past
   * it the most relevant to the last user message are kept and a `server` event warns. Default 128.
   */
  maxTools?: number;
  /** Tokens of tool definitions per request at most (characters / 4 of their JSON). Default 100,000. */
  maxToolTokens?: number;
  /**
   * More hub options (limits, clientInfo); storage, events and fetch are the handler's. The
   * backend's defaults differ from a page's: `secretScope: 'server'` (each request's secrets
   * redact only its own servers' results and leave with them), `connectionsPerOrigin` unbounded
   * (Node and the platforms cap nothing per origin; a page's 6 would queue every user behind the others).
   */
  hub?: Omit<McpHubOptions, 'storage' | 'fetch' | 'eventTarget' | 'broadcast'>;
}

/** What an adapter knows beside the Request (the relay's `RelayRequestInfo`). */
export interface ChatRequestInfo {
  /** The client's address, when the adapter knows it. */
  clientAddress?: string;
}

/** The chat request the handler reads. */
export interface ChatRequest {
  messages: unknown[];
  mcp_servers?: RequestServer[];
}

export type ChatHandler = ((request: Request, info?: ChatRequestInfo) => Promise<Response>) & {
  readonly hub: HubKernel;
};

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

/** The text of the last user message (ranks the tools when there are more than the budget). */
function lastUserText(messages: readonly unknown[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content.slice(0, 100_000);
    if (Array.isArray(m.content))
      return m.content
        .map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : ''))
        .join(' ')
        .slice(0, 100_000);
    return undefined;
  }
  return undefined;
}

/** Numeric options: whole numbers in range, or a TypeError when the handler is made (not at the first request). */
function checkOptions(options: ChatHandlerOptions): void {
  const limits: [keyof ChatHandlerOptions, number, number][] = [
    ['maxRequestBytes', 1, Number.MAX_SAFE_INTEGER],
    ['requestTimeoutMs', 1, 2 ** 31 - 1],
    ['maxTools', 0, 100_000],
    ['maxToolTokens', 0, 100_000_000],
    ['maxServers', 0, 1_000],
  ];
  for (const [name, min, max] of limits) {
    const v = options[name];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min && (v as number) <= max))
      throw new TypeError(`createChatHandler: ${name} must be a whole number from ${min} to ${max}`);
  }
}

/** The backend chat handler. See docs/API.md, "Relay and backend hub". */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  checkOptions(options);
  const guard = createGuard(options.servers ?? { open: true });
  const hub = new HubKernel({
    ...options.hub,
    // a backend keeps a short call history: every call copies the history map and each write
    // prunes it, so the page's 1000 cost CPU on every call once full (decision 037)
    historyLimit: options.hub?.historyLimit ?? BACKEND_HISTORY_LIMIT,
    storeName: options.hub?.storeName ?? 'mcp-elements-server',
    // many users: a request's secrets redact only its own servers' results, and leave with them
    secretScope: options.hub?.secretScope ?? 'server',
    // the page's per-origin budget models a browser's 6 connections; shared by every user of a
    // backend it queued each request behind the others' (decision 076)
    connectionsPerOrigin: options.hub?.connectionsPerOrigin ?? Infinity,
    storage: options.storage ?? new MemoryStorage(),
    // every POST of the hub's comes with a signal of its own (a session's: core/request-signal.ts;
    // sign-in's: its deadline), so only other requests get the guard's
    fetch: guardedFetch(guard, { ownSignal: (init) => (init.method ?? 'GET').toUpperCase() === 'POST' }),
  });
  const cache = new DiscoveryCache(hub, guard, { ttlMs: options.discoveryTtlMs ?? 5 * 60_000 });
  const slots = new AssistantSlots();
  const cors = new Cors(options.origins);
  const maxBytes = options.maxRequestBytes ?? 1024 * 1024;
  const requestMs = options.requestTimeoutMs ?? 10_000;
  const limiter =
    options.rateLimit === false ? null : new RateLimiter(options.rateLimit ?? { requests: 300, perMs: 60_000 });
  // CF-Connecting-IP is Cloudflare's own on Workers; elsewhere any client could set it
  const clientKey = options.clientKey ?? defaultClientKey(onWorkers() ? 'cf-connecting-ip' : undefined);
  const builtins = new Map((options.tools ?? []).map((t) => [t.name, t]));
  const builtinDefs = [...builtins.values()].map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  const maxTools = Math.max(0, (options.maxTools ?? DEFAULT_MAX_TOOLS) - builtinDefs.length);
  const maxToolTokens = options.maxToolTokens ?? DEFAULT_MAX_TOOL_TOKENS;

  /**
   * The MCP tools one request may offer: all of them within the budget, else the hub's budgeted
   * choice (ranked by the last user message: decision 031). The check
   * costs one JSON.stringify of what would be sent anyway; the ranker runs only past the budget.
   */
  const budget = (assistantId: string, messages: readonly unknown[]) => {
    const all = hub.toolsFor('openai', { assistantId });
    if (all.length <= maxTools && JSON.stringify(all).length / 4 <= maxToolTokens) return { all: all.length };
    const query = lastUserText(messages);
    const kept = hub.toolsFor('openai', {
      assistantId,
      maxTools,
      maxTokens: maxToolTokens,
      ...(query ? { query } : {}),
    }) as { function: { name: string } }[];
    return { all: all.length, names: new Set(kept.map((t) => t.function.name)) };
  };

  const handler = async (request: Request, info: ChatRequestInfo = {}): Promise<Response> => {
    const origin = request.headers.get('origin');
    const fail = (status: number, error: string) =>
      refusalResponse(new RelayRefusal(status, error), cors.headers(origin));
    if (request.method === 'OPTIONS') return cors.preflight(request);
    if (!cors.allows(origin)) return fail(403, 'origin not allowed');
    if (limiter && !limiter.take(clientKey(request, info)))
      return fail(429, 'too many requests from this client; try again later');
    if (request.method !== 'POST') return fail(405, 'POST a chat request');
    let chat: ChatRequest;
    try {
      // read no further than the cap, within the deadline (edge/body.ts): 413 / 408
      const bytes = await readCapped(request, maxBytes, requestMs);
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      } catch {
        throw new RelayRefusal(400, 'the body is not valid JSON');
      }
      chat = parseChat(body, options.maxServers ?? 10);
    } catch (e) {
      return e instanceof RelayRefusal ? fail(e.status, e.message) : fail(400, 'the request could not be read');
    }

    const events = new SseWriter();
    const send = (event: string, data: unknown) => events.send(event, data);
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
        const { all, names } = budget(assistantId, chat.messages);
        if (names)
          void send('server', {
            status: 'trimmed',
            tools: all,
            offered: names.size,
            warning: `the servers have ${all} tools; the ${names.size} most relevant were offered to the model (maxTools ${maxTools + builtinDefs.length}, maxToolTokens ${maxToolTokens})`,
          });
        const offer = (tools: unknown[]) =>
          names ? tools.filter((t) => names.has((t as { function: { name: string } }).function.name)) : tools;
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
              [...builtinDefs, ...offer(tools)],
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
        await events.close();
      }
    })();
    return events.response(cors.headers(origin));
  };
  return Object.assign(handler, { hub });
}
