// The manager's "Find servers": <mcp-server-directory> (src/elements/mcp-server-directory), a
// chunk of its own in the CDN build, imported the first time it is opened.
import { html } from 'lit';
import { replaceableImport } from '../../internal/import-once.js';
import type { McpHub, RecordStorage } from '../../core/index.js';

/** What the host gives the manager's directory: registries, its curated list, the cache. */
export interface DirectoryOptions {
  registries?: string[];
  curated?: unknown[];
  storage?: RecordStorage;
}

const directoryImport = replaceableImport('the server directory', () => import('../mcp-server-directory/define.js'));

/** Import the directory's chunk; resolves false when it could not be fetched. */
export async function loadDirectory(): Promise<boolean> {
  return (await directoryImport.load()) !== undefined;
}

/** The directory inside the manager; `close` when it closes (after an add, too). */
export function renderDirectory(hub: McpHub, options: DirectoryOptions | undefined, close: () => void) {
  return html`<mcp-server-directory
    .hub=${hub}
    .registries=${options?.registries}
    .curated=${options?.curated}
    .storage=${options?.storage}
    @mcp-directory-closed=${close}
  ></mcp-server-directory>`;
}
