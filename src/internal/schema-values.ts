// Values from JSON Schemas (no DOM, no lit): shared by <mcp-schema-form> and the explorer,
// which needs a starting value before the form's chunk has loaded.
export type Schema = Record<string, unknown>;
export type Path = (string | number)[];

export const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Follow a local `$ref` (cycles stop), keeping the referring schema's own keywords. */
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

/** The kind of control a schema needs. */
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

/** A starting value for a schema: its default, const, or an empty value of its type. */
export function initialValue(schema: unknown, root: Schema = schema as Schema): unknown {
  const s = resolve(schema, root);
  if ('default' in s) return structuredClone(s.default);
  if ('const' in s) return s.const;
  const variants = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(variants) && variants.length) return initialValue(variants[0], root);
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [k, v] of Object.entries(isObj(s.properties) ? s.properties : {})) {
        const r = resolve(v, root);
        if (req.has(k) || 'default' in r || 'const' in r) out[k] = initialValue(v, root);
      }
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}
