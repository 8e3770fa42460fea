// Where the schema form is in a schema: the field schema at an instance path, and which branch
// of a `oneOf`/`anyOf` (or which choice) it shows there. Pure functions over what the form holds.
import { choicesOf, getAt, isObj, pathKey, resolve, unwrapNullable, variantsOf, type Schema } from './schema-model.js';

/** What branch navigation reads: the root schema, the form's value, the user's branch choices by path key. */
export interface FormView {
  root: Schema;
  value: unknown;
  branches: Readonly<Record<string, number>>;
}

/** Whether a field's schema is (or wraps, as nullable) a `$ref` to a definition. */
export function viaRef(raw: unknown): boolean {
  if (!isObj(raw)) return false;
  if (typeof raw.$ref === 'string') return true;
  return [raw.anyOf, raw.oneOf].some((v) => Array.isArray(v) && v.some((b) => isObj(b) && typeof b.$ref === 'string'));
}

/** The schema the form shows at a path (nullable unwrapped, the chosen branch taken). */
export function schemaOf(view: FormView, path: string[]): Schema | undefined {
  const { root } = view;
  let s: Schema | undefined = unwrapNullable(resolve(root, root), root).schema;
  const at: string[] = [];
  for (const p of path) {
    if (!s) return undefined;
    const variants = choicesOf(s, root) ? undefined : variantsOf(s, root);
    if (variants) s = variants[branchAt(view, at)] ?? variants[0];
    const props: Schema | undefined = isObj(s!.properties) ? s!.properties : undefined;
    const next: unknown = props?.[p] ?? (Array.isArray(s!.items) ? s!.items[0] : s!.items);
    s = isObj(next) ? unwrapNullable(resolve(next, root), root).schema : undefined;
    at.push(p);
  }
  return s;
}

/** Which branch of a `oneOf`/`anyOf` the form shows at an instance path (-1: none). */
export function branchAt(view: FormView, at: string[]): number {
  const s = schemaAtRaw(view, at);
  if (!s) return -1;
  const { root } = view;
  const n = unwrapNullable(s, root);
  if (n.branch !== undefined) return n.branch;
  const v = getAt(view.value, at);
  const choices = choicesOf(s, root);
  if (choices) return choices.findIndex((c) => c.value === v);
  const variants = variantsOf(s, root);
  return variants ? chosenBranch(view.branches, pathKey(at), variants, v) : -1;
}

/** The schema at an instance path before unwrapping (for branch decisions). */
function schemaAtRaw(view: FormView, at: string[]): Schema | undefined {
  const { root } = view;
  if (at.length === 0) return resolve(root, root);
  const parent = schemaOf(view, at.slice(0, -1));
  if (!parent) return undefined;
  const variants = choicesOf(parent, root) ? undefined : variantsOf(parent, root);
  const p = variants ? (variants[branchAt(view, at.slice(0, -1))] ?? variants[0]) : parent;
  const key = at[at.length - 1];
  const next =
    isObj(p.properties) && key in p.properties ? p.properties[key] : Array.isArray(p.items) ? p.items[0] : p.items;
  return isObj(next) ? resolve(next, root) : undefined;
}

/** The branch chosen at a path: the user's choice, else the first whose constants match the value. */
export function chosenBranch(
  branches: Readonly<Record<string, number>>,
  key: string,
  variants: Schema[],
  v: unknown,
): number {
  if (key in branches) return branches[key];
  if (isObj(v)) {
    const i = variants.findIndex(
      (b) =>
        isObj(b.properties) &&
        Object.values(b.properties).some((p) => isObj(p) && 'const' in p) &&
        Object.entries(b.properties).every(([k, p]) => !isObj(p) || !('const' in p) || v[k] === p.const),
    );
    if (i >= 0) return i;
  }
  return 0;
}
