import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { baseStyles, define, McpElement } from '../../internal/mcp-element.js';
import { StoreController } from '../../controllers/store-controller.js';
import { McpConfigError, McpElementsError } from '../../core/errors.js';
import {
  ServerConfigInputSchema,
  toIssues,
  type ServerConfig,
  type ServerConfigInput,
  type TransportKind,
} from '../../core/schemas.js';
import type { ServerCatalogue } from '../../core/types.js';
import { McpServerSaveRequestEvent } from '../../events/server-save-request.js';
import { McpServerRemoveRequestEvent } from '../../events/server-remove-request.js';
import { styles } from './mcp-server-manager.styles.js';

const STRINGS = {
  title: 'MCP servers',
  empty: 'No MCP servers yet.',
  add: 'Add server',
  edit: 'Edit',
  remove: 'Remove',
  confirmRemove: 'Remove this server? Its saved secrets are deleted too.',
  keep: 'Keep',
  connect: 'Connect',
  disconnect: 'Disconnect',
  enabled: 'Enabled',
  tools: 'tools',
  connected: 'Connected',
  connecting: 'Connecting',
  disconnected: 'Not connected',
  error: 'Error',
  name: 'Name',
  url: 'URL',
  transport: 'Transport',
  auto: 'Automatic',
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP + SSE (legacy)',
  jsonrpc: 'Plain JSON-RPC',
  auth: 'Authentication',
  none: 'None',
  bearer: 'Bearer token',
  'api-key': 'API key',
  basic: 'Username and password',
  token: 'Token',
  headerName: 'Header name',
  apiKey: 'API key',
  username: 'Username',
  password: 'Password',
  keepSecret: 'Saved; leave empty to keep it',
  headers: 'Extra headers',
  addHeader: 'Add header',
  headerValue: 'Value',
  secret: 'Secret',
  removeHeader: 'Remove header',
  timeout: 'Timeout (seconds)',
  notice: 'This server will receive what the assistant sends to its tools. Add only servers you trust.',
  test: 'Test connection',
  testing: 'Testing…',
  testOk: 'Connected to',
  protocol: 'Protocol',
  session: 'Session',
  found: 'Tools found',
  save: 'Save',
  cancel: 'Cancel',
  importExport: 'Import / export (mcp.json)',
  import: 'Import',
  importLabel: 'mcp.json to import',
  imported: 'Imported',
  notImported: 'Not imported',
  export: 'Export',
  exportLabel: 'Exported mcp.json (secrets are not included)',
  download: 'Download',
};
export type McpServerManagerStrings = typeof STRINGS;

interface FormState {
  name: string;
  url: string;
  transport: TransportKind;
  authType: 'none' | 'bearer' | 'api-key' | 'basic';
  token: string;
  headerName: string;
  apiKey: string;
  username: string;
  password: string;
  headers: { name: string; value: string; secret: boolean; keep?: boolean }[];
  timeout: string;
}

const EMPTY: FormState = {
  name: '',
  url: '',
  transport: 'auto',
  authType: 'none',
  token: '',
  headerName: 'x-api-key',
  apiKey: '',
  username: '',
  password: '',
  headers: [],
  timeout: '30',
};

/** Map a config path (auth.token, headers.0.value…) to the form field that shows its error. */
function fieldOf(path: string): string {
  if (path.startsWith('auth.'))
    return (
      {
        'auth.token': 'token',
        'auth.key': 'apiKey',
        'auth.headerName': 'headerName',
        'auth.username': 'username',
        'auth.password': 'password',
      }[path] ?? 'authType'
    );
  const m = /^headers\.(\d+)\.(name|value)/.exec(path);
  if (m) return `header-${m[1]}-${m[2]}`;
  return path.split('.')[0] || 'form';
}

