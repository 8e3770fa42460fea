import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { baseStyles } from './mcp-element.js';
import { initialValue, isObj, resolve, typeOf, type Path, type Schema } from './schema-values.js';

export { initialValue } from './schema-values.js';

function getAt(v: unknown, path: Path): unknown {
  let cur = v;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[p] : undefined;
  return cur;
}
function setAt(v: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const base = Array.isArray(v) ? [...v] : isObj(v) ? { ...v } : typeof head === 'number' ? [] : {};
  const next = setAt((base as Record<string | number, unknown>)[head], rest, value);
  if (next === undefined && !Array.isArray(base)) delete (base as Record<string, unknown>)[head as string];
  else (base as Record<string | number, unknown>)[head] = next;
  return base;
}

const FORMAT_INPUT: Record<string, string> = {
  email: 'email',
  uri: 'url',
  url: 'url',
  date: 'date',
  'date-time': 'datetime-local',
  time: 'time',
};

/**
 * A form generated from a JSON Schema (internal; used by <mcp-tool-explorer>). Strings (enum →
 * select, formats, lengths), numbers and integers (min/max), booleans, arrays (add/remove),
 * nested objects, oneOf/anyOf (choose a branch), const, defaults, required marks, descriptions
 * as help text. Anything else gets a JSON editor for that field, never a blank.
 * Fires `input` (composed) whenever `value` changes.
 */
