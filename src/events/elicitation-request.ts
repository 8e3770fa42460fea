import { McpEvent } from './mcp-event.js';
import type { ElicitationRecord } from '../core/answers/records.js';
export interface McpElicitationRequestDetail {
  readonly elicitation: ElicitationRecord;
}

/** `mcp-elicitation-request`: a server asks the user for input (a form or a URL to open). Cancelable: `preventDefault()` means the host answers it itself with `hub.respondToElicitation()`; the elements then do not render it. */
export class McpElicitationRequestEvent extends McpEvent<'mcp-elicitation-request', McpElicitationRequestDetail> {
  static readonly eventName = 'mcp-elicitation-request';
  constructor(detail: McpElicitationRequestDetail) {
    super('mcp-elicitation-request', detail, { cancelable: true });
  }
}
