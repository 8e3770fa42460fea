import { html, nothing, type CSSResult, type PropertyValues } from 'lit';
import { loadValidator } from '../../core/index.js';
import { StoreController } from '../../controllers/store-controller.js';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import type { ExplorerContext, Shown, TabPanel, TabView } from './host.js';
import { ResourceWatch } from './resource-watch.js';
import { STRINGS, type McpToolExplorerStrings, type Translate } from './strings.js';
import { styles } from './mcp-tool-explorer.styles.js';
import { definePanel, loadedPanel, loadPanel, TABS, type LazyTab, type Tab } from './tabs.js';
import { renderToolList } from './tool-list.js';
import { ToolsState, type Entry } from './tools-state.js';
import { renderAbout } from './about.js';
import { identityStyles } from '../../internal/server-identity.js';
import { importOnce } from '../../internal/import-once.js';

export type { McpToolExplorerStrings } from './strings.js';

/** The selected tool's panel, with its "Try it" form (one chunk in the CDN build), once loaded. */
let detail: typeof import('./tool-detail.js') | undefined;
const loadDetail = importOnce("the selected tool's panel", () =>
  // with the validator the form and Run check arguments with (a chunk too)
  Promise.all([import('./tool-detail.js'), loadValidator()]).then(([m]) => {
    // the element's defaults (`t()` falls back to them) are complete for the panel from now on
    Object.assign(STRINGS, m.DETAIL_STRINGS);
    detail = m;
  }),
);

/** Fetch a tab's chunk ahead of its first show (pointer or focus on the tab); a failure waits for the show. */
function preload(tab: Tab) {
  if (tab !== 'tools') loadPanel(tab).catch(() => {});
}

/**
 * Browse and try the tools of one server (`server-id`) or of all: search, annotation badges,
 * icons, input and output schemas, "Try it" with a form generated from the input schema (or raw
 * JSON), and the call as a `<mcp-tool-call>` card (progress, Cancel, result or error). Tabs for
 * resources (list, templates, read, "Watch" a resource of a server that offers subscriptions:
 * an update marks it and re-reads it when open), prompts (list, get; a required argument left empty
 * stops Get and says so by the field), what a Read or a Get answered taking focus and scrolling
 * into view, the server's suggestions for prompt arguments and template variables
 * (`completion/complete`, when it declares `completions`: a datalist, asked as the user types), skills (SEP-2640: listed when
 * the tab is shown; "Use in chat" loads and verifies one, which fires `mcp-skill-loaded`) and the
 * server's log (messages it sent, filtered by level, copied, cleared; the level asked of the server).
 * The tool list is virtualised: thousands of tools stay responsive.
 *
 * @summary Explore an MCP server's tools, resources and prompts, and try them.
 * @tag mcp-tool-explorer
 *
 * @attr server-id - Show one server; all servers when absent.
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpToolExplorerStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpToolCallRequestEvent} mcp-tool-call-request - From the hub when "Try it" runs a tool; cancelable.
 * @fires {McpToolCallCompletedEvent} mcp-tool-call-completed - From the hub when it returns.
 * @fires {McpSkillLoadedEvent} mcp-skill-loaded - From the hub when "Use in chat" loaded a skill.
 *
 * @csspart about - Who the shown servers are: icon, title, description, protocol revision, website.
 * @csspart instructions - A server's instructions for the assistant (a disclosure).
 * @csspart revision - A server's protocol revision, in words.
 * @csspart server-icon - A server's icon (inline raster images only).
 * @csspart tabs - The tab list.
 * @csspart search - The search box.
 * @csspart list - The (virtualised) tool list.
 * @csspart detail - The selected tool's panel.
 * @csspart try - The "Try it" section.
 * @csspart call - The `<mcp-tool-call>` card of a "Try it" call (progress, Cancel, result, error).
 * @csspart result - A resource's or prompt's contents.
 * @csspart updated - The "Updated" mark of a watched resource the server changed since it was last read.
 * @csspart log - The log tab's panel.
 *
 * @cssprop --mcp-tool-explorer-list-height - Height of the tool list.
 */
