// What G4F's own client kept in localStorage, read without changing it, and the drop-in's own
// small record beside it (never a secret: ids, names, URLs, the enabled flag).
import type { ShownCall } from './reattach.js';
import { McpConfigError, ServerConfigInputSchema, toIssues, type McpHub, type ServerConfig } from '../core/index.js';

/**
 * G4F's keys. Read on the first run; after it, written back with the hub's servers and the
 * assistant's selection (`writeLegacy`), so a page that returns to G4F's own client loses nothing.
 */
export const LEGACY_SERVERS = 'mcp_servers';
export const LEGACY_SELECTED = 'mcp_selected_tools';
/** The drop-in's own key: whether the import ran, and the server list for the page's first paint. */
export const MIRROR_KEY = 'mcp-elements.g4f';

/** A server as G4F's page sees it. */
export interface G4fServer {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
}

/** What the first-run import did. */
export interface G4fImportReport {
  /** Servers added to the hub. */
  added: G4fServer[];
  /** G4F servers the hub already had (same id or URL): left as they are. */
  skipped: G4fServer[];
  /** Entries that could not be imported, with why (nothing else was changed for them). */
  errors: { name: string; url: string; message: string }[];
  /** Tools selected for the assistant, as `serverId:toolName` with the hub's ids. */
  selected: string[];
}

interface Mirror {
  /** When the import ran (epoch ms). */
  imported?: number;
  servers?: G4fServer[];
  /** Calls whose cards went into the host's container, oldest first (reattach.ts). */
  calls?: ShownCall[];
}

function readJson(storage: Storage | undefined, key: string): unknown {
  try {
    const text = storage?.getItem(key);
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined; // unreadable or not JSON: treated as absent, and left as it is
  }
}

export function readMirror(storage: Storage | undefined): Mirror {
  const m = readJson(storage, MIRROR_KEY);
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Mirror) : {};
}

export function writeMirror(storage: Storage | undefined, patch: Mirror): void {
  try {
    storage?.setItem(MIRROR_KEY, JSON.stringify({ ...readMirror(storage), ...patch }));
  } catch {
    // full or unavailable: the mirror only speeds up the first paint
  }
}

/** The servers in G4F's key, as far as they are readable. */
export function legacyServers(storage: Storage | undefined): G4fServer[] {
  const list = readJson(storage, LEGACY_SERVERS);
  if (!Array.isArray(list)) return [];
  return list.flatMap((s): G4fServer[] => {
    if (!s || typeof s !== 'object' || typeof s.url !== 'string') return [];
    return [
      {
        id: typeof s.id === 'string' || typeof s.id === 'number' ? String(s.id) : '',
        name: typeof s.name === 'string' ? s.name : '',
        url: s.url,
        enabled: s.enabled !== false,
      },
    ];
  });
}

/** The selection in G4F's key (`serverId:toolName`), or undefined when there is none. */
export function legacySelection(storage: Storage | undefined): string[] | undefined {
  const list = readJson(storage, LEGACY_SELECTED);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : undefined;
}

/** A server as G4F's page sees it. */
export function toG4fServer(s: ServerConfig): G4fServer {
  return { id: s.id, name: s.name, url: s.url, enabled: s.enabled };
}

/**
 * G4F's `addServer` points a bare origin at its `/mcp` endpoint (`https://host` → `https://host/mcp`);
 * a URL with a path is kept as given.
 */
