import { McpEvent } from './mcp-event.js';
import type { AssistantPatch } from '../core/assistants/profile.js';

export interface McpToolSelectionChangeRequestDetail {
  /** The assistant whose profile is about to change. */
  readonly assistantId: string;
  /** @deprecated use assistantId (the same value) */
  readonly gptId: string;
  /** The change about to be applied with `hub.assistants.update(assistantId, patch)`. */
  readonly patch: AssistantPatch;
}

/** `mcp-tool-selection-change-request`: the user is about to change an assistant's tools or approval mode. Cancelable: `preventDefault()` keeps things as they are. */
export class McpToolSelectionChangeRequestEvent extends McpEvent<
  'mcp-tool-selection-change-request',
  McpToolSelectionChangeRequestDetail
> {
  static readonly eventName = 'mcp-tool-selection-change-request';
  /** `gptId` is filled in from `assistantId`. */
  constructor(detail: Omit<McpToolSelectionChangeRequestDetail, 'gptId'>) {
    super('mcp-tool-selection-change-request', { ...detail, gptId: detail.assistantId }, { cancelable: true });
  }
}