/**
 * Lists the hub's MCP servers (status, tool count, last error, enable switch) and adds, edits,
 * tests, removes, imports and exports them. Field errors come from the same schema the core uses.
 *
 * @summary Manage MCP servers: add, edit, test, remove, import and export.
 * @tag mcp-server-manager
 *
 * @attr theme - `light` or `dark` to override `prefers-color-scheme`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpServerManagerStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpServerSaveRequestEvent} mcp-server-save-request - Before a server is added or changed; cancelable.
 * @fires {McpServerRemoveRequestEvent} mcp-server-remove-request - Before a confirmed removal; cancelable.
 * @fires {McpServerAddedEvent} mcp-server-added - From the hub, after an add.
 * @fires {McpServerUpdatedEvent} mcp-server-updated - From the hub, after a change.
 * @fires {McpServerRemovedEvent} mcp-server-removed - From the hub, after a removal.
 *
 * @csspart list - The server list.
 * @csspart server - One server.
 * @csspart status - A server's status (dot and text).
 * @csspart form - The add/edit form.
 * @csspart notice - The notice about what a server receives.
 * @csspart test-result - What "Test connection" found.
 * @csspart io - The import/export panel.
 *
 * @cssprop --mcp-server-manager-dot-size - Size of the status dot.
 */
