// One tool call through the whole path, as named steps:
// request → approve → validate → acquire → execute → settle.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  McpToolCallCancelledEvent,
  McpToolCallCompletedEvent,
  McpToolCallDeniedEvent,
  McpToolCallFailedEvent,
  McpToolCallProgressEvent,
  McpToolCallRequestEvent,
  McpToolCallStartedEvent,
} from '../../events/index.js';
import { assistantIdOf } from '../assistants/profile.js';
import type { Assistants } from '../assistants/registry.js';
import type { Connections } from '../connections/manager.js';
import { randomId, type HubContext } from '../context.js';
import { McpNotFoundError } from '../errors.js';
import { secretsOfServer } from '../servers/secrets.js';
import type { CallHistory } from './history.js';
import { progressLimiter } from './progress.js';
import { keptResult } from './result-shape.js';
import { CallTasks, taskStateOf } from './tasks.js';
import { loadValidator, validatorLoaded } from './schema-validator.js';
import {
  McpToolError,
  TERMINAL,
  errorInfo,
  type ApprovalSource,
  type RunAgainOptions,
  type ToolCallRecord,
} from './records.js';
import {
  type CallToolOptions,
  type Decision,
  type DenyReason,
  type Ending,
  type Mutable,
  type Running,
  type SignInWait,
  type UrlElicit,
} from './call-options.js';
import { resolveTarget } from './target.js';
import { Limiters } from './limiter.js';
import { validateArguments } from './validation.js';
import { runAsking } from './asks.js';
import { CallApprovals } from './approval.js';
import { localRestore, type ApprovalCoordination, type MakeRestore } from './restore.js';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Ends a call early with its final record. */
class Settled {
  constructor(readonly record: ToolCallRecord) {}
}

export type { CallToolOptions, SignInWait, UrlElicit } from './call-options.js';

export class CallPipeline {
  readonly #limiters = new Limiters(() => this.ctx.limits.callConcurrency);
  readonly #approvals: CallApprovals;
  readonly #controllers = new Map<string, AbortController>();
  /** Who waits for a call's end (`settled`). */
  readonly #waiters = new Map<string, ((r: ToolCallRecord) => void)[]>();
  /** Calls waiting for approval across tabs and reloads (their Web Locks). */
  readonly #restore: ApprovalCoordination;
  readonly #tasks: CallTasks;
  /** The page is going away: calls with a task are left running for the next page to follow. */
  #closing = false;

