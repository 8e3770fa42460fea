import { McpEvent } from './mcp-event.js';
import type { SamplingRecord } from '../core/answers/records.js';
export interface McpSamplingRequestDetail {
  readonly sampling: SamplingRecord;
}

/** `mcp-sampling-request`: a server asks for a completion from the host's model. Cancelable: `preventDefault()` means the host approves and reviews it itself with `hub.respondToSampling()`. */
export class McpSamplingRequestEvent extends McpEvent<'mcp-sampling-request', McpSamplingRequestDetail> {
  static readonly eventName = 'mcp-sampling-request';
  constructor(detail: McpSamplingRequestDetail) {
    super('mcp-sampling-request', detail, { cancelable: true });
  }
}
