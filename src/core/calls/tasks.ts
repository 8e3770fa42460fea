// Calls that run as server-side tasks (MCP tasks, both forms; the wire is session/tasks.ts): start
// one, follow it at the server's polling interval, cancel it, and pick it up again after a reload.
// The record carries the task (`record.task`); every change is an `mcp-task-changed` event.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { McpTaskChangedEvent, type McpTaskChangedDetail } from '../../events/index.js';
import type { Connections } from '../connections/manager.js';
import type { HubContext } from '../context.js';
import { McpConnectionError } from '../errors.js';
import type { TaskStart, TaskState } from '../session/tasks.js';
import { TASK_TERMINAL, type TaskForm } from '../session/task-vocabulary.js';
import type { CallHistory } from './history.js';
import { TERMINAL, type CallTask, type ToolCallRecord } from './records.js';

/** SEP-2243 HeaderMismatch: the tool definition the call used was stale. */
const HEADER_MISMATCH = -32020;

/** How long the hub asks a 2025-11-25 server to keep a task (ms): long enough to outlive a reload. */
export const TASK_TTL_MS = 60 * 60 * 1000;

type Progress = (p: { progress: number; total?: number; message?: string }) => void;

/** One call to run: its id, where, what, and the signal that stops following it. */
export interface TaskCall {
  readonly id: string;
  readonly serverId: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
}

export class CallTasks {
  constructor(
    private readonly ctx: HubContext,
    private readonly history: CallHistory,
    private readonly connections: Connections,
  ) {}

  /**
   * Run a call: as a task where the server offers tasks for this tool (the 2025-11-25 form asks
   * for one; on 2026-07-28 the server decides), else as a plain call. Resolves with the tool's
   * result once the task ended.
   */
  async run(call: TaskCall, onprogress: Progress): Promise<CallToolResult> {
    const { id, serverId, args, signal } = call;
    const name = call.tool.name;
    let form: TaskForm | undefined;
    /** The server offers no task for this tool: a plain call (and a plain call when sent again). */
    let plain = false;
    // one session turn per attempt: the plain call goes out in the turn that found no task form
    // (it took a second withSession, through connections.callTool, before: bench/backend.mjs)
    const start = (tool: Tool | undefined) =>
      this.connections.withSession(serverId, { signal }, async (session, request): Promise<TaskStart> => {
        if (!plain) form = tool && session.taskForm?.(tool);
        if (plain || !form || !session.startTask) {
          plain = true;
          return { result: await session.callTool(name, args, { ...request, onprogress, tool }) };
        }
        return session.startTask(name, args, { ...request, onprogress, tool, ttlMs: TASK_TTL_MS });
      });
    let started: TaskStart;
    try {
      started = await start(call.tool);
    } catch (e) {
      // a stale x-mcp-header declaration (-32020): re-list once and retry (a plain call with the
      // fresh definition, none if the tool is gone; a task with the fresh one, else the old)
      if (!(e instanceof McpConnectionError && e.code === 'server' && e.rpcCode === HEADER_MISMATCH)) throw e;
      const fresh = (await this.connections.refresh(serverId, { signal })).tools.find((t) => t.name === name);
      started = await start(plain ? fresh : (fresh ?? call.tool));
    }
    if ('result' in started) return started.result;
    this.update(id, started.task, form ?? '2026-07-28', 'created');
    // the task id must outlive a reload that comes before the in-flight write
    void this.history.flush();
    return this.follow(id, serverId, started.task, signal);
  }

  /** Poll a call's task to its end; resolves with the tool's result. Stops on abort. */
  follow(callId: string, serverId: string, task: TaskState, signal: AbortSignal): Promise<CallToolResult> {
    return this.connections.withSession(serverId, { signal }, (session, request) => {
      if (!session.followTask) throw new Error('This session cannot follow tasks.');
      return session.followTask(task, {
        ...request,
        onUpdate: (t) => this.update(callId, t, undefined, TASK_TERMINAL.has(t.status) ? 'ended' : 'updated'),
      });
    });
  }

  /** Ask the server to cancel a call's task (cooperative: the server may still finish it). */
  async cancel(call: ToolCallRecord): Promise<void> {
    const task = call.task;
    if (!task || TASK_TERMINAL.has(task.status)) return;
    await this.connections.withSession(call.serverId, {}, (session, request) => {
      if (!session.cancelTask) throw new Error('This session cannot cancel tasks.');
      return session.cancelTask(task.id, request);
    });
  }

  /** Calls whose task was still running when the page went away (loaded as `running`). */
  unfinished(): ToolCallRecord[] {
    return Object.values(this.ctx.store.state.activeCalls).filter(
      (c) => c.task && !TERMINAL.has(c.status) && !TASK_TERMINAL.has(c.task.status),
    );
  }

  /** Keep the task on the record and say so. */
  update(callId: string, t: TaskState, form: TaskForm | undefined, reason: McpTaskChangedDetail['reason']): void {
    const prev = this.history.get(callId);
    if (!prev) return;
    const task: CallTask = Object.freeze({
      id: t.taskId,
      form: prev.task?.form ?? form ?? '2026-07-28',
      status: t.status,
      ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
      ...(t.pollIntervalMs !== undefined ? { pollIntervalMs: t.pollIntervalMs } : {}),
      updatedAt: Date.now(),
    });
    const call = this.history.patch(callId, { task });
    this.ctx.emit(new McpTaskChangedEvent({ call, task, reason }));
  }

  /** Say a loaded task is being followed again. */
  resumed(call: ToolCallRecord): void {
    if (call.task) this.ctx.emit(new McpTaskChangedEvent({ call, task: call.task, reason: 'resumed' }));
  }
}

/** The task a record carries, as the session reads tasks. */
export function taskStateOf(task: CallTask): TaskState {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
  };
}
