export { McpEvent, type ChangeSource } from './mcp-event.js';
export * from './server-added.js';
export * from './server-updated.js';
export * from './server-removed.js';
export * from './server-status-changed.js';
export * from './tools-changed.js';
export * from './storage-degraded.js';

import type { McpServerAddedEvent } from './server-added.js';
import type { McpServerUpdatedEvent } from './server-updated.js';
import type { McpServerRemovedEvent } from './server-removed.js';
import type { McpServerStatusChangedEvent } from './server-status-changed.js';
import type { McpToolsChangedEvent } from './tools-changed.js';
import type { McpStorageDegradedEvent } from './storage-degraded.js';

/** Every event the hub dispatches, by name. */
export interface McpHubEventMap {
  'mcp-server-added': McpServerAddedEvent;
  'mcp-server-updated': McpServerUpdatedEvent;
  'mcp-server-removed': McpServerRemovedEvent;
  'mcp-server-status-changed': McpServerStatusChangedEvent;
  'mcp-tools-changed': McpToolsChangedEvent;
  'mcp-storage-degraded': McpStorageDegradedEvent;
}

declare global {
  interface GlobalEventHandlersEventMap extends McpHubEventMap {}
  interface WindowEventMap extends McpHubEventMap {}
}
