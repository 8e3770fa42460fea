// SEP-2243 (2026-07-28): tool parameters marked `x-mcp-header` travel in `Mcp-Param-{Name}` headers
// as well as in the body, so gateways can route without parsing JSON. The SDK mirrors them only
// outside browsers; the hub does it everywhere (a browser can send them when the server's CORS
// allows them; when it does not, the CORS diagnosis names the header).

/** One parameter a tool mirrors into a header. */
export interface HeaderParam {
  readonly path: readonly string[];
  readonly header: string;
}

export type HeaderParamScan = { valid: true; params: readonly HeaderParam[] } | { valid: false; reason: string };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// the spec allows string, integer and boolean; `number` is excluded (conformance checks it)
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
// subschemas a `properties` chain must not pass through: a marker below them is invalid
const UNREACHABLE = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const MAPS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Find a tool's `x-mcp-header` parameters, or the first reason its declarations are invalid. */
export function scanHeaderParams(inputSchema: unknown): HeaderParamScan {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const where = (path: readonly string[]) => (path.length ? path.join('.') : 'the schema root');
  const walk = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const s = node as Record<string, unknown>;
    if ('x-mcp-header' in s) {
      const name = s['x-mcp-header'];
      if (!reachable || !path.length)
        return `x-mcp-header at ${where(path)} is not on a property reached by properties`;
      if (typeof name !== 'string' || !TOKEN.test(name))
        return `x-mcp-header at ${where(path)} is not a valid header name token`;
      if (typeof s.type !== 'string' || !PRIMITIVE.has(s.type))
        return `x-mcp-header at ${where(path)} is on a ${String(s.type ?? 'untyped')} property (string, integer, boolean only)`;
      if (seen.has(name.toLowerCase())) return `x-mcp-header "${name}" is declared twice`;
      seen.add(name.toLowerCase());
      params.push({ path: [...path], header: name });
    }
    if (s.properties && typeof s.properties === 'object')
      for (const [k, child] of Object.entries(s.properties)) {
        const fault = walk(child, [...path, k], reachable);
        if (fault) return fault;
      }
    for (const k of UNREACHABLE) {
      const sub = s[k];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAPS.has(k) && sub && typeof sub === 'object'
          ? Object.values(sub)
          : [sub];
      for (const b of branches) {
        const fault = walk(b, [...path, k], false);
        if (fault) return fault;
      }
    }
    return undefined;
  };
  const fault = walk(inputSchema, [], true);
  return fault ? { valid: false, reason: fault } : { valid: true, params };
}

function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v)))
    return String(v);
  return undefined;
}

/** A header value as is when it is plain visible ASCII, else `=?base64?<utf-8 base64>?=`. */
export function encodeHeaderValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    !(value.startsWith('=?base64?') && value.endsWith('?=')) &&
    /^[\t\x20-\x7e]*$/.test(value);
  if (plain) return value;
  let bin = '';
  for (const b of new TextEncoder().encode(value)) bin += String.fromCharCode(b);
  return `=?base64?${btoa(bin)}?=`;
}

/** The `Mcp-Param-*` headers for one call (absent and null values send no header). */
export function paramHeaders(params: readonly HeaderParam[], args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of params) {
    let v: unknown = args;
    for (const k of p.path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    const text = v === null || v === undefined ? undefined : asText(v);
    if (text !== undefined) out[`Mcp-Param-${p.header}`] = encodeHeaderValue(text);
  }
  return out;
}
