import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { argumentIssues, loadValidator, validatorLoaded, type Tool } from '../core/index.js';
import { branchAt, chosenBranch, schemaOf, viaRef, type FormView } from './schema-branches.js';
import { FORMAT_EXAMPLE, FORMAT_INPUT, help, label, legend, requiredMark } from './schema-form-parts.js';
import { schemaFormStyles } from './schema-form.styles.js';
import { REQUIRED_MESSAGE } from './required.js';
import { neutraliseBidi } from './bidi.js';
import { HostSchemeController } from './host-scheme.js';
import {
  choicesOf,
  fieldIssues,
  getAt,
  initialItem,
  initialValue,
  isObj,
  pathKey,
  plainMessage,
  resolve,
  schemaAt,
  setAt,
  typeOf,
  unwrapNullable,
  variantsOf,
  type Path,
  type Schema,
} from './schema-model.js';

export { initialValue } from './schema-model.js';

/**
 * A form generated from a JSON Schema (internal; used by <mcp-tool-explorer>). Every control shows
 * exactly the value that will be sent: a choice without a default starts empty ("Choose…"), an
 * optional yes/no without a default can stay "not sent", an empty box sends nothing. Strings
 * (formats, lengths), numbers (min/max), booleans, choices (enums, constants with titles), lists
 * (add/remove; a list of choices as checkboxes), nested objects, `oneOf`/`anyOf` (choose a kind),
 * nullable fields, constants, defaults, `$ref`; anything else gets a JSON editor for that field.
 * Problems show next to their field once it was touched, or everywhere after `reportValidity()`.
 * Fires `input` (composed) whenever `value` changes.
 */
export class McpSchemaForm extends LitElement {
  static override properties = {
    schema: { attribute: false },
    value: { attribute: false },
    idPrefix: { attribute: 'id-prefix' },
    showErrors: { type: Boolean, attribute: 'show-errors' },
    _branches: { state: true },
    _jsonErrors: { state: true },
    _touched: { state: true },
  };
  static override styles = schemaFormStyles;
  declare schema: Schema;
  declare value: unknown;
  declare idPrefix: string;
  /** Show every field's problem, touched or not (set by `reportValidity()`, e.g. on Run). */
  declare showErrors: boolean;
  declare _branches: Record<string, number>;
  declare _jsonErrors: Record<string, string>;
  declare _touched: ReadonlySet<string>;
  /** Problems by field (path key), in plain words; recomputed when the value or schema changes. */
  #problems = new Map<string, string>();

  constructor() {
    super();
    this.schema = { type: 'object', properties: {} };
    this.value = {};
    this.idPrefix = 'sf';
    this.showErrors = false;
    this._branches = {};
    this._jsonErrors = {};
    this._touched = new Set();
    // the palette of the page (or of the element it is in) behind it
    new HostSchemeController(this);
  }

  // Schema titles, descriptions and enums are server strings: shown without bidi controls
  protected override update(changed: PropertyValues): void {
    super.update(changed);
    neutraliseBidi(this.renderRoot);
  }

  /** The problems of the current value, by field, in plain words (empty when it is valid). */
  get problems(): ReadonlyMap<string, string> {
    return this.#problems;
  }

  /**
   * Show every problem (as a form's `reportValidity()` does), move focus to the first field with
   * one, and say whether the value is valid.
   */
  reportValidity(): boolean {
    this.#check();
    this.showErrors = true;
    const valid = this.#problems.size === 0 && !Object.values(this._jsonErrors).some(Boolean);
    if (!valid)
      void this.updateComplete.then(() =>
        (this.renderRoot.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus(),
      );
    return valid;
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('schema') || changed.has('value') || changed.has('_branches')) this.#check();
  }

