import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import {
  McpConfigError,
  McpConnectionError,
  McpElementsError,
  McpNotFoundError,
} from './errors.js';
import {
  CatalogueSchema,
  ServerConfigInputSchema,
  ServerConfigPatchSchema,
  ServerConfigSchema,
  looksSecret,
  parseOrThrow,
  toIssues,
  type SecretRef,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigPatch,
  type StoredAuth,
  type StoredHeader,
} from './schemas.js';
import { defaultStorage, ResilientStorage, type RecordStorage } from './storage.js';
import { Store, withEntry } from './store.js';
import { Vault } from './vault.js';
import { openSession, toConnectionError, type McpSession, type RequestOptions } from './session.js';
import type { ConnectionState, ConnectionStatus, HubState, ServerCatalogue } from './types.js';
import {
  McpServerAddedEvent,
  McpServerRemovedEvent,
  McpServerStatusChangedEvent,
  McpServerUpdatedEvent,
  McpStorageDegradedEvent,
  McpToolsChangedEvent,
  type ChangeSource,
  type McpHubEventMap,
} from '../events/index.js';

const SERVER = 'server:';
const CATALOGUE = 'catalogue:';
const QUARANTINE = 'quarantine:';

export interface McpHubOptions {
  /** IndexedDB database name (one per hub family). Default `mcp-elements`. */
  storeName?: string;
  /** Storage to use instead of IndexedDB (tests, Node). */
  storage?: RecordStorage;
  /** Where events are dispatched besides the hub itself. Default: `window` when there is one. `null` for none. */
  eventTarget?: EventTarget | null;
  /** Keep other tabs of the same origin in step. Default true where BroadcastChannel exists. */
  broadcast?: boolean;
  /** fetch used for every server request. */
  fetch?: typeof fetch;
  /** The client name and version sent at initialize. */
  clientInfo?: Implementation;
  /** Where warnings go. Default `console`. Never receives a secret. */
  logger?: Pick<Console, 'warn'>;
}

/** Options for `hub.connect()`. */
export interface ConnectOptions {
  signal?: AbortSignal;
}

type Msg = { from: string; kind: 'server' | 'catalogue'; id: string };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** Exponential backoff with jitter: 250 ms, 500 ms, 1 s … capped at 5 s, each scaled by 0.5–1. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(5000, 250 * 2 ** attempt);
  return Math.round(base * (0.5 + random() / 2));
}

function retryable(e: McpConnectionError): boolean {
  if (e.code === 'network' || e.code === 'timeout') return true;
  if (e.code === 'http') return (e.status ?? 0) >= 500 || e.status === 408 || e.status === 429;
  return false;
}

function collectRefs(c: Pick<ServerConfig, 'auth' | 'headers'>): SecretRef[] {
  const refs: SecretRef[] = [];
  const a = c.auth;
  if (a.type === 'bearer') refs.push(a.token);
  if (a.type === 'api-key') refs.push(a.key);
  if (a.type === 'basic') refs.push(a.password);
  for (const h of c.headers) if (typeof h.value !== 'string') refs.push(h.value);
  return refs;
}

async function listAll<R extends { nextCursor?: string }, T>(page: (cursor?: string) => Promise<R>, pick: (r: R) => readonly T[]): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await page(cursor);
    out.push(...pick(r));
    cursor = r.nextCursor;
    if (!cursor) return out;
    if (seen.has(cursor)) throw new McpConnectionError('protocol', 'The server repeated a pagination cursor; stopped listing.');
    seen.add(cursor);
  }
  throw new McpConnectionError('protocol', 'The server returned more than 1000 pages; stopped listing.');
}

/** A low-level handle on one connected server (no approval policy). Hosts normally use `hub.callTool`. */
export interface ServerClient {
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): ReturnType<McpSession['callTool']>;
  readResource(uri: string, options?: RequestOptions): ReturnType<McpSession['readResource']>;
  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): ReturnType<McpSession['getPrompt']>;
  /** Re-list tools, resources and prompts now. */
  refresh(options?: RequestOptions): Promise<ServerCatalogue>;
}

