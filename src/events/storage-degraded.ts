import { McpEvent } from './mcp-event.js';
export interface McpStorageDegradedDetail {
  readonly reason: string;
  readonly mode: 'memory';
}

/** `mcp-storage-degraded`: IndexedDB failed; the hub now keeps its state in memory for this page only. */
export class McpStorageDegradedEvent extends McpEvent<'mcp-storage-degraded', McpStorageDegradedDetail> {
  static readonly eventName = 'mcp-storage-degraded';
  constructor(detail: McpStorageDegradedDetail) {
    super('mcp-storage-degraded', detail);
  }
}
