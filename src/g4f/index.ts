/**
 * mcp-chat-elements/g4f: a drop-in `window.mcpClient` with the interface of G4F's own MCP client,
 * backed by the hub. `install()` once, before the page's own scripts use `mcpClient` or
 * `new MCPClient()`.
 */
import { G4fMcpClient, type G4fOptions } from './client.js';

export { G4fMcpClient } from './client.js';
export type { G4fOptions, G4fTool, G4fToolCall, G4fToolMessage } from './client.js';
export type { CardContainer } from './cards.js';
export type { G4fImportReport, G4fServer } from './legacy.js';
export { LEGACY_SERVERS, LEGACY_SELECTED, MIRROR_KEY } from './legacy.js';

const KEY = Symbol.for('mcp-elements.g4f');

/**
 * Create the page's G4F client (once: a second call returns the same client, with `container`
 * updated when given) and publish it as `window.mcpClient`, with `window.MCPClient` a constructor
 * that returns it, so G4F's `mcpClient = new MCPClient()` gets it too.
 */
export function install(options: G4fOptions = {}): G4fMcpClient {
  const g = globalThis as typeof globalThis & {
    [KEY]?: G4fMcpClient;
    mcpClient?: G4fMcpClient;
    MCPClient?: unknown;
  };
  let client = g[KEY];
  if (client) {
    if ('container' in options) client.container = options.container;
  } else {
    client = g[KEY] = new G4fMcpClient(options);
    const installed = client;
    // `new MCPClient()` returns the one client (a constructor may return an object)
    g.MCPClient = function MCPClient() {
      return installed;
    };
  }
  g.mcpClient = client;
  return client;
}

/** The installed client, if any. */
export function installed(): G4fMcpClient | undefined {
  return (globalThis as { [KEY]?: G4fMcpClient })[KEY];
}