  constructor(
    private readonly ctx: HubContext,
    private readonly history: CallHistory,
    private readonly assistants: Assistants,
    private readonly connections: Connections,
    private readonly signIns?: SignInWait,
    private readonly urlElicit?: UrlElicit,
    makeRestore: MakeRestore = localRestore,
  ) {
    this.#tasks = new CallTasks(ctx, history, connections);
    this.#restore = makeRestore(ctx, history, {
      driving: (id) => this.#controllers.has(id),
      ask: (record) => this.#ask(record),
      ended: (record) => this.#ended(record),
    });
    this.#approvals = new CallApprovals(ctx, history, assistants, this.#restore);
  }

  /** Let a call waiting for approval run (`always` trusts the tool), or refuse it. */
  decide(id: string, decision: Decision): void {
    this.#approvals.decide(id, decision);
  }

  /** Cancel a call (waiting, queued or running; the server is told). */
  cancel(id: string): void {
    const call = this.history.get(id);
    if (!call) throw new McpNotFoundError('tool call', id);
    if (TERMINAL.has(call.status)) return;
    // a task runs on the server: tell it (cooperative; the call ends here whatever it answers)
    if (call.task)
      void this.#tasks.cancel(call).catch((e) => this.ctx.warn(`Could not cancel the task: ${(e as Error).message}`));
    this.#controllers.get(id)?.abort(new McpToolError('cancelled', 'Cancelled by the user.'));
  }

  /**
   * One tool call through the whole path. Resolves with the finished record whatever happened;
   * rejects only for a call that cannot be identified (unknown tool or server).
   */
  async callTool(options: CallToolOptions, rerunOf?: string): Promise<ToolCallRecord> {
    const { ctx } = this;
    // `settled`: the call path reads no call records from the snapshot (history.get has them), so
    // it need not apply the deferred record changes of other calls (store.ts)
    if (!ctx.store.settled.ready) await ctx.ready;
    const assistantId = assistantIdOf(options);
    const { serverId, tool, name } = resolveTarget(this.ctx.store.settled, this.assistants, options, assistantId);
    const args = options.arguments ?? {};
    // built field by field: a literal with six conditional spreads cost more (decision 037)
    const fresh: Mutable<ToolCallRecord> = {
      id: randomId('call'),
      assistantId,
      gptId: assistantId,
      serverId,
      serverName: ctx.store.settled.servers[serverId].name,
      tool: tool.name,
      name,
      arguments: args,
      status: 'pending',
      source: options.source ?? 'model',
      createdAt: Date.now(),
    };
    const title = tool.title ?? tool.annotations?.title;
    if (title) fresh.toolTitle = title;
    if (options.providerCallId) fresh.providerCallId = options.providerCallId;
    if (options.argumentsError) fresh.argumentsError = options.argumentsError;
    if (rerunOf) fresh.rerunOf = rerunOf;
    if (tool.annotations) fresh.annotations = tool.annotations;
    const record = this.history.put(fresh);
    if (options.onCall) {
      try {
        options.onCall(record);
      } catch (e) {
        ctx.warn(`onCall threw: ${(e as Error)?.message ?? String(e)}`);
      }
    }
    return this.#drive(record, tool, options, true);
  }

  /** From the veto (`request`) or from approval (a call restored waiting) to the final record. */
  async #drive(
    record: ToolCallRecord,
    tool: Tool,
    options: Pick<CallToolOptions, 'signal' | 'argumentsError' | 'appGranted'>,
    request: boolean,
  ): Promise<ToolCallRecord> {
    const controller = new AbortController();
    this.#controllers.set(record.id, controller);
    // the caller's signal aborts the call through a listener removed when the call ends:
    // AbortSignal.any cost more per call (decision 037) and left a WeakRef per call on the caller's
    // signal (a backend passes its request's signal to every call of the request)
    const outer = options.signal;
    const follow = () => controller.abort(outer?.reason);
    if (outer?.aborted) follow();
    else outer?.addEventListener('abort', follow, { once: true });
    const { signal } = controller;
    const { assistantId, serverId } = record;
    const call: Running = {
      id: record.id,
      assistantId,
      serverId,
      tool,
      args: { ...record.arguments },
      signal,
      appGranted: options.appGranted,
    };
    try {
      if (record.source === 'model') this.#refuseIfDown(record);
      if (request) this.#request(record);
      // no wait for approval or for a slot: no turn of the async machinery either (bench/backend.mjs)
      const approval = this.#approvals.already(call, record) ?? (await this.#approve(call, record));
      if (!options.argumentsError && !validatorLoaded()) await this.#loadValidator(call, approval);
      this.#validate(call, approval, options.argumentsError);
      const release = this.#limiters.for(call.serverId).tryAcquire() ?? (await this.#acquire(call, approval));
      try {
        return await this.#execute(call, approval);
      } catch (e) {
        if (this.#closing && this.history.get(call.id)?.task) return this.history.get(call.id)!;
        if (controller.signal.aborted || options.signal?.aborted)
          return this.#settle(call.id, 'cancelled', { error: { code: 'cancelled', message: 'Cancelled.' } });
        return this.#settleError(call.id, e);
      } finally {
        release();
      }
    } catch (e) {
      if (e instanceof Settled) return e.record;
      throw e;
    } finally {
      outer?.removeEventListener('abort', follow);
      this.#controllers.delete(record.id);
      this.#approvals.forget(record.id);
      this.#restore.release(record.id);
    }
  }

  /** `hub.calls.runAgain()`: the same call, new, through the whole path. */
  runAgain(id: string, options: RunAgainOptions = {}): Promise<ToolCallRecord> {
    const r = this.history.get(id);
    if (!r) return Promise.reject(new McpNotFoundError('tool call', id));
    if (!TERMINAL.has(r.status))
      return Promise.reject(
        new McpToolError('not-finished', `Call "${id}" has not finished; it cannot run again yet.`),
      );
    if (r.source === 'app')
      return Promise.reject(
        new McpToolError('not-rerunnable', `Call "${id}" was made by a tool's view; only the view can make it again.`),
      );
    return this.callTool(
      {
        assistantId: r.assistantId,
        serverId: r.serverId,
        tool: r.tool,
        arguments: { ...r.arguments },
        source: r.source,
        ...(r.providerCallId ? { providerCallId: r.providerCallId } : {}),
        ...(r.argumentsError ? { argumentsError: r.argumentsError } : {}),
        ...options,
      },
      id,
    );
  }

  /** Ask again about the calls that were waiting for approval when the last page went away (calls/restore.ts; a page's: persistence/approval-restore.ts). */
  resumeApprovals(): void {
    this.#restore.resume();
  }

  /** A call restored waiting, asked about here (its lock is held). */
  async #ask(record: ToolCallRecord): Promise<void> {
    let tool: Tool;
    try {
      ({ tool } = resolveTarget(
        this.ctx.store.settled,
        this.assistants,
        { serverId: record.serverId, tool: record.tool, source: record.source },
        record.assistantId,
      ));
    } catch (e) {
      // the server or the tool went away meanwhile (or the assistant no longer has it): it cannot be asked
      this.#settle(record.id, 'error', { error: errorInfo(e) });
      this.#restore.release(record.id);
      return;
    }
    await this.#drive(record, tool, record.argumentsError ? { argumentsError: record.argumentsError } : {}, false);
  }

  /**
   * The record of a call once it has ended. A call this page does not drive (another tab's, or
   * one that is not running anywhere) is answered as it is now. `signal` cancels the call.
   */
  async settled(id: string, signal?: AbortSignal): Promise<ToolCallRecord | undefined> {
    const now = this.history.get(id);
    const here = this.#controllers.has(id) || this.#restore.pending(id) !== undefined;
    if (!now || TERMINAL.has(now.status) || !here) return now;
    let answer!: (r: ToolCallRecord) => void;
    // cancelled: a call this page drives ends `cancelled` (and answers); one it does not, as it is now
    const onAbort = () => {
      this.cancel(id);
      if (!this.#controllers.has(id)) answer(this.history.get(id) ?? now);
    };
    try {
      return await new Promise<ToolCallRecord>((resolve) => {
        answer = resolve;
        const waiters = this.#waiters.get(id) ?? [];
        waiters.push(resolve);
        this.#waiters.set(id, waiters);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (signal?.aborted) onAbort();
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * 0. A model's call to a server whose last connect failed is not sent, and not put to the user
   * for approval: it could only fail. The user is told to reconnect (the model reads the same).
   * A server waiting for sign-in is not refused here: the call waits for the sign-in (#execute).
   */
  #refuseIfDown(record: ToolCallRecord) {
    const c = this.ctx.store.settled.connections[record.serverId];
    if (c?.status !== 'error') return;
    // the first sentence is whole (a card shows it alone, the rest under Details)
    const why = c.error?.message ? ` Its last connection failed: ${clip(c.error.message, 300)}` : '';
    this.#stop(record.id, 'error', {
      code: 'server-unavailable',
      message: `Server "${record.serverName}" cannot be reached right now, so the call was not sent. Reconnect the server (Connect, in the server list), then try again.${why}`,
    });
  }

  /** 1. The host may veto before anything happens. */
  #request(record: ToolCallRecord) {
    if (!this.ctx.emit(new McpToolCallRequestEvent({ call: record })))
      this.#stop(
        record.id,
        'denied',
        { code: 'vetoed', message: 'The application did not allow this call.' },
        'vetoed',
      );
  }

  /** 2b. Approval that may wait (calls/approval.ts); "Always allow" trusts the tool. */
  async #approve(call: Running, record: ToolCallRecord): Promise<ApprovalSource> {
    const decision = await this.#approvals.ask(call);
    if (decision === 'trusted') return 'trusted';
    if (decision.aborted)
      this.#stop(call.id, 'cancelled', { code: 'cancelled', message: 'Cancelled before approval.' });
    if (!decision.ok)
      this.#stop(call.id, 'denied', { code: 'denied', message: decision.reason?.trim() || 'Denied.' }, 'denied');
    // for a view's call, "always" is the view's to remember (src/apps)
    if (decision.always && record.source !== 'app') await this.#approvals.trustAlways(call);
    return decision.always ? 'user-always' : 'user-once';
  }

  /**
   * The validator comes with the connection code; a call before any connect waits for it. A
   * validator that cannot be fetched ends the call (`network`), as the connection code would;
   * a call cancelled meanwhile ends `cancelled` before anything is checked or sent.
   */
  async #loadValidator(call: Running, approval: ApprovalSource) {
    try {
      await loadValidator();
    } catch (e) {
      this.#stop(call.id, 'error', { code: 'network', message: (e as Error).message }, undefined, { approval });
    }
    if (call.signal.aborted)
      this.#stop(call.id, 'cancelled', { code: 'cancelled', message: 'Cancelled.' }, undefined, { approval });
  }

  /** 3. Arguments must match the input schema; invalid ones are never sent. */
  #validate(call: Running, approval: ApprovalSource, argumentsError?: string) {
    const problem = argumentsError ?? validateArguments(call.tool, call.args);
    if (problem) this.#stop(call.id, 'error', { code: 'invalid-arguments', message: problem }, undefined, { approval });
  }

  /** 4. A slot within the server's concurrency cap; a call waiting for one stays `pending`. */
  async #acquire(call: Running, approval: ApprovalSource): Promise<() => void> {
    try {
      return await this.#limiters.for(call.serverId).acquire(call.signal);
    } catch {
      return this.#stop(
        call.id,
        'cancelled',
        { code: 'cancelled', message: 'Cancelled while waiting to run.' },
        undefined,
        { approval },
      );
    }
  }

  /**
   * 5. Connect if needed, run on the server with progress, and settle with the result. A server
   * that asks for sign-in (401, or 403 insufficient_scope) puts the call in `needs-sign-in`
   * until the user signed in, then it runs again — once: a second refusal ends it.
   */
  async #execute(call: Running, approval: ApprovalSource): Promise<ToolCallRecord> {
    return runAsking(call, () => this.#run(call, approval), this.history, this.signIns, this.urlElicit);
  }

  async #run(call: Running, approval: ApprovalSource): Promise<ToolCallRecord> {
    const { id, serverId, tool, args, signal } = call;
    if (!this.connections.hasSession(serverId)) await this.connections.connect(serverId, { signal });
    const started = this.history.patch(id, { status: 'running', approval, startedAt: Date.now() });
    this.ctx.emit(new McpToolCallStartedEvent({ call: started }));
    // rate-limited (progress.ts): a flood of notifications must not flood the record and the UI;
    // made with the first notification (most calls have none)
    let limiter: ReturnType<typeof progressLimiter> | undefined;
    let result: CallToolResult;
    try {
      result = await this.#tasks.run({ id, serverId, tool, args, signal }, (p) =>
        (limiter ??= progressLimiter((progress) => {
          this.history.patch(id, { progress });
          this.ctx.emit(new McpToolCallProgressEvent({ callId: id, ...progress }));
        })).push({
          progress: p.progress,
          ...(p.total !== undefined ? { total: p.total } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
        }),
      );
    } finally {
      limiter?.flush();
    }
    return this.#finish(id, result);
  }

  /** Settle a call with the tool's result. */
  #finish(id: string, sent: CallToolResult): ToolCallRecord {
    const serverId = this.history.get(id)?.serverId;
    const { result, kept } = keptResult(
      sent,
      secretsOfServer(this.ctx.vault, serverId ? this.ctx.store.settled.servers[serverId] : undefined),
    );
    if (result.isError) {
      const first = kept.content.find((c) => c.type === 'text') as { text: string } | undefined;
      return this.#settle(id, 'error', {
        result: kept,
        error: { code: 'tool-error', message: first?.text.slice(0, 2000) || 'The tool reported an error.' },
      });
    }
    return this.#settle(id, 'success', { result: kept });
  }

  /** End the call here: settle it and leave the pipeline. */
  #stop(
    id: string,
    status: Ending,
    error: { code: string; message: string },
    reason?: DenyReason,
    patch: Partial<ToolCallRecord> = {},
  ): never {
    throw new Settled(this.#settle(id, status, { ...patch, error }, reason));
  }

  /** A call that failed: a task the server cancelled ends `cancelled`, anything else `error`. */
  #settleError(id: string, e: unknown): ToolCallRecord {
    const error = errorInfo(e);
    return this.#settle(id, error.code === 'task-cancelled' ? 'cancelled' : 'error', { error });
  }

  /** 6. The final record, and the outcome event. */
  #settle(id: string, status: Ending, patch: Partial<ToolCallRecord>, reason?: DenyReason): ToolCallRecord {
    const endedAt = Date.now();
    const before = this.history.get(id);
    const r = this.history.put({
      ...before,
      ...patch,
      status,
      endedAt,
      ...(before?.startedAt ? { durationMs: endedAt - before.startedAt } : {}),
    } as ToolCallRecord);
    if (status === 'success') this.ctx.emit(new McpToolCallCompletedEvent({ call: r }));
    else if (status === 'error')
      this.ctx.emit(new McpToolCallFailedEvent({ call: r, error: r.error ?? { code: 'error', message: 'failed' } }));
    else if (status === 'denied') this.ctx.emit(new McpToolCallDeniedEvent({ call: r, reason: reason ?? 'denied' }));
    else this.ctx.emit(new McpToolCallCancelledEvent({ call: r, reason: 'cancelled' }));
    this.#ended(r);
    return r;
  }

  /**
   * Follow again every call whose task was running when the last page went away (after load):
   * connect its server, poll, and settle the call with the task's result.
   */
  resumeTasks(): Promise<void> {
    return Promise.all(this.#tasks.unfinished().map((r) => this.#resume(r))).then(() => {});
  }

  async #resume(record: ToolCallRecord): Promise<void> {
    if (this.#controllers.has(record.id) || !record.task) return;
    const controller = new AbortController();
    this.#controllers.set(record.id, controller);
    const { signal } = controller;
    try {
      if (!this.connections.hasSession(record.serverId)) await this.connections.connect(record.serverId, { signal });
      this.#tasks.resumed(record);
      const result = await this.#tasks.follow(record.id, record.serverId, taskStateOf(record.task), signal);
      this.#finish(record.id, result);
    } catch (e) {
      if (this.#closing) return;
      if (signal.aborted) this.#settle(record.id, 'cancelled', { error: { code: 'cancelled', message: 'Cancelled.' } });
      else this.#settleError(record.id, e);
    } finally {
      this.#controllers.delete(record.id);
    }
  }

  /** Tell who waits (`settled`) that a call ended. */
  #ended(r: ToolCallRecord) {
    for (const resolve of this.#waiters.get(r.id) ?? []) resolve(r);
    this.#waiters.delete(r.id);
  }

  /** The page is being hidden (maybe unloaded): leave calls with a task running. */
  pageHidden(): void {
    this.#closing = true;
  }

  /** The page came back from the back/forward cache: follow the tasks left running again. */
  pageShown(): void {
    this.#closing = false;
    void this.resumeTasks();
  }

  /** Deny every waiting call and cancel every running one (the page is going away). */
  dispose(): void {
    this.#closing = true;
    this.#restore.dispose();
    this.#approvals.denyAll('The page is closing.');
    for (const c of this.#controllers.values()) c.abort();
  }
}
