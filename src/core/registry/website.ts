// "Add from a website": a site's MCP Catalog (`/.well-known/mcp/catalog.json`, the Server Cards
// draft, SEP-2127) and the Server Cards it lists, each read with the same server.json reader as
// a registry's entries. Untrusted like them: the site through the URL policy, each card URL too,
// bodies read up to 1 MB, at most 50 cards, entries of other types ignored with a reason.
import { urlProblem } from '../schemas.js';
import { readCapped } from '../read-capped.js';
import { RegistryError, type RegistryPage } from './client.js';
import { isEntry, readEntry } from './server-json.js';

export const CATALOG_PATH = '/.well-known/mcp/catalog.json';
export const CARD_TYPE = 'application/mcp-server-card+json';
const MAX_CARDS = 50;
const MAX_DOCUMENT = 1024 * 1024;

/** The catalog URL of a site typed by the user: `example.com`, or a URL (its origin is used). */
export function catalogUrl(site: string): string {
  const typed = site.trim();
  const url = /^[a-z][a-z0-9+.-]*:/i.test(typed) ? typed : `https://${typed}`;
  const problem = urlProblem(url);
  if (problem) throw new RegistryError(`The website ${problem}.`);
  return new URL(CATALOG_PATH, new URL(url).origin).href;
}

async function getJson(url: string, accept: string, fetcher: typeof fetch, signal?: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetcher(url, { headers: { accept }, signal, credentials: 'omit' });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new RegistryError(
      `${new URL(url).origin} could not be reached (offline, or it does not allow calls from this page)`,
      {
        cause: e,
      },
    );
  }
  if (!res.ok) throw new RegistryError(`${url} answered HTTP ${res.status}`);
  const body = await readCapped(res, MAX_DOCUMENT);
  if (!body) throw new RegistryError(`${url} answered more than 1 MB`);
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new RegistryError(`${url} answered something that is not JSON`);
  }
}

/** The servers a website lists in its MCP Catalog, as directory entries (registry: the site's origin). */
export async function fromWebsite(
  site: string,
  options: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<RegistryPage> {
  const fetcher = options.fetch ?? ((...a) => fetch(...a));
  const url = catalogUrl(site);
  const origin = new URL(url).origin;
  const catalog = (await getJson(url, 'application/json', fetcher, options.signal)) as { entries?: unknown } | null;
  if (!catalog || typeof catalog !== 'object' || !Array.isArray(catalog.entries))
    throw new RegistryError(`${url} is not an MCP Catalog (no "entries" list)`);
  const page: RegistryPage = { registry: origin, entries: [], skipped: [] };
  const cards: { label: string; url: string }[] = [];
  for (const raw of catalog.entries) {
    const e = (raw ?? {}) as { displayName?: unknown; type?: unknown; url?: unknown };
    const label = typeof e.displayName === 'string' ? e.displayName.slice(0, 200) : '(no name)';
    if (e.type !== CARD_TYPE) page.skipped.push({ name: label, reason: `type is not ${CARD_TYPE}` });
    else if (typeof e.url !== 'string' || urlProblem(e.url))
      page.skipped.push({ name: label, reason: `url ${typeof e.url === 'string' ? urlProblem(e.url) : 'is missing'}` });
    else if (cards.length >= MAX_CARDS)
      page.skipped.push({ name: label, reason: `more than ${MAX_CARDS} servers listed` });
    else cards.push({ label, url: e.url });
  }
  const read = await Promise.all(
    cards.map(async (c) => {
      try {
        return readEntry(await getJson(c.url, CARD_TYPE, fetcher, options.signal), origin);
      } catch (e) {
        if (options.signal?.aborted) throw e;
        return { name: c.label, reason: (e as Error).message };
      }
    }),
  );
  for (const e of read) {
    if (!e) continue;
    if (isEntry(e)) page.entries.push(e);
    else page.skipped.push(e);
  }
  return page;
}
