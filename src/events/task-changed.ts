import { McpEvent } from './mcp-event.js';
import type { CallTask, ToolCallRecord } from '../core/calls/records.js';
export interface McpTaskChangedDetail {
  /** The call the task runs (its record after the change). */
  readonly call: ToolCallRecord;
  /** The task as it is now (the same object as `call.task`). */
  readonly task: CallTask;
  /**
   * `created`: the server made a task of the call; `updated`: its status or status message
   * changed; `resumed`: polling started again after a reload; `ended`: it reached a terminal status.
   */
  readonly reason: 'created' | 'updated' | 'resumed' | 'ended';
}

/** `mcp-task-changed`: a call's server-side task was created, changed, resumed after a reload, or ended. */
export class McpTaskChangedEvent extends McpEvent<'mcp-task-changed', McpTaskChangedDetail> {
  static readonly eventName = 'mcp-task-changed';
  constructor(detail: McpTaskChangedDetail) {
    super('mcp-task-changed', detail);
  }
}
