// A client for the MCP Registry API (`/v0.1/servers`, served by the official registry and by
// any subregistry that implements it) and for a host's curated list. Every answer is untrusted:
// bodies are read up to a size, pages are cut to the limit asked for, a search stops after a
// number of pages or entries and at a cursor it has seen, and each item goes through readEntry.
// Answers are cached (a search an hour, a version forever); offline, the cache is shown with its age.
import { McpConfigError } from '../errors.js';
import { urlProblem } from '../schemas.js';
import type { RecordStorage } from '../persistence/storage.js';
import { readCapped } from '../read-capped.js';
import { relayUrlFor } from '../relay-url.js';
import { isEntry, readEntry, type RegistryEntry, type SkippedEntry } from './server-json.js';

/** The official MCP Registry. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';
/** What a host's curated entries say as their registry. */
export const CURATED = 'curated';
export const PAGE_LIMIT = 100;
/** A search stops after this many pages, or this many entries, whichever comes first. */
export const MAX_PAGES = 100;
export const MAX_ENTRIES = 10_000;
/** One answer's body is read up to this many bytes. */
export const MAX_BODY = 5 * 1024 * 1024;
/** A search answer is used without asking again for an hour; a version's answer forever. */
export const SEARCH_TTL = 60 * 60 * 1000;

export interface RegistryClientOptions {
  /** Registry base URLs (https; http only for loopback). Default: the official registry. */
  registries?: readonly string[];
  /** The host's own entries (server.json documents), shown first. */
  curated?: readonly unknown[];
  /** Where answers are cached (the hub's storage kind). Without it nothing is cached. */
  storage?: RecordStorage;
  fetch?: typeof fetch;
  now?: () => number;
  /** Entries per page asked for (1–100). */
  pageSize?: number;
  /**
   * The host's relay (`hub.relayUrl`): a registry this page cannot call (no CORS) is asked
   * through it. The relay forwards only to the origins it allows.
   */
  relayUrl?: string;
}

export interface RegistryPage {
  registry: string;
  entries: RegistryEntry[];
  skipped: SkippedEntry[];
  /** Pass to `search()` for the next page; absent at the end (or where paging stopped). */
  nextCursor?: string;
  /** Why paging stopped early (a repeated cursor, too many pages or entries, an oversized page). */
  stopped?: string;
  /** When the answer came from the cache: when it was fetched. */
  cachedAt?: number;
  /** The registry could not be reached: this is the cache (`cachedAt` says how old). */
  offline?: boolean;
}

/** The registry could not be reached or answered something that is not a registry answer. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

interface Cached {
  at: number;
  data: unknown;
}

/** A response body as text, refusing more than `max` bytes. */
async function readLimited(res: Response, max: number): Promise<string> {
  const body = await readCapped(res, max);
  if (!body) throw new RegistryError(`the answer is larger than ${max} bytes`);
  return new TextDecoder().decode(body);
}

