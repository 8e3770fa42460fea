import { McpEvent } from './mcp-event.js';
import type { AssistantPatch } from '../core/assistants/profile.js';

export interface McpToolSelectionChangeRequestDetail {
  readonly gptId: string;
  /** The change about to be applied with `hub.assistants.update(gptId, patch)`. */
  readonly patch: AssistantPatch;
}

/** `mcp-tool-selection-change-request`: the user is about to change an assistant's tools or approval mode. Cancelable: `preventDefault()` keeps things as they are. */
export class McpToolSelectionChangeRequestEvent extends McpEvent<
  'mcp-tool-selection-change-request',
  McpToolSelectionChangeRequestDetail
> {
  static readonly eventName = 'mcp-tool-selection-change-request';
  constructor(detail: McpToolSelectionChangeRequestDetail) {
    super('mcp-tool-selection-change-request', detail, { cancelable: true });
  }
}
