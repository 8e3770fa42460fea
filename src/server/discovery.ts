// The servers a chat request names, discovered once per time-to-live. Each request opens its own
// sessions (a Worker may not touch another request's I/O, and a Lambda is frozen between
// invocations) and closes them at its end; what is cached is the catalogue, keyed by a hash of the
// name, URL and headers, so a second request within the TTL connects without listing anything
// (`hub.connect(id, { catalogue })`). An error drops the entry: the next request lists again.
import type { McpHub, ServerCatalogue } from '../core/index.js';
import type { Guard } from '../relay/guard.js';

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
  /** Drop the cached catalogue of every server whose session failed meanwhile. */
  close(): Promise<void>;
}

export class DiscoveryCache {
  readonly #entries = new Map<string, Entry>();
  constructor(
    private readonly hub: McpHub,
    private readonly guard: Guard,
    private readonly ttlMs: number,
    private readonly timeoutSeconds = 15,
  ) {}

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
              timeout: this.timeoutSeconds,
            })
          ).id;
          opened.push({ id, key });
          const entry = this.#entries.get(key);
          const fresh = entry && Date.now() - entry.at < this.ttlMs ? entry : undefined;
          if (entry && !fresh) this.#entries.delete(key);
          const catalogue = await this.hub.connect(id, fresh ? { catalogue: fresh.catalogue } : {});
          if (!fresh) {
            const { serverId: _, ...kept } = catalogue;
            this.#entries.set(key, { at: Date.now(), catalogue: kept });
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
      close: async () => {
        for (const { id, key } of opened) if (this.hub.status(id).status === 'error') this.#entries.delete(key);
        await Promise.all(opened.map(({ id }) => this.hub.servers.remove(id).catch(() => {})));
      },
    };
  }
}
