// A tool result that does not follow the spec must never vanish. A server written like G4F's
// answers tools/call with a plain object (no `content`); the SDK's 2025 result schema lets it
// through with `content: []` (a default), and the plain JSON-RPC session marks what it repaired.
// Either way the fields the server sent are kept as structured content and as their JSON in a
// text block (what the spec asks of a tool that returns structured content), and the caller is
// told why, to flag it in the server's log.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { redactDeep } from '../errors.js';
import { NON_CONFORMANT_META } from '../session/call-result.js';

/** Fields of a CallToolResult (and of the result envelope); anything else is the server's own. */
const KNOWN = new Set(['content', 'structuredContent', 'isError', '_meta', 'resultType']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The result as the hub keeps it, and what was not conformant about it (undefined when nothing).
 */
export function conformResult(r: CallToolResult): { result: CallToolResult; issue?: string } {
  const raw = r as CallToolResult & Record<string, unknown>;
  const meta = isObject(raw._meta) ? raw._meta : undefined;
  let issue = typeof meta?.[NON_CONFORMANT_META] === 'string' ? (meta[NON_CONFORMANT_META] as string) : undefined;
  const content = Array.isArray(raw.content) ? raw.content : [];
  let result: CallToolResult = { ...r, content };
  // the fields no result has, looked for only when there is no content (not on every call)
  const own = content.length ? {} : Object.fromEntries(Object.entries(raw).filter(([k]) => !KNOWN.has(k)));
  if (!content.length && Object.keys(own).length) {
    // a bare value came as `{ value }` from the JSON-RPC session: keep it under that name
    const structured = isObject(raw.structuredContent) ? raw.structuredContent : own;
    result = {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
      ...(raw.isError ? { isError: true } : {}),
    };
    issue ??= 'no "content" in the result';
  }
  return issue ? { result, issue } : { result };
}

/** The vault's values as redactDeep takes them (no copy when there are none: a backend without secrets). */
const NONE: readonly string[] = [];
const secretsOf = (known: Iterable<string>): readonly string[] =>
  known instanceof Set && known.size === 0 ? NONE : [...known];

/**
 * The result as a call's record keeps it: conformed (a result without `content` keeps what the
 * server sent, flagged), and without any of `secrets` — a server may repeat what it was sent (an
 * Authorization header in an error text): what reaches history, events and the card never holds
 * a secret this page has handled (a scoped vault: a secret of this call's server).
 */
export function keptResult(sent: CallToolResult, secrets: Iterable<string>) {
  const { result, issue } = conformResult(sent);
  const kept = redactDeep(
    {
      content: result.content ?? [],
      ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
      ...(result.isError ? { isError: true } : {}),
      ...(issue ? { nonConformant: issue } : {}),
    },
    secretsOf(secrets),
  );
  return { result, kept };
}
