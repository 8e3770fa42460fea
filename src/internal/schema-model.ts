// What the schema form needs to know about a JSON Schema, without rendering: references, types,
// choices, starting values, and which validator problems belong to which field, in plain words.
import type { ArgumentIssue } from '../core/index.js';
import { REQUIRED_MESSAGE } from './required.js';

export type Schema = Record<string, unknown>;
export type Path = (string | number)[];

export const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Follow a local `$ref` (`#/…`), keeping the referring schema's own keywords over the target's. */
export function resolve(s: unknown, root: Schema, seen: string[] = []): Schema {
  if (!isObj(s)) return {};
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#/') && !seen.includes(s.$ref)) {
    let cur: unknown = root;
    for (const part of s.$ref.slice(2).split('/'))
      cur = isObj(cur) ? cur[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    const { $ref, ...rest } = s;
    return resolve({ ...(isObj(cur) ? cur : {}), ...rest }, root, [...seen, $ref as string]);
  }
  return s;
}

const isNullSchema = (s: Schema) => s.type === 'null' || (Array.isArray(s.type) && s.type.every((t) => t === 'null'));

/** The schema's `oneOf` / `anyOf` branches, resolved (undefined when it has none). */
export function variantsOf(s: Schema, root: Schema): Schema[] | undefined {
  const v = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  return Array.isArray(v) && v.length ? v.map((x) => resolve(x, root)) : undefined;
}

/**
 * A nullable schema shown as its one non-null branch (`anyOf: [X, {type: null}]`, as zod and
 * pydantic emit), with the wrapper's title, description and default; `nullable` says null is allowed.
 */
export function unwrapNullable(s: Schema, root: Schema): { schema: Schema; nullable: boolean; branch?: number } {
  const variants = variantsOf(s, root);
  if (variants && variants.length === 2 && variants.some(isNullSchema)) {
    const branch = variants.findIndex((v) => !isNullSchema(v));
    const { oneOf: _o, anyOf: _a, ...outer } = s;
    return { schema: { ...variants[branch], ...outer }, nullable: true, branch };
  }
  const t = s.type;
  return { schema: s, nullable: (Array.isArray(t) && t.includes('null')) || s.nullable === true };
}

export function typeOf(s: Schema): string | undefined {
  const t = s.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  if (typeof t === 'string') return t;
  if ('const' in s) return 'const';
  if (Array.isArray(s.enum)) return 'enum';
  if (isObj(s.properties)) return 'object';
  if (s.items) return 'array';
  return undefined;
}

type Primitive = string | number | boolean;
const isPrimitive = (x: unknown): x is Primitive => ['string', 'number', 'boolean'].includes(typeof x);

/** The choices of an enum, or of `oneOf`/`anyOf` branches that are all constants (with titles). */
export function choicesOf(s: Schema, root: Schema): { value: Primitive; label: string }[] | undefined {
  if (Array.isArray(s.enum) && s.enum.length && s.enum.every(isPrimitive))
    return (s.enum as Primitive[]).map((value) => ({ value, label: String(value) }));
  const variants = variantsOf(s, root);
  if (variants?.every((v) => 'const' in v && isPrimitive(v.const)))
    return variants.map((v) => ({
      value: v.const as Primitive,
      label: typeof v.title === 'string' ? v.title : String(v.const),
    }));
  return undefined;
}

/**
 * The value a control starts with, which is the value sent until the user changes it: the
 * default, the constant, or nothing (a required choice without a default starts empty).
 * Objects start with their required, defaulted and constant members; lists start empty.
 */
export function initialValue(schema: unknown, root: Schema = schema as Schema): unknown {
  const s = unwrapNullable(resolve(schema, root), root).schema;
  if ('default' in s) return structuredClone(s.default);
  if ('const' in s) return s.const;
  if (choicesOf(s, root)) return undefined;
  const variants = variantsOf(s, root);
  if (variants) return initialValue(variants[0], root);
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [k, v] of Object.entries(isObj(s.properties) ? s.properties : {})) {
        const r = unwrapNullable(resolve(v, root), root).schema;
        if (req.has(k) || 'default' in r || 'const' in r) {
          const x = initialValue(v, root);
          if (x !== undefined) out[k] = x;
        }
      }
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false; // a checkbox shows false as unchecked: what is shown is what is sent
    default:
      return undefined;
  }
}

/** A new list item: text items start as empty text (what an empty box shows), others as above. */
export function initialItem(schema: unknown, root: Schema): unknown {
  const s = unwrapNullable(resolve(schema, root), root).schema;
  const v = initialValue(s, root);
  return v === undefined && typeOf(s) === 'string' && !choicesOf(s, root) ? '' : v;
}

export function getAt(v: unknown, path: Path): unknown {
  let cur = v;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[p] : undefined;
  return cur;
}

export function setAt(v: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const base = Array.isArray(v) ? [...v] : isObj(v) ? { ...v } : typeof head === 'number' ? [] : {};
  const next = setAt((base as Record<string | number, unknown>)[head], rest, value);
  if (next === undefined && !Array.isArray(base)) delete (base as Record<string, unknown>)[head as string];
  else (base as Record<string | number, unknown>)[head] = next;
  return base;
}

