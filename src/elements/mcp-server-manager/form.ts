// The manager's add / edit form: fields, validation with the core's schema, "Test connection",
// and saving through a cancelable `mcp-server-save-request`.
import {
  connectionRevision,
  revisionWords,
  serverDescription,
  serverIcon,
  serverTitle,
} from '../../internal/server-identity.js';
import { html, nothing } from 'lit';
import { errorText, renderErrorText } from '../../internal/error-text.js';
import { live } from 'lit/directives/live.js';
import {
  McpConfigError,
  McpServerSaveRequestEvent,
  ServerConfigInputSchema,
  toIssues,
  type ServerConfig,
  type ServerConfigInput,
  ProtocolRevisionSchema,
} from '../../core/index.js';
import { relayLabel } from './strings.js';
import type { ManagerUi } from './ui.js';
import { fieldOf, formInput, type FormState } from './form-state.js';
import { REQUIRED_MESSAGE } from '../../internal/required.js';
import { renderReviewLine } from './registry-notices.js';

export { EMPTY_FORM, formFromServer, type FormState } from './form-state.js';

function setField<K extends keyof FormState>(ui: ManagerUi, key: K, value: FormState[K]) {
  ui.form.setField(key, value);
}

/**
 * Show field errors and focus the first invalid field. `schema`: the issues of the form's own check, where an empty field's problem is that it is
 * required (one wording everywhere); the hub's own refusals (a move that needs a secret again)
 * say more, and are kept.
 */
function showIssues(ui: ManagerUi, issues: readonly { path: string; message: string }[], schema = false) {
  const errors: Record<string, string> = {};
  for (const i of issues) {
    const id = fieldOf(i.path);
    errors[id] ??=
      schema && isEmpty(ui.form.fields, id) ? REQUIRED_MESSAGE : id === 'url' ? urlAdvice(ui.t, i.message) : i.message;
  }
  ui.form.set({ errors: errors });
  void ui.focus('[aria-invalid="true"]');
}

/** The form's config; `name` stands in for an empty Name (a test suggests the server's own). */
/** Whether the form field `id` (as `fieldOf` names it) is empty: its problem is then "required". */
function isEmpty(f: FormState, id: string): boolean {
  const h = /^header-(\d+)-(name|value)$/.exec(id);
  const value = h ? f.headers[Number(h[1])]?.[h[2] as 'name' | 'value'] : f[id as keyof FormState];
  return typeof value === 'string' && value.trim() === '';
}

/** A refused URL as what to fix (the core's reason names the rule; the user needs the fix). */
function urlAdvice(t: ManagerUi['t'], message: string): string {
  if (message.startsWith('is not a valid absolute URL')) return t('urlInvalid');
  if (message.startsWith('must use https: (plain')) return t('urlHttps');
  if (message.startsWith('must use https: or http:')) return t('urlScheme');
  if (message.includes('user name or password')) return t('urlCredentials');
  return message;
}

function validate(ui: ManagerUi, name?: string): ServerConfigInput | undefined {
  const f = name && !ui.form.fields.name.trim() ? { ...ui.form.fields, name } : ui.form.fields;
  const input = formInput(f, ui.form.editing?.mode === 'edit' ? ui.hub.servers.get(ui.form.editing.id) : undefined);
  const r = ServerConfigInputSchema.safeParse(input);
  if (r.success) {
    ui.form.set({ errors: {} });
    return input;
  }
  showIssues(ui, toIssues(r.error), true);
  return undefined;
}

// control and bidi override/isolate characters, which a Name may not hold
// eslint-disable-next-line no-control-regex
const UNFIT = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The server's own name as a Name suggestion: its title, else its name (no version), as text the
 * Name field accepts (no control or bidi characters, at most 100 characters).
 */
function suggestedName(info: { name?: string; title?: string } | undefined): string {
  const raw = (info?.title ?? '').trim() || (info?.name ?? '').trim();
  return raw.replace(UNFIT, '').slice(0, 100).trim();
}

/** Stands in for an empty Name while testing (never saved: a test stores nothing). */
const UNNAMED = 'Unnamed server';

