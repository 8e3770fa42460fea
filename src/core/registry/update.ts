// Whether a newer registry version of a saved server changes how it is reached: the server keeps
// where it was found (`source`: registry, name, version); the registry's latest version is read
// (cached an hour, a version forever) and its remote compared with the saved version's.
import type { ServerSource } from '../schemas.js';
import { chooseRemote } from './add.js';
import { CURATED, type RegistryClient } from './client.js';
import { templateVariables, type Remote } from './server-json.js';

/** A newer version whose remote differs: what it is and where it now points. */
export interface RemoteUpdate {
  registry: string;
  name: string;
  version: string;
  /** The new remote's URL (may hold `{variables}`: then `templated`). */
  url: string;
  transport: Remote['type'];
  templated: boolean;
  /** The new remote's header names. */
  headers: string[];
}

/** A remote as compared: its type, URL (template) and headers (names and fixed values). */
function remoteKey(r: Remote): string {
  const headers = (r.headers ?? []).map((h) => `${h.name.toLowerCase()}=${h.value ?? ''}`).sort();
  return JSON.stringify([r.type, r.url, headers]);
}

/**
 * The newer version of `source` whose remote differs from the saved one, or undefined (no newer
 * version, the same remote, a curated entry, or a newer entry without a remote). The saved
 * version's remote is the registry's own; when that version cannot be read any more, the saved
 * URL stands in for it. Registry errors reject (the caller shows nothing then).
 */
export async function remoteUpdate(
  client: RegistryClient,
  source: ServerSource,
  savedUrl: string,
  signal?: AbortSignal,
): Promise<RemoteUpdate | undefined> {
  if (source.registry === CURATED) return undefined;
  const options = { registry: source.registry, signal };
  const latest = await client.version(source.name, 'latest', options);
  if (latest.version === source.version) return undefined;
  const now = chooseRemote(latest);
  if (!now) return undefined;
  const before = await client
    .version(source.name, source.version, options)
    .then(chooseRemote)
    .catch(() => undefined);
  const templated = templateVariables(now.url).length > 0;
  const changed = before ? remoteKey(before) !== remoteKey(now) : templated || now.url !== savedUrl;
  if (!changed) return undefined;
  return {
    registry: source.registry,
    name: source.name,
    version: latest.version,
    url: now.url,
    transport: now.type,
    templated,
    headers: (now.headers ?? []).map((h) => h.name),
  };
}