export class McpServerManagerElement extends McpElement<McpServerManagerStrings> {
  static override properties = {
    ...McpElement.properties,
    _editing: { state: true },
    _form: { state: true },
    _errors: { state: true },
    _test: { state: true },
    _confirm: { state: true },
    _io: { state: true },
  };
  static override styles = [baseStyles, styles];
  /** @internal */
  protected override defaultStrings = STRINGS;
  declare _editing: null | { mode: 'add' } | { mode: 'edit'; id: string };
  declare _form: FormState;
  declare _errors: Record<string, string>;
  declare _test: { state: 'idle' | 'testing' | 'ok' | 'error'; result?: ServerCatalogue; error?: string };
  declare _confirm: string | null;
  declare _io: {
    importText: string;
    result?: { added: string[]; errors: { name: string; message: string }[] };
    exportText?: string;
  };
  readonly #view = new StoreController(this, (s) => ({
    servers: s.servers,
    connections: s.connections,
    catalogues: s.catalogues,
  }));

  constructor() {
    super();
    this._editing = null;
    this._form = { ...EMPTY };
    this._errors = {};
    this._test = { state: 'idle' };
    this._confirm = null;
    this._io = { importText: '' };
  }

  // ---- form ----------------------------------------------------------------------------------

  /** Open the add form. */
  startAdd() {
    this._editing = { mode: 'add' };
    this._form = { ...EMPTY, headers: [] };
    this._errors = {};
    this._test = { state: 'idle' };
    this.updateComplete.then(() => (this.renderRoot.querySelector('#f-name') as HTMLInputElement | null)?.focus());
  }

  /** Open the edit form for a server. */
  startEdit(id: string) {
    const s = this.hub.servers.get(id);
    if (!s) return;
    const a = s.auth;
    this._editing = { mode: 'edit', id };
    this._form = {
      ...EMPTY,
      name: s.name,
      url: s.url,
      transport: s.transport,
      authType: a.type,
      headerName: a.type === 'api-key' ? a.headerName : 'x-api-key',
      username: a.type === 'basic' ? a.username : '',
      headers: s.headers.map((h) => ({
        name: h.name,
        value: typeof h.value === 'string' ? h.value : '',
        secret: h.secret,
        keep: typeof h.value !== 'string',
      })),
      timeout: String(s.timeout),
    };
    this._errors = {};
    this._test = { state: 'idle' };
    this.updateComplete.then(() => (this.renderRoot.querySelector('#f-name') as HTMLInputElement | null)?.focus());
  }

  #set<K extends keyof FormState>(key: K, value: FormState[K]) {
    this._form = { ...this._form, [key]: value };
  }

  /** The form as a config input. In edit mode an empty secret field keeps the saved secret. */
  #input(): ServerConfigInput {
    const f = this._form;
    const stored = this._editing?.mode === 'edit' ? this.hub.servers.get(this._editing.id) : undefined;
    const sa = stored?.auth;
    const keep = <T>(typed: string, ref: T | undefined) => (typed === '' && ref ? ref : typed);
    const auth =
      f.authType === 'bearer'
        ? { type: 'bearer' as const, token: keep(f.token, sa?.type === 'bearer' ? sa.token : undefined) }
        : f.authType === 'api-key'
          ? {
              type: 'api-key' as const,
              headerName: f.headerName.trim(),
              key: keep(f.apiKey, sa?.type === 'api-key' ? sa.key : undefined),
            }
          : f.authType === 'basic'
            ? {
                type: 'basic' as const,
                username: f.username,
                password: keep(f.password, sa?.type === 'basic' ? sa.password : undefined),
              }
            : { type: 'none' as const };
    const headers = f.headers.map((h, i) => {
      const old = stored?.headers[i];
      const value =
        h.keep && h.value === '' && old && typeof old.value !== 'string' && old.name === h.name ? old.value : h.value;
      return { name: h.name.trim(), value, secret: h.secret };
    });
    const timeout = Number(f.timeout);
    return {
      name: f.name,
      url: f.url.trim(),
      transport: f.transport,
      auth,
      headers,
      timeout: Number.isFinite(timeout) && f.timeout.trim() !== '' ? timeout : (f.timeout as never),
    } as ServerConfigInput;
  }

  #validate(): ServerConfigInput | undefined {
    const input = this.#input();
    const r = ServerConfigInputSchema.safeParse(input);
    if (r.success) {
      this._errors = {};
      return input;
    }
    this.#showIssues(toIssues(r.error));
    return undefined;
  }

  #showIssues(issues: readonly { path: string; message: string }[]) {
    const errors: Record<string, string> = {};
    for (const i of issues) {
      const f = fieldOf(i.path);
      errors[f] ??= i.message;
    }
    this._errors = errors;
    this.updateComplete.then(() =>
      (this.renderRoot.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus(),
    );
  }

  async #testConnection() {
    const input = this.#validate();
    if (!input) return;
    this._test = { state: 'testing' };
    try {
      const result = await this.hub.testConnection(
        input,
        this._editing?.mode === 'edit' ? { serverId: this._editing.id } : {},
      );
      this._test = { state: 'ok', result };
    } catch (e) {
      if (e instanceof McpConfigError) this.#showIssues(e.issues);
      this._test = { state: 'error', error: (e as Error).message };
    }
  }

  async #save(e: Event) {
    e.preventDefault();
    const input = this.#validate();
    if (!input || !this._editing) return;
    const editing = this._editing;
    const detail = {
      mode: editing.mode,
      ...(editing.mode === 'edit' ? { serverId: editing.id } : {}),
      name: input.name,
      url: input.url,
      transport: input.transport ?? 'auto',
    };
    if (!this.emit(new McpServerSaveRequestEvent(detail))) return;
    try {
      const saved =
        editing.mode === 'add' ? await this.hub.servers.add(input) : await this.hub.servers.update(editing.id, input);
      this._editing = null;
      if (saved.enabled) void this.hub.connect(saved.id).catch(() => {});
    } catch (err) {
      if (err instanceof McpConfigError) this.#showIssues(err.issues);
      else this._errors = { form: (err as Error).message };
    }
  }

  // ---- list actions --------------------------------------------------------------------------

  async #remove(s: ServerConfig) {
    this._confirm = null;
    if (!this.emit(new McpServerRemoveRequestEvent({ serverId: s.id, name: s.name }))) return;
    await this.hub.servers.remove(s.id);
  }

  async #toggleEnabled(s: ServerConfig, on: boolean) {
    await this.hub.servers.update(s.id, { enabled: on });
    if (on) void this.hub.connect(s.id).catch(() => {});
  }

  async #import() {
    try {
      const r = await this.hub.importConfig(this._io.importText);
      for (const s of r.added) if (s.enabled) void this.hub.connect(s.id).catch(() => {});
      this._io = {
        ...this._io,
        result: {
          added: r.added.map((s) => s.name),
          errors: r.errors.map((e) => ({
            name: e.name,
            message: e.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
          })),
        },
      };
    } catch (e) {
      this._io = {
        ...this._io,
        result: { added: [], errors: [{ name: '', message: e instanceof McpElementsError ? e.message : String(e) }] },
      };
    }
  }

  #export() {
    const text = this.hub.exportConfig();
    this._io = { ...this._io, exportText: text };
  }

  // ---- rendering -----------------------------------------------------------------------------

  #field(id: string, label: string, control: unknown, help?: string) {
    const err = this._errors[id];
    return html`<div class="field">
      <label for=${`f-${id}`}>${label}</label>
      ${control} ${help ? html`<span class="muted" id=${`h-${id}`}>${help}</span>` : nothing}
      ${err ? html`<p class="field-error" id=${`e-${id}`}>${err}</p>` : nothing}
    </div>`;
  }

  #input_(id: keyof FormState & string, label: string, type = 'text', help?: string) {
    const err = this._errors[id];
    const described = [help ? `h-${id}` : '', err ? `e-${id}` : ''].filter(Boolean).join(' ');
    return this.#field(
      id,
      label,
      html`<input
        id=${`f-${id}`}
        type=${type}
        autocomplete=${type === 'password' ? 'off' : 'on'}
        .value=${live(String(this._form[id]))}
        aria-invalid=${err ? 'true' : 'false'}
        aria-describedby=${described || nothing}
        @input=${(e: Event) => this.#set(id, (e.target as HTMLInputElement).value as never)}
      />`,
      help,
    );
  }

  #renderForm() {
    const f = this._form;
    const editing = this._editing!;
    const stored = editing.mode === 'edit' ? this.hub.servers.get(editing.id) : undefined;
    const savedHelp = (has: boolean) => (has ? this.t('keepSecret') : undefined);
    const sa = stored?.auth;
    return html`<form part="form" @submit=${this.#save} aria-labelledby="form-h" novalidate>
      <h3 id="form-h">${editing.mode === 'add' ? this.t('add') : `${this.t('edit')}: ${stored?.name ?? ''}`}</h3>
      <p class="notice" part="notice">${this.t('notice')}</p>
      ${this.#input_('name', this.t('name'))} ${this.#input_('url', this.t('url'), 'url')}
      ${this.#field(
        'transport',
        this.t('transport'),
        html`<select
          id="f-transport"
          @change=${(e: Event) => this.#set('transport', (e.target as HTMLSelectElement).value as TransportKind)}
        >
          ${(['auto', 'streamable-http', 'sse', 'jsonrpc'] as const).map((t) => html`<option value=${t} ?selected=${f.transport === t}>${this.t(t)}</option>`)}
        </select>`,
      )}
      ${this.#field(
        'authType',
        this.t('auth'),
        html`<select
          id="f-authType"
          @change=${(e: Event) => this.#set('authType', (e.target as HTMLSelectElement).value as FormState['authType'])}
        >
          ${(['none', 'bearer', 'api-key', 'basic'] as const).map((t) => html`<option value=${t} ?selected=${f.authType === t}>${this.t(t)}</option>`)}
        </select>`,
      )}
      ${f.authType === 'bearer' ? this.#input_('token', this.t('token'), 'password', savedHelp(sa?.type === 'bearer')) : nothing}
      ${f.authType === 'api-key' ? html`${this.#input_('headerName', this.t('headerName'))}${this.#input_('apiKey', this.t('apiKey'), 'password', savedHelp(sa?.type === 'api-key'))}` : nothing}
      ${f.authType === 'basic' ? html`${this.#input_('username', this.t('username'))}${this.#input_('password', this.t('password'), 'password', savedHelp(sa?.type === 'basic'))}` : nothing}
      <fieldset class="headers">
        <legend>${this.t('headers')}</legend>
        ${f.headers.map((h, i) => {
          const set = (patch: Partial<FormState['headers'][number]>) =>
            this.#set(
              'headers',
              f.headers.map((x, j) => (j === i ? { ...x, ...patch } : x)),
            );
          const nErr = this._errors[`header-${i}-name`];
          const vErr = this._errors[`header-${i}-value`];
          return html`<div class="row">
            <input
              aria-label=${`${this.t('headerName')} ${i + 1}`}
              id=${`f-header-${i}-name`}
              .value=${live(h.name)}
              aria-invalid=${nErr ? 'true' : 'false'}
              @input=${(e: Event) => set({ name: (e.target as HTMLInputElement).value })}
            />
            <input
              aria-label=${`${this.t('headerValue')} ${i + 1}`}
              id=${`f-header-${i}-value`}
              type=${h.secret ? 'password' : 'text'}
              placeholder=${h.keep ? this.t('keepSecret') : ''}
              .value=${live(h.value)}
              aria-invalid=${vErr ? 'true' : 'false'}
              @input=${(e: Event) => set({ value: (e.target as HTMLInputElement).value })}
            />
            <label
              ><input
                type="checkbox"
                .checked=${live(h.secret)}
                @change=${(e: Event) => set({ secret: (e.target as HTMLInputElement).checked })}
              />
              ${this.t('secret')}</label
            >
            <button
              type="button"
              aria-label=${`${this.t('removeHeader')} ${i + 1}`}
              @click=${() =>
                this.#set(
                  'headers',
                  f.headers.filter((_, j) => j !== i),
                )}
            >
              ×
            </button>
            ${nErr || vErr ? html`<p class="field-error">${nErr ?? vErr}</p>` : nothing}
          </div>`;
        })}
        <div>
          <button
            type="button"
            data-action="add-header"
            @click=${() => this.#set('headers', [...f.headers, { name: '', value: '', secret: true }])}
          >
            ${this.t('addHeader')}
          </button>
        </div>
      </fieldset>
      ${this.#input_('timeout', this.t('timeout'), 'number')}
      ${this._errors.form ? html`<p class="field-error" role="alert">${this._errors.form}</p>` : nothing}
      ${this.#renderTest()}
      <div class="row">
        <button
          type="button"
          data-action="test"
          ?disabled=${this._test.state === 'testing'}
          @click=${this.#testConnection}
        >
          ${this._test.state === 'testing' ? this.t('testing') : this.t('test')}
        </button>
        <span class="spacer"></span>
        <button type="button" data-action="cancel" @click=${() => (this._editing = null)}>${this.t('cancel')}</button>
        <button type="submit" class="primary" data-action="save">${this.t('save')}</button>
      </div>
    </form>`;
  }

  #renderTest() {
    const t = this._test;
    if (t.state === 'idle' || t.state === 'testing') return html`<div role="status" aria-live="polite"></div>`;
    if (t.state === 'error')
      return html`<div class="test-result" part="test-result" role="status" aria-live="polite">
        <p class="error-text">${t.error}</p>
      </div>`;
    const r = t.result!;
    return html`<div class="test-result" part="test-result" role="status" aria-live="polite">
      <p>${this.t('testOk')} <strong>${r.serverInfo?.name ?? '?'}</strong> ${r.serverInfo?.version ?? ''}</p>
      <p class="muted">
        ${this.t('transport')}: ${r.transport ? this.t(r.transport) : '?'} · ${this.t('protocol')}:
        ${r.protocolVersion ?? '—'} · ${this.t('session')}: <code>${r.sessionId ?? '—'}</code>
      </p>
      <p>${this.t('found')}: ${r.tools.length}</p>
      <ul>
        ${r.tools.map((tool) => html`<li>${tool.title ?? tool.name}</li>`)}
      </ul>
    </div>`;
  }

  #renderServer(s: ServerConfig) {
    const c = this.#view.value.connections[s.id];
    const status = c?.status ?? 'disconnected';
    const cat = this.#view.value.catalogues[s.id];
    return html`<li class="server" part="server" data-server=${s.id}>
      <div class="row">
        <span part="status" class="row"
          ><span class="dot" data-status=${status} aria-hidden="true"></span
          ><span class="status-text">${this.t(status)}</span></span
        >
        <span class="name">${s.name}</span>
        <span class="muted">${cat ? `${cat.tools.length} ${this.t('tools')}` : ''}</span>
        <span class="spacer"></span>
        <label
          ><input
            type="checkbox"
            role="switch"
            data-action="enable"
            .checked=${live(s.enabled)}
            @change=${(e: Event) => void this.#toggleEnabled(s, (e.target as HTMLInputElement).checked)}
          />
          ${this.t('enabled')}</label
        >
      </div>
      <div class="url">${s.url}</div>
      ${c?.error && status === 'error' ? html`<p class="last-error">${c.error.message}</p>` : nothing}
      ${
        this._confirm === s.id
          ? html`<div class="confirm row" role="alertdialog" aria-label=${this.t('confirmRemove')}>
              <span>${this.t('confirmRemove')}</span>
              <button class="danger" data-action="confirm-remove" @click=${() => void this.#remove(s)}>
                ${this.t('remove')}
              </button>
              <button data-action="keep" @click=${() => (this._confirm = null)}>${this.t('keep')}</button>
            </div>`
          : html`<div class="row">
              ${
                status === 'connected'
                  ? html`<button data-action="disconnect" @click=${() => void this.hub.disconnect(s.id)}>
                      ${this.t('disconnect')}
                    </button>`
                  : html`<button
                      data-action="connect"
                      ?disabled=${!s.enabled || status === 'connecting'}
                      @click=${() => void this.hub.connect(s.id).catch(() => {})}
                    >
                      ${this.t('connect')}
                    </button>`
              }
              <button
                data-action="edit"
                aria-label=${`${this.t('edit')} ${s.name}`}
                @click=${() => this.startEdit(s.id)}
              >
                ${this.t('edit')}
              </button>
              <button
                class="danger"
                data-action="remove"
                aria-label=${`${this.t('remove')} ${s.name}`}
                @click=${() => {
                  this._confirm = s.id;
                  this.updateComplete.then(() =>
                    (this.renderRoot.querySelector('[data-action=keep]') as HTMLElement | null)?.focus(),
                  );
                }}
              >
                ${this.t('remove')}
              </button>
            </div>`
      }
    </li>`;
  }

  override render() {
    const servers = this.hub.servers.list();
    return html`
      <h2>${this.t('title')}</h2>
      ${
        servers.length === 0
          ? html`<p class="muted">${this.t('empty')}</p>`
          : html`<ul class="servers" part="list">
              ${repeat(
                servers,
                (s) => s.id,
                (s) => this.#renderServer(s),
              )}
            </ul>`
      }
      ${this._editing ? this.#renderForm() : html`<button class="primary" data-action="add" @click=${() => this.startAdd()}>${this.t('add')}</button>`}
      <details class="io" part="io">
        <summary>${this.t('importExport')}</summary>
        <div class="field">
          <label for="f-import">${this.t('importLabel')}</label>
          <textarea
            id="f-import"
            .value=${live(this._io.importText)}
            @input=${(e: Event) => (this._io = { ...this._io, importText: (e.target as HTMLTextAreaElement).value })}
          ></textarea>
          <div class="row">
            <button data-action="import" @click=${() => void this.#import()}>${this.t('import')}</button>
          </div>
          <div role="status" aria-live="polite">
            ${
              this._io.result
                ? html`${this._io.result.added.length ? html`<p>${this.t('imported')}: ${this._io.result.added.join(', ')}</p>` : nothing}
                  ${
                    this._io.result.errors.length
                      ? html`<p class="error-text">${this.t('notImported')}:</p>
                          <ul class="import-errors">
                            ${this._io.result.errors.map((e) => html`<li>${e.name ? html`<strong>${e.name}</strong>: ` : nothing}${e.message}</li>`)}
                          </ul>`
                      : nothing
                  }`
                : nothing
            }
          </div>
        </div>
        <div class="row">
          <button data-action="export" @click=${() => this.#export()}>${this.t('export')}</button>
          ${this._io.exportText ? html`<a download="mcp.json" href=${`data:application/json;charset=utf-8,${encodeURIComponent(this._io.exportText)}`}>${this.t('download')}</a>` : nothing}
        </div>
        ${this._io.exportText ? html`<div class="field"><label for="f-export">${this.t('exportLabel')}</label><textarea id="f-export" readonly .value=${this._io.exportText}></textarea></div>` : nothing}
      </details>
    `;
  }
}

define('mcp-server-manager', McpServerManagerElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-server-manager': McpServerManagerElement;
  }
}