export function normaliseUrl(url: string): string {
  const trimmed = url.trim();
  try {
    const u = new URL(trimmed);
    if ((u.pathname === '/' || u.pathname === '') && !u.search && !u.hash) return `${u.origin}/mcp`;
  } catch {
    // not a URL: the hub's validation says why
  }
  return trimmed;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Bring G4F's servers and tool selection into the hub. Idempotent: a server the hub already has
 * (same id, or same URL) is skipped and keeps its settings; G4F's keys are never written.
 */
export async function importLegacy(hub: McpHub, storage: Storage | undefined, assistantId: string) {
  const report: G4fImportReport = { added: [], skipped: [], errors: [], selected: [] };
  await hub.ready;
  const servers = legacyServers(storage);
  const selection = legacySelection(storage);
  const idMap = new Map<string, string>();
  for (const entry of servers) {
    const url = normaliseUrl(entry.url);
    const existing =
      (entry.id && hub.servers.get(entry.id)) || hub.servers.list().find((s) => s.url === url || s.url === entry.url);
    if (existing) {
      idMap.set(entry.id, existing.id);
      report.skipped.push(toG4fServer(existing));
      continue;
    }
    let name = entry.name.trim();
    if (!name) name = /^https?:\/\/([^/:?#]+)/i.exec(url)?.[1] ?? 'MCP server';
    // one attempt per connect, as for a server added through the drop-in (client.ts addServer)
    const input = { ...(ID.test(entry.id) ? { id: entry.id } : {}), name, url, enabled: entry.enabled, retries: 0 };
    try {
      const added = await hub.servers.add(input);
      idMap.set(entry.id, added.id);
      report.added.push(toG4fServer(added));
    } catch (e) {
      const message =
        e instanceof McpConfigError ? e.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : String(e);
      report.errors.push({ name, url, message });
    }
  }
  if (report.added.length) {
    // G4F offered a model only the tools the user ticked: the imported servers keep exactly that
    // selection (none ticked: none offered); the hub's other servers keep theirs
    const byServer = new Map<string, string[]>();
    for (const id of selection ?? []) {
      const i = id.indexOf(':');
      const serverId = i > 0 ? idMap.get(id.slice(0, i)) : undefined;
      if (!serverId || !report.added.some((s) => s.id === serverId)) continue;
      byServer.set(serverId, [...(byServer.get(serverId) ?? []), id.slice(i + 1)]);
      report.selected.push(`${serverId}:${id.slice(i + 1)}`);
    }
    const profile = hub.assistants.get(assistantId);
    const added = new Set(report.added.map((s) => s.id));
    const next: Record<string, { tools?: string[] }> =
      profile.servers === 'all'
        ? Object.fromEntries(
            hub.servers
              .list()
              .filter((s) => !added.has(s.id))
              .map((s) => [s.id, {}]),
          )
        : { ...profile.servers };
    for (const id of added) {
      const tools = byServer.get(id);
      if (tools?.length) next[id] = { tools: [...new Set(tools)] };
      else delete next[id];
    }
    await hub.assistants.update(assistantId, { servers: next });
  }
  return report;
}

/** Check a server the way `hub.servers.add` will, synchronously (G4F's `addServer` throws at once). */
export function checkServerInput(input: { name: string; url: string }): void {
  const r = ServerConfigInputSchema.safeParse(input);
  if (!r.success) throw new McpConfigError(toIssues(r.error));
}

function sameServer(entry: unknown, s: { id: string; url: string }): boolean {
  if (!entry || typeof entry !== 'object') return false;
  const e = entry as { id?: unknown; url?: unknown };
  return (
    (e.id !== undefined && String(e.id) === s.id) ||
    (typeof e.url === 'string' && (e.url === s.url || normaliseUrl(e.url) === s.url))
  );
}

/**
 * Write the hub's servers and the assistant's selection back to G4F's keys, in G4F's shapes.
 * Entries of G4F's list the hub does not hold (it refused them, or they were never imported) are
 * kept as they are, with their ticks, unless `removed` names them (removed under the drop-in).
 * A server whose tools are not known yet keeps the ticks G4F had for it. Writes only what changed.
 */
export function writeLegacy(
  hub: McpHub,
  storage: Storage | undefined,
  assistantId: string,
  removed: readonly { id: string; url: string }[],
): void {
  if (!storage) return;
  const state = hub.store.state;
  const servers = hub.servers.list();
  const oldList = readJson(storage, LEGACY_SERVERS);
  const kept = (Array.isArray(oldList) ? oldList : []).filter(
    (e) => !servers.some((s) => sameServer(e, s)) && !removed.some((r) => sameServer(e, r)),
  );
  const keptIds = new Set(kept.flatMap((e) => (e && typeof e === 'object' && 'id' in e ? [String(e.id)] : [])));
  const oldSelection = legacySelection(storage) ?? [];
  const profile = hub.assistants.get(assistantId);
  const selected: string[] = [];
  for (const s of servers) {
    const sel = profile.servers === 'all' ? {} : profile.servers[s.id];
    if (!sel) continue;
    const catalogue = state.catalogues[s.id];
    if (sel.tools) selected.push(...sel.tools.map((t) => `${s.id}:${t}`));
    else if (catalogue) selected.push(...catalogue.tools.map((t) => `${s.id}:${t.name}`));
    else selected.push(...oldSelection.filter((id) => id.startsWith(`${s.id}:`)));
  }
  selected.push(...oldSelection.filter((id) => keptIds.has(id.slice(0, id.indexOf(':')))));
  const write = (key: string, value: unknown) => {
    const text = JSON.stringify(value);
    try {
      if (storage.getItem(key) !== text) storage.setItem(key, text);
    } catch {
      // full or unavailable: the hub still has everything
    }
  };
  write(LEGACY_SERVERS, [...servers.map(toG4fServer), ...kept]);
  write(LEGACY_SELECTED, [...new Set(selected)]);
}