export const pathKey = (path: Path) => path.join('\u0000');

function pointer(loc: string): string[] {
  return loc
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const UMBRELLA = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  '$ref',
  'allOf',
  'dependentSchemas',
  'unevaluatedProperties',
]);

/**
 * The validator's problems that concern what the form shows, each at the field it belongs to:
 * a missing required member at that member; problems inside a `oneOf`/`anyOf` only for the
 * branch the form shows there (`branchAt`: the branch index shown at an instance path, or -1 for
 * none); the "matches no branch" summary only when no branch problem explains it.
 */
export function fieldIssues(
  issues: readonly ArgumentIssue[],
  branchAt: (path: string[]) => number,
): { path: string[]; issue: ArgumentIssue }[] {
  const out: { path: string[]; issue: ArgumentIssue }[] = [];
  const explained = new Set<string>();
  for (const issue of issues) {
    if (UMBRELLA.has(issue.keyword)) continue;
    const keyword = pointer(issue.keywordLocation);
    const instance = pointer(issue.instanceLocation);
    // walk the schema path alongside the instance path, checking each branch taken on the way
    const at: string[] = [];
    let shown = true;
    for (let i = 0; i < keyword.length - 1 && shown; i++) {
      const k = keyword[i];
      if (k === 'properties' || k === 'patternProperties') {
        at.push(instance[at.length]!);
        i++;
      } else if (k === 'items' || k === 'additionalProperties' || k === 'additionalItems')
        at.push(instance[at.length]!);
      else if (k === 'prefixItems') {
        at.push(instance[at.length]!);
        i++;
      } else if (k === 'oneOf' || k === 'anyOf') {
        shown = Number(keyword[i + 1]) === branchAt(at);
        if (shown) explained.add(at.join('/'));
        i++;
      }
    }
    if (!shown) continue;
    if (issue.keyword === 'required') {
      const name = /property "(.*)"\.?$/.exec(issue.message)?.[1];
      out.push({ path: name === undefined ? instance : [...instance, name], issue });
    } else out.push({ path: instance, issue });
  }
  return out.filter(
    ({ path, issue }) => !((issue.keyword === 'oneOf' || issue.keyword === 'anyOf') && explained.has(path.join('/'))),
  );
}

const FORMAT_HINT: Record<string, string> = {
  email: 'Enter an email address.',
  uri: 'Enter a full address, such as https://example.com.',
  url: 'Enter a full address, such as https://example.com.',
  date: 'Enter a date, such as 2025-01-31.',
  'date-time': 'Enter a date and time, such as 2025-01-31T12:00:00Z.',
  time: 'Enter a time, such as 12:00:00Z.',
  uuid: 'Enter a UUID.',
};

/** A validator problem in words a person reads, using the field's schema for the numbers. */
export function plainMessage(issue: ArgumentIssue, s: Schema, root: Schema): string {
  const n = (k: string) => s[k] as number;
  switch (issue.keyword) {
    case 'required':
      return REQUIRED_MESSAGE;
    case 'type': {
      const t = typeOf(s);
      if (t === 'integer') return 'Enter a whole number.';
      if (t === 'number') return 'Enter a number.';
      if (t === 'string') return 'Enter text.';
      if (t === 'boolean') return 'Choose yes or no.';
      return issue.message;
    }
    case 'enum':
    case 'oneOf':
    case 'anyOf':
      return choicesOf(s, root) || issue.keyword === 'enum'
        ? 'Choose one of the options.'
        : 'Fill in one of the kinds.';
    case 'const':
      return `Must be ${JSON.stringify(s.const)}.`;
    case 'minimum':
      return `Must be ${n('minimum')} or more.`;
    case 'maximum':
      return `Must be ${n('maximum')} or less.`;
    case 'exclusiveMinimum':
      return `Must be more than ${n('exclusiveMinimum')}.`;
    case 'exclusiveMaximum':
      return `Must be less than ${n('exclusiveMaximum')}.`;
    case 'multipleOf':
      return `Must be a multiple of ${n('multipleOf')}.`;
    case 'minLength':
      return n('minLength') === 1 ? REQUIRED_MESSAGE : `At least ${n('minLength')} characters.`;
    case 'maxLength':
      return `At most ${n('maxLength')} characters.`;
    case 'pattern':
      return `Must match the pattern ${String(s.pattern)}.`;
    case 'format':
      return FORMAT_HINT[s.format as string] ?? `Not a valid ${String(s.format)}.`;
    case 'minItems':
      return `Add at least ${n('minItems')}.`;
    case 'maxItems':
      return `At most ${n('maxItems')} items.`;
    case 'uniqueItems':
      return 'Each item must be different.';
    default:
      return issue.message;
  }
}

/** The schema a validator problem was found in (the keyword's parent), following `$ref`s. */
export function schemaAt(root: Schema, keywordLocation: string): Schema {
  const parts = pointer(keywordLocation).slice(0, -1);
  let cur: Schema = root;
  for (const p of parts) {
    if (p === '$ref') cur = resolve({ $ref: cur.$ref }, root);
    else {
      const next = (cur as Record<string, unknown>)[p];
      cur = Array.isArray(next) || isObj(next) ? (next as Schema) : {};
    }
  }
  return cur;
}
