// MCP Apps, the hub's side that is not the view itself: where the sandbox proxy is served, the
// model context views offered (`ui/update-model-context`), and what `hub.status(id).apps` says
// about how a server's views are shown. The views live in src/apps (a lazy chunk), which also
// checks and writes the model context (src/apps/model-context.ts): this part stays small because
// every page loads it.
import type { ContentBlock } from '@modelcontextprotocol/client';
import { McpConfigError } from '../errors.js';
import { urlProblem } from '../schemas.js';
import type { ServerCatalogue } from '../types.js';
import type { Answers } from '../answers/index.js';
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

export class AppViews {
  sandboxUrl?: string;
  /** Newest model context per view id (written by src/apps/model-context.ts, checked and capped there). */
  readonly contexts = new Map<string, AppModelContext>();
  /** The hub's answers: a view's sampling request goes through the servers' sampling rules (src/apps/view-host.ts). */
  answers?: Answers;

  /**
   * The sandbox page: https (http for loopback), no credentials, as server URLs; McpConfigError
   * otherwise. A template with `{server}` in its host name gives each server's views an origin of
   * their own; the apps chunk refuses one whose origin does not vary by server
   * (src/apps/sandbox-origin.ts: this part stays small, every page loads it). A page on
   * `http://<name>.localhost` is judged as `http://localhost` here only (browsers resolve every
   * `*.localhost` to loopback; a server, OAuth or relay URL is fetched from Node too, whose
   * resolver may not).
   */
  setSandboxUrl(url: unknown): void {
    const problem =
      typeof url === 'string'
        ? urlProblem(url.replace('{server}', 'a').replace(/^http:\/\/[^/@]+\.localhost\b/i, 'http://localhost'))
        : url == null
          ? null
          : 'must be a string';
    if (problem) throw new McpConfigError([{ path: 'sandboxUrl', message: problem }]);
    this.sandboxUrl = (url ?? undefined) as string | undefined;
  }

  status(catalogue: ServerCatalogue | undefined): AppsStatus | undefined {
    const viewTools = catalogue?.tools.filter((t) => toolUi(t).resourceUri).length;
    const url = this.sandboxUrl;
    if (viewTools)
      return url
        ? { mode: 'sandbox', sandboxOrigin: new URL(url).origin, viewTools }
        : { mode: 'opaque-fallback', viewTools };
  }

  modelContext({ serverId }: { serverId?: string } = {}): AppModelContext[] {
    return [...this.contexts.values()].filter((c) => !serverId || c.serverId === serverId);
  }
}
