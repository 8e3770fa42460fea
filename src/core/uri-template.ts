// Resource templates (RFC 6570): every operator (`{?q}` expands to `?q=…`, `{/path*}`,
// `{+base}`, `{#frag}`, `{.ext}`, `{;p}`, `{&more}`) and prefixes (`{id:3}`), for the string
// values a form gives. Our own rather than the SDK's UriTemplate: that class lives in the SDK's
// main module, so importing it would put the whole SDK on the first load (decision 052).
import { McpConfigError } from './errors.js';

const MAX_TEMPLATE = 1_000_000;
const MAX_EXPRESSIONS = 10_000;

interface Expression {
  op: string;
  vars: { name: string; prefix?: number }[];
}
type Part = string | Expression;

// first: what the expansion starts with; sep: between values; named: `name=value`;
// empty: what follows a name whose value is empty; reserved: reserved characters pass unencoded
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; empty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, empty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, empty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, empty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, empty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, empty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, empty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, empty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, empty: '=', reserved: false },
};
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

function fail(message: string): never {
  throw new McpConfigError([{ path: 'uriTemplate', message }]);
}

function parse(template: string): Part[] {
  if (template.length > MAX_TEMPLATE) fail(`is longer than ${MAX_TEMPLATE} characters`);
  const parts: Part[] = [];
  let at = 0;
  let expressions = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    const close = template.indexOf('}', open);
    if (close === -1) fail('has an unclosed expression');
    if (++expressions > MAX_EXPRESSIONS) fail(`has more than ${MAX_EXPRESSIONS} expressions`);
    let body = template.slice(open + 1, close);
    const op = body[0] !== undefined && body[0] in OPERATORS ? body[0] : '';
    body = body.slice(op.length);
    const vars = body.split(',').map((spec) => {
      const m = /^([^:*]*)(?::([1-9]\d{0,3})|\*)?$/.exec(spec.trim());
      if (!m || !VARNAME.test(m[1]!)) fail(`has an invalid variable "${spec}"`);
      return m[2] ? { name: m[1]!, prefix: Number(m[2]) } : { name: m[1]! };
    });
    parts.push({ op, vars });
    at = close + 1;
  }
  return parts;
}

function encode(value: string, reserved: boolean): string {
  // encodeURIComponent keeps only the unreserved set and ! ' ( ) *, which RFC 6570 encodes too;
  // with `reserved`, reserved characters and existing %XX triplets pass as they are
  const out = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (!reserved) return out;
  return out
    .replace(/%(2[1346789ABCF]|3[ABDF]|40|5[BD])/g, (t) => decodeURIComponent(t))
    .replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
}

function expandOne({ op, vars }: Expression, values: Readonly<Record<string, string>>): string {
  const o = OPERATORS[op]!;
  const out: string[] = [];
  for (const { name, prefix } of vars) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = prefix === undefined ? raw : [...raw].slice(0, prefix).join('');
    const encoded = encode(value, o.reserved);
    out.push(o.named ? (value === '' ? name + o.empty : `${name}=${encoded}`) : encoded);
  }
  return out.length ? o.first + out.join(o.sep) : '';
}

/** The variable names of a URI template, in order, each once; none for a template that cannot be parsed. */
export function templateParams(template: string): string[] {
  try {
    return [...new Set(parse(template).flatMap((p) => (typeof p === 'string' ? [] : p.vars.map((v) => v.name))))];
  } catch {
    return [];
  }
}

/** Expand a URI template; variables left empty are left out (so `{?q}` with no q gives nothing). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  return parse(template)
    .map((p) => (typeof p === 'string' ? p : expandOne(p, given)))
    .join('');
}
