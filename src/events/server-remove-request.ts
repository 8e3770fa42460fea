import { McpEvent } from './mcp-event.js';

export interface McpServerRemoveRequestDetail {
  readonly serverId: string;
  readonly name: string;
}

/** `mcp-server-remove-request`: the user confirmed removing a server. Cancelable. */
export class McpServerRemoveRequestEvent extends McpEvent<'mcp-server-remove-request', McpServerRemoveRequestDetail> {
  static readonly eventName = 'mcp-server-remove-request';
  constructor(detail: McpServerRemoveRequestDetail) {
    super('mcp-server-remove-request', detail, { cancelable: true });
  }
}