async function testConnection(ui: ManagerUi) {
  const input = validate(ui, UNNAMED);
  if (!input) return;
  ui.form.set({ test: { state: 'testing' } });
  try {
    const result = await ui.hub.testConnection(
      input,
      ui.form.editing?.mode === 'edit' ? { serverId: ui.form.editing.id } : {},
    );
    ui.form.set({ test: { state: 'ok', result } });
    // no Name yet (and none typed while testing): the server's own, said so under the field
    const suggestion = suggestedName(result.serverInfo);
    if (!ui.form.fields.name.trim() && suggestion) {
      ui.form.set({ fields: { ...ui.form.fields, name: suggestion }, nameFrom: suggestion });
    }
  } catch (e) {
    if (e instanceof McpConfigError) showIssues(ui, e.issues);
    ui.form.set({
      test: { state: 'error', error: (e as Error).message, code: (e as { code?: string }).code, url: input.url },
    });
  }
}

async function save(ui: ManagerUi, e: Event) {
  e.preventDefault();
  const input = validate(ui);
  if (!input || !ui.form.editing) return;
  const editing = ui.form.editing;
  const detail = {
    mode: editing.mode,
    ...(editing.mode === 'edit' ? { serverId: editing.id } : {}),
    name: input.name,
    url: input.url,
    transport: input.transport ?? 'auto',
  };
  if (!ui.emit(new McpServerSaveRequestEvent(detail))) return;
  // saved after a registry notice's Review: the reviewed version is now where it came from
  const reviewed =
    editing.mode === 'edit' && ui.form.reviewing?.id === editing.id ? ui.form.reviewing.update : undefined;
  const source = reviewed && { registry: reviewed.registry, name: reviewed.name, version: reviewed.version };
  try {
    const saved =
      editing.mode === 'add'
        ? await ui.hub.servers.add(input)
        : await ui.hub.servers.update(editing.id, source ? { ...input, source } : input);
    ui.closeForm();
    if (saved.enabled) void ui.hub.connect(saved.id).catch(() => {});
  } catch (err) {
    if (err instanceof McpConfigError) showIssues(ui, err.issues);
    else ui.form.set({ errors: { form: (err as Error).message } });
  }
}

/** A labelled control with its help text, warning (allowed, but worth knowing) and error. */
function field(ui: ManagerUi, id: string, label: string, control: unknown, help?: string, warning?: string) {
  const err = ui.form.errors[id];
  return html`<div class="field">
    <label for=${`f-${id}`}>${label}</label>
    ${control} ${help ? html`<span class="muted" id=${`h-${id}`}>${help}</span>` : nothing}
    <p class="field-warning" id=${`w-${id}`} part="field-warning" role="status">${warning ?? ''}</p>
    ${err ? html`<p class="field-error" id=${`e-${id}`}>${err}</p>` : nothing}
  </div>`;
}

/**
 * Names are labels, not keys (each server has its own id, and model-facing tool names tell two
 * servers of one name apart), so a duplicate is allowed; but the user should know before saving.
 */
function duplicateNameWarning(ui: ManagerUi, t: (k: 'duplicateName') => string): string | undefined {
  const name = ui.form.fields.name.trim().toLocaleLowerCase();
  if (!name) return undefined;
  const self = ui.form.editing?.mode === 'edit' ? ui.form.editing.id : undefined;
  const taken = ui.hub.servers.list().some((s) => s.id !== self && s.name.trim().toLocaleLowerCase() === name);
  return taken ? t('duplicateName') : undefined;
}

/** A URL as compared for "the same server": parsed (host case, default port), no trailing slash. */
function sameServerKey(url: string): string | undefined {
  try {
    const u = new URL(url.trim());
    u.hash = '';
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return undefined;
  }
}

/**
 * The same URL as a saved server: allowed (a second entry can carry other credentials or
 * settings; docs/decisions/102-duplicate-server-url.md), but the form names the server that has
 * it before the user saves.
 */
function duplicateUrlWarning(ui: ManagerUi, t: (k: 'duplicateUrl') => string): string | undefined {
  const key = sameServerKey(ui.form.fields.url);
  if (!key) return undefined;
  const self = ui.form.editing?.mode === 'edit' ? ui.form.editing.id : undefined;
  const other = ui.hub.servers.list().find((s) => s.id !== self && sameServerKey(s.url) === key);
  return other ? t('duplicateUrl').replace('{name}', () => other.name) : undefined;
}