function base(url: string): string {
  const problem = urlProblem(url);
  if (problem) throw new McpConfigError([{ path: 'registries', message: `${url} ${problem}` }]);
  return url.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly registries: readonly string[];
  readonly #curated: readonly unknown[];
  #curatedRead?: (RegistryEntry | SkippedEntry | null)[];
  readonly #storage?: RecordStorage;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #limit: number;
  readonly #relay?: string;
  /** Per search (registry + query): the cursors already followed, and the entries counted. */
  readonly #walks = new Map<string, { cursors: Set<string>; pages: number; entries: number }>();

  constructor(options: RegistryClientOptions = {}) {
    this.registries = (options.registries ?? [OFFICIAL_REGISTRY]).map(base);
    this.#curated = options.curated ?? [];
    this.#storage = options.storage;
    this.#fetch = options.fetch ?? ((...a) => fetch(...a));
    this.#now = options.now ?? Date.now;
    this.#limit = Math.min(PAGE_LIMIT, Math.max(1, Math.trunc(options.pageSize ?? 30)));
    this.#relay = options.relayUrl === undefined ? undefined : base(options.relayUrl);
  }

  /** The host's curated entries matching `query` (name, title or description), in the host's order. */
  curated(query = ''): RegistryPage {
    const q = query.trim().toLowerCase();
    const page: RegistryPage = { registry: CURATED, entries: [], skipped: [] };
    // read once: the directory asks on every render
    this.#curatedRead ??= this.#curated.slice(0, MAX_ENTRIES).map((item) => readEntry(item, CURATED));
    for (const e of this.#curatedRead) {
      if (!e) continue;
      if (!isEntry(e)) page.skipped.push(e);
      else if (!q || `${e.name} ${e.title} ${e.description}`.toLowerCase().includes(q)) page.entries.push(e);
    }
    return page;
  }

  /**
   * One page of `registry`'s latest versions matching `query`. Without `cursor` a search starts
   * over; with one, it continues (and stops at a cursor it already followed).
   */
  async search(
    query = '',
    options: { registry?: string; cursor?: string; signal?: AbortSignal } = {},
  ): Promise<RegistryPage> {
    const registry = options.registry ? base(options.registry) : this.registries[0]!;
    const q = query.trim().slice(0, 200);
    const walkKey = `${registry}\n${q}`;
    if (!options.cursor) this.#walks.set(walkKey, { cursors: new Set(), pages: 0, entries: 0 });
    const walk = this.#walks.get(walkKey) ?? { cursors: new Set<string>(), pages: 0, entries: 0 };
    this.#walks.set(walkKey, walk);
    if (options.cursor) walk.cursors.add(options.cursor);
    const params = new URLSearchParams({ version: 'latest', limit: String(this.#limit) });
    if (q) params.set('search', q);
    if (options.cursor) params.set('cursor', options.cursor);
    const url = `${registry}/v0.1/servers?${params}`;
    const { data, cachedAt, offline } = await this.#get(url, SEARCH_TTL, options.signal);
    const page = this.#page(registry, data, cachedAt, offline);
    walk.pages++;
    walk.entries += page.entries.length;
    const next = page.nextCursor;
    if (next !== undefined) {
      const stop =
        walk.cursors.has(next) || next === options.cursor
          ? 'the registry sent a cursor it had sent before'
          : walk.pages >= MAX_PAGES
            ? `more than ${MAX_PAGES} pages`
            : walk.entries >= MAX_ENTRIES
              ? `more than ${MAX_ENTRIES} entries`
              : undefined;
      if (stop) {
        delete page.nextCursor;
        page.stopped = `Stopped here: ${stop}.`;
      }
    }
    return page;
  }

  /**
   * One version of one server (`/v0.1/servers/{name}/versions/{version}`), cached for good; the
   * moving `latest` for an hour, as a search.
   */
  async version(
    name: string,
    version: string,
    options: { registry?: string; signal?: AbortSignal } = {},
  ): Promise<RegistryEntry> {
    const registry = options.registry ? base(options.registry) : this.registries[0]!;
    const url = `${registry}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    const { data } = await this.#get(url, version === 'latest' ? SEARCH_TTL : Infinity, options.signal);
    const e = readEntry(data, registry);
    if (!e) throw new RegistryError(`${name} ${version} was deleted from the registry`);
    if (!isEntry(e)) throw new RegistryError(`${e.name}: ${e.reason}`);
    return e;
  }

  #page(registry: string, data: unknown, cachedAt?: number, offline?: boolean): RegistryPage {
    const body = data as { servers?: unknown; metadata?: { nextCursor?: unknown } } | null;
    if (!body || typeof body !== 'object' || !Array.isArray(body.servers))
      throw new RegistryError('the registry answered something that is not a list of servers');
    const page: RegistryPage = { registry, entries: [], skipped: [] };
    if (cachedAt !== undefined) page.cachedAt = cachedAt;
    if (offline) page.offline = true;
    for (const item of body.servers.slice(0, this.#limit)) {
      const e = readEntry(item, registry);
      if (!e) continue;
      if (isEntry(e)) page.entries.push(e);
      else page.skipped.push(e);
    }
    if (body.servers.length > this.#limit)
      page.stopped = `The registry sent ${body.servers.length} entries for a page of ${this.#limit}; the rest were left out.`;
    const next = body.metadata?.nextCursor;
    if (typeof next === 'string' && next.length > 0 && next.length <= 1000) page.nextCursor = next;
    return page;
  }

  /** A JSON answer, from the cache while fresh, from the network else, from a stale cache offline. */
  async #get(
    url: string,
    ttl: number,
    signal?: AbortSignal,
  ): Promise<{ data: unknown; cachedAt?: number; offline?: boolean }> {
    const key = `registry:${url}`;
    const cached = await this.#storage?.get<Cached>(key).catch(() => undefined);
    const now = this.#now();
    if (cached && now - cached.at < ttl) return { data: cached.data, cachedAt: cached.at };
    let res: Response;
    const init: RequestInit = { headers: { accept: 'application/json' }, signal, credentials: 'omit' };
    try {
      res = await this.#fetch(url, init).catch((e: unknown) => {
        // no answer the page may read (no CORS, or offline): the host's relay, when it has one
        if (!this.#relay || signal?.aborted) throw e;
        return this.#fetch(relayUrlFor(this.#relay, url), init);
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      if (cached) return { data: cached.data, cachedAt: cached.at, offline: true };
      const how = this.#relay ? ', nor through the relay' : ' (offline, or it does not allow calls from this page)';
      throw new RegistryError(`${new URL(url).origin} could not be reached${how}`, { cause: e });
    }
    if (!res.ok) throw new RegistryError(`${new URL(url).origin} answered HTTP ${res.status}`);
    let data: unknown;
    try {
      data = JSON.parse(await readLimited(res, MAX_BODY));
    } catch (e) {
      if (e instanceof RegistryError) throw e;
      throw new RegistryError('the registry answered something that is not JSON', { cause: e });
    }
    const keep = this.#keepable(data);
    if (this.#storage && keep !== undefined)
      await this.#storage.set(key, { at: now, data: keep } satisfies Cached).catch(() => {});
    return { data };
  }

  /** What is cached of an answer: only the items that read as entries (a hostile one is not kept). */
  #keepable(data: unknown): unknown {
    const body = data as { servers?: unknown[]; metadata?: unknown } | null;
    if (!body || !Array.isArray(body.servers)) {
      const e = readEntry(data, '');
      return e && isEntry(e) ? data : undefined;
    }
    const servers = body.servers.slice(0, this.#limit).filter((item) => {
      const e = readEntry(item, '');
      return e !== null && isEntry(e);
    });
    return { servers, metadata: body.metadata };
  }
}
