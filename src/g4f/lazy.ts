/**
 * `McpElements.g4f` in the chunked CDN entry (`dist/cdn/mcp-elements.js`): the G4F drop-in is a
 * chunk of its own, fetched by the first `install()`, so a page that never installs it does not
 * load it (off every page's first load; decision 052). `install()` therefore resolves with the client
 * here; in the one-file builds (`mcp-elements.all.js`, `mcp-elements.classic.js`, which G4F's tag
 * loads) and from `mcp-chat-elements/g4f` it returns it at once.
 */
import { importOnce, rethrow } from '../core/import-once.js';
import type { G4fMcpClient, G4fOptions } from './client.js';

/** The drop-in's module (imported once; a failed import is tried again on the next call). */
export const load = importOnce(() => import('./index.js'), rethrow());

/** Install the drop-in (see `install` of `mcp-chat-elements/g4f`); resolves with the page's client. */
export async function install(options: G4fOptions = {}): Promise<G4fMcpClient> {
  return (await load()).install(options);
}

/** The installed client, if any (the same one whichever build installed it). */
export function installed(): G4fMcpClient | undefined {
  return (globalThis as { [key: symbol]: G4fMcpClient | undefined })[Symbol.for('mcp-elements.g4f')];
}
