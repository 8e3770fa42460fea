/**
 * Model-facing tool names: `<server>__<tool>`, safe for every provider (`[A-Za-z0-9_-]`, at most
 * 64 characters, starting with a letter). A name that had to be changed (characters replaced,
 * shortened) or that would collide with another gets a short stable hash suffix, so every name
 * maps back to exactly one (server, tool).
 */
export const MAX_TOOL_NAME = 64;
const SEP = '__';
const HASH_LEN = 8;

/** A (server, tool) pair to name. `serverKey` must be unique per server (its id). */
export interface NameInput {
  readonly serverKey: string;
  readonly serverName: string;
  readonly toolName: string;
}

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

function exact(name: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(name) && !/^[_-]|[_-]$/.test(name);
}

/** The readable part of a name, before any suffix. */
function base(input: NameInput): { text: string; lossless: boolean } {
  let text = `${segment(input.serverName, 'server')}${SEP}${segment(input.toolName, 'tool')}`;
  let lossless = exact(input.serverName) && exact(input.toolName);
  if (!/^[A-Za-z]/.test(text)) {
    text = `m${text}`;
    lossless = false;
  }
  return { text, lossless: lossless && text.length <= MAX_TOOL_NAME };
}

function suffixed(text: string, input: NameInput): string {
  const keep = MAX_TOOL_NAME - HASH_LEN - 1;
  return `${text.slice(0, keep).replace(/[_-]+$/, '')}_${hash(`${input.serverKey}\u0000${input.toolName}`)}`;
}

/**
 * Name every (server, tool) pair. The result depends only on the set of inputs, not their order.
 * Returns a Map from model-facing name to input.
 */
export function nameTools<T extends NameInput>(inputs: readonly T[]): Map<string, T> {
  const bases = inputs.map((i) => ({ i, ...base(i) }));
  const count = new Map<string, number>();
  for (const b of bases) count.set(b.text, (count.get(b.text) ?? 0) + 1);
  const out = new Map<string, T>();
  const pending: { i: T; name: string }[] = [];
  for (const b of bases) {
    const name = b.lossless && count.get(b.text) === 1 ? b.text : suffixed(b.text, b.i);
    pending.push({ i: b.i, name });
  }
  // a suffixed name could (very rarely) equal another name: resolve deterministically by
  // re-hashing with a counter, in a stable order
  pending.sort((a, b) => (a.i.serverKey + '\u0000' + a.i.toolName < b.i.serverKey + '\u0000' + b.i.toolName ? -1 : 1));
  for (const p of pending) {
    let name = p.name;
    for (let n = 1; out.has(name); n++)
      name = suffixed(base(p.i).text, { ...p.i, toolName: `${p.i.toolName}\u0000${n}` });
    out.set(name, p.i);
  }
  return out;
}
