// The "Add" panel of an entry: a field per URL variable and header (secrets as password fields,
// choices as a select, a fixed value such as `Bearer {api_key}` shown beside its variable), Test
// connection as the manager does it, and Save with the entry's provenance.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { errorText, renderErrorText } from '../../internal/error-text.js';
import { REQUIRED_MESSAGE } from '../../internal/required.js';
import { McpConfigError, McpServerSaveRequestEvent, type McpHub, type ServerCatalogue } from '../../core/index.js';
import {
  buildServerInput,
  fieldsFor,
  type EntryField,
  type RegistryEntry,
  type Remote,
} from '../../core/registry/index.js';
import type { McpServerDirectoryStrings } from './strings.js';

type T = <K extends keyof McpServerDirectoryStrings>(key: K) => McpServerDirectoryStrings[K];

export interface Adding {
  entry: RegistryEntry;
  remote: Remote;
  fields: EntryField[];
  values: Record<string, string>;
  issues: Record<string, string>;
  test: {
    state: 'idle' | 'testing' | 'ok' | 'error';
    result?: ServerCatalogue;
    error?: string;
    code?: string;
    url?: string;
  };
}

export function startAdding(entry: RegistryEntry, remote: Remote): Adding {
  const fields = fieldsFor(remote);
  return {
    entry,
    remote,
    fields,
    values: Object.fromEntries(fields.map((f) => [f.key, f.initial])),
    issues: {},
    test: { state: 'idle' },
  };
}

export interface AddHost {
  hub: McpHub;
  t: T;
  adding: Adding;
  set(next: Adding | null): void;
  emit(event: Event): boolean;
  /** After a save: the new server's id. */
  added(id: string): void;
}

function built(host: AddHost) {
  const a = host.adding;
  const r = buildServerInput(a.entry, a.remote, a.values);
  if ('issues' in r) {
    // an empty required field says so in the one wording every form uses; the rest as core words it
    const say = (i: { key: string; message: string }) => (a.values[i.key] ? i.message : REQUIRED_MESSAGE);
    host.set({ ...a, issues: Object.fromEntries(r.issues.map((i) => [i.key, say(i)])) });
    return undefined;
  }
  return r.input;
}

async function test(host: AddHost) {
  const input = built(host);
  if (!input) return;
  host.set({ ...host.adding, issues: {}, test: { state: 'testing' } });
  try {
    const result = await host.hub.testConnection(input);
    host.set({ ...host.adding, test: { state: 'ok', result } });
  } catch (e) {
    const code = (e as { code?: string }).code;
    host.set({ ...host.adding, test: { state: 'error', error: (e as Error).message, code, url: input.url } });
  }
}

async function save(host: AddHost, e: Event) {
  e.preventDefault();
  const input = built(host);
  if (!input) return;
  const detail = { mode: 'add' as const, name: input.name, url: input.url, transport: input.transport ?? 'auto' };
  if (!host.emit(new McpServerSaveRequestEvent(detail))) return;
  try {
    const saved = await host.hub.servers.add(input);
    host.added(saved.id);
    if (saved.enabled) void host.hub.connect(saved.id).catch(() => {});
  } catch (err) {
    const message =
      err instanceof McpConfigError
        ? err.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
        : (err as Error).message;
    host.set({ ...host.adding, issues: { form: message } });
  }
}

function control(host: AddHost, f: EntryField) {
  const a = host.adding;
  const err = a.issues[f.key];
  const described = [f.description ? `d-${f.key}` : '', err ? `e-${f.key}` : ''].filter(Boolean).join(' ') || nothing;
  const set = (e: Event) =>
    host.set({ ...host.adding, values: { ...host.adding.values, [f.key]: (e.target as HTMLInputElement).value } });
  if (f.choices)
    return html`<select id=${`f-${f.key}`} aria-describedby=${described} @change=${set}>
      ${f.required ? nothing : html`<option value="" ?selected=${!a.values[f.key]}></option>`}
      ${f.choices.map((c) => html`<option value=${c} ?selected=${a.values[f.key] === c}>${c}</option>`)}
    </select>`;
  return html`<input
    id=${`f-${f.key}`}
    type=${f.secret ? 'password' : f.format === 'number' ? 'number' : 'text'}
    autocomplete="off"
    placeholder=${f.placeholder ?? ''}
    ?required=${f.required}
    aria-invalid=${err ? 'true' : 'false'}
    aria-describedby=${described}
    .value=${live(a.values[f.key] ?? '')}
    @input=${set}
  />`;
}

export function renderAddForm(host: AddHost) {
  const { t } = host;
  const a = host.adding;
  return html`<form
    class="add"
    part="add-form"
    aria-labelledby="add-h"
    novalidate
    @submit=${(e: Event) => void save(host, e)}
  >
    <h3 id="add-h">${t('addTitle')}: ${a.entry.title}</h3>
    <p class="muted">${t('addFrom')}: <code>${a.remote.url}</code> (${a.remote.type})</p>
    ${a.fields.map(
      (f) =>
        html`<div class="field">
          <label for=${`f-${f.key}`}
            >${f.label}${f.required ? html`<span class="req" aria-hidden="true"> *</span>` : nothing}</label
          >
          ${control(host, f)}
          ${f.template ? html`<span class="help">${t('fixedValue')} <code>${f.template}</code></span>` : nothing}
          ${f.description ? html`<span class="help" id=${`d-${f.key}`}>${f.description}</span>` : nothing}
          ${f.secret ? html`<span class="help">${t('secretNote')}</span>` : nothing}
          ${a.issues[f.key] ? html`<p class="field-error" id=${`e-${f.key}`}>${a.issues[f.key]}</p>` : nothing}
        </div>`,
    )}
    ${a.issues.form ? html`<p class="field-error" role="alert">${a.issues.form}</p>` : nothing}
    <div role="status" aria-live="polite" class="test-result" part="test-result">
      ${a.test.state === 'ok' ? html`${t('testOk')} ${a.test.result?.tools.length ?? 0}` : nothing}
      ${
        a.test.state === 'error'
          ? renderErrorText(
              errorText({ code: a.test.code, message: a.test.error ?? '' }, { url: a.test.url }),
              t('errorDetails'),
            )
          : nothing
      }
    </div>
    <div class="row">
      <button type="button" data-action="test" ?disabled=${a.test.state === 'testing'} @click=${() => void test(host)}>
        ${a.test.state === 'testing' ? t('testing') : t('test')}
      </button>
      <span class="spacer"></span>
      <button type="button" data-action="cancel" @click=${() => host.set(null)}>${t('cancel')}</button>
      <button type="submit" class="primary" data-action="save">${t('save')}</button>
    </div>
  </form>`;
}
