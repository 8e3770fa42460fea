// The task words the rest of the hub (call records, persistence, the core's exports) uses
// without loading the task wire code (session/tasks.ts, in the connection chunk).

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Which form of tasks a session speaks. */
export type TaskForm = '2025-11-25' | '2026-07-28';
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export const TASK_TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
