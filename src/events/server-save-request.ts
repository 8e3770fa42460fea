import { McpEvent } from './mcp-event.js';
import type { TransportKind } from '../core/schemas.js';

export interface McpServerSaveRequestDetail {
  readonly mode: 'add' | 'edit';
  readonly serverId?: string;
  readonly name: string;
  readonly url: string;
  readonly transport: TransportKind;
}

/** `mcp-server-save-request`: the user is about to add or change a server (no secrets in the detail). Cancelable. */
export class McpServerSaveRequestEvent extends McpEvent<'mcp-server-save-request', McpServerSaveRequestDetail> {
  static readonly eventName = 'mcp-server-save-request';
  constructor(detail: McpServerSaveRequestDetail) {
    super('mcp-server-save-request', detail, { cancelable: true });
  }
}