/** A text-like input bound to one form field. */
function textField(
  ui: ManagerUi,
  id: keyof FormState & string,
  label: string,
  type = 'text',
  help?: string,
  warning?: string,
) {
  const err = ui.form.errors[id];
  const described = [help ? `h-${id}` : '', warning ? `w-${id}` : '', err ? `e-${id}` : ''].filter(Boolean).join(' ');
  return field(
    ui,
    id,
    label,
    html`<input
      id=${`f-${id}`}
      type=${type}
      autocomplete=${type === 'password' ? 'off' : 'on'}
      .value=${live(String(ui.form.fields[id]))}
      aria-invalid=${err ? 'true' : 'false'}
      aria-describedby=${described || nothing}
      @input=${(e: Event) => setField(ui, id, (e.target as HTMLInputElement).value as never)}
    />`,
    help,
    warning,
  );
}

function renderHeaders(ui: ManagerUi) {
  const { t } = ui;
  const f = ui.form.fields;
  return html`<fieldset class="headers">
    <legend>${t('headers')}</legend>
    ${f.headers.map((h, i) => {
      const set = (patch: Partial<FormState['headers'][number]>) =>
        setField(
          ui,
          'headers',
          f.headers.map((x, j) => (j === i ? { ...x, ...patch } : x)),
        );
      const nErr = ui.form.errors[`header-${i}-name`];
      const vErr = ui.form.errors[`header-${i}-value`];
      return html`<div class="row">
        <input
          aria-label=${`${t('headerName')} ${i + 1}`}
          id=${`f-header-${i}-name`}
          .value=${live(h.name)}
          aria-invalid=${nErr ? 'true' : 'false'}
          aria-describedby=${nErr ? `e-header-${i}-name` : nothing}
          @input=${(e: Event) => set({ name: (e.target as HTMLInputElement).value })}
        />
        <input
          aria-label=${`${t('headerValue')} ${i + 1}`}
          id=${`f-header-${i}-value`}
          type=${h.secret ? 'password' : 'text'}
          placeholder=${h.keep ? t('keepSecret') : ''}
          .value=${live(h.value)}
          aria-invalid=${vErr ? 'true' : 'false'}
          aria-describedby=${vErr ? `e-header-${i}-value` : nothing}
          @input=${(e: Event) => set({ value: (e.target as HTMLInputElement).value })}
        />
        <label
          ><input
            type="checkbox"
            .checked=${live(h.secret)}
            @change=${(e: Event) => set({ secret: (e.target as HTMLInputElement).checked })}
          />
          ${t('secret')}</label
        >
        <button
          type="button"
          aria-label=${`${t('removeHeader')} ${i + 1}`}
          @click=${() =>
            setField(
              ui,
              'headers',
              f.headers.filter((_, j) => j !== i),
            )}
        >
          ×
        </button>
        ${nErr ? html`<p class="field-error" id=${`e-header-${i}-name`}>${nErr}</p>` : nothing}
        ${vErr ? html`<p class="field-error" id=${`e-header-${i}-value`}>${vErr}</p>` : nothing}
      </div>`;
    })}
    <div>
      <button
        type="button"
        data-action="add-header"
        @click=${() => setField(ui, 'headers', [...f.headers, { name: '', value: '', secret: true }])}
      >
        ${t('addHeader')}
      </button>
    </div>
  </fieldset>`;
}

function renderTest(ui: ManagerUi) {
  const { t } = ui;
  const test = ui.form.test;
  if (test.state === 'idle' || test.state === 'testing') return html`<div role="status" aria-live="polite"></div>`;
  if (test.state === 'error')
    return html`<div class="test-result" part="test-result" role="status" aria-live="polite">
      ${renderErrorText(errorText({ code: test.code, message: test.error ?? '' }, { url: test.url }), t('errorDetails'))}
    </div>`;
  const r = test.result!;
  return html`<div class="test-result" part="test-result" role="status" aria-live="polite">
    <p class="row">
      ${serverIcon(r.serverInfo)}<span
        >${t('testOk')} <strong>${serverTitle(r.serverInfo) || '?'}</strong>${
          r.serverInfo?.title ? html` <span class="muted">(${r.serverInfo.name})</span>` : nothing
        }</span
      >
    </p>
    ${serverDescription(r.serverInfo) ? html`<p part="test-description">${serverDescription(r.serverInfo)}</p>` : nothing}
    <p class="muted">
      ${t('transport')}: ${r.transport ? t(r.transport) : '?'} · ${t('protocol')}: ${revisionWords(r, t) || '—'} ·
      ${t('session')}: <code>${r.sessionId ?? '—'}</code>
    </p>
    <p>${t('found')}: ${r.tools.length}</p>
    <!-- it scrolls (a long list): focusable, so a keyboard can scroll it -->
    <ul tabindex="0" aria-label=${t('found')}>
      ${r.tools.map((tool) => html`<li>${tool.title ?? tool.name}</li>`)}
    </ul>
  </div>`;
}

