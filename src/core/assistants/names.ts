/**
 * Model-facing tool names: `<server>__<tool>`, safe for every provider (`[A-Za-z0-9_-]`, at most
 * 64 characters, starting with a letter). People read them too (G4F prints the name of every
 * call), so a name gets a suffix only when two tools would otherwise share it: then the tool of
 * the server added first (lowest `rank`) keeps the plain name and the others get a short stable
 * hash of (server id, tool). Characters replaced or a name shortened are no reason for a suffix.
 * Every name maps back to exactly one (server, tool). A name once given is passed back in as
 * `given` and kept (the hub remembers it with the server's catalogue): a newcomer that collides
 * with it gets the suffix, whatever its rank. `suffixedName` is the name a tool would have had
 * with a suffix: callers accept it too (names given before names were remembered).
 */
export const MAX_TOOL_NAME = 64;
const SEP = '__';
const HASH_LEN = 8;

/** A (server, tool) pair to name. `serverKey` must be unique per server (its id). */
export interface NameInput {
  readonly serverKey: string;
  readonly serverName: string;
  readonly toolName: string;
  /**
   * Who keeps the plain name when two tools would share it: the lowest rank (the hub passes the
   * server's `createdAt`, so a tool never loses its name to a server added later). Default 0.
   */
  readonly rank?: number;
  /**
   * The name this tool was given before (remembered): kept unless another remembered tool holds
   * it (then the lower rank keeps it) or it is no valid name.
   */
  readonly given?: string;
}

const VALID = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** 32-bit FNV-1a over UTF-16 code units, as 8 base-36 characters (padded). */
function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  const n = (h1 >>> 0) * 0x400 + ((h2 >>> 0) & 0x3ff); // 42 bits
  return n.toString(36).padStart(HASH_LEN, '0').slice(-HASH_LEN);
}

/** Replace what providers reject; fold accents to ASCII first so "Café" stays readable. */
function segment(name: string, fallback: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const out = ascii.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '');
  return out || fallback;
}

/** The readable name, before any suffix: valid for every provider, at most MAX_TOOL_NAME long. */
function base(input: NameInput): string {
  let text = `${segment(input.serverName, 'server')}${SEP}${segment(input.toolName, 'tool')}`;
  if (!/^[A-Za-z]/.test(text)) text = `m${text}`;
  return text.length > MAX_TOOL_NAME ? text.slice(0, MAX_TOOL_NAME).replace(/[_-]+$/, '') : text;
}

function suffixed(text: string, input: NameInput): string {
  const keep = MAX_TOOL_NAME - HASH_LEN - 1;
  return `${text.slice(0, keep).replace(/[_-]+$/, '')}_${hash(`${input.serverKey}\u0000${input.toolName}`)}`;
}

/** The name this tool has when it must carry a suffix (accepted as an alias when it has none). */
export function suffixedName(input: NameInput): string {
  return suffixed(base(input), input);
}

const key = (i: NameInput) => `${i.serverKey}\u0000${i.toolName}`;
/** Who keeps a shared name: lowest rank, then the tool whose own name needed no change, then ids. */
function before(a: NameInput, b: NameInput): number {
  const r = (a.rank ?? 0) - (b.rank ?? 0);
  if (r) return r;
  const exact = (i: NameInput) => (/^[A-Za-z0-9_-]+$/.test(i.toolName) ? 0 : 1);
  return exact(a) - exact(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/**
 * Name every (server, tool) pair. Names already given (`given`) are kept first; the others get
 * `<server>__<tool>` unless that name is held or wanted by a lower rank, else the suffix. The
 * result depends only on the set of inputs (their ranks and given names), not their order.
 * Returns a Map from model-facing name to input.
 */
export function nameTools<T extends NameInput>(inputs: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  const fresh: T[] = [];
  for (const i of [...inputs].sort(before)) {
    const g = i.given;
    if (g !== undefined && g.length <= MAX_TOOL_NAME && VALID.test(g) && !out.has(g)) out.set(g, i);
    else fresh.push(i);
  }
  const groups = new Map<string, T[]>();
  for (const i of fresh) {
    const b = base(i);
    const g = groups.get(b);
    if (g) g.push(i);
    else groups.set(b, [i]);
  }
  const rest: { i: T; name: string }[] = [];
  for (const [b, g] of groups) {
    // `fresh` is sorted, so each group is too: its first takes the plain name if nobody holds it
    const first = out.has(b) ? 0 : 1;
    if (first) out.set(b, g[0]!);
    for (const i of g.slice(first)) rest.push({ i, name: suffixed(b, i) });
  }
  // a suffixed name that (very rarely) equals another name is re-hashed with a counter, in a
  // stable order
  for (const p of rest) {
    let name = p.name;
    for (let n = 1; out.has(name); n++) name = suffixed(base(p.i), { ...p.i, toolName: `${p.i.toolName}\u0000${n}` });
    out.set(name, p.i);
  }
  return out;
}
