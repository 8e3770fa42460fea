// Tasks on the wire, in both forms, over the SDK v2 client. SDK 2.4.0 has no task runtime: task
// methods are wire vocabulary it does not send for you, and on 2026-07-28 its codec refuses a
// `resultType: "task"` result. So: requests go through `client.request(…, schema)` (which lets
// `tasks/get` / `tasks/cancel` through on either era), and a 2026-07-28 task handle is taken out of
// the response stream before the SDK decodes it (`takeTaskHandle`, called from guardResponses).
//   2025-11-25  `params.task = { ttl }` on tools/call → `{ task }`; tasks/get → the task;
//               tasks/result → the tool's result; tasks/cancel → the task
//   2026-07-28  the `io.modelcontextprotocol/tasks` extension in the client's capabilities; the
//               server decides per call; tools/call → `{ resultType: 'task', …task }`; tasks/get →
//               the task with `result` / `error` inlined; tasks/cancel → `{}`
import type { CallToolResult, Client, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { McpConnectionError } from '../errors.js';

import { TASKS_EXTENSION, TASK_TERMINAL, type TaskForm, type TaskStatus } from './task-vocabulary.js';

export { TASKS_EXTENSION, TASK_TERMINAL, type TaskForm, type TaskStatus } from './task-vocabulary.js';
/** Marks the error a 2026-07-28 task handle is turned into before the SDK sees it. */
export const TASK_MARK = 'mcp-elements.task';

/** A task as the hub keeps it (both forms read into one shape). */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The server's suggested polling interval (ms). */
  readonly pollIntervalMs?: number;
  /** How long the server keeps the task (ms); null: unlimited. */
  readonly ttlMs?: number | null;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  /** 2026-07-28: the result of a completed task, inlined by tasks/get. */
  readonly result?: CallToolResult;
  /** 2026-07-28: the JSON-RPC error of a failed task. */
  readonly error?: { readonly code: number; readonly message: string };
  /** 2026-07-28 `input_required`: what the server asks, by key (answered with tasks/update). */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/** One request a task waits on (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface InputRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** Answers one input request of a task; its result goes back in `tasks/update`. */
export type AnswerInput = (request: InputRequest, signal: AbortSignal) => Promise<unknown>;

function readInputRequests(raw: unknown): Record<string, InputRequest> | undefined {
  if (!isObject(raw)) return undefined;
  const out: Record<string, InputRequest> = {};
  for (const [key, r] of Object.entries(raw).slice(0, 20))
    if (isObject(r) && typeof r.method === 'string')
      out[key] = { method: r.method, ...(isObject(r.params) ? { params: r.params } : {}) };
  return Object.keys(out).length ? out : undefined;
}

const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const MAX_ID = 512;

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20 || s.charCodeAt(i) === 0x7f) return true;
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Read a task from either form; a malformed one is a typed `protocol` error. */
export function readTask(raw: unknown): TaskState {
  if (!isObject(raw)) throw malformed('not an object');
  const { taskId, status } = raw;
  if (typeof taskId !== 'string' || !taskId || taskId.length > MAX_ID || hasControl(taskId)) throw malformed('taskId');
  if (typeof status !== 'string' || !STATUSES.has(status)) throw malformed('status');
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const str = (v: unknown, max = 2000) => (typeof v === 'string' ? v.slice(0, max) : undefined);
  const poll = num(raw.pollIntervalMs) ?? num(raw.pollInterval);
  const ttl = raw.ttlMs === null || raw.ttl === null ? null : (num(raw.ttlMs) ?? num(raw.ttl));
  const err = isObject(raw.error) ? raw.error : undefined;
  const inputRequests = status === 'input_required' ? readInputRequests(raw.inputRequests) : undefined;
  const task: TaskState = {
    taskId,
    status: status as TaskStatus,
    ...(str(raw.statusMessage) !== undefined ? { statusMessage: str(raw.statusMessage) } : {}),
    ...(poll !== undefined ? { pollIntervalMs: poll } : {}),
    ...(ttl !== undefined ? { ttlMs: ttl } : {}),
    ...(str(raw.createdAt, 64) ? { createdAt: str(raw.createdAt, 64) } : {}),
    ...(str(raw.lastUpdatedAt, 64) ? { lastUpdatedAt: str(raw.lastUpdatedAt, 64) } : {}),
    ...(isObject(raw.result) ? { result: { content: [], ...raw.result } as CallToolResult } : {}),
    ...(inputRequests ? { inputRequests } : {}),
    ...(err
      ? {
          error: {
            code: typeof err.code === 'number' ? err.code : -32603,
            message: str(err.message) ?? 'The task failed.',
          },
        }
      : {}),
  };
  return task;
}

function malformed(what: string) {
  return new McpConnectionError('protocol', `The server sent a malformed task (${what}).`);
}

/** A schema that passes any object through (the task readers above do the checking). */
const anyObject: StandardSchemaV1<Record<string, unknown>, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-elements',
    validate: (value) => (isObject(value) ? { value } : { issues: [{ message: 'Expected an object' }] }),
  },
};

/** Which task form a session offers for `tool`, given its era and the server's capabilities. */
export function taskFormFor(
  era: 'modern' | 'legacy',
  capabilities: Record<string, unknown> | undefined,
  tool: Tool | undefined,
): TaskForm | undefined {
  if (era === 'modern') {
    const ext = (capabilities?.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION];
    return isObject(ext) ? '2026-07-28' : undefined;
  }
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  const support = (tool?.execution as { taskSupport?: string } | undefined)?.taskSupport;
  if (!tasks?.requests?.tools?.call) return undefined;
  return support === 'optional' || support === 'required' ? '2025-11-25' : undefined;
}

