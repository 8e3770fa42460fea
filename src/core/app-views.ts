// MCP Apps, the hub's side that is not the view itself: where the sandbox proxy is served, the
// model context each view offered (`ui/update-model-context`), and what `hub.status(id).apps`
// says about how a server's views are shown. The views live in src/apps (a lazy chunk); this
// part stays small because every page loads it.
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
const LIMIT = 65536;

/** The sandbox page as a URL (http(s), no credentials), or McpConfigError. */
function sandboxHref(url: unknown): string {
  const u = URL.canParse(String(url)) ? new URL(String(url)) : undefined;
  if (typeof url !== 'string' || !u || !/^https?:$/.test(u.protocol) || u.username || u.password)
    throw new McpConfigError([{ path: 'sandboxUrl', message: 'must be an http(s) URL without credentials' }]);
  return u.href;
}

export class AppViews {
  sandboxUrl?: string;
  readonly #contexts = new Map<string, AppModelContext>();

  constructor(sandboxUrl?: string) {
    if (sandboxUrl !== undefined) this.sandboxUrl = sandboxHref(sandboxUrl);
  }

  setSandboxUrl(url: string | null): void {
    this.sandboxUrl = url === null ? undefined : sandboxHref(url);
  }

  status(catalogue: ServerCatalogue | undefined): AppsStatus | undefined {
    const viewTools = catalogue?.tools.filter((t) => toolUi(t).resourceUri).length;
    const url = this.sandboxUrl;
    if (viewTools)
      return url
        ? { mode: 'sandbox', sandboxOrigin: new URL(url).origin, viewTools }
        : { mode: 'opaque-fallback', viewTools };
  }

  setModelContext(viewId: string, entry: Omit<AppModelContext, 'viewId' | 'updatedAt'> | null): void {
    const size = JSON.stringify(entry ?? 0).length;
    if (typeof viewId !== 'string' || !viewId || size > LIMIT)
      throw new McpConfigError([{ path: 'modelContext', message: `needs a view id and at most ${LIMIT} characters` }]);
    if (entry) this.#contexts.set(viewId, Object.freeze({ ...entry, viewId, updatedAt: Date.now() }));
    else this.#contexts.delete(viewId);
  }

  modelContext(filter: { serverId?: string } = {}): AppModelContext[] {
    return [...this.#contexts.values()].filter((c) => !filter.serverId || c.serverId === filter.serverId);
  }
}
