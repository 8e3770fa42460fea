// The servers a chat request names, kept connected in the backend's hub for a time-to-live:
// a second request within the TTL reuses the session and its catalogue (no tools/list); an error
// drops the entry, and the next request discovers again. Entries are keyed by a hash of the URL
// and headers, so two callers with different credentials never share a session.
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
  ready: Promise<{ id: string; catalogue: ServerCatalogue }>;
}

async function keyOf(s: RequestServer): Promise<string> {
  const headers = Object.entries(s.headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort();
  const bytes = new TextEncoder().encode(JSON.stringify([s.name, s.url, headers]));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class DiscoveryCache {
  readonly #entries = new Map<string, Entry>();
  constructor(
    private readonly hub: McpHub,
    private readonly guard: Guard,
    private readonly ttlMs: number,
    private readonly timeoutSeconds = 15,
  ) {}

  /** Connect (or reuse) every server; a failing one is reported and skipped, never thrown. */
  discover(servers: readonly RequestServer[], now = Date.now()): Promise<ServerOutcome[]> {
    return Promise.all(servers.map((s) => this.#one(s, now)));
  }

  async #one(s: RequestServer, now: number): Promise<ServerOutcome> {
    const key = await keyOf(s);
    let entry = this.#entries.get(key);
    let cached = true;
    if (entry && now - entry.at >= this.ttlMs) {
      this.#drop(key, entry);
      entry = undefined;
    }
    if (!entry) {
      cached = false;
      entry = { at: now, ready: this.#connect(s) };
      this.#entries.set(key, entry);
    }
    try {
      const { id, catalogue } = await entry.ready;
      if (cached && this.hub.status(id).status !== 'connected') throw new Error('the session was lost');
      return { name: s.name, status: 'ready', id, tools: catalogue.tools.length, cached };
    } catch (e) {
      if (this.#entries.get(key) === entry) this.#drop(key, entry);
      return { name: s.name, status: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
  }

  async #connect(s: RequestServer): Promise<{ id: string; catalogue: ServerCatalogue }> {
    // the SSRF rules first, so a refused URL is named as such (and nothing is sent)
    await this.guard.admit(new URL(s.url));
    const server = await this.hub.servers.add({
      name: s.name,
      url: s.url,
      headers: Object.entries(s.headers ?? {}).map(([name, value]) => ({ name, value, secret: true })),
      // a chat is waiting: a failing server is reported and skipped, not retried
      retries: 0,
      timeout: this.timeoutSeconds,
    });
    try {
      return { id: server.id, catalogue: await this.hub.connect(server.id) };
    } catch (e) {
      await this.hub.servers.remove(server.id).catch(() => {});
      throw e;
    }
  }

  /** Drop every entry whose session is no longer connected (a failed call): rediscovered next time. */
  sweep(): void {
    for (const [key, entry] of this.#entries)
      void entry.ready
        .then(({ id }) => {
          if (this.hub.status(id).status !== 'connected' && this.#entries.get(key) === entry) this.#drop(key, entry);
        })
        .catch(() => {});
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    void entry.ready.then(({ id }) => this.hub.servers.remove(id)).catch(() => {});
  }
}
