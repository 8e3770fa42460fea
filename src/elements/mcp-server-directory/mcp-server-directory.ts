import { css, html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { baseStyles, fieldHintStyles, McpElement } from '../../internal/mcp-element.js';
import { IdbStorage, MemoryStorage, type McpHub, type RecordStorage, type ServerConfig } from '../../core/index.js';
import {
  RegistryClient,
  type RegistryEntry,
  type RegistryPage,
  type RemoteUpdate,
  type SkippedEntry,
} from '../../core/registry/index.js';
import { renderEntry } from './entry.js';
import type { Adding } from './add-form.js';
import { replaceableImport } from '../../internal/import-once.js';
import { STRINGS, type McpServerDirectoryStrings } from './strings.js';
import { McpDirectoryClosedEvent } from './directory-closed-event.js';

export type { McpServerDirectoryStrings } from './strings.js';

type AddPanel = typeof import('./add-panel.js');
const addPanel = replaceableImport<AddPanel>('the directory add form', () => import('./add-panel.js'));

const styles = css`
  h2,
  h3 {
    font-size: 1em;
    margin: 0 0 0.3rem;
  }
  ul {
    list-style: none;
    margin: 0.5rem 0;
    padding: 0;
    display: grid;
    gap: 0.4rem;
  }
  .entry,
  form.add {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    min-width: 0;
  }
  .head,
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .icon {
    width: 32px;
    height: 32px;
    object-fit: contain;
  }
  .desc,
  .title,
  code,
  pre {
    overflow-wrap: anywhere;
    margin: 0.2rem 0;
  }
  pre {
    white-space: pre-wrap;
    background: var(--_subtle);
    padding: 0.4rem;
  }
  .badge {
    border: 1px solid var(--_border);
    border-radius: 1em;
    padding: 0 0.5em;
    font-size: 0.85em;
  }
  .warn {
    color: var(--_warning);
  }
  .field {
    display: grid;
    gap: 0.15rem;
    margin: 0.4rem 0;
  }
  .field-error {
    color: var(--_danger);
    margin: 0;
  }
  .spacer {
    flex: 1;
  }
  .muted,
  .meta {
    color: var(--_muted);
    font-size: 0.9em;
  }
  input[type='search'] {
    width: 100%;
  }
`;

/** Where registry answers are cached: the host's storage, else IndexedDB beside the hub's store. */
function registryCache(hub: McpHub, storage: RecordStorage | undefined): RecordStorage {
  // a failing IndexedDB only means no cache: the client ignores storage errors
  return (
    storage ?? (typeof indexedDB === 'undefined' ? new MemoryStorage() : new IdbStorage(`${hub.storeName}-registry`))
  );
}

/**
 * Finds servers in the MCP Registry (and in the host's curated list, shown first) and adds one:
 * a field per URL variable and header the entry asks for, Test connection, Save. Package-only
 * entries show the relay's mcp.json and command line, never run. Everything a registry sends is
 * untrusted: text only, https links, raster icons, and entries that fail the server.json rules
 * are left out with their reason.
 *
 * @summary Find MCP servers in a registry and add one.
 * @tag mcp-server-directory
 *
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {string[]} registries - Registry base URLs (default: the official MCP Registry).
 * @prop {unknown[]} curated - The host's own server.json entries, shown first.
 * @prop {RecordStorage} storage - Where registry answers are cached (default: IndexedDB `<hub storeName>-registry`).
 * @prop {Partial<McpServerDirectoryStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpServerSaveRequestEvent} mcp-server-save-request - Before a server is added; cancelable.
 * @fires {McpDirectoryClosedEvent} mcp-directory-closed - Close was pressed, or a server was added (`detail.serverId`).
 *
 * @csspart entry - One entry.
 * @csspart icon - An entry's icon (raster only).
 * @csspart description - An entry's description (cut at 300 characters).
 * @csspart add-form - The add panel.
 * @csspart test-result - What Test connection found.
 * @csspart relay - A package-only entry's relay mcp.json and command line.
 */
export class McpServerDirectoryElement extends McpElement<McpServerDirectoryStrings> {
  static override properties = {
    ...McpElement.properties,
    registries: { attribute: false },
    curated: { attribute: false },
    storage: { attribute: false },
    _query: { state: true },
    _registry: { state: true },
    _pages: { state: true },
    _busy: { state: true },
    _error: { state: true },
    _adding: { state: true },
    _relay: { state: true },
    _site: { state: true },
  };
  static override styles = [baseStyles, fieldHintStyles, styles];
  /** @internal */
  protected override defaultStrings = STRINGS;
  declare registries: string[] | undefined;
  declare curated: unknown[] | undefined;
  declare storage: RecordStorage | undefined;
  declare _query: string;
  declare _registry: string | undefined;
  declare _pages: RegistryPage[];
  declare _busy: boolean;
  declare _error: string;
  declare _adding: Adding | null;
  declare _relay: string | null;
  /** "Add from a website": what the site's catalog listed. */
  declare _site: RegistryPage | null;
  #client?: RegistryClient;
  #timer?: ReturnType<typeof setTimeout>;
  #search?: AbortController;
  #searched?: Promise<void>;

  constructor() {
    super();
    this._query = '';
    this._pages = [];
    this._busy = false;
    this._error = '';
    this._adding = null;
    this._relay = null;
    this._site = null;
  }

  /** Read a website's MCP Catalog and the Server Cards it lists ("Add from a website"). */
  async lookUp(site: string): Promise<void> {
    const panel = await this.#loadPanel();
    if (!panel) return;
    this._busy = true;
    this._error = '';
    try {
      this._site = await panel.fromWebsite(site);
    } catch (e) {
      this._site = null;
      this._error = (e as Error).message;
    } finally {
      this._busy = false;
    }
  }

  /** The registry client of the current options. */
  get client(): RegistryClient {
    return (this.#client ??= new RegistryClient({
      registries: this.registries,
      curated: this.curated,
      relayUrl: this.hub.relayUrl,
      storage: registryCache(this.hub, this.storage),
    }));
  }

  /**
   * Whether a newer registry version of a saved server (one with a `source`) changes its remote.
   * Through the same cache as the directory's searches; here, in the directory's chunk (the
   * comparison in its add panel's), so the registry client stays off the first load (the manager
   * imports this chunk to ask). @internal
   */
  static async remoteUpdate(
    hub: McpHub,
    storage: RecordStorage | undefined,
    server: ServerConfig,
    signal?: AbortSignal,
  ): Promise<RemoteUpdate | undefined> {
    const panel = server.source && (await addPanel.load());
    if (!server.source || !panel) return undefined;
    const client = new RegistryClient({
      registries: [server.source.registry],
      relayUrl: hub.relayUrl,
      storage: registryCache(hub, storage),
    });
    return panel.remoteUpdate(client, server.source, server.url, signal);
  }

  override willUpdate(changed: PropertyValues<this>) {
    super.willUpdate(changed);
    if (changed.has('registries') || changed.has('curated') || changed.has('storage') || changed.has('hub')) {
      this.#client = undefined;
      this.#error(() => void this.search(this._query));
    }
  }

  #error(run: () => void) {
    try {
      run();
    } catch (e) {
      this._error = (e as Error).message;
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
    this.#search?.abort();
  }

  /** Resolves once the latest search has shown its results. @internal */
  protected override async getUpdateComplete(): Promise<boolean> {
    await this.#searched;
    await this.#panelLoad;
    return super.getUpdateComplete();
  }

  /** Put focus in the search box (the manager does when it opens the directory). */
  async focusSearch() {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#q')?.focus();
  }

  /** Search now (the search box waits 300 ms after the last key). */
  search(query: string): Promise<void> {
    this._query = query;
    this.#search?.abort();
    const ctl = (this.#search = new AbortController());
    this._busy = true;
    this._error = '';
    const run = this.client
      .search(query, { registry: this._registry, signal: ctl.signal })
      .then((page) => {
        if (ctl.signal.aborted) return;
        this._pages = [page];
      })
      .catch((e: Error) => {
        if (ctl.signal.aborted) return;
        this._pages = [];
        this._error = e.message;
      })
      .finally(() => {
        if (!ctl.signal.aborted) this._busy = false;
      });
    return (this.#searched = run);
  }

  async #more() {
    const last = this._pages.at(-1);
    if (!last?.nextCursor) return;
    this._busy = true;
    try {
      const page = await this.client.search(this._query, { registry: last.registry, cursor: last.nextCursor });
      this._pages = [...this._pages, page];
    } catch (e) {
      this._error = (e as Error).message;
    } finally {
      this._busy = false;
    }
    await this.updateComplete;
    // the first new entry takes focus: the keyboard continues where the list grew
    const items = this.renderRoot.querySelectorAll<HTMLElement>('li.entry button');
    items[items.length - 1]?.focus();
  }

  #typed(e: Event) {
    const q = (e.target as HTMLInputElement).value;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.search(q), 300);
  }

  #close(serverId?: string) {
    this.emit(new McpDirectoryClosedEvent(serverId ? { serverId } : {}));
  }

  #panel?: AddPanel;

  /** The add form's chunk; false (and said) when it could not be fetched. */
  #loadPanel(): Promise<AddPanel | undefined> {
    const loading = (this.#panelLoad = addPanel.load().then((m) => {
      this.#panel ??= m;
      if (!m) this._error = this.t('panelFailed');
      return m;
    }));
    return loading;
  }
  #panelLoad?: Promise<AddPanel | undefined>;

  async #add(entry: RegistryEntry) {
    const panel = await this.#loadPanel();
    const remote = panel?.chooseRemote(entry);
    if (!panel || !remote) return;
    this._adding = panel.startAdding(entry, remote);
    this.updateComplete.then(() =>
      (this.renderRoot.querySelector('form.add input, form.add select') as HTMLElement | null)?.focus(),
    );
  }

  async #toggleRelay(key: string) {
    if (this._relay === key) this._relay = null;
    else if (await this.#loadPanel()) this._relay = key;
  }

  #relayPanel(entry: RegistryEntry) {
    const pkg = entry.packages[0]!;
    const r = this.#panel!.relayCommand(entry, pkg, location.origin);
    if ('problem' in r) return html`<p class="field-error" part="relay">${r.problem}</p>`;
    return html`<div part="relay" class="relay">
      <p>${this.t('relayIntro')}</p>
      <p class="muted">${this.t('relayConfig')}</p>
      <pre tabindex="0" aria-label=${this.t('relayConfig')}><code data-relay="config">${r.config}</code></pre>
      <p class="muted">${this.t('relayCommand')}</p>
      <pre tabindex="0" aria-label=${this.t('relayCommand')}><code data-relay="command">${r.command}</code></pre>
    </div>`;
  }

  #renderList(entries: RegistryEntry[], offset: number) {
    // keyed: a page added by "More" leaves the rows (and the focus in them) in place
    return repeat(
      entries,
      (entry) => `${entry.registry} ${entry.name}`,
      (entry, i) =>
        renderEntry(entry, offset + i, (k) => this.t(k), {
          add: () => void this.#add(entry),
          relay: () => void this.#toggleRelay(`${entry.registry} ${entry.name}`),
          relayOpen: this._relay === `${entry.registry} ${entry.name}`,
          relayPanel: this._relay === `${entry.registry} ${entry.name}` ? this.#relayPanel(entry) : nothing,
        }),
    );
  }

  override render() {
    const t = (k: keyof McpServerDirectoryStrings) => this.t(k);
    if (this._adding && this.#panel)
      return this.#panel.renderAddForm({
        hub: this.hub,
        t: (k) => this.t(k),
        adding: this._adding,
        set: (next) => (this._adding = next),
        emit: (e) => this.emit(e),
        added: (id) => {
          this._adding = null;
          this.#close(id);
        },
      });
    let curated: RegistryPage | undefined;
    this.#error(() => (curated = this.client.curated(this._query)));
    const found = this._pages.flatMap((p) => p.entries);
    const site = this._site;
    const skipped: SkippedEntry[] = [
      ...(site?.skipped ?? []),
      ...(curated?.skipped ?? []),
      ...this._pages.flatMap((p) => p.skipped),
    ];
    const last = this._pages.at(-1);
    const stale = this._pages.find((p) => p.offline);
    return html`
      <div class="row">
        <h2>${t('title')}</h2>
        <span class="spacer"></span>
        <button type="button" data-action="close" @click=${() => this.#close()}>${t('close')}</button>
      </div>
      <label for="q">${t('search')}</label>
      <input id="q" type="search" autocomplete="off" .value=${this._query} @input=${this.#typed} />
      ${
        (this.#client?.registries.length ?? 0) > 1
          ? html`<label for="reg">${t('registry')}</label>
              <select
                id="reg"
                @change=${(e: Event) => {
                  this._registry = (e.target as HTMLSelectElement).value;
                  void this.search(this._query);
                }}
              >
                ${this.#client!.registries.map((r) => html`<option value=${r} ?selected=${r === this._registry}>${new URL(r).host}</option>`)}
              </select>`
          : nothing
      }
      <p role="status" class="muted" part="status">
        ${this._busy ? t('loading') : ''}
        ${stale ? `${t('offline')} ${Math.round((Date.now() - stale.cachedAt!) / 60000)} ${t('minutesAgo')}.` : ''}
        ${!this._busy && !this._error && !found.length && !curated?.entries.length ? t('none') : ''}
      </p>
      ${this._error ? html`<p class="field-error" role="alert">${this._error}</p>` : nothing}
      ${
        curated?.entries.length
          ? html`<h3>${t('curated')}</h3>
              <ul aria-label=${t('curated')}>
                ${this.#renderList(curated.entries, 0)}
              </ul>`
          : nothing
      }
      ${
        found.length
          ? html`<ul aria-label=${t('title')}>
              ${this.#renderList(found, 1000)}
            </ul>`
          : nothing
      }
      ${this._pages.map((p) => (p.stopped ? html`<p class="muted">${p.stopped}</p>` : nothing))}
      ${
        last?.nextCursor
          ? html`<button type="button" data-action="more" ?disabled=${this._busy} @click=${() => void this.#more()}>
              ${t('more')}
            </button>`
          : nothing
      }
      <details part="website">
        <summary>${t('addFromSite')}</summary>
        <form
          class="row"
          @submit=${(e: Event) => {
            e.preventDefault();
            void this.lookUp((this.renderRoot.querySelector('#site') as HTMLInputElement).value);
          }}
        >
          <label for="site">${t('websiteLabel')}</label>
          <input id="site" type="text" inputmode="url" autocomplete="off" placeholder="example.com" />
          <button type="submit" data-action="look-up">${t('lookUp')}</button>
        </form>
      </details>
      ${
        site?.entries.length
          ? html`<h3>${t('fromSite')} ${new URL(site.registry).host}</h3>
              <ul aria-label=${`${t('fromSite')} ${new URL(site.registry).host}`}>
                ${this.#renderList(site.entries, 2000)}
              </ul>`
          : nothing
      }
      ${
        skipped.length
          ? html`<details part="skipped">
              <summary>${skipped.length} ${t('skipped')}</summary>
              <ul>
                ${skipped.map((s) => html`<li><code>${s.name}</code>: ${s.reason}</li>`)}
              </ul>
            </details>`
          : nothing
      }
    `;
  }
}