function renderSelect<V extends string>(
  ui: ManagerUi,
  id: 'transport' | 'revision' | 'authType' | 'clientAuthMethod' | 'flow',
  label: string,
  options: readonly V[],
  current: V,
  optionLabel: (o: V) => string = (o) => ui.t(o as never),
) {
  return field(
    ui,
    id,
    label,
    html`<select
      id=${`f-${id}`}
      @change=${(e: Event) => setField(ui, id, (e.target as HTMLSelectElement).value as never)}
    >
      ${options.map((o) => html`<option value=${o} ?selected=${current === o}>${optionLabel(o)}</option>`)}
    </select>`,
  );
}

/**
 * Name and URL are all most servers need; the rest waits under "Advanced", open when it holds
 * something: a saved server's non-default settings, or a problem in one of its fields.
 */
function advancedOpen(ui: ManagerUi): boolean {
  const f = ui.form.fields;
  const custom =
    f.transport !== 'auto' ||
    f.revision !== 'auto' ||
    f.authType !== 'none' ||
    f.headers.length > 0 ||
    f.timeout !== '30';
  const problem = Object.keys(ui.form.errors).some((k) => k !== 'name' && k !== 'url' && k !== 'form');
  return custom || problem;
}

export function renderForm(ui: ManagerUi) {
  const { t } = ui;
  const f = ui.form.fields;
  const editing = ui.form.editing!;
  const stored = editing.mode === 'edit' ? ui.hub.servers.get(editing.id) : undefined;
  const savedHelp = (has: boolean) => (has ? t('keepSecret') : undefined);
  const sa = stored?.auth;
  return html`<form part="form" @submit=${(e: Event) => void save(ui, e)} aria-labelledby="form-h" novalidate>
    <h3 id="form-h">${editing.mode === 'add' ? t('add') : `${t('edit')}: ${stored?.name ?? ''}`}</h3>
    <p class="notice" part="notice">${t('notice')}</p>
    ${ui.form.reviewing && ui.form.reviewing.id === stored?.id ? renderReviewLine(t, ui.form.reviewing.update) : nothing}
    ${textField(
      ui,
      'name',
      t('name'),
      'text',
      ui.form.nameFrom && ui.form.fields.name === ui.form.nameFrom ? t('nameFromServer') : undefined,
      duplicateNameWarning(ui, t),
    )}
    ${textField(ui, 'url', t('url'), 'url', undefined, duplicateUrlWarning(ui, t))}
    ${
      stored?.relay
        ? html`<p class="relay-line" part="relay" title=${stored.relay}>
            ${t('relayLine').replace('{relay}', () => relayLabel(stored.relay!))}
          </p>`
        : nothing
    }
    ${renderRevisionLine(ui, stored)}
    <details class="advanced" part="advanced" ?open=${advancedOpen(ui)}>
      <summary>${t('advanced')}</summary>
      <div class="advanced-fields">
        ${renderSelect(ui, 'transport', t('transport'), ['auto', 'streamable-http', 'sse', 'jsonrpc'] as const, f.transport)}
        ${renderSelect(ui, 'revision', t('revision'), ProtocolRevisionSchema.options, f.revision, (o) =>
          o === 'auto' ? t('revisionAuto') : o,
        )}
        ${renderSelect(
          ui,
          'authType',
          t('auth'),
          ['none', 'bearer', 'api-key', 'basic', 'oauth', 'client-credentials', 'jwt-bearer'] as const,
          f.authType,
        )}
        ${f.authType === 'bearer' ? textField(ui, 'token', t('token'), 'password', savedHelp(sa?.type === 'bearer')) : nothing}
        ${f.authType === 'api-key' ? html`${textField(ui, 'headerName', t('headerName'))}${textField(ui, 'apiKey', t('apiKey'), 'password', savedHelp(sa?.type === 'api-key'))}` : nothing}
        ${f.authType === 'basic' ? html`${textField(ui, 'username', t('username'))}${textField(ui, 'password', t('password'), 'password', savedHelp(sa?.type === 'basic'))}` : nothing}
        ${
          f.authType === 'oauth'
            ? html`${textField(ui, 'clientId', t('clientId'), 'text', t('clientIdHelp'))}${textField(ui, 'clientMetadataUrl', t('clientMetadataUrl'), 'url', t('clientMetadataUrlHelp'))}${textField(ui, 'scopes', t('scopes'), 'text', t('scopesHelp'))}`
            : nothing
        }
        ${
          f.authType === 'client-credentials'
            ? html`${textField(ui, 'clientId', t('clientId'))}${renderSelect(ui, 'clientAuthMethod', t('clientAuthMethod'), ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const, f.clientAuthMethod)}${f.clientAuthMethod === 'private_key_jwt' ? textField(ui, 'keyId', t('keyId'), 'text', t('keyIdHelp')) : textField(ui, 'clientSecret', t('clientSecret'), 'password', savedHelp(sa?.type === 'client-credentials' && !!sa.clientSecret))}${textField(ui, 'scopes', t('scopes'), 'text', t('scopesHelp'))}`
            : nothing
        }
        ${f.authType === 'jwt-bearer' ? renderJwtBearer(ui, sa?.type === 'jwt-bearer' ? sa : undefined) : nothing}
        ${renderHeaders(ui)} ${textField(ui, 'timeout', t('timeout'), 'number')}
      </div>
    </details>
    ${ui.form.errors.form ? html`<p class="field-error" role="alert">${ui.form.errors.form}</p>` : nothing}
    ${renderTest(ui)}
    <div class="row">
      <button
        type="button"
        data-action="test"
        ?disabled=${ui.form.test.state === 'testing'}
        @click=${() => void testConnection(ui)}
      >
        ${ui.form.test.state === 'testing' ? t('testing') : t('test')}
      </button>
      <span class="spacer"></span>
      <button type="button" data-action="cancel" @click=${() => ui.closeForm()}>${t('cancel')}</button>
      <button type="submit" class="primary" data-action="save">${t('save')}</button>
    </div>
  </form>`;
}