/** What a task-capable tools/call answered: the result at once, or a task to follow. */
export type TaskStart = { readonly result: CallToolResult } | { readonly task: TaskState };

interface WireOptions {
  signal?: AbortSignal;
  timeout?: number;
  headers?: Record<string, string>;
}

/** The task wire of one SDK client. */
export class TaskWire {
  constructor(
    private readonly client: Client,
    readonly form: TaskForm,
  ) {}

  /** 2026-07-28: route task requests by task id (the extension's Mcp-Name rule). */
  #opts(taskId: string, o: WireOptions): WireOptions {
    return this.form === '2026-07-28' ? { ...o, headers: { ...o.headers, 'Mcp-Name': taskId } } : o;
  }

  /** 2025-11-25 only: a task-augmented tools/call (2026-07-28 calls go through `client.callTool`). */
  async start(name: string, args: Record<string, unknown>, ttlMs: number, o: WireOptions): Promise<TaskStart> {
    const r = await this.client.request(
      { method: 'tools/call', params: { name, arguments: args, task: { ttl: ttlMs } } },
      anyObject,
      o,
    );
    if (isObject(r.task)) return { task: readTask(r.task) };
    return { result: { content: [], ...r } as CallToolResult };
  }

  async get(taskId: string, o: WireOptions): Promise<TaskState> {
    const r = await this.client.request(
      { method: 'tasks/get', params: { taskId } } as never,
      anyObject,
      this.#opts(taskId, o),
    );
    const task = readTask(r);
    if (task.taskId !== taskId) throw malformed('a different taskId');
    return task;
  }

  /** The tool's result of a finished task (2025-11-25: tasks/result; 2026-07-28: inlined by tasks/get). */
  async result(task: TaskState, o: WireOptions): Promise<CallToolResult> {
    if (this.form === '2026-07-28') {
      if (task.result) return task.result;
      throw malformed('a completed task without its result');
    }
    const r = await this.client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } } as never,
      anyObject,
      o,
    );
    return { content: [], ...r } as CallToolResult;
  }

  /** 2026-07-28: answer a task's input requests. */
  async update(taskId: string, inputResponses: Record<string, unknown>, o: WireOptions): Promise<void> {
    await this.client.request(
      { method: 'tasks/update', params: { taskId, inputResponses } } as never,
      anyObject,
      this.#opts(taskId, o),
    );
  }

  async cancel(taskId: string, o: WireOptions): Promise<void> {
    await this.client.request(
      { method: 'tasks/cancel', params: { taskId } } as never,
      anyObject,
      this.#opts(taskId, o),
    );
  }
}

/**
 * Take a 2026-07-28 task handle out of a response before the SDK decodes it (its codec refuses
 * `resultType: "task"`): the request is answered with an error marked TASK_MARK that carries the
 * task, which `SdkSession.callTool` turns back into a task.
 */
export function takeTaskHandle(message: unknown): unknown {
  const m = message as { id?: unknown; result?: Record<string, unknown> };
  if (!isObject(m.result) || m.result.resultType !== 'task') return message;
  return {
    jsonrpc: '2.0',
    id: m.id,
    error: { code: -32603, message: 'task', data: { mark: TASK_MARK, task: m.result } },
  };
}

/** The task an error marked by takeTaskHandle carries, if it is one. */
export function taskFromError(e: unknown): TaskState | undefined {
  for (let c = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const data = (c as { data?: { mark?: string; task?: unknown } }).data;
    if (data?.mark === TASK_MARK) return readTask(data.task);
  }
  return undefined;
}

/** Polling bounds: at least this long between polls whatever the server says, at most the other (ms). */
export const POLL_MIN_MS = 100;
export const POLL_MAX_MS = 30_000;
/** When the server suggests no interval (ms). */
export const POLL_DEFAULT_MS = 1_000;

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Poll a task at the server's interval until it ends, telling `onUpdate` about every change of
 * status or status message; then the tool's result (a failed task throws its error as the
 * server's, a cancelled one `cancelled`). Stops, without cancelling anything, when `signal` aborts.
 * A 2026-07-28 task in `input_required` has each new input request answered by `answer` (keys
 * are answered once, as the extension asks) and sent back with `tasks/update`.
 */
export async function followTask(
  wire: TaskWire,
  first: TaskState,
  o: { signal: AbortSignal; timeout?: number; onUpdate?: (task: TaskState) => void; answer?: AnswerInput },
): Promise<CallToolResult> {
  let task = first;
  const answered = new Set<string>();
  while (!TASK_TERMINAL.has(task.status)) {
    const asked = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
    if (asked.length && o.answer && wire.form === '2026-07-28') {
      const responses: Record<string, unknown> = {};
      for (const [key, request] of asked) {
        answered.add(key);
        responses[key] = await o.answer(request, o.signal);
      }
      await wire.update(task.taskId, responses, { signal: o.signal, timeout: o.timeout });
    }
    const interval = Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, task.pollIntervalMs ?? POLL_DEFAULT_MS));
    await wait(interval, o.signal);
    const next = await wire.get(task.taskId, { signal: o.signal, timeout: o.timeout });
    if (next.status !== task.status || next.statusMessage !== task.statusMessage) o.onUpdate?.(next);
    task = next;
  }
  if (task.status === 'cancelled')
    throw new McpConnectionError('task-cancelled', task.statusMessage || 'The server cancelled the task.');
  if (task.status === 'failed' && wire.form === '2026-07-28')
    throw new McpConnectionError(
      'server',
      `The server returned an error: ${task.error?.message ?? task.statusMessage ?? 'the task failed'}`,
      { rpcCode: task.error?.code ?? -32603 },
    );
  return wire.result(task, { signal: o.signal, timeout: o.timeout });
}
