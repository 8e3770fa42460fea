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
  session: McpSession,
  options: RequestOptions,
  warn: (message: string) => void,
  secrets: Iterable<string>,
): Promise<ServerCatalogue> {
  // 2026-07-28 lists say how long they stay fresh (`ttlMs`): the catalogue is as fresh as its
  // stalest list; a list without a hint (or 0) is stale at once, and so is the catalogue
  let ttl = Infinity;
  const track = <R>(p: Promise<R>): Promise<R> =>
    p.then(
      (r) => {
        const t = (r as { ttlMs?: unknown }).ttlMs;
        ttl = Math.min(ttl, typeof t === 'number' && t > 0 ? t : 0);
        return r;
      },
      (e: unknown) => {
        ttl = 0;
        throw e;
      },
    );
  const src: Pick<McpSession, 'listTools' | 'listResources' | 'listResourceTemplates' | 'listPrompts'> = {
    listTools: (c, ro) => track(session.listTools(c, ro)),
    listResources: (c, ro) => track(session.listResources(c, ro)),
    listResourceTemplates: (c, ro) => track(session.listResourceTemplates(c, ro)),
    listPrompts: (c, ro) => track(session.listPrompts(c, ro)),
  };
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
          (c) => src.listTools(c, options),
          (r) => r.tools,
        )
      : [],
    caps.resources
      ? optional('resources', () =>
          listAll(
            (c) => src.listResources(c, options),
            (r) => r.resources,
          ),
        )
      : [],
    caps.resources
      ? optional('resource templates', () =>
          listAll(
            (c) => src.listResourceTemplates(c, options),
            (r) => r.resourceTemplates,
          ),
        )
      : [],
    caps.prompts
      ? optional('prompts', () =>
          listAll(
            (c) => src.listPrompts(c, options),
            (r) => r.prompts,
          ),
        )
      : [],
  ]);
  const now = Date.now();
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
    era: session.era,
    discoveredAt: now,
    ...freshness(now, ttl, session.discoverResult),
  };
}

/** Longest the hub trusts a server's cache hint: a day (a hint cannot pin a stale list forever). */
export const MAX_TTL_MS = 86_400_000;

function freshness(
  now: number,
  listsTtl: number,
  discoverResult: Readonly<Record<string, unknown>> | undefined,
): Pick<ServerCatalogue, 'listsFreshUntil' | 'discover' | 'discoverFreshUntil'> {
  const out: { listsFreshUntil?: number; discover?: Readonly<Record<string, unknown>>; discoverFreshUntil?: number } =
    {};
  if (listsTtl > 0 && Number.isFinite(listsTtl)) out.listsFreshUntil = now + Math.min(listsTtl, MAX_TTL_MS);
  const dTtl = discoverResult?.ttlMs;
  if (discoverResult && typeof dTtl === 'number' && dTtl > 0) {
    out.discover = discoverResult;
    out.discoverFreshUntil = now + Math.min(dTtl, MAX_TTL_MS);
  }
  return out;
}
