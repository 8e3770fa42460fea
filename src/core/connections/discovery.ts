// Discovery: what a connected server offers (tools, resources, templates, prompts), every page.
// Tools first: a connection is usable once its tools are listed; the rest may follow.
import { McpConnectionError } from '../errors.js';
import type { McpSession, RequestOptions } from '../session/index.js';
import { loadSession } from './session-loader.js';
import type { ServerCatalogue } from '../types.js';
import type { Priority } from './origins.js';

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

/** Runs one unit of discovery work: the hub's per-origin budget (origins.ts), or at once. */
export type DiscoverySlot = <T>(priority: Priority, work: () => Promise<T>) => Promise<T>;
const atOnce: DiscoverySlot = (_priority, work) => work();

/** How discovery reports and schedules: warnings, secrets to scrub from them, the origin's slots. */
export interface DiscoveryContext {
  warn(message: string): void;
  secrets: Iterable<string>;
  slot?: DiscoverySlot;
}

/** What some lists held, with the shortest cache hint (2026-07-28 `ttlMs`) their pages gave. */
export interface Listed<T> {
  readonly lists: T;
  /** ms; 0 when a page had no hint or a list failed (stale at once), Infinity when nothing was listed */
  readonly ttl: number;
}
type Rest = Pick<ServerCatalogue, 'resources' | 'resourceTemplates' | 'prompts'>;

/** Wraps list requests so the shortest `ttlMs` of their pages is kept. */
function ttlTracker() {
  const t = { ttl: Infinity };
  const track = <R>(p: Promise<R>): Promise<R> =>
    p.then(
      (r) => {
        const hint = (r as { ttlMs?: unknown }).ttlMs;
        t.ttl = Math.min(t.ttl, typeof hint === 'number' && hint > 0 ? hint : 0);
        return r;
      },
      (e: unknown) => {
        t.ttl = 0;
        throw e;
      },
    );
  return { t, track };
}

/** The server's tools, every page. A failure fails the connection. */
export async function listTools(
  session: McpSession,
  options: RequestOptions,
  slot: DiscoverySlot = atOnce,
): Promise<Listed<Pick<ServerCatalogue, 'tools'>>> {
  const { t, track } = ttlTracker();
  const tools = session.capabilities?.tools
    ? await slot('tools', () =>
        listAll(
          (c) => track(session.listTools(c, options)),
          (r) => r.tools,
        ),
      )
    : [];
  return { lists: { tools }, ttl: t.ttl };
}

/**
 * Resources, resource templates and prompts, in parallel; a failing list only warns (they are
 * optional extras) and leaves that list empty.
 */
export async function listRest(
  id: string,
  session: McpSession,
  options: RequestOptions,
  { warn, secrets, slot = atOnce }: DiscoveryContext,
): Promise<Listed<Rest>> {
  const { t, track } = ttlTracker();
  const caps = session.capabilities ?? {};
  const optional = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await slot('rest', run);
    } catch (e) {
      const { toConnectionError } = await loadSession();
      warn(`Could not list ${what} of server "${id}": ${toConnectionError(e, secrets).message}`);
      return [];
    }
  };
  const [resources, resourceTemplates, prompts] = await Promise.all([
    caps.resources
      ? optional('resources', () =>
          listAll(
            (c) => track(session.listResources(c, options)),
            (r) => r.resources,
          ),
        )
      : [],
    caps.resources
      ? optional('resource templates', () =>
          listAll(
            (c) => track(session.listResourceTemplates(c, options)),
            (r) => r.resourceTemplates,
          ),
        )
      : [],
    caps.prompts
      ? optional('prompts', () =>
          listAll(
            (c) => track(session.listPrompts(c, options)),
            (r) => r.prompts,
          ),
        )
      : [],
  ]);
  return { lists: { resources, resourceTemplates, prompts }, ttl: t.ttl };
}

/**
 * A catalogue from what was listed. Without `rest` it is the tools-first catalogue: `partial`,
 * empty extras, and never fresh by cache hints (the rest is still being listed).
 */
export function catalogueOf(
  id: string,
  session: McpSession,
  tools: Listed<Pick<ServerCatalogue, 'tools'>>,
  rest?: Listed<Rest>,
): ServerCatalogue {
  const now = Date.now();
  return {
    serverId: id,
    tools: tools.lists.tools,
    ...(rest ? rest.lists : { resources: [], resourceTemplates: [], prompts: [], partial: true as const }),
    ...(session.serverInfo ? { serverInfo: session.serverInfo } : {}),
    ...(session.protocolVersion ? { protocolVersion: session.protocolVersion } : {}),
    ...(session.sessionId ? { sessionId: session.sessionId } : {}),
    ...(session.instructions ? { instructions: session.instructions } : {}),
    transport: session.kind,
    era: session.era,
    ...(session.streamDeclined ? { streamDeclined: true } : {}),
    discoveredAt: now,
    ...freshness(now, rest ? Math.min(tools.ttl, rest.ttl) : 0, session.discoverResult),
  };
}

/**
 * List everything a session's server offers, tools and the rest in parallel. A failing tools
 * list fails discovery; failing resources or prompts lists only warn.
 */
export async function discover(
  id: string,
  session: McpSession,
  options: RequestOptions,
  how: DiscoveryContext,
): Promise<ServerCatalogue> {
  const [tools, rest] = await Promise.all([listTools(session, options, how.slot), listRest(id, session, options, how)]);
  return catalogueOf(id, session, tools, rest);
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
