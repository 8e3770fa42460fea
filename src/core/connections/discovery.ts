// Discovery: what a connected server offers (tools, resources, templates, prompts), every page.
import { McpConnectionError } from '../errors.js';
import { toConnectionError, type McpSession, type RequestOptions } from '../session.js';
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
  session: McpSession,
  options: RequestOptions,
  warn: (message: string) => void,
  secrets: Iterable<string>,
): Promise<ServerCatalogue> {
  const caps = session.capabilities ?? {};
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
          (c) => session.listTools(c, options),
          (r) => r.tools,
        )
      : [],
    caps.resources
      ? optional('resources', () =>
          listAll(
            (c) => session.listResources(c, options),
            (r) => r.resources,
          ),
        )
      : [],
    caps.resources
      ? optional('resource templates', () =>
          listAll(
            (c) => session.listResourceTemplates(c, options),
            (r) => r.resourceTemplates,
          ),
        )
      : [],
    caps.prompts
      ? optional('prompts', () =>
          listAll(
            (c) => session.listPrompts(c, options),
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
    ...(session.serverInfo ? { serverInfo: session.serverInfo } : {}),
    ...(session.protocolVersion ? { protocolVersion: session.protocolVersion } : {}),
    ...(session.sessionId ? { sessionId: session.sessionId } : {}),
    ...(session.instructions ? { instructions: session.instructions } : {}),
    transport: session.kind,
    discoveredAt: Date.now(),
  };
}
