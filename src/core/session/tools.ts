// One bad tool must not cost a server all of its tools: a `tools/list` page is read loosely and
// each tool checked on its own — a definition that is not a valid MCP tool (an input schema that
// is not an object, a missing name), and on 2026-07-28 Streamable HTTP one whose `x-mcp-header`
// declarations break SEP-2243, is left out with its reason; the rest are kept in order.
import { specTypeSchemas, type ListToolsResult, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';
import { scanHeaderParams } from './param-headers.js';

/** A tool the client left out, with why. */
export interface DroppedTool {
  readonly name: string;
  readonly reason: string;
}

type Issues = { issues?: readonly { message: string; path?: readonly unknown[] }[]; value?: unknown };

/** A `tools/list` page before its tools are judged. */
export interface LoosePage {
  tools: unknown[];
  nextCursor?: unknown;
}

/** A Standard Schema that accepts any `{ tools: [...] }` page; tools are judged one by one. */
export const LOOSE_TOOL_PAGE: StandardSchemaV1<unknown, LoosePage> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-elements',
    validate: (v: unknown) =>
      v && typeof v === 'object' && Array.isArray((v as { tools?: unknown }).tools)
        ? { value: v as LoosePage }
        : { issues: [{ message: 'the tools/list result has no tools array' }] },
  },
};

function nameOf(t: unknown): string {
  const n = (t as { name?: unknown })?.name;
  return typeof n === 'string' ? n.slice(0, 200) : '(unnamed)';
}

/** Keep the valid tools of a page, in order; report the others. */
export function keepValidTools(
  page: LoosePage,
  checkHeaders: boolean,
): { result: ListToolsResult; dropped: DroppedTool[] } {
  const dropped: DroppedTool[] = [];
  const tools: Tool[] = [];
  for (const raw of page.tools) {
    const r = specTypeSchemas.Tool['~standard'].validate(raw) as Issues;
    if (r.issues) {
      const first = r.issues[0]!;
      const at = first.path?.length ? ` at ${first.path.join('.')}` : '';
      dropped.push({ name: nameOf(raw), reason: `not a valid tool definition${at}: ${first.message}` });
      continue;
    }
    const tool = r.value as Tool;
    if (checkHeaders) {
      const scan = scanHeaderParams(tool.inputSchema);
      if (!scan.valid) {
        dropped.push({ name: tool.name, reason: scan.reason });
        continue;
      }
    }
    tools.push(tool);
  }
  const cursor = typeof page.nextCursor === 'string' ? { nextCursor: page.nextCursor } : {};
  return { result: { ...(page as object), ...cursor, tools } as ListToolsResult, dropped };
}
