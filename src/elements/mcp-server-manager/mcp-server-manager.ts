import { html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { StoreController } from '../../controllers/store-controller.js';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import { EMPTY_FORM, formFromServer } from './form-state.js';
import { ServerFormState, ServerRowsState, type Editing, type ImportExport } from './manager-state.js';
import type { ManagerUi } from './ui.js';
import { renderImportExport, renderServer } from './list.js';
import { identityStyles } from '../../internal/server-identity.js';
import { styles } from './mcp-server-manager.styles.js';
import { loadForm, type FormModule } from './form-loader.js';
import { STRINGS, type McpServerManagerStrings } from './strings.js';
import { loadDirectory, renderDirectory, type DirectoryOptions } from './directory-hook.js';
import { RegistryNotices, renderRemoteUpdate, type RemoteUpdate } from './registry-notices.js';
import type { McpServerDirectoryElement } from '../mcp-server-directory/mcp-server-directory.js';

export type { McpServerManagerStrings } from './strings.js';

/**
 * Lists the hub's MCP servers (status, tool count, last error, enable switch) and adds, edits,
 * tests, removes, imports and exports them. Field errors come from the same schema the core uses.
 *
 * @summary Manage MCP servers: add, edit, test, remove, import and export.
 * @tag mcp-server-manager
 *
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpServerManagerStrings>} strings - Replacement user-visible strings.
 * @prop {DirectoryOptions} directory - "Find servers": `{ registries, curated, storage }` for its `<mcp-server-directory>`.
 *
 * @fires {McpServerSaveRequestEvent} mcp-server-save-request - Before a server is added or changed; cancelable.
 * @fires {McpServerRemoveRequestEvent} mcp-server-remove-request - Before a confirmed removal; cancelable.
 * @fires {McpServerAddedEvent} mcp-server-added - From the hub, after an add.
 * @fires {McpServerUpdatedEvent} mcp-server-updated - From the hub, after a change.
 * @fires {McpServerRemovedEvent} mcp-server-removed - From the hub, after a removal.
 * @fires {McpSignInCompletedEvent} mcp-sign-in-completed - From the hub, after Sign in succeeded.
 * @fires {McpSignInFailedEvent} mcp-sign-in-failed - From the hub, when Sign in failed.
 * @fires {McpSignOutCompletedEvent} mcp-sign-out-completed - From the hub, after Sign out.
 *
 * @csspart list - The server list.
 * @csspart server - One server.
 * @csspart status - A server's status (dot and text).
 * @csspart attempt - While connecting: which attempt of how many, and the seconds spent of the
 *   connect budget (the server's timeout, across every attempt).
 * @csspart relay-offer - After a CORS failure, when the hub has a `relayUrl`: the sentence offering the relay and its button.
 * @csspart relay - A relayed server's relay, by host: "via the relay …" in its row, and a line in its edit form.
 * @csspart revision - In a connected server's edit form: the protocol revision it negotiated, in words ("MCP 2025-11-25 (with a session)", "Plain JSON-RPC (no MCP handshake)"). Its row keeps it as the status's title.
 * @csspart tool-count - A server's tool count: the tools a model can be offered, then "· M only for app views" (with a title) when it also has app-only tools.
 * @csspart registry-update - A server saved from a registry entry whose newer version is reached another way: which version, where, and Review.
 * @csspart registry-review - In the edit form opened by Review: the newer version's address and headers.
 * @csspart about - What the server says it is (title, version, description from its initialize result), one line.
 * @csspart server-icon - The server's icon (inline raster images only).
 * @csspart sign-in - An OAuth server's sign-in line, in words: who issued the sign-in, what it allows, when it renews or ends; or why signing in failed. Its Sign in / Sign out button is in the server's action row.
 * @csspart test-description - The server's description in the "Test connection" result.
 * @csspart form - The add/edit form.
 * @csspart form-failed - Shown instead of the form when its chunk could not be fetched: the alert and Cancel.
 * @csspart notice - The notice about what a server receives.
 * @csspart field-warning - A warning under a form field that does not stop saving (a name
 *   another server already has).
 * @csspart test-result - What "Test connection" found.
 * @csspart io - The import/export panel.
 *
 * @cssprop --mcp-server-manager-dot-size - Size of the status dot.
 */
export class McpServerManagerElement extends McpElement<McpServerManagerStrings> {
  static override properties = {
    ...McpElement.properties,
    directory: { attribute: false },
    _finding: { state: true },
  };
  static override styles = [baseStyles, styles, identityStyles];
  /** @internal */
  protected override defaultStrings = STRINGS;
  /** "Find servers": the host's registries and curated list (src/elements/mcp-server-directory). */
  declare directory: DirectoryOptions | undefined;
  /** The directory is open (once its chunk loaded); false: closed, or its chunk failed. */
  declare _finding: boolean;
  readonly #view = new StoreController(this, (s) => ({
    servers: s.servers,
    connections: s.connections,
    catalogues: s.catalogues,
    signIns: s.signIns,
  }));
  /** The add/edit form's state, and the rows' and import/export panel's (manager-state.ts). */
  readonly #form = new ServerFormState(this);
  readonly #rows = new ServerRowsState(this);
  readonly #ui: ManagerUi = ((host) => ({
    get hub() {
      return host.hub; // the host may set another hub
    },
    t: (key) => this.t(key),
    emit: (event) => this.emit(event),
    state: () => this.#view.value,
    form: this.#form,
    rows: this.#rows,
    rendered: () => this.updateComplete,
    query: <T extends Element = HTMLElement>(selector: string) => this.renderRoot.querySelector<T>(selector),
    focus: async (selector: string) => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
    },
    startEdit: (id) => this.startEdit(id),
    closeForm: () => this.closeForm(),
  }))(this);

  /** Which form is open (kept for tests and hosts that read it). @internal */
  get _editing(): Editing {
    return this.#form.editing;
  }
  set _editing(editing: Editing) {
    this.#form.set({ editing });
  }
  /** The import/export panel's state. @internal */
  get _io(): ImportExport {
    return this.#rows.io;
  }
  set _io(io: ImportExport) {
    this.#rows.set({ io });
  }

  constructor() {
    super();
    this._finding = false;
  }

  /** Registry notices, asked through the directory's chunk (it holds the registry client). */
  readonly #notices = new RegistryNotices(this, async (server, signal) => {
    if (!(await loadDirectory())) return undefined;
    const directory = customElements.get('mcp-server-directory') as typeof McpServerDirectoryElement | undefined;
    return directory?.remoteUpdate(this.hub, this.directory?.storage, server, signal);
  });

  /**
   * Review a registry notice: the server's edit form with the newer version's address filled in
   * (when it has no parts to fill) and its transport; Save records that version as its source.
   */
  reviewUpdate(id: string, update: RemoteUpdate) {
    this.startEdit(id);
    const form = this.#form;
    if (form.editing?.mode !== 'edit') return;
    const fields = { ...form.fields, transport: update.transport, ...(update.templated ? {} : { url: update.url }) };
    form.set({ fields, reviewing: { id, update } });
  }

  /** Open "Find servers" (the directory's chunk is fetched the first time). */
  async startFind() {
    this._finding = await loadDirectory();
    await this.updateComplete;
    await this.renderRoot.querySelector('mcp-server-directory')?.focusSearch();
  }

  /** Open the add form. */
  startAdd() {
    this.#form.open({ mode: 'add' }, { ...EMPTY_FORM, headers: [] });
    this.#openForm();
  }

  /** Open the edit form for a server. */
  startEdit(id: string) {
    const s = this.hub.servers.get(id);
    if (!s) return;
    this.#form.open({ mode: 'edit', id }, formFromServer(s));
    this.#openForm();
  }

  /**
   * Close the form. An edit form closes back onto its row: the row stays in view and focus goes
   * to its Edit button (not to the page start, where the removed form would leave it).
   */
  closeForm() {
    const editing = this.#form.editing;
    this.#form.set({ editing: null });
    if (editing?.mode !== 'edit') return;
    this.updateComplete.then(() => {
      const row = this.renderRoot.querySelector(`[data-server="${CSS.escape(editing.id)}"]`);
      row?.scrollIntoView?.({ block: 'nearest' });
      (row?.querySelector('[data-action=edit]') as HTMLElement | null)?.focus({ preventScroll: true });
    });
  }

  #openForm() {
    // the form is a chunk of its own, loaded the first time it opens
    if (!this.#formModule) {
      this.#form.set({ failed: false }); // loading again: say so, not the last failure
      const loading = (this.#formLoad = loadForm().then((m) => {
        if (this.#formLoad !== loading) return;
        this.#formLoad = undefined;
        this.#formModule = m;
        this.#form.set({ failed: !m });
      }));
    }
    this.updateComplete.then(() => {
      // an edit opens inside its row: the row's top stays in view, then its first field has focus
      const editing = this.#form.editing;
      if (editing?.mode === 'edit')
        this.renderRoot
          .querySelector(`[data-server="${CSS.escape(editing.id)}"]`)
          ?.scrollIntoView?.({ block: 'nearest' });
      (this.renderRoot.querySelector('#f-name') as HTMLInputElement | null)?.focus({
        preventScroll: editing?.mode === 'edit',
      });
    });
  }

  #formModule?: FormModule;
  #formLoad?: Promise<void>;

  /** Resolves once rendered, including the form when its chunk was still loading. @internal */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.#formLoad) {
      await this.#formLoad;
      done = (await super.getUpdateComplete()) && done;
    }
    return done;
  }

  /** Re-renders once a second while a server is connecting, so its elapsed time moves. */
  #ticker?: ReturnType<typeof setInterval>;

  override willUpdate(changed: PropertyValues<this>) {
    super.willUpdate(changed);
    // the server being edited was removed (here or in another tab): its form went with its row
    const editing = this.#form.editing;
    if (editing?.mode === 'edit' && !this.hub.servers.get(editing.id)) this.#form.set({ editing: null });
  }

  override updated(changed: PropertyValues<this>) {
    super.updated(changed);
    const connecting = Object.values(this.#view.value.connections).some((c) => c.status === 'connecting');
    if (connecting && !this.#ticker) this.#ticker = setInterval(() => this.requestUpdate(), 1000);
    else if (!connecting) this.#stopTicker();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopTicker();
  }

  #stopTicker() {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #renderForm() {
    if (this.#formModule) return this.#formModule.renderForm(this.#ui);
    // the server list stays usable: Cancel closes it. No Try again: browsers keep a failed
    // module fetch for the page's life (measured in Chromium 150 and Firefox 140), so importing
    // the same chunk again fails at once; opening the form again does try, for a failure that
    // happened before any fetch
    if (this.#form.failed)
      return html`<div class="form-failed" part="form-failed">
        <p class="error" role="alert">${this.t('formFailed')}</p>
        <button type="button" data-action="cancel" @click=${() => this.#form.set({ editing: null })}>
          ${this.t('cancel')}
        </button>
      </div>`;
    return html`<p class="muted" role="status">${this.t('formLoading')}</p>`;
  }

  override render() {
    const servers = this.hub.servers.list();
    const editing = this.#form.editing;
    return html`
      <h2>${this.t('title')}</h2>
      ${
        servers.length === 0
          ? html`<p class="muted">${this.t('empty')}</p>`
          : html`<ul class="servers" part="list">
              ${repeat(
                servers,
                (s) => s.id,
                (s) => {
                  const update = this.#notices.for(s);
                  return renderServer(
                    this.#ui,
                    s,
                    editing?.mode === 'edit' && editing.id === s.id ? this.#renderForm() : nothing,
                    renderRemoteUpdate(this.#ui.t, update, () => this.reviewUpdate(s.id, update!)),
                  );
                },
              )}
            </ul>`
      }
      ${
        editing?.mode === 'add'
          ? this.#renderForm()
          : editing
            ? nothing
            : this._finding
              ? renderDirectory(this.hub, this.directory, () => {
                  this._finding = false;
                  // back where the directory was opened from
                  void this.updateComplete.then(() =>
                    (this.renderRoot.querySelector('[data-action=find]') as HTMLElement | null)?.focus(),
                  );
                })
              : html`<button class="primary" data-action="add" @click=${() => this.startAdd()}>${this.t('add')}</button>
                  <button data-action="find" @click=${() => void this.startFind()}>${this.t('find')}</button>`
      }
      ${renderImportExport(this.#ui)}
    `;
  }
}
