// A tool result from a G4F-style endpoint as an MCP CallToolResult. No SDK import: the core
// index exports it, and the CDN entry must not pull the SDK in (connections/session-loader.ts).

/**
 * G4F-style endpoints may answer tools/call with `content` as one object, or a string, or with a
 * bare value instead of a result object. Normalise to an MCP CallToolResult.
 */
export function normaliseCallResult(r: unknown): unknown {
  if (typeof r === 'string') return { content: [{ type: 'text', text: r }] };
  if (r === null || typeof r !== 'object') return { content: [{ type: 'text', text: JSON.stringify(r) }] };
  const o = r as Record<string, unknown>;
  if (!('content' in o)) return { ...o, content: [{ type: 'text', text: JSON.stringify(r) }] };
  const c = o.content;
  if (Array.isArray(c)) return o;
  if (typeof c === 'string') return { ...o, content: [{ type: 'text', text: c }] };
  if (c && typeof c === 'object') {
    const item = c as Record<string, unknown>;
    return { ...o, content: [typeof item.type === 'string' ? item : { type: 'text', text: JSON.stringify(item) }] };
  }
  return { ...o, content: [] };
}