/** The server registry: `hub.servers`. */
export interface ServerRegistry {
  list(): ServerConfig[];
  get(id: string): ServerConfig | undefined;
  add(input: ServerConfigInput): Promise<ServerConfig>;
  update(id: string, patch: ServerConfigPatch): Promise<ServerConfig>;
  remove(id: string): Promise<void>;
}

/**
 * The page's MCP hub: servers kept in IndexedDB, secrets in the vault, one SDK Client per
 * connected server, and an immutable snapshot (`hub.store`) that elements and hosts subscribe to.
 * Use `getHub()` for the page's shared instance; construct one directly only for isolation.
 */
export class McpHub extends EventTarget {
  /** The hub's state; subscribe to be told of every change. */
  readonly store: Store<HubState>;
  /** Resolves once stored records are loaded. Every async method awaits it for you. */
  readonly ready: Promise<void>;
  readonly servers: ServerRegistry;
  /** The IndexedDB database this hub uses. */
  readonly storeName: string;
  readonly #id = randomId('hub');
  readonly #storage: ResilientStorage;
  readonly #vault: Vault;
  readonly #target: EventTarget | null;
  readonly #channel?: BroadcastChannel;
  readonly #fetch?: typeof fetch;
  readonly #clientInfo: Implementation;
  readonly #log: Pick<Console, 'warn'>;
  readonly #sessions = new Map<string, McpSession>();
  readonly #connecting = new Map<string, { promise: Promise<ServerCatalogue>; abort: AbortController }>();
  readonly #reinit = new Map<string, Promise<McpSession>>();

  constructor(options: McpHubOptions = {}) {
    super();
    const name = options.storeName ?? 'mcp-elements';
    this.storeName = name;
    this.#log = options.logger ?? console;
    this.#fetch = options.fetch;
    this.#clientInfo = options.clientInfo ?? { name: 'mcp-elements', version: '0.1.0' };
    this.#target = options.eventTarget !== undefined ? options.eventTarget : typeof window !== 'undefined' ? window : null;
    const onDegrade = (reason: string) => this.#degrade(reason);
    this.#storage = options.storage ? new ResilientStorage(options.storage, onDegrade) : defaultStorage(name, onDegrade);
    this.#vault = new Vault(this.#storage);
    this.store = new Store<HubState>({
      ready: false,
      servers: {},
      connections: {},
      catalogues: {},
      storage: { mode: this.#storage.kind },
      warnings: [],
    });
    if ((options.broadcast ?? true) && typeof BroadcastChannel !== 'undefined') {
      this.#channel = new BroadcastChannel(`mcp-elements:${name}`);
      this.#channel.onmessage = (e: MessageEvent<Msg>) => void this.#onRemote(e.data);
      // in Node an open channel would keep the process alive
      (this.#channel as { unref?: () => void }).unref?.();
    }
    const hub = this;
    this.servers = {
      list: () => Object.values(hub.store.state.servers).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
      get: (id) => hub.store.state.servers[id],
      add: (input) => hub.#add(input),
      update: (id, patch) => hub.#update(id, patch),
      remove: (id) => hub.#remove(id),
    };
    this.ready = this.#load();
  }

  /** Typed addEventListener for hub events. */
  override addEventListener<K extends keyof McpHubEventMap>(type: K, listener: (ev: McpHubEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
    super.addEventListener(type, listener, options);
  }

  // ---- state helpers ----------------------------------------------------------------------

  #emit(event: McpHubEventMap[keyof McpHubEventMap]) {
    this.dispatchEvent(event);
    if (this.#target && this.#target !== this) {
      const Ctor = event.constructor as new (d: unknown) => Event;
      this.#target.dispatchEvent(new Ctor(event.detail));
    }
  }

  #warn(message: string) {
    this.#log.warn(`[mcp-elements] ${message}`);
    this.store.update((s) => ({ ...s, warnings: Object.freeze([...s.warnings, message].slice(-50)) }));
  }

  #degrade(reason: string) {
    const warning = `IndexedDB is unavailable (${reason}); servers and settings are kept in memory for this page only.`;
    this.store.update((s) => ({ ...s, storage: Object.freeze({ mode: 'memory', warning }) }));
    this.#log.warn(`[mcp-elements] ${warning}`);
    this.#emit(new McpStorageDegradedEvent({ reason, mode: 'memory' }));
  }