/** A connected server's protocol revision in words, in its edit form (the row keeps it as a title). */
function renderRevisionLine(ui: ManagerUi, stored: ServerConfig | undefined) {
  if (!stored) return nothing;
  const { connections, catalogues } = ui.state();
  const words = connectionRevision(connections[stored.id], catalogues[stored.id], ui.t);
  return words ? html`<p class="muted" part="revision">${ui.t('protocol')}: ${words}</p>` : nothing;
}

/** The JWT-bearer fields: the flow, the identity provider (id-jag), the client at the MCP authorization server. */
function renderJwtBearer(ui: ManagerUi, sa: Extract<ServerConfig['auth'], { type: 'jwt-bearer' }> | undefined) {
  const { t } = ui;
  const f = ui.form.fields;
  const saved = (has: boolean) => (has ? t('keepSecret') : undefined);
  const methods = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
  return html`${renderSelect(ui, 'flow', t('flow'), ['id-jag', 'workload'] as const, f.flow)}
    <p class="help" part="help">${t('flowHelp')}</p>
    ${
      f.flow === 'id-jag'
        ? html`${textField(ui, 'idpTokenEndpoint', t('idpTokenEndpoint'), 'url')}${textField(ui, 'idpClientId', t('idpClientId'))}${textField(ui, 'idpClientSecret', t('idpClientSecret'), 'password', saved(!!sa?.idp?.clientSecret) ?? t('idpClientSecretHelp'))}`
        : nothing
    }
    ${textField(ui, 'clientId', t('clientId'))}${renderSelect(ui, 'clientAuthMethod', t('clientAuthMethod'), methods, f.clientAuthMethod)}
    ${
      f.clientAuthMethod === 'private_key_jwt'
        ? textField(ui, 'keyId', t('keyId'), 'text', t('keyIdHelp'))
        : f.clientAuthMethod === 'none'
          ? nothing
          : textField(ui, 'clientSecret', t('clientSecret'), 'password', saved(!!sa?.clientSecret))
    }
    ${textField(ui, 'scopes', t('scopes'), 'text', t('scopesHelp'))}`;
}
