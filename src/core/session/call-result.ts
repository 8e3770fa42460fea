// A tool result from a G4F-style endpoint as an MCP CallToolResult. No SDK import: the core
// index exports it, and the CDN entry must not pull the SDK in (connections/session-loader.ts).

/**
 * The `_meta` key under which `normaliseCallResult` says what it had to repair; the call pipeline
 * reads it (calls/result-shape.ts), flags the result in the server's log and drops the key.
 */
export const NON_CONFORMANT_META = 'mcp-elements.nonConformant';

const marked = (o: Record<string, unknown>, why: string) => ({
  ...o,
  _meta: { ...(o._meta && typeof o._meta === 'object' ? o._meta : {}), [NON_CONFORMANT_META]: why },
});

/**
 * G4F-style endpoints may answer tools/call with `content` as one object, or a string, or with a
 * bare value or a plain object instead of a result object. Normalise to an MCP CallToolResult
 * whose `_meta[NON_CONFORMANT_META]` says what was wrong. A plain object keeps its fields (and
 * `content: []`): the pipeline turns them into structured content and its JSON as text, the same
 * as for a result the SDK let through without content.
 */
export function normaliseCallResult(r: unknown): unknown {
  if (typeof r === 'string') return marked({ content: [{ type: 'text', text: r }] }, 'a string instead of a result');
  if (r === null || typeof r !== 'object' || Array.isArray(r))
    return marked({ content: [], value: r }, `${Array.isArray(r) ? 'an array' : 'a bare value'} instead of a result`);
  const o = r as Record<string, unknown>;
  if (!('content' in o)) return marked({ ...o, content: [] }, 'no "content" in the result');
  const c = o.content;
  if (Array.isArray(c)) return o;
  if (typeof c === 'string') return marked({ ...o, content: [{ type: 'text', text: c }] }, '"content" is a string');
  if (c && typeof c === 'object') {
    const item = c as Record<string, unknown>;
    return marked(
      { ...o, content: [typeof item.type === 'string' ? item : { type: 'text', text: JSON.stringify(item) }] },
      '"content" is one object, not an array',
    );
  }
  return marked({ ...o, content: [] }, '"content" is not an array');
}
