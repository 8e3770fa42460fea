// `window.mcpClient` with the interface of G4F's own MCP client (g4f.dev, dist/js/mcp-client.js),
// backed by the hub: servers and selection live in the hub (IndexedDB, shared with the elements),
// tool names never collide, and every call goes through the assistant's approval with a card.
import {
  getHub,
  outcomeOf,
  outcomeText,
  suffixedName,
  type McpHub,
  type ModelTool,
  type Tool,
  type ToolCallRecord,
} from '../core/index.js';
import { CardPlacer, type CardContainer } from './cards.js';
import { g4fConversation } from './reattach.js';
import {
  checkServerInput,
  importLegacy,
  legacyServers,
  normaliseUrl,
  readMirror,
  toG4fServer,
  writeLegacy,
  writeMirror,
  type G4fImportReport,
  type G4fServer,
} from './legacy.js';

/** Options of `install()` and `new G4fMcpClient()`. */
export interface G4fOptions {
  /** The hub (default: the page's, `getHub()`). */
  hub?: McpHub;
  /** The assistant whose tools, selection and approval mode apply (default `default`). */
  assistantId?: string;
  /** Where the `<mcp-tool-call>` cards go (see `CardContainer`); absent: a dock of its own. */
  container?: CardContainer;
  /** Import G4F's `mcp_servers` / `mcp_selected_tools` on the first run (default true). */
  importStorage?: boolean;
  /** Where G4F's keys and the drop-in's own record are (default `localStorage`). */
  storage?: Storage;
  /**
   * Write servers and tool selection back to G4F's `mcp_servers` / `mcp_selected_tools` after
   * the import, so a page that returns to G4F's own client loses nothing (default: as
   * `importStorage`).
   */
  writeBack?: boolean;
  /**
   * The conversation the page has open (default: G4F's global `conversation_id`). A card is
   * re-attached only in the conversation its call was made in.
   */
  conversation?: () => string | undefined;
}

/** A tool as G4F's `getAllTools()` returns it: the MCP tool plus where it comes from. */
export type G4fTool = Tool & {
  serverId: string;
  serverName: string;
  serverUrl: string;
  /** `serverId:toolName`, the id `toggleToolSelection` and `isToolSelected` take. */
  toolId: string;
  /** The collision-free name the model sees (`<server>__<tool>`), when the assistant may use it. */
  functionName?: string;
};

/** A tool call as G4F passes it: OpenAI's shape; `arguments` a JSON string or an object. */
export interface G4fToolCall {
  id?: string;
  function: { name: string; arguments?: string | Record<string, unknown> };
}

/** What `executeToolCall` resolves with: an OpenAI `tool` message, as G4F's client returned. */
export interface G4fToolMessage {
  tool_call_id: string | undefined;
  role: 'tool';
  name: string;
  /** JSON text: the MCP content blocks on success, `{ "error": "…" }` otherwise. */
  content: string;
  /**
   * The hub's record of the call: not enumerable, so the message sent to a model stays in
   * OpenAI's shape.
   */
  readonly call?: ToolCallRecord;
}

const storageOf = (given?: Storage): Storage | undefined => {
  if (given) return given;
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage blocked (sandboxed frame, privacy settings)
  }
};