  #setServer(id: string, cfg: ServerConfig | undefined) {
    this.store.update((s) => ({
      ...s,
      servers: withEntry(s.servers, id, cfg ? Object.freeze(cfg) : undefined),
      connections: cfg
        ? s.connections[id]
          ? s.connections
          : withEntry(s.connections, id, Object.freeze({ status: 'disconnected' as const, since: Date.now() }))
        : withEntry(s.connections, id, undefined),
    }));
  }

  #setCatalogue(id: string, cat: ServerCatalogue | undefined) {
    this.store.update((s) => ({ ...s, catalogues: withEntry(s.catalogues, id, cat ? Object.freeze(cat) : undefined) }));
  }

  #setStatus(id: string, status: ConnectionStatus, error?: McpElementsError) {
    const prev = this.store.state.connections[id];
    if (!this.store.state.servers[id]) return;
    const info = error ? Object.freeze({ code: error.code, message: error.message, ...(error instanceof McpConnectionError && error.status ? { status: error.status } : {}) }) : undefined;
    const next: ConnectionState = Object.freeze({ status, since: Date.now(), ...(info ? { error: info } : {}) });
    this.store.update((s) => ({ ...s, connections: withEntry(s.connections, id, next) }));
    if (prev?.status !== status || error)
      this.#emit(new McpServerStatusChangedEvent({ serverId: id, status, previous: prev?.status ?? 'disconnected', ...(info ? { error: info } : {}) }));
  }

  #toolsChanged(id: string, reason: 'connected' | 'list-changed' | 'loaded' | 'removed') {
    const c = this.store.state.catalogues[id];
    this.#emit(
      new McpToolsChangedEvent({
        serverId: id,
        toolCount: c?.tools.length ?? 0,
        resourceCount: c?.resources.length ?? 0,
        promptCount: c?.prompts.length ?? 0,
        reason,
      }),
    );
  }

  #broadcast(kind: Msg['kind'], id: string) {
    if (this.#storage.kind !== 'indexeddb') return;
    this.#channel?.postMessage({ from: this.#id, kind, id } satisfies Msg);
  }

  // ---- loading ----------------------------------------------------------------------------

  async #load() {
    await this.#storage.probe();
    const rows = await this.#storage.entries();
    const servers: Record<string, ServerConfig> = {};
    const catalogues: Record<string, ServerCatalogue> = {};
    for (const [key, value] of rows) {
      this.#storage.remember(key, value);
      if (key.startsWith(SERVER)) {
        const r = ServerConfigSchema.safeParse(value);
        if (r.success) servers[r.data.id] = Object.freeze(r.data);
        else await this.#quarantine(key, value, toIssues(r.error).map((i) => `${i.path || '(record)'} ${i.message}`).join('; '));
      }
    }
    for (const [key, value] of rows) {
      if (!key.startsWith(CATALOGUE)) continue;
      const r = CatalogueSchema.safeParse(value);
      if (r.success && servers[r.data.serverId]) catalogues[r.data.serverId] = Object.freeze(value as ServerCatalogue);
      else if (!r.success) await this.#quarantine(key, value, 'not a valid catalogue');
    }
    const now = Date.now();
    this.store.update((s) => ({
      ...s,
      ready: true,
      servers: Object.freeze({ ...s.servers, ...servers }),
      catalogues: Object.freeze({ ...s.catalogues, ...catalogues }),
      connections: Object.freeze(Object.fromEntries(Object.keys({ ...s.servers, ...servers }).map((id) => [id, s.connections[id] ?? Object.freeze({ status: 'disconnected' as const, since: now })]))),
    }));
  }

  async #quarantine(key: string, value: unknown, why: string) {
    // the values may hold anything; log only the key and the reasons
    this.#warn(`Set aside the corrupt record "${key}": ${why}`);
    await this.#storage.set(QUARANTINE + key, value).catch(() => {});
    await this.#storage.delete(key).catch(() => {});
  }

  async #onRemote(msg: Msg) {
    if (!msg || msg.from === this.#id || this.#storage.kind !== 'indexeddb') return;
    await this.ready;
    if (msg.kind === 'server') {
      const raw = await this.#storage.get(SERVER + msg.id);
      const prev = this.store.state.servers[msg.id];
      const r = raw === undefined ? undefined : ServerConfigSchema.safeParse(raw);
      if (!r || !r.success) {
        if (!prev) return;
        await this.#closeSession(msg.id);
        this.#setServer(msg.id, undefined);
        this.#setCatalogue(msg.id, undefined);
        this.#emit(new McpServerRemovedEvent({ serverId: msg.id, name: prev.name, source: 'remote' }));
        return;
      }
      this.#setServer(msg.id, r.data);
      if (prev) this.#emit(new McpServerUpdatedEvent({ server: r.data, previous: prev, source: 'remote' }));
      else this.#emit(new McpServerAddedEvent({ server: r.data, source: 'remote' }));
    } else if (!this.#sessions.has(msg.id)) {
      const raw = await this.#storage.get(CATALOGUE + msg.id);
      const r = CatalogueSchema.safeParse(raw);
      if (r.success && this.store.state.servers[msg.id]) {
        this.#setCatalogue(msg.id, raw as ServerCatalogue);
        this.#toolsChanged(msg.id, 'loaded');
      }
    }
  }

  // ---- registry ---------------------------------------------------------------------------

  /** Move clear secrets into the vault; returns stored forms and the refs created. */
  async #seal(auth: ServerConfigInput['auth'] | undefined, headers: ServerConfigInput['headers'] | undefined) {
    const created: SecretRef[] = [];
    const put = async (v: string | SecretRef) => {
      if (typeof v !== 'string') return v;
      const ref = await this.#vault.put(v);
      created.push(ref);
      return ref;
    };
    try {
      let sealedAuth: StoredAuth | undefined;
      if (auth) {
        const a = auth;
        if (a.type === 'bearer') sealedAuth = { type: 'bearer', token: await put(a.token) };
        else if (a.type === 'api-key') sealedAuth = { type: 'api-key', headerName: a.headerName ?? 'x-api-key', key: await put(a.key) };
        else if (a.type === 'basic') sealedAuth = { type: 'basic', username: a.username, password: await put(a.password) };
        else sealedAuth = { type: 'none' };
      }
      let sealedHeaders: StoredHeader[] | undefined;
      if (headers) {
        sealedHeaders = [];
        for (const h of headers) {
          const secret = h.secret ?? (typeof h.value !== 'string' || looksSecret(h.name));
          sealedHeaders.push({ name: h.name, value: secret ? await put(h.value) : h.value, secret });
        }
      }
      return { auth: sealedAuth, headers: sealedHeaders, created };
    } catch (e) {
      await Promise.all(created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw e;
    }
  }

  /** Refs given by the caller must belong to the record being edited (no borrowing other servers' secrets). */
  #checkRefs(input: { auth?: unknown; headers?: unknown }, allowed: SecretRef[]) {
    const ok = new Set(allowed.map((r) => r.secretRef));
    const issues: { path: string; message: string }[] = [];
    const walk = (v: unknown, path: string) => {
      if (v && typeof v === 'object') {
        if ('secretRef' in v && !ok.has(String((v as SecretRef).secretRef))) issues.push({ path, message: 'refers to a secret this server does not own' });
        else for (const [k, c] of Object.entries(v)) walk(c, path ? `${path}.${k}` : k);
      }
    };
    walk({ auth: input.auth, headers: input.headers }, '');
    if (issues.length) throw new McpConfigError(issues);
  }

  async #add(input: ServerConfigInput): Promise<ServerConfig> {
    await this.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const id = parsed.id ?? randomId('srv');
    if (this.store.state.servers[id]) throw new McpConfigError([{ path: 'id', message: `a server with id "${id}" already exists` }]);
    this.#checkRefs(parsed, []);
    const sealed = await this.#seal(parsed.auth, parsed.headers);
    const now = Date.now();
    const record: ServerConfig = { ...parsed, id, auth: sealed.auth!, headers: sealed.headers!, createdAt: now, updatedAt: now };
    const checked = ServerConfigSchema.parse(record);
    try {
      await this.#storage.set(SERVER + id, checked);
    } catch (e) {
      await Promise.all(sealed.created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw e;
    }
    this.#setServer(id, checked);
    this.#broadcast('server', id);
    this.#emit(new McpServerAddedEvent({ server: checked, source: 'local' }));
    return checked;
  }

  async #update(id: string, patch: ServerConfigPatch): Promise<ServerConfig> {
    await this.ready;
    const current = this.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    const parsed = parseOrThrow(ServerConfigPatchSchema, patch);
    this.#checkRefs(parsed, collectRefs(current));
    const sealed = await this.#seal(parsed.auth, parsed.headers);
    const fields: Partial<ServerConfig> = { ...parsed } as Partial<ServerConfig>;
    if (sealed.auth) fields.auth = sealed.auth;
    if (sealed.headers) fields.headers = sealed.headers;
    let gone = false;
    // Per-field last-write-wins: merge only the patched fields into the freshest stored record,
    // inside one IndexedDB transaction, so another tab's edit of other fields survives.
    const merged = await this.#storage.update<ServerConfig | undefined>(SERVER + id, (old) => {
      if (!old) {
        gone = true;
        return undefined;
      }
      return { ...old, ...fields, updatedAt: Math.max(Date.now(), old.updatedAt + 1) };
    });
    if (gone || !merged) {
      await this.#storage.delete(SERVER + id);
      await Promise.all(sealed.created.map((r) => this.#vault.delete(r).catch(() => {})));
      throw new McpNotFoundError('server', id);
    }
    const next = ServerConfigSchema.parse(merged);
    // secrets the record no longer refers to
    const keep = new Set(collectRefs(next).map((r) => r.secretRef));
    await Promise.all(collectRefs(current).filter((r) => !keep.has(r.secretRef)).map((r) => this.#vault.delete(r).catch(() => {})));
    this.#setServer(id, next);
    this.#broadcast('server', id);
    this.#emit(new McpServerUpdatedEvent({ server: next, previous: current, source: 'local' }));
    const reconnect = ['url', 'transport', 'auth', 'headers', 'timeout'].some((k) => k in parsed);
    if (!next.enabled) await this.disconnect(id);
    else if (reconnect && this.#sessions.has(id)) void this.connect(id).catch(() => {});
    return next;
  }

  async #remove(id: string): Promise<void> {
    await this.ready;
    const current = this.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    await this.#closeSession(id);
    this.#connecting.get(id)?.abort.abort();
    await this.#storage.delete(SERVER + id);
    await this.#storage.delete(CATALOGUE + id);
    await Promise.all(collectRefs(current).map((r) => this.#vault.delete(r).catch(() => {})));
    this.#setServer(id, undefined);
    this.#setCatalogue(id, undefined);
    this.#broadcast('server', id);
    this.#emit(new McpServerRemovedEvent({ serverId: id, name: current.name, source: 'local' }));
  }

  // ---- connections ------------------------------------------------------------------------

  /** Current status of a server (disconnected when unknown). */
  status(id: string): ConnectionState {
    return this.store.state.connections[id] ?? { status: 'disconnected', since: 0 };
  }

  /** The last discovered catalogue of a server, if any. */
  catalogue(id: string): ServerCatalogue | undefined {
    return this.store.state.catalogues[id];
  }

  /** Headers for a server, secrets decrypted. */
  async #headers(cfg: ServerConfig): Promise<{ headers: Record<string, string>; secrets: string[] }> {
    const headers: Record<string, string> = {};
    const secrets: string[] = [];
    const open = async (v: string | SecretRef) => {
      if (typeof v === 'string') return v;
      const s = await this.#vault.get(v);
      secrets.push(s);
      return s;
    };
    for (const h of cfg.headers) headers[h.name] = await open(h.value);
    const a = cfg.auth;
    if (a.type === 'bearer') headers['Authorization'] = `Bearer ${await open(a.token)}`;
    else if (a.type === 'api-key') headers[a.headerName] = await open(a.key);
    else if (a.type === 'basic') {
      const pw = await open(a.password);
      const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(`${a.username}:${pw}`)));
      secrets.push(b64);
      headers['Authorization'] = `Basic ${b64}`;
    }
    return { headers, secrets };
  }

  /**
   * Connect to a server (retrying with backoff as configured), discover its tools, resources and
   * prompts, and keep the session. Resolves with the catalogue; rejects with McpConnectionError.
   * A second call while one is in flight joins it.
   */
  connect(id: string, options: ConnectOptions = {}): Promise<ServerCatalogue> {
    const inflight = this.#connecting.get(id);
    if (inflight) return inflight.promise;
    const abort = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
    const promise = this.#connect(id, signal).finally(() => {
      if (this.#connecting.get(id)?.promise === promise) this.#connecting.delete(id);
    });
    this.#connecting.set(id, { promise, abort });
    return promise;
  }

  async #open(cfg: ServerConfig, signal: AbortSignal, retries: number): Promise<McpSession> {
    const { headers, secrets } = await this.#headers(cfg);
    for (let attempt = 0; ; attempt++) {
      try {
        return await openSession({
          url: cfg.url,
          transport: cfg.transport,
          headers,
          timeoutMs: cfg.timeout * 1000,
          signal,
          secrets: [...secrets, ...this.#vault.knownValues],
          clientInfo: this.#clientInfo,
          fetch: this.#fetch,
        });
      } catch (e) {
        const err = toConnectionError(e, [...secrets, ...this.#vault.knownValues], signal);
        if (attempt >= retries || !retryable(err) || signal.aborted) throw err;
        await sleep(backoffDelay(attempt), signal);
      }
    }
  }

  async #connect(id: string, signal: AbortSignal): Promise<ServerCatalogue> {
    await this.ready;
    const cfg = this.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    if (!cfg.enabled) throw new McpConfigError([{ path: 'enabled', message: 'the server is disabled; enable it to connect' }]);
    await this.#closeSession(id);
    this.#setStatus(id, 'connecting');
    let session: McpSession | undefined;
    try {
      session = await this.#open(cfg, signal, cfg.retries);
      const catalogue = await this.#discover(id, session, { signal, timeout: cfg.timeout * 1000 });
      if (!this.store.state.servers[id]) throw new McpNotFoundError('server', id);
      this.#adopt(id, session);
      const now = Date.now();
      const [, rec] = await Promise.all([
        this.#saveCatalogue(id, catalogue),
        this.#storage.update<ServerConfig | undefined>(SERVER + id, (old) => (old ? { ...old, lastConnectedAt: now } : old)),
      ]);
      if (rec) this.#setServer(id, ServerConfigSchema.parse(rec));
      this.#setStatus(id, 'connected');
      this.#toolsChanged(id, 'connected');
      return catalogue;
    } catch (e) {
      await session?.close();
      const err = e instanceof McpElementsError ? e : toConnectionError(e, this.#vault.knownValues, signal);
      this.#setStatus(id, 'error', err);
      throw err;
    }
  }

  #adopt(id: string, session: McpSession) {
    this.#sessions.set(id, session);
    session.onListChanged = () => void this.#refresh(id).catch((e) => this.#warn(`Could not re-list after a change on server "${id}": ${(e as Error).message}`));
    session.onClosed = () => {
      if (this.#sessions.get(id) !== session) return;
      this.#sessions.delete(id);
      this.#setStatus(id, 'disconnected', new McpConnectionError('network', 'The connection to the server closed.'));
    };
  }

  async #discover(id: string, s: McpSession, o: RequestOptions): Promise<ServerCatalogue> {
    const caps = s.capabilities ?? {};
    // resources and prompts are optional extras: a failure there must not fail the connection
    const optional = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
      try {
        return await run();
      } catch (e) {
        this.#warn(`Could not list ${what} of server "${id}": ${toConnectionError(e, this.#vault.knownValues).message}`);
        return [];
      }
    };
    // the lists are independent: ask for them at once
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      caps.tools ? listAll((c) => s.listTools(c, o), (r) => r.tools) : [],
      caps.resources ? optional('resources', () => listAll((c) => s.listResources(c, o), (r) => r.resources)) : [],
      caps.resources ? optional('resource templates', () => listAll((c) => s.listResourceTemplates(c, o), (r) => r.resourceTemplates)) : [],
      caps.prompts ? optional('prompts', () => listAll((c) => s.listPrompts(c, o), (r) => r.prompts)) : [],
    ]);
    return {
      serverId: id,
      tools,
      resources,
      resourceTemplates,
      prompts,
      ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
      ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
      ...(s.sessionId ? { sessionId: s.sessionId } : {}),
      ...(s.instructions ? { instructions: s.instructions } : {}),
      transport: s.kind,
      discoveredAt: Date.now(),
    };
  }

  async #saveCatalogue(id: string, c: ServerCatalogue) {
    this.#setCatalogue(id, c);
    try {
      await this.#storage.set(CATALOGUE + id, c);
      this.#broadcast('catalogue', id);
    } catch (e) {
      this.#warn(`Could not persist the catalogue of server "${id}": ${(e as Error).message}`);
    }
  }

  async #refresh(id: string, o: RequestOptions = {}): Promise<ServerCatalogue> {
    const catalogue = await this.#withSession(id, o, (s, ro) => this.#discover(id, s, ro));
    await this.#saveCatalogue(id, catalogue);
    this.#toolsChanged(id, 'list-changed');
    return catalogue;
  }

  async #closeSession(id: string) {
    const s = this.#sessions.get(id);
    if (!s) return;
    this.#sessions.delete(id);
    await s.close();
  }

  /** Close a server's session (the stored config and catalogue stay). */
  async disconnect(id: string): Promise<void> {
    this.#connecting.get(id)?.abort.abort(new McpConnectionError('aborted', 'Disconnected.'));
    await this.#closeSession(id);
    if (this.store.state.servers[id] && this.status(id).status !== 'disconnected') this.#setStatus(id, 'disconnected');
  }

  /**
   * Run one request on a server's session. A 404 on a request that carried a session id means
   * the session expired: re-initialize once and retry the request.
   */
  async #withSession<T>(id: string, options: RequestOptions, run: (s: McpSession, o: RequestOptions) => Promise<T>): Promise<T> {
    await this.ready;
    const cfg = this.store.state.servers[id];
    if (!cfg) throw new McpNotFoundError('server', id);
    const session = this.#sessions.get(id);
    if (!session) throw new McpConnectionError('not-connected', `Server "${cfg.name}" is not connected.`);
    const o: RequestOptions = { timeout: cfg.timeout * 1000, ...options };
    try {
      return await run(session, o);
    } catch (e) {
      const err = toConnectionError(e, this.#vault.knownValues, o.signal);
      if (!(err.code === 'http' && err.status === 404 && session.sessionId)) throw err;
      const fresh = await this.#reinitialize(id, session, cfg);
      try {
        return await run(fresh, o);
      } catch (e2) {
        throw toConnectionError(e2, this.#vault.knownValues, o.signal);
      }
    }
  }

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
        const fresh = await this.#open(cfg, new AbortController().signal, 0);
        this.#adopt(id, fresh);
        const cat = this.store.state.catalogues[id];
        if (cat) this.#setCatalogue(id, { ...cat, sessionId: fresh.sessionId, protocolVersion: fresh.protocolVersion ?? cat.protocolVersion });
        return fresh;
      } catch (e) {
        this.#sessions.delete(id);
        const err = new McpConnectionError('session-expired', `The server's session expired and a new one could not be started: ${(e as Error).message}`, { cause: e });
        this.#setStatus(id, 'error', err);
        throw err;
      }
    })().finally(() => this.#reinit.delete(id));
    this.#reinit.set(id, p);
    return p;
  }

  /** A low-level handle on a connected server. Requests use the server's timeout unless given one. */
  client(id: string): ServerClient {
    return {
      callTool: (name, args = {}, o = {}) => this.#withSession(id, o, (s, ro) => s.callTool(name, args, ro)),
      readResource: (uri, o = {}) => this.#withSession(id, o, (s, ro) => s.readResource(uri, ro)),
      getPrompt: (name, args = {}, o = {}) => this.#withSession(id, o, (s, ro) => s.getPrompt(name, args, ro)),
      refresh: (o = {}) => this.#refresh(id, o),
    };
  }

  /** Close every session and stop listening to other tabs. */
  async dispose(): Promise<void> {
    this.#channel?.close();
    for (const c of this.#connecting.values()) c.abort.abort();
    await Promise.all([...this.#sessions.keys()].map((id) => this.#closeSession(id)));
  }
}

/** The change source type, re-exported for hosts. */
export type { ChangeSource };

const HUB_KEY = Symbol.for('mcp-elements.hub');

/** The page's one hub, shared even by two copies of the bundle. */
export function getHub(): McpHub {
  const g = globalThis as { [HUB_KEY]?: McpHub };
  return (g[HUB_KEY] ??= new McpHub());
}
