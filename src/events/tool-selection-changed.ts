import { McpEvent } from './mcp-event.js';
import type { AssistantProfile } from '../core/assistants/profile.js';
import type { ChangeSource } from './mcp-event.js';
export interface McpToolSelectionChangedDetail {
  /** The assistant whose profile changed. */
  readonly assistantId: string;
  /** @deprecated use assistantId (the same value) */
  readonly gptId: string;
  readonly profile: AssistantProfile;
  readonly source: ChangeSource;
}

/** `mcp-tool-selection-changed`: an assistant's tool selection, approval mode or trusted tools changed. */
export class McpToolSelectionChangedEvent extends McpEvent<
  'mcp-tool-selection-changed',
  McpToolSelectionChangedDetail
> {
  static readonly eventName = 'mcp-tool-selection-changed';
  /** `gptId` is filled in from `assistantId`. */
  constructor(detail: Omit<McpToolSelectionChangedDetail, 'gptId'>) {
    super('mcp-tool-selection-changed', { ...detail, gptId: detail.assistantId });
  }
}
