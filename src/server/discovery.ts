// The servers a chat request names, discovered once per time-to-live. Each request opens its own
// sessions (a Worker may not touch another request's I/O, and a Lambda is frozen between
// invocations) and closes them at its end; what is cached is the catalogue, keyed by a hash of the
// name, URL and headers, so a second request within the TTL connects without listing anything
// (`hub.connect(id, { catalogue })`). An error drops the entry (a failed connect, a session ended
// in error, a call the server or the way to it failed): the next request lists again.
import type { HubKernel } from '../core/kernel.js';
import type { ServerCatalogue } from '../core/types.js';
import type { Guard } from '../edge/guard.js';

/** One MCP server of a chat request (`mcp_servers[]`). */
export interface RequestServer {
  name: string;
  url: string;
  /** Headers for this server (e.g. Authorization): secrets per request, never stored beyond the TTL. */
  headers?: Record<string, string>;
}

/** What discovery found for one server. */
export interface ServerOutcome {
  name: string;
  status: 'ready' | 'failed';
  /** The hub's id of the server, when ready. */
  id?: string;
  tools?: number;
  /** Reused from an earlier request (no tools/list). */
  cached?: boolean;
  error?: string;
}

interface Entry {
  at: number;
  catalogue: Omit<ServerCatalogue, 'serverId'>;
}

async function keyOf(s: RequestServer): Promise<string> {
  const headers = Object.entries(s.headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort();
  const bytes = new TextEncoder().encode(JSON.stringify([s.name, s.url, headers]));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The servers of one request, connected; `close()` removes them (and their sessions). */
export interface Discovered {
  outcomes: ServerOutcome[];
  /**
   * Remove the request's servers. The cached catalogue of a server is dropped when its session
   * ended in error or one of `callIds` (this request's calls) to it failed.
   */
  close(callIds?: readonly string[]): Promise<void>;
}

/** Options of `DiscoveryCache`. */
export interface DiscoveryOptions {
  /** How long a catalogue is reused, ms. */
  ttlMs: number;
  /** The connect budget per server, seconds. Default 15. */
  timeoutSeconds?: number;
  /** Catalogues kept at most (at least 1); the oldest goes first. Default 256. */
  maxEntries?: number;
  /** The clock, epoch ms (tests pass their own). Default `Date.now`. */
  now?: () => number;
}

/**
 * Failed calls that say nothing against the catalogue: the tool's own error answer, and arguments
 * the model got wrong (checked here, never sent). Any other failure drops the server's entry.
 */
const CATALOGUE_NOT_AT_FAULT = new Set(['tool-error', 'invalid-arguments']);

export class DiscoveryCache {
  /** In insertion order, which is the order of `at` (an entry re-listed is inserted anew). */
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #timeoutSeconds: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(
    private readonly hub: HubKernel,
    private readonly guard: Guard,
    options: DiscoveryOptions,
  ) {
    this.#ttlMs = options.ttlMs;
    this.#timeoutSeconds = options.timeoutSeconds ?? 15;
    this.#maxEntries = options.maxEntries ?? 256;
    this.#now = options.now ?? Date.now;
  }

  /** Catalogues held (expired ones included until the next insert sweeps them). */
  get size(): number {
    return this.#entries.size;
  }

  #remember(key: string, catalogue: Entry['catalogue']): void {
    const now = this.#now();
    this.#entries.delete(key);
    // without a sweep, a key never asked for again would stay forever; the map is in `at` order,
    // so the expired ones are at its front (a clock set back leaves some for a later sweep)
    for (const [k, e] of this.#entries) {
      if (now - e.at < this.#ttlMs) break;
      this.#entries.delete(k);
    }
    // one in, at most one out: the oldest
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { at: now, catalogue });
  }

  /** Connect every server for one request; a failing one is reported and skipped, never thrown. */
  async discover(servers: readonly RequestServer[]): Promise<Discovered> {
    const opened: { id: string; key: string }[] = [];
    const outcomes = await Promise.all(
      servers.map(async (s): Promise<ServerOutcome> => {
        const key = await keyOf(s);
        let id: string | undefined;
        try {
          await this.guard.admit(new URL(s.url)); // the SSRF rules first: a refusal is named as such
          id = (
            await this.hub.servers.add({
              name: s.name,
              url: s.url,
              headers: Object.entries(s.headers ?? {}).map(([name, value]) => ({ name, value, secret: true })),
              // a chat is waiting: a failing server is reported and skipped, not retried
              retries: 0,
              timeout: this.#timeoutSeconds,
            })
          ).id;
          opened.push({ id, key });
          const entry = this.#entries.get(key);
          const fresh = entry && this.#now() - entry.at < this.#ttlMs ? entry : undefined;
          const catalogue = await this.hub.connect(id, fresh ? { catalogue: fresh.catalogue } : {});
          if (!fresh) {
            const { serverId: _, ...kept } = catalogue;
            this.#remember(key, kept);
          }
          return { name: s.name, status: 'ready', id, tools: catalogue.tools.length, cached: !!fresh };
        } catch (e) {
          this.#entries.delete(key);
          return { name: s.name, status: 'failed', error: e instanceof Error ? e.message : String(e) };
        }
      }),
    );
    return {
      outcomes,
      close: async (callIds = []) => {
        // the records are the hub's history, which keeps the newest `historyLimit` per assistant
        // (50 in the backend): a request with more calls than that may miss its earliest failures
        const failed = new Set(
          callIds
            .map((c) => this.hub.calls.get(c))
            .filter((r) => r?.status === 'error' && !CATALOGUE_NOT_AT_FAULT.has(r.error?.code ?? ''))
            .map((r) => r!.serverId),
        );
        for (const { id, key } of opened)
          if (failed.has(id) || this.hub.status(id).status === 'error') this.#entries.delete(key);
        await Promise.all(opened.map(({ id }) => this.hub.servers.remove(id).catch(() => {})));
      },
    };
  }
}