export class McpSchemaForm extends LitElement {
  static override properties = {
    schema: { attribute: false },
    value: { attribute: false },
    idPrefix: { attribute: 'id-prefix' },
    _branches: { state: true },
    _jsonErrors: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      .field {
        display: grid;
        gap: 0.2rem;
        margin-bottom: 0.5rem;
      }
      fieldset {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        margin: 0 0 0.5rem;
      }
      .req {
        color: var(--_danger);
      }
      .help {
        color: var(--_muted);
        font-size: 0.85em;
        overflow-wrap: anywhere;
      }
      .item {
        display: flex;
        gap: 0.4rem;
        align-items: start;
      }
      .item > :first-child {
        flex: 1;
      }
      textarea {
        width: 100%;
        min-height: 4rem;
        font-family: var(--_mono);
      }
      .json-error {
        color: var(--_danger);
        font-size: 0.85em;
        margin: 0;
      }
    `,
  ];
  declare schema: Schema;
  declare value: unknown;
  declare idPrefix: string;
  declare _branches: Record<string, number>;
  declare _jsonErrors: Record<string, string>;

  constructor() {
    super();
    this.schema = { type: 'object', properties: {} };
    this.value = {};
    this.idPrefix = 'sf';
    this._branches = {};
    this._jsonErrors = {};
  }

  #change(path: Path, v: unknown) {
    this.value = setAt(this.value, path, v);
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }

  #id(path: Path) {
    return `${this.idPrefix}-${path.join('-').replace(/[^A-Za-z0-9_-]/g, '_') || 'root'}`;
  }

  #label(name: string, s: Schema, required: boolean, id: string) {
    return html`<label for=${id}
      >${(s.title as string) ?? name}${required ? html` <span class="req" aria-hidden="true">*</span><span class="visually-hidden">(required)</span>` : nothing}</label
    >`;
  }

  #help(s: Schema, id: string) {
    const hints: string[] = [];
    if (typeof s.description === 'string') hints.push(s.description);
    if (typeof s.format === 'string') hints.push(`Format: ${s.format}`);
    if (typeof s.minimum === 'number' || typeof s.maximum === 'number')
      hints.push(`Range: ${s.minimum ?? '…'} to ${s.maximum ?? '…'}`);
    if (typeof s.minLength === 'number' || typeof s.maxLength === 'number')
      hints.push(`Length: ${s.minLength ?? 0} to ${s.maxLength ?? '…'}`);
    return hints.length ? html`<span class="help" id=${`${id}-help`}>${hints.join(' · ')}</span>` : nothing;
  }

  /** A JSON editor for one field: the fallback for whatever the form cannot show. */
  #json(name: string, s: Schema, path: Path, required: boolean) {
    const id = this.#id(path);
    const v = getAt(this.value, path);
    const err = this._jsonErrors[id];
    return html`<div class="field" data-fallback="json">
      ${this.#label(name, s, required, id)}
      <textarea
        id=${id}
        aria-describedby=${`${id}-help`}
        aria-invalid=${err ? 'true' : 'false'}
        .value=${live(v === undefined ? '' : JSON.stringify(v, null, 2))}
        @input=${(e: Event) => {
          const text = (e.target as HTMLTextAreaElement).value;
          try {
            const parsed = text.trim() === '' ? undefined : JSON.parse(text);
            this._jsonErrors = { ...this._jsonErrors, [id]: '' };
            this.#change(path, parsed);
          } catch (x) {
            this._jsonErrors = { ...this._jsonErrors, [id]: `Not valid JSON: ${(x as Error).message}` };
          }
        }}
      ></textarea>
      <span class="help" id=${`${id}-help`}>${typeof s.description === 'string' ? `${s.description} · ` : ''}JSON</span>
      ${err ? html`<p class="json-error">${err}</p>` : nothing}
    </div>`;
  }

  #field(name: string, raw: unknown, path: Path, required: boolean, depth: number): TemplateResult {
    const s = resolve(raw, this.schema);
    const id = this.#id(path);
    if (depth > 8) return this.#json(name, s, path, required);
    const variants = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
    if (Array.isArray(variants) && variants.length) {
      const options = variants.map((v) => resolve(v, this.schema));
      const chosen = this._branches[id] ?? 0;
      return html`<fieldset>
        <legend>
          ${(s.title as string) ?? name}${required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}
        </legend>
        ${this.#help(s, id)}
        <label for=${`${id}-branch`}>Kind</label>
        <select
          id=${`${id}-branch`}
          @change=${(e: Event) => {
            const i = Number((e.target as HTMLSelectElement).value);
            this._branches = { ...this._branches, [id]: i };
            this.#change(path, initialValue(options[i], this.schema));
          }}
        >
          ${options.map((o, i) => html`<option value=${i} ?selected=${i === chosen}>${(o.title as string) ?? (typeof o.const === 'string' ? o.const : (typeOf(o) ?? `Option ${i + 1}`))}</option>`)}
        </select>
        ${this.#field(name, { ...options[chosen], title: (options[chosen].title as string) ?? name }, path, required, depth + 1)}
      </fieldset>`;
    }
    const v = getAt(this.value, path);
    const t = typeOf(s);
    const described = `${id}-help`;
    if ('const' in s) {
      return html`<div class="field">
        ${this.#label(name, s, required, id)}<input
          id=${id}
          readonly
          .value=${JSON.stringify(s.const)}
          aria-describedby=${described}
        />${this.#help(s, id)}
      </div>`;
    }
    if (Array.isArray(s.enum) && s.enum.every((x) => ['string', 'number', 'boolean'].includes(typeof x))) {
      const values = s.enum as (string | number | boolean)[];
      return html`<div class="field">
        ${this.#label(name, s, required, id)}
        <select
          id=${id}
          aria-describedby=${described}
          @change=${(e: Event) => {
            const i = Number((e.target as HTMLSelectElement).value);
            this.#change(path, i < 0 ? undefined : values[i]);
          }}
        >
          ${required ? nothing : html`<option value="-1" ?selected=${v === undefined}>—</option>`}
          ${values.map((x, i) => html`<option value=${i} ?selected=${x === v}>${String(x)}</option>`)}</select
        >${this.#help(s, id)}
      </div>`;
    }
    switch (t) {
      case 'string':
        return html`<div class="field">
          ${this.#label(name, s, required, id)}
          <input
            id=${id}
            type=${FORMAT_INPUT[s.format as string] ?? 'text'}
            aria-describedby=${described}
            ?required=${required}
            minlength=${(s.minLength as number) ?? nothing}
            maxlength=${(s.maxLength as number) ?? nothing}
            pattern=${(s.pattern as string) ?? nothing}
            .value=${live(typeof v === 'string' ? v : '')}
            @input=${(e: Event) => {
              const x = (e.target as HTMLInputElement).value;
              this.#change(path, x === '' && !required ? undefined : x);
            }}
          />${this.#help(s, id)}
        </div>`;
      case 'number':
      case 'integer':
        return html`<div class="field">
          ${this.#label(name, s, required, id)}
          <input
            id=${id}
            type="number"
            aria-describedby=${described}
            ?required=${required}
            step=${t === 'integer' ? '1' : 'any'}
            min=${(s.minimum as number) ?? nothing}
            max=${(s.maximum as number) ?? nothing}
            .value=${live(typeof v === 'number' ? String(v) : '')}
            @input=${(e: Event) => {
              const x = (e.target as HTMLInputElement).value;
              this.#change(path, x === '' ? undefined : Number(x));
            }}
          />${this.#help(s, id)}
        </div>`;
      case 'boolean':
        return html`<div class="field">
          <label
            ><input
              id=${id}
              type="checkbox"
              aria-describedby=${described}
              .checked=${live(v === true)}
              @change=${(e: Event) => this.#change(path, (e.target as HTMLInputElement).checked)}
            />
            ${(s.title as string) ?? name}${required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}</label
          >${this.#help(s, id)}
        </div>`;
      case 'array': {
        const items = Array.isArray(v) ? v : [];
        const itemSchema = Array.isArray(s.items) ? s.items[0] : s.items;
        if (!isObj(itemSchema)) return this.#json(name, s, path, required);
        return html`<fieldset>
          <legend>
            ${(s.title as string) ?? name}${required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}
          </legend>
          ${this.#help(s, id)}
          ${items.map(
            (_, i) =>
              html`<div class="item">
                <div>${this.#field(`${name} ${i + 1}`, itemSchema, [...path, i], false, depth + 1)}</div>
                <button
                  type="button"
                  aria-label=${`Remove ${name} ${i + 1}`}
                  @click=${() =>
                    this.#change(
                      path,
                      items.filter((__, j) => j !== i),
                    )}
                >
                  ×
                </button>
              </div>`,
          )}
          <button
            type="button"
            data-add=${id}
            @click=${() => this.#change(path, [...items, initialValue(itemSchema, this.schema)])}
          >
            Add ${name}
          </button>
        </fieldset>`;
      }
      case 'object': {
        const props = isObj(s.properties) ? s.properties : {};
        if (Object.keys(props).length === 0) return this.#json(name, s, path, required);
        const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        const inner = Object.entries(props).map(([k, ps]) => this.#field(k, ps, [...path, k], req.has(k), depth + 1));
        return path.length === 0
          ? html`${inner}`
          : html`<fieldset>
              <legend>
                ${(s.title as string) ?? name}${required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}
              </legend>
              ${this.#help(s, id)}${inner}
            </fieldset>`;
      }
      default:
        return this.#json(name, s, path, required);
    }
  }

  override render() {
    const root = resolve(this.schema, this.schema);
    if (typeOf(root) === 'object' && Object.keys(isObj(root.properties) ? root.properties : {}).length === 0)
      return html`<p class="help">This tool takes no arguments.</p>`;
    return this.#field('arguments', root, [], false, 0);
  }
}