  #check() {
    const root = this.schema;
    if (!validatorLoaded()) {
      // a form made before its validator arrived (the explorer loads both together) checks once it has
      this.#problems = new Map();
      void loadValidator().then(() => {
        this.#check();
        this.requestUpdate();
      }, console.error);
      return;
    }
    const issues = argumentIssues({ name: 'form', inputSchema: root } as Tool, this.value ?? {});
    const problems = new Map<string, string>();
    for (const { path, issue } of fieldIssues(issues, (at) => branchAt(this.#view(), at))) {
      const key = pathKey(path);
      if (problems.has(key)) continue;
      const field = issue.keyword === 'required' ? schemaOf(this.#view(), path) : schemaAt(root, issue.keywordLocation);
      const choice = issue.keyword === 'required' && field && choicesOf(field, root);
      problems.set(key, choice ? REQUIRED_MESSAGE : plainMessage(issue, field ?? {}, root));
    }
    this.#problems = problems;
  }

  /** What branch navigation reads: the schema, the value, the user's branch choices. */
  #view(): FormView {
    return { root: this.schema, value: this.value, branches: this._branches };
  }

  #change(path: Path, v: unknown) {
    this.value = setAt(this.value, path, v);
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }

  #touch(path: Path) {
    const key = pathKey(path);
    if (!this._touched.has(key)) this._touched = new Set([...this._touched, key]);
  }

  #id(path: Path) {
    return `${this.idPrefix}-${path.join('-').replace(/[^A-Za-z0-9_-]/g, '_') || 'root'}`;
  }

  /** The problem to show for a field now (after it was touched, or after reportValidity). */
  #problem(path: Path): string | undefined {
    const key = pathKey(path);
    if (!this.showErrors && !this._touched.has(key)) return undefined;
    return this.#problems.get(key);
  }

  #error(path: Path, id: string) {
    const problem = this.#problem(path);
    return problem ? html`<p class="field-error" id=${`${id}-error`}>${problem}</p>` : nothing;
  }

  #describedBy(path: Path, id: string) {
    return this.#problem(path) ? `${id}-help ${id}-error` : `${id}-help`;
  }

  /** A JSON editor for one field: the fallback for whatever the form cannot show. */
  #json(name: string, s: Schema, path: Path, required: boolean) {
    const id = this.#id(path);
    const v = getAt(this.value, path);
    const err = this._jsonErrors[id];
    return html`<div class="field" data-fallback="json">
      ${label(name, s, required, id)}
      <textarea
        id=${id}
        aria-describedby=${this.#describedBy(path, id)}
        aria-invalid=${err || this.#problem(path) ? 'true' : 'false'}
        .value=${live(v === undefined ? '' : JSON.stringify(v, null, 2))}
        @focusout=${() => this.#touch(path)}
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
      ${err ? html`<p class="json-error">${err}</p>` : this.#error(path, id)}
    </div>`;
  }

  /** A choice (enum, or constants with titles): empty until chosen unless there is a default. */
  #select(name: string, s: Schema, path: Path, required: boolean, choices: { value: unknown; label: string }[]) {
    const id = this.#id(path);
    const v = getAt(this.value, path);
    const at = choices.findIndex((c) => c.value === v);
    return html`<div class="field">
      ${label(name, s, required, id)}
      <select
        id=${id}
        aria-describedby=${this.#describedBy(path, id)}
        aria-invalid=${this.#problem(path) ? 'true' : 'false'}
        .value=${live(String(at))}
        @focusout=${() => this.#touch(path)}
        @change=${(e: Event) => {
          const i = Number((e.target as HTMLSelectElement).value);
          this.#touch(path);
          this.#change(path, i < 0 ? undefined : choices[i].value);
        }}
      >
        <option value="-1" ?selected=${at < 0}>${required ? 'Choose…' : '— (not sent)'}</option>
        ${choices.map((c, i) => html`<option value=${i} ?selected=${i === at}>${c.label}</option>`)}</select
      >${help(s, id)}${this.#error(path, id)}
    </div>`;
  }

  /** `oneOf` / `anyOf` with real branches: choose a kind, then fill it in. */
  #variants(name: string, s: Schema, path: Path, required: boolean, depth: number, options: Schema[]) {
    const id = this.#id(path);
    const key = pathKey(path);
    const v = getAt(this.value, path);
    const unset = v === undefined && !required;
    const chosen = unset ? -1 : chosenBranch(this._branches, key, options, v);
    return html`<fieldset>
      ${legend(name, s, required)} ${help(s, id)}
      <div class="field">
        <label for=${`${id}-branch`}>Kind</label>
        <select
          id=${`${id}-branch`}
          .value=${live(String(chosen))}
          @change=${(e: Event) => {
            const i = Number((e.target as HTMLSelectElement).value);
            this._branches = { ...this._branches, [key]: i };
            this.#change(path, i < 0 ? undefined : initialValue(options[i], this.schema));
          }}
        >
          ${required ? nothing : html`<option value="-1" ?selected=${chosen < 0}>— (not sent)</option>`}
          ${options.map(
            (o, i) =>
              html`<option value=${i} ?selected=${i === chosen}>
                ${(o.title as string) ?? (typeof o.const === 'string' ? o.const : (typeOf(o) ?? `Option ${i + 1}`))}
              </option>`,
          )}
        </select>
      </div>
      ${
        chosen < 0
          ? nothing
          : this.#field(
              name,
              { ...options[chosen], title: (options[chosen].title as string) ?? name },
              path,
              required,
              depth + 1,
            )
      }
    </fieldset>`;
  }

  #field(name: string, raw: unknown, path: Path, required: boolean, depth: number): TemplateResult {
    const root = this.schema;
    const unwrapped = unwrapNullable(resolve(raw, root), root);
    const { nullable } = unwrapped;
    // a title that came with a referenced definition names the type, not this field
    const s =
      viaRef(raw) && !(isObj(raw) && 'title' in raw) ? { ...unwrapped.schema, title: undefined } : unwrapped.schema;
    const id = this.#id(path);
    if (depth > 8) return this.#json(name, s, path, required);
    const choices = choicesOf(s, root);
    if (choices) return this.#select(name, s, path, required, choices);
    const variants = variantsOf(s, root);
    if (variants) return this.#variants(name, s, path, required, depth, variants);
    const v = getAt(this.value, path);
    const t = typeOf(s);
    // an empty box sends nothing; a required field that may be null sends null
    const empty = required && nullable ? null : undefined;
    const common = {
      describedBy: this.#describedBy(path, id),
      invalid: this.#problem(path) ? 'true' : 'false',
    };
    if ('const' in s) {
      return html`<div class="field">
        ${label(name, s, required, id)}<input
          id=${id}
          readonly
          .value=${JSON.stringify(s.const)}
          aria-describedby=${common.describedBy}
        />${help(s, id)}
      </div>`;
    }
    switch (t) {
      case 'string': {
        const format = s.format as string;
        return html`<div class="field">
          ${label(name, s, required, id)}
          <input
            id=${id}
            type=${FORMAT_INPUT[format] ?? 'text'}
            placeholder=${FORMAT_EXAMPLE[format] ?? nothing}
            aria-describedby=${common.describedBy}
            aria-invalid=${common.invalid}
            ?required=${required}
            .value=${live(typeof v === 'string' ? v : '')}
            @focusout=${() => this.#touch(path)}
            @input=${(e: Event) => {
              const x = (e.target as HTMLInputElement).value;
              this.#change(path, x === '' && !Array.isArray(getAt(this.value, path.slice(0, -1))) ? empty : x);
            }}
          />${help(s, id)}${this.#error(path, id)}
        </div>`;
      }
      case 'number':
      case 'integer':
        return html`<div class="field">
          ${label(name, s, required, id)}
          <input
            id=${id}
            type="number"
            aria-describedby=${common.describedBy}
            aria-invalid=${common.invalid}
            ?required=${required}
            step=${t === 'integer' ? '1' : 'any'}
            .value=${live(typeof v === 'number' ? String(v) : '')}
            @focusout=${() => this.#touch(path)}
            @input=${(e: Event) => {
              const x = (e.target as HTMLInputElement).value;
              this.#change(path, x === '' ? empty : Number(x));
            }}
          />${help(s, id)}${this.#error(path, id)}
        </div>`;
      case 'boolean':
        // optional with no default: "not sent" is a value of its own, so a choice of three
        if (!required && !('default' in s) && typeof path[path.length - 1] !== 'number')
          return this.#select(name, s, path, false, [
            { value: true, label: 'Yes (true)' },
            { value: false, label: 'No (false)' },
          ]);
        return html`<div class="field">
          <label
            ><input
              id=${id}
              type="checkbox"
              aria-describedby=${common.describedBy}
              .checked=${live(v === true)}
              @change=${(e: Event) => {
                this.#touch(path);
                this.#change(path, (e.target as HTMLInputElement).checked);
              }}
            />
            ${(s.title as string) ?? name}${requiredMark(required, false)}</label
          >${help(s, id)}${this.#error(path, id)}
        </div>`;
      case 'array':
        return this.#array(name, s, path, required, depth);
      case 'object': {
        const props = isObj(s.properties) ? s.properties : {};
        if (Object.keys(props).length === 0) return this.#json(name, s, path, required);
        const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        const inner = Object.entries(props).map(([k, ps]) => this.#field(k, ps, [...path, k], req.has(k), depth + 1));
        return path.length === 0
          ? html`${inner}`
          : html`<fieldset>${legend(name, s, required)} ${help(s, id)}${inner}</fieldset>`;
      }
      default:
        return this.#json(name, s, path, required);
    }
  }

  #array(name: string, s: Schema, path: Path, required: boolean, depth: number) {
    const root = this.schema;
    const id = this.#id(path);
    const v = getAt(this.value, path);
    const items = Array.isArray(v) ? v : [];
    const itemSchema = Array.isArray(s.items) ? s.items[0] : s.items;
    if (!isObj(itemSchema)) return this.#json(name, s, path, required);
    const item = unwrapNullable(resolve(itemSchema, root), root).schema;
    const choices = choicesOf(item, root);
    if (choices) {
      // a list of choices: one checkbox each, the list is the ticked ones in their order
      const set = new Set(items);
      return html`<fieldset aria-describedby=${this.#describedBy(path, id)}>
        ${legend(name, s, required)} ${help(s, id)}
        <div class="choices">
          ${choices.map(
            (c, i) =>
              html`<label
                ><input
                  type="checkbox"
                  id=${`${id}-${i}`}
                  .checked=${live(set.has(c.value))}
                  @change=${(e: Event) => {
                    const on = (e.target as HTMLInputElement).checked;
                    const next = choices.filter((x) => (x === c ? on : set.has(x.value))).map((x) => x.value);
                    this.#touch(path);
                    this.#change(path, next.length || required ? next : undefined);
                  }}
                />
                ${c.label}</label
              >`,
          )}
        </div>
        ${this.#error(path, id)}
      </fieldset>`;
    }
    return html`<fieldset aria-describedby=${this.#describedBy(path, id)}>
      ${legend(name, s, required)} ${help(s, id)}
      ${items.map(
        (_, i) =>
          html`<div class="item">
            <div>${this.#field(`${name} ${i + 1}`, itemSchema, [...path, i], false, depth + 1)}</div>
            <button
              type="button"
              aria-label=${`Remove ${name} ${i + 1}`}
              @click=${() => {
                const rest = items.filter((__, j) => j !== i);
                this.#touch(path);
                this.#change(path, rest.length || required ? rest : undefined);
              }}
            >
              ×
            </button>
          </div>`,
      )}
      <button
        type="button"
        data-add=${id}
        @click=${() => this.#change(path, [...items, initialItem(itemSchema, root)])}
      >
        Add ${name}
      </button>
      ${this.#error(path, id)}
    </fieldset>`;
  }

  override render() {
    const root = resolve(this.schema, this.schema);
    if (typeOf(root) === 'object' && Object.keys(isObj(root.properties) ? root.properties : {}).length === 0)
      return html`<p class="help">This tool takes no arguments.</p>`;
    return this.#field('arguments', root, [], false, 0);
  }
}
