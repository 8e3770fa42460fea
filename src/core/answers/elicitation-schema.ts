// The restricted schemas an elicitation form may ask for (MCP "elicitation", form mode): a flat
// object of primitive properties — strings (with a few formats), numbers, integers, booleans,
// single-select enums (with titles) and multi-select enums. Anything else is refused, so a form
// never shows a field the spec does not define.

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const MAX_PROPERTIES = 50;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const consts = (v: unknown) => Array.isArray(v) && v.every((x) => isObject(x) && typeof x.const === 'string');

function propertyProblem(name: string, p: unknown): string | undefined {
  if (!isObject(p)) return `property "${name}" is not a schema`;
  switch (p.type) {
    case 'string':
      if (p.enum !== undefined && !strings(p.enum)) return `property "${name}": enum must list strings`;
      if (p.enumNames !== undefined && !strings(p.enumNames)) return `property "${name}": enumNames must be strings`;
      if (p.oneOf !== undefined && !consts(p.oneOf)) return `property "${name}": oneOf must list { const, title }`;
      if (p.format !== undefined && !FORMATS.has(String(p.format)))
        return `property "${name}": format "${String(p.format)}" is not one of email, uri, date, date-time`;
      return undefined;
    case 'number':
    case 'integer':
    case 'boolean':
      return undefined;
    case 'array': {
      const items = p.items;
      if (!isObject(items)) return `property "${name}": a multi-select needs items`;
      if ((items.type === 'string' && strings(items.enum)) || consts(items.anyOf)) return undefined;
      return `property "${name}": a multi-select lists string options (items.enum or items.anyOf)`;
    }
    default:
      return `property "${name}" has type ${JSON.stringify(p.type)}; forms allow string, number, integer, boolean and enum arrays`;
  }
}

/** Why a requested schema is not one a form may show, or undefined when it is. */
export function requestedSchemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema) || schema.type !== 'object') return 'requestedSchema must be an object schema';
  const props = schema.properties;
  if (!isObject(props)) return 'requestedSchema needs properties';
  const names = Object.keys(props);
  if (names.length > MAX_PROPERTIES) return `requestedSchema has more than ${MAX_PROPERTIES} properties`;
  for (const n of names) {
    const problem = propertyProblem(n, props[n]);
    if (problem) return problem;
  }
  if (schema.required !== undefined && !strings(schema.required)) return 'requestedSchema.required must list names';
  return undefined;
}

/** The content with each missing property's `default` filled in (capability `applyDefaults`). */
export function withDefaults(schema: Json, content: Json): Json {
  const out: Json = { ...content };
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [k, p] of Object.entries(props))
    if (out[k] === undefined && isObject(p) && p.default !== undefined) out[k] = p.default;
  return out;
}

/** Property names whose values look like secrets (never kept once answered). */
export function sensitiveFields(schema: Json): string[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  return Object.keys(props).filter((k) => /pass(word)?|secret|token|api[-_]?key|pin|otp|credential/i.test(k));
}
