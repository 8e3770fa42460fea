import { HubKernel } from './kernel.js';
import type { McpHubOptions } from './context.js';
import { pageShell } from './shell/page-shell.js';

/**
 * The page's MCP hub: the kernel (src/core/kernel.ts) with the page shell: servers kept in
 * IndexedDB, secrets in the vault, other tabs kept in step, calls journaled when the page goes,
 * sign-in in a popup, and events on `window` too. Use `getHub()` for the page's shared instance;
 * construct one directly only for isolation.
 */
export class McpHub extends HubKernel {
  constructor(options: McpHubOptions = {}) {
    super(options, pageShell(options));
  }
}

const HUB_KEY = Symbol.for('mcp-elements.hub');

/** The page's one hub, shared even by two copies of the bundle. */
export function getHub(): McpHub {
  const g = globalThis as { [HUB_KEY]?: McpHub };
  return (g[HUB_KEY] ??= new McpHub());
}