function newId(): string {
  const r = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}${Math.random()}`;
  return `srv_${r.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}`;
}

/** The result text G4F's code reads: content blocks as JSON, images and audio summarised. */
function contentFor(record: ToolCallRecord): string {
  if (record.status !== 'success' || !record.result) return JSON.stringify({ error: outcomeText(outcomeOf(record)) });
  const { content, structuredContent } = record.result;
  if (structuredContent) {
    // an object the server sent (with its JSON as the only text, as the spec asks, or as the hub
    // keeps a G4F-style result without content): the object, as G4F's own client passed it on
    const json = JSON.stringify(structuredContent);
    const only = content.length === 1 && content[0]!.type === 'text' ? content[0]!.text : undefined;
    if (!content.length || only === json) return json;
  }
  // the card shows images and audio to the user; the model gets what they are, not their bytes
  return JSON.stringify(
    content.map((c) =>
      c.type === 'image' || c.type === 'audio'
        ? { type: 'text', text: outcomeText({ isError: false, content: [c] }) }
        : c,
    ),
  );
}

function parseArguments(raw: unknown): { arguments?: Record<string, unknown>; argumentsError?: string } {
  let v = raw ?? {};
  if (typeof v === 'string') {
    if (!v.trim()) return { arguments: {} };
    try {
      v = JSON.parse(v);
    } catch (e) {
      return { argumentsError: `The arguments are not valid JSON (${(e as Error).message}).` };
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { argumentsError: 'The arguments must be a JSON object.' };
  return { arguments: v as Record<string, unknown> };
}

/**
 * G4F's `MCPClient` interface over the hub. Reads are synchronous, as G4F's page expects; changes
 * show at once in `servers` / `selectedTools` and are written to the hub in order behind them.
 */
export class G4fMcpClient {
  readonly hub: McpHub;
  readonly assistantId: string;
  /** Resolves once the hub is loaded and the first-run import (if any) is done. */
  readonly ready: Promise<void>;
  /** What the first-run import did (undefined when it did not run). */
  importReport?: G4fImportReport;
  readonly #storage: Storage | undefined;
  readonly #cards: CardPlacer;
  #queue: Promise<unknown> = Promise.resolve();
  // what the page changed and the hub has not stored yet
  readonly #adding = new Map<string, G4fServer>();
  readonly #removing = new Set<string>();
  readonly #enabled = new Map<string, boolean>();
  readonly #selection = new Map<string, Set<string>>();
  readonly #unsubscribe: () => void;
  /** The hub is loaded and the import is done: the hub's list is the list. */
  #loaded = false;
  readonly #importing: boolean;

  constructor(options: G4fOptions = {}) {
    this.hub = options.hub ?? getHub();
    this.assistantId = options.assistantId ?? 'default';
    this.#storage = storageOf(options.storage);
    this.#cards = new CardPlacer(this.hub, options.container, this.#storage, options.conversation ?? g4fConversation);
    this.#importing = options.importStorage !== false;
    this.ready = this.#start(this.#importing);
    this.#writeBack = options.writeBack ?? this.#importing;
    // keep the first-paint copy of the server list and G4F's own keys current
    let { servers, catalogues, assistants } = this.hub.store.state;
    this.#unsubscribe = this.hub.store.subscribe((s) => {
      if (!this.#loaded) return;
      if (s.servers === servers && s.catalogues === catalogues && s.assistants === assistants) return;
      for (const [id, old] of Object.entries(servers)) if (!s.servers[id]) this.#removed.push({ id, url: old.url });
      const changedServers = s.servers !== servers;
      ({ servers, catalogues, assistants } = s);
      if (changedServers) writeMirror(this.#storage, { servers: this.hub.servers.list().map(toG4fServer) });
      this.#writeLegacy();
    });
  }

  /** Servers removed while this client watched: dropped from G4F's list on write-back. */
  readonly #removed: { id: string; url: string }[] = [];
  readonly #writeBack: boolean;
  #writeLegacy(): void {
    if (this.#writeBack) writeLegacy(this.hub, this.#storage, this.assistantId, this.#removed);
  }

  async #start(importStorage: boolean): Promise<void> {
    await this.hub.ready;
    const mirror = readMirror(this.#storage);
    // a hub in memory mode forgets everything with the page: import again each time
    const memory = this.hub.store.state.storage.mode === 'memory';
    if (importStorage && (!mirror.imported || memory)) {
      try {
        this.importReport = await importLegacy(this.hub, this.#storage, this.assistantId);
      } catch (e) {
        console.warn('[mcp-elements] importing G4F servers failed:', e);
      }
      if (!memory) writeMirror(this.#storage, { imported: Date.now() });
    }
    writeMirror(this.#storage, { servers: this.hub.servers.list().map(toG4fServer) });
    this.#loaded = true;
    this.#writeLegacy();
    // cards of calls shown before the reload come back where the host renders those calls
    this.#cards.restore();
  }

  /** Run changes one after another, after the import. */
  #enqueue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(() => this.ready).then(step);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Where cards go (see `CardContainer`). */
  get container(): CardContainer | undefined {
    return this.#cards.container;
  }
  set container(c: CardContainer | undefined) {
    this.#cards.container = c;
  }

  // ---- servers ------------------------------------------------------------------------------

  /** The servers, `{ id, name, url, enabled }`, oldest first. */
  get servers(): G4fServer[] {
    let base: G4fServer[];
    if (this.#loaded) base = this.hub.servers.list().map(toG4fServer);
    else {
      // before the hub has loaded: the last known list, or G4F's own on the first run
      const mirror = readMirror(this.#storage);
      base = mirror.imported || !this.#importing ? (mirror.servers ?? []) : legacyServers(this.#storage);
    }
    const ids = new Set(base.map((s) => s.id));
    return [...base, ...[...this.#adding.values()].filter((s) => !ids.has(s.id))]
      .filter((s) => !this.#removing.has(s.id))
      .map((s) => ({ ...s, enabled: this.#enabled.get(s.id) ?? s.enabled }));
  }

  /**
   * Add a server (`{ name, url }`; a bare origin means its `/mcp` endpoint, as in G4F). Throws at
   * once for a missing name or URL, a URL already added, or a config the hub refuses; resolves
   * with the server once stored (and connecting), or undefined when storing failed.
   */
  addServer(server: { name: string; url: string }): Promise<G4fServer | undefined> {
    if (!server?.name || !server?.url) throw new Error('Server must have name and url');
    const url = normaliseUrl(server.url);
    if (this.servers.some((s) => s.url === url)) throw new Error('Server with this URL already exists');
    const name = String(server.name).trim();
    checkServerInput({ name, url });
    const entry: G4fServer = { id: newId(), name, url, enabled: true };
    this.#adding.set(entry.id, entry);
    return this.#enqueue(async () => {
      try {
        if (!this.#adding.has(entry.id)) return undefined; // removed before it was stored
        const same = this.hub.servers.list().find((s) => s.url === url);
        // one attempt per connect, as G4F's own client makes: a server that cannot be reached
        // fails at once (fetchTools rejects, the page's Refresh tries again) instead of four
        // attempts of every transport, each a red line in the console (docs/decisions/new-g4f-one-attempt.md)
        const stored = same ?? (await this.hub.servers.add({ id: entry.id, name, url, retries: 0 }));
        void this.hub.connect(stored.id).catch(() => {});
        return toG4fServer(stored);
      } finally {
        this.#adding.delete(entry.id);
      }
    }).catch((e) => {
      console.error(`[mcp-elements] could not add MCP server ${name}:`, e);
      return undefined;
    });
  }

  /** Remove a server (and with it its tools and their selection). */
  removeServer(serverId: string): Promise<void> {
    if (this.#adding.delete(serverId)) return Promise.resolve();
    this.#removing.add(serverId);
    return this.#enqueue(async () => {
      if (this.hub.servers.get(serverId)) await this.hub.servers.remove(serverId);
    })
      .catch((e) => console.error('[mcp-elements] could not remove MCP server:', e))
      .finally(() => this.#removing.delete(serverId));
  }

  /** Switch a server on or off. */
  toggleServer(serverId: string): Promise<void> {
    const server = this.servers.find((s) => s.id === serverId);
    if (!server) return Promise.resolve();
    const enabled = !server.enabled;
    this.#enabled.set(serverId, enabled);
    return this.#enqueue(async () => {
      if (this.hub.servers.get(serverId)) await this.hub.servers.update(serverId, { enabled });
    })
      .catch((e) => console.error('[mcp-elements] could not switch MCP server:', e))
      .finally(() => {
        if (this.#enabled.get(serverId) === enabled) this.#enabled.delete(serverId);
      });
  }

  // ---- tools --------------------------------------------------------------------------------

  /** Each server's tools by URL (as G4F's `tools` map), for servers with a known catalogue. */
  get tools(): Map<string, readonly Tool[]> {
    const out = new Map<string, readonly Tool[]>();
    for (const s of this.hub.servers.list()) {
      const c = this.hub.catalogue(s.id);
      if (c) out.set(s.url, c.tools);
    }
    return out;
  }

  /** Connect (or re-list) the server with this URL and resolve with its tools. */
  async fetchTools(serverUrl: string): Promise<readonly Tool[]> {
    // a server added a moment ago is stored (and connecting) first: not a second, throwaway test
    await this.#queue;
    await this.ready;
    const url = normaliseUrl(serverUrl);
    const server = this.hub.servers.list().find((s) => s.url === serverUrl || s.url === url);
    // a URL the page never added: look, store nothing
    if (!server) return (await this.hub.testConnection({ name: 'G4F', url })).tools;
    const connected = this.hub.status(server.id).status === 'connected';
    return (connected ? await this.hub.client(server.id).refresh() : await this.hub.connect(server.id)).tools;
  }

  /** Fetch the tools of every enabled server (a failing server gives none); resolves with `tools`. */
  async fetchAllTools(): Promise<Map<string, readonly Tool[]>> {
    await this.#queue;
    await this.ready;
    await Promise.all(
      this.hub.servers
        .list()
        .filter((s) => s.enabled)
        .map((s) => this.fetchTools(s.url).catch(() => [])),
    );
    return this.tools;
  }

  /** Every tool of the enabled servers, with `serverId`, `serverName`, `serverUrl`, `toolId`. */
  getAllTools(): G4fTool[] {
    const names = new Map<string, string>();
    for (const t of this.#modelTools()) names.set(`${t.serverId}:${t.tool.name}`, t.name);
    return this.servers
      .filter((s) => s.enabled)
      .flatMap((s) =>
        (this.hub.catalogue(s.id)?.tools ?? []).map((tool) => {
          const toolId = `${s.id}:${tool.name}`;
          const functionName = names.get(toolId);
          return {
            ...tool,
            serverId: s.id,
            serverName: s.name,
            serverUrl: s.url,
            toolId,
            ...(functionName ? { functionName } : {}),
          };
        }),
      );
  }

  #modelTools(): ModelTool[] {
    // the whole selection, servers that are down included (getSelectedToolsForAPI offers only the rest)
    return this.hub.store.state.ready
      ? this.hub.modelTools({ assistantId: this.assistantId, includeUnavailable: true })
      : [];
  }

  /** The selected tools as `serverId:toolName`. */
  get selectedTools(): string[] {
    const out = this.#modelTools().map((t) => `${t.serverId}:${t.tool.name}`);
    if (!this.#selection.size) return out;
    const kept = out.filter((id) => !this.#selection.has(id.slice(0, id.indexOf(':'))));
    for (const [serverId, tools] of this.#selection) for (const t of tools) kept.push(`${serverId}:${t}`);
    return kept;
  }

  /** Whether a tool (`serverId:toolName`) is selected. */
  isToolSelected(toolId: string): boolean {
    return this.selectedTools.includes(toolId);
  }

  /** Select or unselect a tool (`serverId:toolName`) for the assistant. */
  toggleToolSelection(toolId: string): Promise<void> {
    const i = toolId.indexOf(':');
    if (i <= 0) return Promise.resolve();
    const serverId = toolId.slice(0, i);
    const tool = toolId.slice(i + 1);
    const prefix = `${serverId}:`;
    const tools = new Set(
      this.selectedTools.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length)),
    );
    if (tools.has(tool)) tools.delete(tool);
    else tools.add(tool);
    this.#selection.set(serverId, tools);
    return this.#enqueue(async () => {
      if (this.hub.servers.get(serverId))
        await this.hub.assistants.setServer(this.assistantId, serverId, tools.size ? [...tools] : false);
    })
      .catch((e) => console.error('[mcp-elements] could not change the tool selection:', e))
      .finally(() => {
        if (this.#selection.get(serverId) === tools) this.#selection.delete(serverId);
      });
  }

  /** The selected tools in OpenAI's format, named collision-free (`<server>__<tool>`). */
  getSelectedToolsForAPI(): unknown[] {
    if (!this.hub.store.state.ready) return [];
    return this.hub.toolsFor('openai', { assistantId: this.assistantId });
  }

  // ---- calls --------------------------------------------------------------------------------

  /** The model-facing name a call means: a name from `getSelectedToolsForAPI`, or a bare MCP tool name. */
  #resolve(name: string): string | undefined {
    const tools = this.#modelTools();
    const servers = this.hub.store.state.servers;
    // a name given earlier with a collision suffix (names.ts) still means its tool
    const former = (t: ModelTool) =>
      suffixedName({ serverKey: t.serverId, serverName: servers[t.serverId]?.name ?? '', toolName: t.tool.name }) ===
      name;
    return (tools.find((t) => t.name === name) ?? tools.find((t) => t.tool.name === name) ?? tools.find(former))?.name;
  }

  /**
   * Run one tool call through the assistant's approval (a `<mcp-tool-call>` card where
   * `container` says), validation and the hub; resolves with `{ tool_call_id, role: 'tool', name,
   * content }`. Throws `Tool … not found` when the assistant has no such tool, as G4F did.
   */
  async executeToolCall(toolCall: G4fToolCall): Promise<G4fToolMessage> {
    const name = toolCall?.function?.name;
    if (typeof name !== 'string') throw new Error('Tool call without a function name');
    await this.#queue;
    await this.ready;
    let target = this.#resolve(name);
    if (!target) {
      // the catalogues may not be loaded yet: list once before giving up
      await this.fetchAllTools();
      target = this.#resolve(name);
    }
    if (!target) throw new Error(`Tool ${name} not found`);
    let card: HTMLElement | undefined;
    const record = await this.hub.callTool({
      name: target,
      ...parseArguments(toolCall.function.arguments),
      assistantId: this.assistantId,
      ...(toolCall.id ? { providerCallId: String(toolCall.id) } : {}),
      onCall: (r) => (card = this.#cards.show(r, name)),
    });
    this.#cards.finished(card);
    const message: G4fToolMessage = { tool_call_id: toolCall.id, role: 'tool', name, content: contentFor(record) };
    return Object.defineProperty(message, 'call', { value: record, enumerable: false });
  }

  /** Run several tool calls in parallel (each with its own approval); results in call order. */
  executeToolCalls(toolCalls: G4fToolCall[]): Promise<G4fToolMessage[]> {
    return Promise.all(toolCalls.map((tc) => this.executeToolCall(tc)));
  }

  /** Stop following the hub (tests; a page keeps its client). */
  dispose(): void {
    this.#unsubscribe();
    this.#cards.dispose();
  }
}
