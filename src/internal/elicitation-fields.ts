// The fields of an elicitation form, read from the spec's restricted schema (the core has already
// refused anything else): what to render, what the user typed (as the inputs hold it), the
// field errors, and the content to send. Pure functions; nothing here keeps a value.
import { sensitiveFields } from '../core/index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface FieldOption {
  readonly value: string;
  readonly label: string;
}

/** One property of the requested schema, as the form shows it. */
export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  /** A password-like name (core `sensitiveFields`): rendered as a password input. */
  readonly sensitive: boolean;
  readonly kind: 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'multi';
  readonly format?: 'email' | 'uri' | 'date' | 'date-time';
  readonly options?: readonly FieldOption[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: unknown;
}

/** What an input holds: text for text, number and select inputs; a flag; the chosen options. */
export type RawValue = string | boolean | readonly string[];

/** The problem with one field, as a string key and the numbers it names. */
export interface FieldProblem {
  readonly key:
    | 'fieldRequired'
    | 'fieldEmail'
    | 'fieldUri'
    | 'fieldDate'
    | 'fieldDateTime'
    | 'fieldNumber'
    | 'fieldInteger'
    | 'fieldMin'
    | 'fieldMax'
    | 'fieldMinLength'
    | 'fieldMaxLength'
    | 'fieldMinItems'
    | 'fieldMaxItems'
    | 'fieldOption';
  readonly limit?: number;
}

function optionsOf(p: Json): FieldOption[] | undefined {
  const consts = (list: unknown) =>
    Array.isArray(list)
      ? list.filter(isObject).map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }))
      : undefined;
  if (Array.isArray(p.oneOf)) return consts(p.oneOf);
  if (Array.isArray(p.anyOf)) return consts(p.anyOf);
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((v, i) => ({ value: String(v), label: String(names[i] ?? v) }));
  }
  return undefined;
}

/** The form's fields, in the schema's order. */
export function formFields(schema: Json): FormField[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const sensitive = new Set(sensitiveFields(schema));
  return Object.entries(props).map(([name, raw]) => {
    const p = isObject(raw) ? raw : {};
    const base = {
      name,
      label: typeof p.title === 'string' && p.title ? p.title : name,
      ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}),
      required: required.has(name),
      sensitive: sensitive.has(name),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
    if (p.type === 'array') {
      const items = isObject(p.items) ? p.items : {};
      return {
        ...base,
        kind: 'multi' as const,
        options: optionsOf(items) ?? [],
        ...(num(p.minItems) !== undefined ? { minItems: num(p.minItems) } : {}),
        ...(num(p.maxItems) !== undefined ? { maxItems: num(p.maxItems) } : {}),
      };
    }
    if (p.type === 'boolean') return { ...base, kind: 'boolean' as const };
    if (p.type === 'number' || p.type === 'integer')
      return {
        ...base,
        kind: p.type,
        ...(num(p.minimum) !== undefined ? { minimum: num(p.minimum) } : {}),
        ...(num(p.maximum) !== undefined ? { maximum: num(p.maximum) } : {}),
      };
    const options = optionsOf(p);
    if (options) return { ...base, kind: 'select' as const, options };
    const format = ['email', 'uri', 'date', 'date-time'].includes(String(p.format))
      ? (p.format as FormField['format'])
      : undefined;
    return {
      ...base,
      kind: 'text' as const,
      ...(format ? { format } : {}),
      ...(num(p.minLength) !== undefined ? { minLength: num(p.minLength) } : {}),
      ...(num(p.maxLength) !== undefined ? { maxLength: num(p.maxLength) } : {}),
    };
  });
}

/** `2026-01-02T03:04:05Z` as a `datetime-local` input shows it, in the user's time zone. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What each input starts with: the schema's default, else empty. */
export function initialValues(fields: readonly FormField[]): Record<string, RawValue> {
  const out: Record<string, RawValue> = {};
  for (const f of fields) {
    const d = f.default;
    if (f.kind === 'boolean') out[f.name] = d === true;
    else if (f.kind === 'multi') out[f.name] = Array.isArray(d) ? d.map(String) : [];
    else if (d === undefined || d === null) out[f.name] = '';
    else if (f.format === 'date-time') out[f.name] = toLocalInput(String(d));
    else out[f.name] = String(d);
  }
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isEmpty = (v: RawValue | undefined) =>
  v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && !v.trim());

/** The first problem with one field's value, or undefined. */
export function fieldProblem(f: FormField, value: RawValue | undefined): FieldProblem | undefined {
  if (f.kind === 'boolean') return undefined;
  if (isEmpty(value)) return f.required ? { key: 'fieldRequired' } : undefined;
  if (f.kind === 'multi') {
    const list = value as readonly string[];
    if (f.minItems !== undefined && list.length < f.minItems) return { key: 'fieldMinItems', limit: f.minItems };
    if (f.maxItems !== undefined && list.length > f.maxItems) return { key: 'fieldMaxItems', limit: f.maxItems };
    return list.every((v) => f.options?.some((o) => o.value === v)) ? undefined : { key: 'fieldOption' };
  }
  const text = String(value).trim();
  if (f.kind === 'select') return f.options?.some((o) => o.value === text) ? undefined : { key: 'fieldOption' };
  if (f.kind === 'number' || f.kind === 'integer') {
    const n = Number(text);
    if (!Number.isFinite(n)) return { key: 'fieldNumber' };
    if (f.kind === 'integer' && !Number.isInteger(n)) return { key: 'fieldInteger' };
    if (f.minimum !== undefined && n < f.minimum) return { key: 'fieldMin', limit: f.minimum };
    if (f.maximum !== undefined && n > f.maximum) return { key: 'fieldMax', limit: f.maximum };
    return undefined;
  }
  const length = [...String(value)].length;
  if (f.minLength !== undefined && length < f.minLength) return { key: 'fieldMinLength', limit: f.minLength };
  if (f.maxLength !== undefined && length > f.maxLength) return { key: 'fieldMaxLength', limit: f.maxLength };
  if (f.format === 'email' && !EMAIL.test(text)) return { key: 'fieldEmail' };
  if (f.format === 'uri' && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(text)) return { key: 'fieldUri' };
  if (f.format === 'date' && (!DATE.test(text) || Number.isNaN(Date.parse(text)))) return { key: 'fieldDate' };
  if (f.format === 'date-time' && Number.isNaN(new Date(text).getTime())) return { key: 'fieldDateTime' };
  return undefined;
}

/** The content to send: typed values, empty optional fields left out (the hub fills defaults). */
export function formContent(fields: readonly FormField[], values: Record<string, RawValue>): Json {
  const out: Json = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      out[f.name] = v === true;
      continue;
    }
    if (isEmpty(v)) continue;
    if (f.kind === 'multi') out[f.name] = [...(v as readonly string[])];
    else if (f.kind === 'number' || f.kind === 'integer') out[f.name] = Number(String(v).trim());
    else if (f.format === 'date-time') out[f.name] = new Date(String(v)).toISOString();
    else if (f.kind === 'select') out[f.name] = String(v);
    else out[f.name] = f.format ? String(v).trim() : String(v);
  }
  return out;
}
