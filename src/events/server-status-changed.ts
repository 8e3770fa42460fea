import { McpEvent } from './mcp-event.js';
import type { ConnectionState } from '../core/types.js';
export interface McpServerStatusChangedDetail {
  readonly serverId: string;
  readonly status: ConnectionState['status'];
  readonly previous: ConnectionState['status'];
  readonly error?: ConnectionState['error'];
  /** On `connected`: the protocol revision negotiated (absent for a plain JSON-RPC endpoint). */
  readonly protocolVersion?: string;
  /** On `connected`: `modern` (2026-07-28), `legacy` (2025 handshake) or `jsonrpc`. */
  readonly era?: ConnectionState['era'];
  /** On `connected`: the transport in use. */
  readonly transport?: ConnectionState['transport'];
}

/** `mcp-server-status-changed`: a server's connection status changed. */
export class McpServerStatusChangedEvent extends McpEvent<'mcp-server-status-changed', McpServerStatusChangedDetail> {
  static readonly eventName = 'mcp-server-status-changed';
  constructor(detail: McpServerStatusChangedDetail) {
    super('mcp-server-status-changed', detail);
  }
}
