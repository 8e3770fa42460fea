// Discovery: what a connected server offers (tools, resources, templates, prompts), every page.
import { McpConnectionError } from '../errors.js';
import { toConnectionError, type McpSession, type RequestOptions } from '../session/index.js';
import type { ServerCatalogue } from '../types.js';

/** Follow `nextCursor` to the end; stop on a repeated cursor or after 1,000 pages. */
export async function listAll<R extends { nextCursor?: string }, T>(
  page: (cursor?: string) => Promise<R>,
  pick: (r: R) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await page(cursor);
    out.push(...pick(r));
    cursor = r.nextCursor;
    if (!cursor) return out;
    if (seen.has(cursor))
      throw new McpConnectionError('protocol', 'The server repeated a pagination cursor; stopped listing.');
    seen.add(cursor);
  }
  throw new McpConnectionError('protocol', 'The server returned more than 1000 pages; stopped listing.');
}

/**
 * List everything a session's server offers, in parallel. A failing tools list fails discovery;
 * failing resources or prompts lists only warn (they are optional extras).
 */
export async function discover(
  id: string,
  s: McpSession,
  o: RequestOptions,
  warn: (message: string) => void,
  secrets: Iterable<string>,
): Promise<ServerCatalogue> {
  const caps = s.capabilities ?? {};
  const optional = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await run();
    } catch (e) {
      warn(`Could not list ${what} of server "${id}": ${toConnectionError(e, secrets).message}`);
      return [];
    }
  };
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    caps.tools
      ? listAll(
          (c) => s.listTools(c, o),
          (r) => r.tools,
        )
      : [],
    caps.resources
      ? optional('resources', () =>
          listAll(
            (c) => s.listResources(c, o),
            (r) => r.resources,
          ),
        )
      : [],
    caps.resources
      ? optional('resource templates', () =>
          listAll(
            (c) => s.listResourceTemplates(c, o),
            (r) => r.resourceTemplates,
          ),
        )
      : [],
    caps.prompts
      ? optional('prompts', () =>
          listAll(
            (c) => s.listPrompts(c, o),
            (r) => r.prompts,
          ),
        )
      : [],
  ]);
  return {
    serverId: id,
    tools,
    resources,
    resourceTemplates,
    prompts,
    ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
    ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
    ...(s.sessionId ? { sessionId: s.sessionId } : {}),
    ...(s.instructions ? { instructions: s.instructions } : {}),
    transport: s.kind,
    era: s.era,
    discoveredAt: Date.now(),
  };
}
