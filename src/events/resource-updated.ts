import { McpEvent } from './mcp-event.js';
export interface McpResourceUpdatedDetail {
  readonly serverId: string;
  /** The resource the server says changed (one the hub subscribed to, or a sub-resource of one). */
  readonly uri: string;
}

/**
 * `mcp-resource-updated`: a server reported that a resource the hub is subscribed to changed
 * (`hub.subscribeResource`); read it again to see the new contents.
 */
export class McpResourceUpdatedEvent extends McpEvent<'mcp-resource-updated', McpResourceUpdatedDetail> {
  static readonly eventName = 'mcp-resource-updated';
  constructor(detail: McpResourceUpdatedDetail) {
    super('mcp-resource-updated', detail);
  }
}
