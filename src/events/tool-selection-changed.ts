import { McpEvent } from './mcp-event.js';
import type { AssistantProfile } from '../core/assistants/profile.js';
import type { ChangeSource } from './mcp-event.js';
export interface McpToolSelectionChangedDetail {
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
  constructor(detail: McpToolSelectionChangedDetail) {
    super('mcp-tool-selection-changed', detail);
  }
}
