// JSON Schema → the OpenAPI subset Gemini accepts (https://ai.google.dev/api/caching#Schema):
// type (upper case), format, title, description, nullable, enum (strings), items, properties,
// required, minItems/maxItems, minProperties/maxProperties, minLength/maxLength, pattern,
// minimum/maximum, anyOf, default, example. Everything else is rewritten or dropped:
// $ref/$defs are inlined (recursion cut at a depth), const becomes a one-value enum (strings) or
// a note in the description, type arrays become `nullable` or anyOf, oneOf becomes anyOf,
// allOf is merged, additionalProperties/$schema/$id/… are dropped.

type Json = Record<string, unknown>;
const TYPES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};
const COPY = [
  'format',
  'title',
  'description',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'default',
  'example',
];
const MAX_DEPTH = 12;

function isObj(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function resolveRef(ref: string, root: Json): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = isObj(cur) ? cur[key] : undefined;
  }
  return isObj(cur) ? cur : undefined;
}

function note(out: Json, text: string) {
  out.description = out.description ? `${out.description} (${text})` : text;
}

function mergeAllOf(schema: Json): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const merged: Json = { ...rest };
  for (const part of allOf as unknown[]) {
    if (!isObj(part)) continue;
    for (const [k, v] of Object.entries(part)) {
      if (k === 'properties' && isObj(v))
        merged.properties = { ...(isObj(merged.properties) ? merged.properties : {}), ...v };
      else if (k === 'required' && Array.isArray(v))
        merged.required = [...new Set([...((merged.required as string[]) ?? []), ...v])];
      else if (!(k in merged)) merged[k] = v;
    }
  }
  return merged;
}

function convert(input: unknown, root: Json, depth: number, refs: string[]): Json {
  if (!isObj(input)) return { type: 'STRING' };
  if (depth > MAX_DEPTH) return { type: 'OBJECT', description: 'Nested too deeply to describe; send a JSON value.' };
  let s: Json = input;
  if (typeof s.$ref === 'string') {
    const target = refs.includes(s.$ref) ? undefined : resolveRef(s.$ref, root);
    if (!target) return { type: 'OBJECT', description: `A ${String(s.$ref).split('/').pop()} value (recursive)` };
    const { $ref, ...siblings } = s;
    return convert({ ...target, ...siblings }, root, depth + 1, [...refs, $ref as string]);
  }
  s = mergeAllOf(s);
  const out: Json = {};
  for (const k of COPY) if (k in s) out[k] = s[k];
  // Gemini understands only a few string formats
  if (out.format && !['enum', 'date-time'].includes(String(out.format))) {
    note(out, `format: ${out.format}`);
    delete out.format;
  }
  const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
    unknown[] | undefined;
  if (variants) {
    const nonNull = variants.filter((v) => !(isObj(v) && v.type === 'null'));
    if (nonNull.length < variants.length) out.nullable = true;
    if (nonNull.length === 1) return { ...convert(nonNull[0], root, depth + 1, refs), ...out };
    out.anyOf = nonNull.map((v) => convert(v, root, depth + 1, refs));
    return out;
  }
  let type = s.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    if (nonNull.length < type.length) out.nullable = true;
    if (nonNull.length > 1) {
      out.anyOf = nonNull.map((t) => convert({ ...s, type: t }, root, depth + 1, refs));
      return out;
    }
    type = nonNull[0];
  }
  if ('const' in s) {
    const c = s.const;
    if (typeof c === 'string') {
      out.type = 'STRING';
      out.enum = [c];
      return out;
    }
    note(out, `must be ${JSON.stringify(c)}`);
    type ??= c === null ? 'null' : typeof c === 'number' ? (Number.isInteger(c) ? 'integer' : 'number') : typeof c;
  }
  if (Array.isArray(s.enum)) {
    if (s.enum.every((e) => typeof e === 'string')) {
      out.enum = s.enum;
      type ??= 'string';
    } else {
      note(out, `one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    }
  }
  if (!type) type = isObj(s.properties) ? 'object' : s.items ? 'array' : undefined;
  if (typeof type === 'string' && TYPES[type]) out.type = TYPES[type];
  else if (!out.anyOf) out.type = 'STRING';
  if (out.type === 'OBJECT' && isObj(s.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => [k, convert(v, root, depth + 1, refs)]),
    );
    if (Array.isArray(s.required)) {
      const names = s.required.filter((r): r is string => typeof r === 'string' && r in (out.properties as Json));
      if (names.length) out.required = names;
    }
  }
  if (out.type === 'ARRAY')
    out.items = convert(Array.isArray(s.items) ? s.items[0] : (s.items ?? {}), root, depth + 1, refs);
  if (out.type === 'NULL') {
    // Gemini has no standalone null in most models: a nullable string carries the meaning
    out.type = 'STRING';
    out.nullable = true;
  }
  return out;
}

/** Convert a tool's JSON Schema for Gemini's `parameters`. */
export function toGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema, schema, 0, []);
}
