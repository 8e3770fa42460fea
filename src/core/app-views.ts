// MCP Apps, the hub's side that is not the view itself: where the sandbox proxy is served, the
// model context each view offered (`ui/update-model-context`), and the line `hub.status(id)`
// gives about how views of a server are shown. The views live in src/apps (lazy chunk).
import type { ContentBlock } from '@modelcontextprotocol/client';
import { McpConfigError } from './errors.js';
import type { ServerCatalogue } from './types.js';
import { toolUi } from './ui-meta.js';

/** What one view asked to be added to the model's context for the next turn. */
export interface AppModelContext {
  /** The `<mcp-app-view>` that sent it (its `viewId`). */
  readonly viewId: string;
  readonly serverId: string;
  /** The call the view shows, when it shows one. */
  readonly callId?: string;
  /** The tool whose view it is. */
  readonly tool?: string;
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** epoch ms */
  readonly updatedAt: number;
}

/** How a server's views are shown, in `hub.status(id).apps` (servers with a UI tool only). */
export interface AppsStatus {
  /**
   * `sandbox`: in the sandbox proxy page on `sandboxOrigin` (a second origin the host serves).
   * `opaque-fallback`: no sandbox configured; each view is an opaque-origin `srcdoc` iframe
   * (no `allow-same-origin`) under this page's own CSP: views that need storage, cookies or a
   * real origin will not work, and a page CSP without `'unsafe-inline'` scripts blocks them.
   */
  readonly mode: 'sandbox' | 'opaque-fallback';
  readonly sandboxOrigin?: string;
  /** Tools of the server that have a view. */
  readonly viewTools: number;
}

/** Largest model context one view may keep (characters of its JSON). */
export const MODEL_CONTEXT_LIMIT = 64 * 1024;

export class AppViews {
  #sandboxUrl?: string;
  readonly #contexts = new Map<string, AppModelContext>();

  constructor(sandboxUrl?: string) {
    if (sandboxUrl !== undefined) this.setSandboxUrl(sandboxUrl);
  }

  get sandboxUrl(): string | undefined {
    return this.#sandboxUrl;
  }

  /** The sandbox proxy page (http(s), no credentials); `null` goes back to the fallback. */
  setSandboxUrl(url: string | null): void {
    if (url === null) {
      this.#sandboxUrl = undefined;
      return;
    }
    let u: URL | undefined;
    try {
      u = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      u = undefined;
    }
    if (!u || !/^https?:$/.test(u.protocol) || u.username || u.password)
      throw new McpConfigError([{ path: 'sandboxUrl', message: 'must be an http(s) URL without credentials' }]);
    this.#sandboxUrl = u.href;
  }

  status(catalogue: ServerCatalogue | undefined): AppsStatus | undefined {
    const viewTools = catalogue?.tools.filter((t) => toolUi(t).resourceUri).length ?? 0;
    if (!viewTools) return undefined;
    return this.#sandboxUrl
      ? { mode: 'sandbox', sandboxOrigin: new URL(this.#sandboxUrl).origin, viewTools }
      : { mode: 'opaque-fallback', viewTools };
  }

  /** Keep (or with `null` forget) what a view offers the model; too large is refused. */
  setModelContext(viewId: string, entry: Omit<AppModelContext, 'viewId' | 'updatedAt'> | null): void {
    if (typeof viewId !== 'string' || !viewId)
      throw new McpConfigError([{ path: 'viewId', message: 'must be a non-empty string' }]);
    if (entry === null) {
      this.#contexts.delete(viewId);
      return;
    }
    const size = JSON.stringify({ c: entry.content, s: entry.structuredContent })?.length ?? 0;
    if (size > MODEL_CONTEXT_LIMIT)
      throw new McpConfigError([
        { path: 'modelContext', message: `is ${size} characters; at most ${MODEL_CONTEXT_LIMIT} are kept per view` },
      ]);
    this.#contexts.set(viewId, Object.freeze({ ...entry, viewId, updatedAt: Date.now() }));
  }

  modelContext(filter: { serverId?: string } = {}): AppModelContext[] {
    return [...this.#contexts.values()].filter((c) => !filter.serverId || c.serverId === filter.serverId);
  }
}