export class McpToolExplorerElement extends McpElement<McpToolExplorerStrings> {
  static override properties = {
    ...McpElement.properties,
    serverId: { attribute: 'server-id' },
    _tab: { state: true },
    _tabFailed: { state: true },
  };
  static override styles = [baseStyles, styles, identityStyles];
  /** Show only this server's tools. */
  declare serverId?: string;
  declare _tab: Tab;
  /** The shown tab's chunk could not be loaded (showing the tab again retries). */
  declare _tabFailed?: { tab: LazyTab; message: string };
  // the Resources, Prompts and Log tabs' own strings join these when their chunks arrive (tabs.ts)
  /** @internal */
  protected override defaultStrings = STRINGS as McpToolExplorerStrings;
  readonly #view = new StoreController(this, (s) => ({
    servers: s.servers,
    catalogues: s.catalogues,
    logs: s.logs,
    connections: s.connections,
    resourceSubscriptions: s.resourceSubscriptions,
  }));
  /** The lazy tabs' views, each made the first time its tab is shown; each holds its own state. */
  readonly #tabs = new Map<LazyTab, TabView>();
  /** Resource updates from the hub (the resources tab's "Watch"); a controller. */
  readonly #watch = new ResourceWatch(this, (serverId, uri) => this.#tabs.get('resources')?.reread?.(serverId, uri));
  /** What the parts (the tabs, the watch) see of the explorer (host.ts). */
  readonly #context: ExplorerContext = {
    host: this,
    shownServers: () => this.#shownServers(),
    subscriptions: (id) => this.#view.value.resourceSubscriptions[id] ?? [],
    updates: this.#watch,
  };
  /** The Tools tab's state (search, selection, "Try it"). */
  readonly #tools = new ToolsState(this.#context);
  readonly #tr: Translate = (key) => this.t(key);
  /** The lazy tabs' strings are typed in their own modules. */
  readonly #anyTr = (key: string) => this.t(key as keyof McpToolExplorerStrings) as string;
  /** The selected tool's panel, while it loads (or why it could not). */
  #formLoad?: Promise<unknown>;
  #formFailed?: string;
  /** The shown tab's chunk, while it loads. */
  #tabLoad?: { tab: LazyTab; done: Promise<void> };

  /** The tabs' style sheets already added to this shadow root. */
  readonly #tabStyles = new Set<CSSResult>();

  /**
   * A tab's module hands over its panel here as it runs (tabs.ts). Through the element class on
   * purpose: the tabs' chunks then depend on the element's chunk, not on lit alone, and rolldown
   * keeps lit in the one chunk every element shares (else it splits lit off: one more request
   * and more bytes on every element's page; decision 054). @internal
   */
  static _definePanel(tab: LazyTab, panel: TabPanel): void {
    definePanel(tab, panel);
  }

  constructor() {
    super();
    this._tab = 'tools';
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('hub')) this.#view.refresh();
    // the selected tool's panel and its "Try it" form are a chunk of their own, loaded when a tool is first shown
    if (this.#tools.selected !== undefined)
      this.#formLoad ??= loadDetail().then(
        () => this.requestUpdate(),
        (e: unknown) => {
          console.error("mcp-elements: could not load the explorer's tool panel:", e);
          this.#formFailed = e instanceof Error ? e.message : String(e);
          this.requestUpdate();
        },
      );
    // so is each tab but Tools, loaded when first shown
    const tab = this._tab;
    if (tab !== 'tools' && !loadedPanel(tab) && this._tabFailed?.tab !== tab && this.#tabLoad?.tab !== tab)
      this.#loadTab(tab);
  }

  #loadTab(tab: LazyTab) {
    const done: Promise<void> = loadPanel(tab)
      .then(
        () => this.requestUpdate(),
        (e: unknown) => {
          console.error(`mcp-elements: could not load the explorer's ${tab} tab:`, e);
          if (this._tab === tab) this._tabFailed = { tab, message: e instanceof Error ? e.message : String(e) };
        },
      )
      .finally(() => {
        if (this.#tabLoad?.done === done) this.#tabLoad = undefined;
      });
    this.#tabLoad = { tab, done };
  }

  /** Show a tab; showing one whose chunk failed to load tries again. */
  #show(tab: Tab) {
    this._tabFailed = undefined;
    this._tab = tab;
  }

  /**
   * Resolves once rendered, including the shown tab and the "Try it" form when their chunks were
   * still loading. @internal
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.#tabLoad) {
      await this.#tabLoad.done;
      done = (await super.getUpdateComplete()) && done;
    }
    if (this.#formLoad) {
      await this.#formLoad;
      const form = this.renderRoot.querySelector('mcp-schema-form') as { updateComplete?: Promise<boolean> } | null;
      await form?.updateComplete;
      done = (await super.getUpdateComplete()) && done;
    }
    return done;
  }

  /** The servers shown (one, or all) that have a catalogue. */
  #shownServers(): Shown[] {
    const { catalogues } = this.#view.value;
    return this.hub.servers
      .list()
      .filter((s) => (!this.serverId || s.id === this.serverId) && catalogues[s.id])
      .map((server) => ({ server, catalogue: catalogues[server.id] }));
  }

  /** The updates seen per watched resource (`serverId\0uri`) since it was last read (resource-watch.ts). @internal */
  get _updated(): Readonly<Record<string, number>> {
    return this.#watch.marks;
  }

  /** Every tool shown. */
  get entries(): Entry[] {
    return this.#tools.entries;
  }

  /** The tools matching the search. */
  get filtered(): Entry[] {
    return this.#tools.filtered;
  }

  #onTabKey(e: KeyboardEvent) {
    const i = TABS.indexOf(this._tab);
    const n = TABS.length;
    const next = e.key === 'ArrowRight' ? TABS[(i + 1) % n] : e.key === 'ArrowLeft' ? TABS[(i + n - 1) % n] : undefined;
    if (!next) return;
    e.preventDefault();
    this.#show(next);
    this.updateComplete.then(() => (this.renderRoot.querySelector(`#tab-${next}`) as HTMLElement | null)?.focus());
  }

  /** The selected tool's panel, a note while its chunk comes, or what to do first. */
  #renderDetail() {
    const t = this.#tools;
    if (t.selected !== undefined && detail) return detail.renderToolDetail(t, this.#tr);
    const failed = t.selected !== undefined && this.#formFailed;
    return html`<div class="detail" part="detail">
      ${
        failed
          ? html`<p class="error-text" role="alert">${this.t('tabFailed')} <span class="muted">${failed}</span></p>`
          : html`<p class="muted" role=${t.selected === undefined ? nothing : 'status'}>
              ${this.t(t.selected === undefined ? 'choose' : 'tabLoading')}
            </p>`
      }
    </div>`;
  }

  #renderPanel() {
    const tab = this._tab;
    if (tab === 'tools')
      return html`<div class="layout">${renderToolList(this.#tools, this.#tr)}${this.#renderDetail()}</div>`;
    const panel = loadedPanel(tab);
    if (panel) {
      panel.styles.forEach((sheet) => this.#adoptStyles(sheet));
      let view = this.#tabs.get(tab);
      if (!view) this.#tabs.set(tab, (view = panel.create(this.#context)));
      return view.render(this.#anyTr);
    }
    const failed = this._tabFailed?.tab === tab ? this._tabFailed : undefined;
    if (failed)
      return html`<p class="error-text" role="alert">
        ${this.t('tabFailed')} <span class="muted">${failed.message}</span>
      </p>`;
    return html`<p class="muted" role="status">${this.t('tabLoading')}</p>`;
  }

  /** Add a tab's rules to this shadow root, once (a constructed sheet: no inline style for CSP to block). */
  #adoptStyles(styles: CSSResult) {
    if (this.#tabStyles.has(styles)) return;
    this.#tabStyles.add(styles);
    const root = this.renderRoot as ShadowRoot;
    const sheet = styles.styleSheet;
    if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    else {
      // no constructable sheets: a <style>, as lit itself falls back to for the element's own
      const style = document.createElement('style');
      style.textContent = styles.cssText;
      root.append(style);
    }
  }

  override render() {
    return html`${renderAbout(this.#context, this.#tr)}
      <div role="tablist" part="tabs" aria-label=${this.t('tools')} @keydown=${this.#onTabKey}>
        ${TABS.map(
          (t) =>
            html`<button
              role="tab"
              id=${`tab-${t}`}
              aria-controls=${`panel-${t}`}
              aria-selected=${this._tab === t ? 'true' : 'false'}
              tabindex=${this._tab === t ? 0 : -1}
              @click=${() => this.#show(t)}
              @pointerenter=${() => preload(t)}
              @focus=${() => preload(t)}
            >
              ${this.t(t)}
            </button>`,
        )}
      </div>
      <div
        role="tabpanel"
        id=${`panel-${this._tab}`}
        aria-labelledby=${`tab-${this._tab}`}
        aria-busy=${this._tab !== 'tools' && !loadedPanel(this._tab) && this._tabFailed?.tab !== this._tab ? 'true' : nothing}
      >
        ${this.#renderPanel()}
      </div>`;
  }
}
