// <mcp-elicitation-view> (internal): one elicitation, rendered where it is needed — in
// <mcp-elicitation> for requests outside a call, in <mcp-tool-call> for the call that asked.
// Form mode: a form generated from the restricted schema; URL mode: the domain, the full URL and
// an explicit Open button. Answers go to `hub.respondToElicitation`. Typed values live only in
// this element until they are sent, then are dropped.
import { css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { McpConfigError, type ElicitationRecord } from '../core/index.js';
import { outcomeKey } from './answer-list.js';
import { answerStyles, AnswerView } from './answer-view.js';
import {
  fieldProblem,
  formContent,
  formFields,
  initialValues,
  type FormField,
  type RawValue,
} from './elicitation-fields.js';
import { baseStyles, fieldHintStyles } from './mcp-element.js';

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };
const id = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export class McpElicitationView extends AnswerView {
  static override properties = {
    ...AnswerView.properties,
    record: { attribute: false },
    _values: { state: true },
    _touched: { state: true },
    _submitted: { state: true },
    _error: { state: true },
  };
  static override styles = [
    baseStyles,
    answerStyles,
    fieldHintStyles,
    css`
      form {
        display: grid;
        gap: 0.6rem;
      }
      .field {
        display: grid;
        gap: 0.2rem;
      }
      fieldset {
        border: 1px solid var(--_border);
        border-radius: calc(var(--_radius) - 2px);
        margin: 0;
        padding: 0.3rem 0.6rem 0.5rem;
        display: grid;
        gap: 0.2rem;
      }
      legend,
      label {
        font-weight: 500;
      }
      .check {
        display: flex;
        gap: 0.4rem;
        align-items: baseline;
        font-weight: normal;
      }
      .field-error {
        color: var(--_danger);
        font-size: 0.85em;
      }
      [aria-invalid='true'] {
        border-color: var(--_danger);
      }
      .domain {
        font-size: 1.25em;
        font-weight: 700;
        overflow-wrap: anywhere;
      }
      .url {
        display: block;
        overflow-wrap: anywhere;
        background: var(--_subtle);
        border-radius: calc(var(--_radius) - 2px);
        padding: 0.3rem 0.5rem;
        user-select: all;
      }
    `,
  ];
  /** The elicitation shown. */
  declare record?: ElicitationRecord;
  declare _values: Record<string, RawValue>;
  declare _touched: ReadonlySet<string>;
  declare _submitted: boolean;
  declare _error: string;
  #fields: FormField[] = [];
  #forId?: string;

  constructor() {
    super();
    this._values = {};
    this._touched = new Set();
    this._submitted = false;
    this._error = '';
  }

  protected waitingFor() {
    return this.record?.status === 'pending' ? this.record.id : undefined;
  }

  override willUpdate(changed: PropertyValues<this>) {
    const r = this.record;
    if (changed.has('record') && r?.id !== this.#forId) {
      this.#forId = r?.id;
      this.#fields = r?.mode === 'form' && r.requestedSchema ? formFields(r.requestedSchema) : [];
      this._values = initialValues(this.#fields);
      this._touched = new Set();
      this._submitted = false;
      this._error = '';
    }
    // answered: forget what was typed
    if (r && r.status !== 'pending' && Object.keys(this._values).length) this._values = {};
  }

  #respond(action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) {
    const r = this.record;
    if (!r) return;
    try {
      this.hub.respondToElicitation(r.id, { action, ...(content ? { content } : {}) });
      this._error = '';
    } catch (e) {
      this._error = e instanceof McpConfigError ? e.issues.map((i) => i.message).join(' ') : (e as Error).message;
    }
  }

  #problem(f: FormField): string | undefined {
    const p = fieldProblem(f, this._values[f.name]);
    return p ? this.f(p.key, p.limit !== undefined ? { limit: p.limit } : {}) : undefined;
  }

  #submit(e: Event) {
    e.preventDefault();
    this._submitted = true;
    const invalid = this.#fields.find((f) => this.#problem(f));
    if (invalid) {
      this._error = this.t('fixFields');
      void this.updateComplete.then(() =>
        (
          this.renderRoot.querySelector(`#${id(invalid.name)}, [data-group="${invalid.name}"] input`) as HTMLElement
        )?.focus(),
      );
      return;
    }
    this.#respond('accept', formContent(this.#fields, this._values));
  }

  #set(name: string, value: RawValue) {
    this._values = { ...this._values, [name]: value };
  }
  #touch(name: string) {
    if (!this._touched.has(name)) this._touched = new Set([...this._touched, name]);
  }

  #onKeydown(e: KeyboardEvent) {
    // Escape dismisses the request, except where it closes a list or is part of typing
    if (e.key !== 'Escape' || this.record?.status !== 'pending') return;
    if ((e.composedPath()[0] as Element)?.localName === 'select') return;
    e.preventDefault();
    this.#respond('cancel');
  }

  #describedBy(f: FormField, error: string | undefined) {
    const ids = [f.description ? `${id(f.name)}-help` : '', error ? `${id(f.name)}-error` : ''].filter(Boolean);
    return ids.length ? ids.join(' ') : nothing;
  }

  #label(f: FormField) {
    return html`${f.label}${
      f.required
        ? html` <span class="req" aria-hidden="true">*</span
            ><span class="visually-hidden">(${this.t('required')})</span>`
        : nothing
    }`;
  }

  #field(f: FormField): TemplateResult {
    const fid = id(f.name);
    const problem = this._submitted || this._touched.has(f.name) ? this.#problem(f) : undefined;
    const invalid = problem ? 'true' : 'false';
    const help = f.description ? html`<span class="help" id=${`${fid}-help`}>${f.description}</span>` : nothing;
    const error = problem ? html`<span class="field-error" id=${`${fid}-error`}>${problem}</span>` : nothing;
    const value = this._values[f.name];
    const blur = () => this.#touch(f.name);
    switch (f.kind) {
      case 'boolean':
        return html`<div class="field" data-field=${f.name}>
          <label class="check"
            ><input
              id=${fid}
              type="checkbox"
              .checked=${live(value === true)}
              aria-describedby=${this.#describedBy(f, undefined)}
              @change=${(e: Event) => this.#set(f.name, (e.target as HTMLInputElement).checked)}
            />${this.#label(f)}</label
          >${help}
        </div>`;
      case 'multi': {
        const chosen = Array.isArray(value) ? (value as string[]) : [];
        return html`<fieldset
          data-field=${f.name}
          data-group=${f.name}
          aria-describedby=${this.#describedBy(f, problem)}
        >
          <legend>${this.#label(f)}</legend>
          ${(f.options ?? []).map(
            (o, i) =>
              html`<label class="check"
                ><input
                  type="checkbox"
                  id=${`${fid}-${i}`}
                  .checked=${live(chosen.includes(o.value))}
                  @change=${(e: Event) => {
                    const on = (e.target as HTMLInputElement).checked;
                    this.#set(f.name, on ? [...chosen, o.value] : chosen.filter((v) => v !== o.value));
                    this.#touch(f.name);
                  }}
                />${o.label}</label
              >`,
          )}
          ${help}${error}
        </fieldset>`;
      }
      case 'select':
        return html`<div class="field" data-field=${f.name}>
          <label for=${fid}>${this.#label(f)}</label>
          <select
            id=${fid}
            ?required=${f.required}
            aria-invalid=${invalid}
            aria-describedby=${this.#describedBy(f, problem)}
            @change=${(e: Event) => this.#set(f.name, (e.target as HTMLSelectElement).value)}
            @blur=${blur}
          >
            ${f.required && value !== '' ? nothing : html`<option value="" ?selected=${value === ''}>${this.t('noChoice')}</option>`}
            ${(f.options ?? []).map((o) => html`<option value=${o.value} ?selected=${o.value === value}>${o.label}</option>`)}
          </select>
          ${help}${error}
        </div>`;
      default: {
        const type = f.sensitive
          ? 'password'
          : f.kind === 'number' || f.kind === 'integer'
            ? 'number'
            : (INPUT_TYPE[f.format ?? ''] ?? 'text');
        return html`<div class="field" data-field=${f.name}>
          <label for=${fid}>${this.#label(f)}</label>
          <input
            id=${fid}
            type=${type}
            ?required=${f.required}
            autocomplete=${f.sensitive ? 'off' : nothing}
            inputmode=${f.kind === 'integer' ? 'numeric' : f.kind === 'number' ? 'decimal' : nothing}
            step=${f.kind === 'integer' ? '1' : f.kind === 'number' ? 'any' : nothing}
            min=${f.minimum ?? nothing}
            max=${f.maximum ?? nothing}
            maxlength=${f.maxLength ?? nothing}
            aria-invalid=${invalid}
            aria-describedby=${this.#describedBy(f, problem)}
            .value=${live(typeof value === 'string' ? value : '')}
            @input=${(e: Event) => this.#set(f.name, (e.target as HTMLInputElement).value)}
            @blur=${blur}
          />
          ${help}${error}
        </div>`;
      }
    }
  }

  #renderUrl(r: ElicitationRecord) {
    const domain = r.domain ?? '';
    return this.section(
      this.f('urlTitle'),
      html`${r.message ? html`<p class="message">${r.message}</p>` : nothing}
        <p>${this.t('urlOpens')} <strong class="domain" part="domain">${domain}</strong></p>
        <p>
          <span class="visually-hidden">${this.t('urlAddress')}:</span> <code class="url" part="url">${r.url}</code>
        </p>
        <p class="muted small">${this.t('urlCheck')}</p>
        ${this.errorLine(this._error)}
        <div class="actions" part="actions">
          <button
            class="primary"
            data-action="open"
            @click=${() => {
              // never opened without this click; the new page gets no handle on this one
              window.open(r.url, '_blank', 'noopener,noreferrer');
              this.#respond('accept');
            }}
          >
            ${this.f('open', { domain })}
          </button>
          <button data-action="decline" @click=${() => this.#respond('decline')}>${this.t('decline')}</button>
          <button data-action="cancel" @click=${() => this.#respond('cancel')}>${this.t('cancelRequest')}</button>
        </div>`,
      this.#onKeydown,
    );
  }

  #renderForm(r: ElicitationRecord) {
    return this.section(
      this.f('formTitle'),
      html`${r.message ? html`<p class="message">${r.message}</p>` : nothing}
        <form novalidate part="form" @submit=${this.#submit}>
          ${this.#fields.map((f) => this.#field(f))} ${this.errorLine(this._error)}
          <div class="actions" part="actions">
            <button class="primary" type="submit" data-action="accept">${this.t('accept')}</button>
            <button type="button" data-action="decline" @click=${() => this.#respond('decline')}>
              ${this.t('decline')}
            </button>
            <button type="button" data-action="cancel" @click=${() => this.#respond('cancel')}>
              ${this.t('cancelRequest')}
            </button>
          </div>
        </form>
        <p class="muted small">${this.f('formPrivacy')}</p>`,
      this.#onKeydown,
    );
  }

  override render() {
    const r = this.record;
    if (!r) return nothing;
    if (r.status !== 'pending')
      return html`<p class="done" part="done" data-status=${r.status}>${this.f(outcomeKey(r))}</p>`;
    return r.mode === 'url' ? this.#renderUrl(r) : this.#renderForm(r);
  }
}
