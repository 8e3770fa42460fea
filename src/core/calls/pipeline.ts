// One tool call through the whole path, as named steps:
// request → approve → validate → acquire → execute → settle.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  McpToolCallAwaitingApprovalEvent,
  McpToolCallCancelledEvent,
  McpToolCallCompletedEvent,
  McpToolCallDeniedEvent,
  McpToolCallFailedEvent,
  McpToolCallProgressEvent,
  McpToolCallRequestEvent,
  McpToolCallStartedEvent,
} from '../../events/index.js';
import { assistantIdOf, type AssistantRef } from '../assistants/profile.js';
import { isTrustedNow } from '../assistants/trust.js';
import type { Assistants } from '../assistants/registry.js';
import type { Connections } from '../connections/manager.js';
import { KEYS, randomId, type HubContext } from '../context.js';
import { McpAuthError, McpConfigError, McpNotFoundError, redactDeep } from '../errors.js';
import { secretsOfServer } from '../servers/secrets.js';
import type { CallHistory } from './history.js';
import { progressLimiter } from './progress.js';
import { conformResult } from './result-shape.js';
import { CallTasks, taskStateOf } from './tasks.js';
import { loadValidator, validatorLoaded } from './schema-validator.js';
import { toolUi } from '../ui-meta.js';

/**
 * 2025-11-25 URL-elicitation-required (-32042): show the URLs the server named as requests of
 * the call and resolve with the user's answers (src/core/answers).
 */
export type UrlElicit = (
  serverId: string,
  callId: string,
  elicitations: unknown,
  signal: AbortSignal,
) => Promise<readonly { action: string }[]>;

/** The elicitations a -32042 error carries, when it is one. */
function urlElicitations(e: unknown): unknown[] | undefined {
  for (let c = e, depth = 0; c && typeof c === 'object' && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const { code, rpcCode, data } = c as { code?: unknown; rpcCode?: unknown; data?: { elicitations?: unknown } };
    if ((code === URL_REQUIRED || rpcCode === URL_REQUIRED) && Array.isArray(data?.elicitations))
      return data.elicitations;
  }
  return undefined;
}
const URL_REQUIRED = -32042;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** The vault's values as redactDeep takes them (no copy when there are none: a backend without secrets). */
const NONE: readonly string[] = [];
const secretsOf = (known: Iterable<string>): readonly string[] =>
  known instanceof Set && known.size === 0 ? NONE : [...known];
/** How often one call may be sent back to the user for URLs before its error stands. */
const URL_ROUNDS = 3;

/** What a call waiting on sign-in needs (src/core/auth). */
export interface SignInWait {
  /** Say the call waits (mcp-sign-in-required with its id); resolves once the user signed in. */
  waitFor(serverId: string, err: McpAuthError, callId: string, signal: AbortSignal): Promise<void>;
  /** The call runs on the server: a refusal is announced by the call, with its id (the function says it settled). */
  callRunning?(serverId: string): () => void;
}
import {
  Limiter,
  McpToolError,
  TERMINAL,
  errorInfo,
  validateArguments,
  type ApprovalSource,
  type RunAgainOptions,
  type ToolCallRecord,
} from './records.js';

/**
 * What `hub.callTool()` takes. Give `name` (model-facing) or `serverId` + `tool`. `assistantId`
 * (default `default`) is the assistant whose selection and approval policy apply.
 */
export interface CallToolOptions extends AssistantRef {
  /** The model-facing name from `toolsFor` (`<server>__<tool>`). */
  name?: string;
  serverId?: string;
  /** The MCP tool name on `serverId`. */
  tool?: string;
  arguments?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * `user` for calls a person started (e.g. "Try it"): no approval step. `app` for calls an MCP
   * App view makes (src/apps): only tools whose `visibility` includes `"app"`, found by
   * `serverId` + `tool` in the server's catalogue (not the assistant's selection); a tool without
   * `readOnlyHint: true` asks unless `appGranted`. Default `model`.
   */
  source?: 'model' | 'user' | 'app';
  /** For `source: 'app'`: the user already allowed this tool for this view ("Always" earlier). */
  appGranted?: boolean;
  /** The provider's id for the call, kept on the record. */
  providerCallId?: string;
  /** Set when the provider's arguments could not be parsed; the call is answered as invalid. */
  argumentsError?: string;
  /**
   * Called once with the new record (status `pending`) before anything else happens, so a host
   * can show the call (`<mcp-tool-call call-id>`) at once. What it throws is logged and ignored.
   */
  onCall?: (record: ToolCallRecord) => void;
}

/** A record while it is being built (records are frozen once put). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Decision = { ok: boolean; always?: boolean; reason?: string; aborted?: boolean };
type Ending = 'success' | 'error' | 'denied' | 'cancelled';
type DenyReason = 'denied' | 'vetoed';

/** A call being run: its id, the resolved tool and the signal that cancels it. */
interface Running {
  readonly id: string;
  readonly assistantId: string;
  readonly serverId: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly appGranted?: boolean;
}

/** The page's Web Locks (absent in Node 20 and outside secure contexts). */
const locks = (): LockManager | undefined => (globalThis as { navigator?: Navigator }).navigator?.locks;

/** Ends a call early with its final record. */
class Settled {
  constructor(readonly record: ToolCallRecord) {}
}

export class CallPipeline {
  readonly #limiters = new Map<string, Limiter>();
  readonly #approvals = new Map<string, (d: Decision) => void>();
  readonly #controllers = new Map<string, AbortController>();
  /** Who waits for a call's end (`settled`). */
  readonly #waiters = new Map<string, ((r: ToolCallRecord) => void)[]>();
  /**
   * The Web Locks this page holds on calls it asks about or runs (by id): another tab that loads
   * the same store meanwhile does not ask about them too (a call allowed in two tabs would run twice).
   */
  readonly #held = new Map<string, () => void>();
  /** Calls restored waiting that another tab of this store is deciding on. */
  readonly #elsewhere = new Set<string>();
  /** Calls restored waiting whose lock this page is still asking for. */
  readonly #restoring = new Set<string>();
  /** Aborted by `dispose`: stops waiting for other tabs' locks. */
  readonly #gone = new AbortController();
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
  ) {
    this.#tasks = new CallTasks(ctx, history, connections);
  }

  /** Let a call waiting for approval run (`always` trusts the tool), or refuse it. */
  decide(id: string, decision: Decision): void {
    const resolve = this.#approvals.get(id);
    if (!resolve && this.#restoring.has(id))
      throw new McpToolError(
        'not-awaiting-approval',
        'This call is being restored after a reload; try again in a moment.',
      );
    if (!resolve && this.#elsewhere.has(id))
      throw new McpToolError('not-awaiting-approval', 'This call waits for a decision in another tab of this page.');
    if (!resolve) throw new McpToolError('not-awaiting-approval', `Call "${id}" is not waiting for approval.`);
    this.#approvals.delete(id);
    resolve(decision);
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
    const { serverId, tool, name } = this.#resolveTarget(options, assistantId);
    const args = options.arguments ?? {};
    // built field by field: a literal with six conditional spreads cost ~5 µs a call (bench/backend.mjs)
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
    // AbortSignal.any cost ~14 µs a call in Node 20 and left a WeakRef per call on the caller's
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
      const approval = this.#approvedAlready(call, record) ?? (await this.#approve(call, record));
      if (!options.argumentsError && !validatorLoaded()) await this.#loadValidator(call, approval);
      this.#validate(call, approval, options.argumentsError);
      const release = this.#limiter(call.serverId).tryAcquire() ?? (await this.#acquire(call, approval));
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
      this.#approvals.delete(record.id);
      this.#release(record.id);
    }
  }

  #lockName(id: string): string {
    return `mcp-elements:${this.ctx.storeName}:call:${id}`;
  }

  /** Hold the call's lock while this page asks about it (and runs it); `ifAvailable`: false when another page holds it. */
  async #hold(id: string, ifAvailable = false): Promise<boolean> {
    const l = locks();
    if (!l || this.#held.has(id)) return true;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    if (!ifAvailable) {
      // a call this page just made: nobody else knows its id; let go even if released before granted
      this.#held.set(id, release);
      l.request(this.#lockName(id), () => held).catch(() => {});
      return true;
    }
    return new Promise<boolean>((resolve) => {
      l.request(this.#lockName(id), { ifAvailable }, (lock) => {
        resolve(!!lock);
        if (!lock) return undefined;
        this.#held.set(id, release);
        return held;
      }).catch(() => resolve(true)); // no lock to be had here: nothing to coordinate with
    });
  }

  /** Let go of a call's lock once its final record is written (the next holder reads it). */
  #release(id: string) {
    const release = this.#held.get(id);
    if (!release) return;
    this.#held.delete(id);
    void this.history.flush().finally(release);
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

  /**
   * Ask again for every call that was waiting for approval when the last page went away (after
   * load): a decision runs it through the rest of the path as if the page had never gone.
   */
  resumeApprovals(): void {
    for (const r of Object.values(this.ctx.store.state.activeCalls))
      if (r.status === 'awaiting-approval' && !this.#controllers.has(r.id)) {
        this.#restoring.add(r.id);
        void this.#rearm(r);
      }
  }

  async #rearm(record: ToolCallRecord): Promise<void> {
    const mine = await this.#hold(record.id, true);
    if (!mine) this.#elsewhere.add(record.id);
    this.#restoring.delete(record.id);
    if (!mine) return this.#whenFree(record);
    let tool: Tool;
    try {
      ({ tool } = this.#resolveTarget(
        { serverId: record.serverId, tool: record.tool, source: record.source },
        record.assistantId,
      ));
    } catch (e) {
      // the server or the tool went away meanwhile (or the assistant no longer has it): it cannot be asked
      this.#settle(record.id, 'error', { error: errorInfo(e) });
      this.#release(record.id);
      return;
    }
    await this.#drive(record, tool, record.argumentsError ? { argumentsError: record.argumentsError } : {}, false);
  }

  /**
   * Another tab of this store asks about (or runs) the call: once it lets go, take what it
   * stored — the call's end, or, if that tab closed while the call still waited, ask here.
   */
  async #whenFree(record: ToolCallRecord): Promise<void> {
    const l = locks()!;
    try {
      await l.request(this.#lockName(record.id), { signal: this.#gone.signal }, async () => {
        const stored = (await this.ctx.storage.get(KEYS.call + record.id)) as ToolCallRecord | undefined;
        if (stored && typeof stored === 'object' && TERMINAL.has(stored.status)) this.#ended(this.history.put(stored));
      });
    } catch {
      return; // this hub was disposed first
    } finally {
      this.#elsewhere.delete(record.id);
    }
    const now = this.history.get(record.id);
    if (now?.status === 'awaiting-approval' && !this.#controllers.has(record.id)) await this.#rearm(now);
  }

  /**
   * The record of a call once it has ended. A call this page does not drive (another tab's, or
   * one that is not running anywhere) is answered as it is now. `signal` cancels the call.
   */
  async settled(id: string, signal?: AbortSignal): Promise<ToolCallRecord | undefined> {
    const now = this.history.get(id);
    const here = this.#controllers.has(id) || this.#restoring.has(id) || this.#elsewhere.has(id);
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

  /** Which tool a call means; a model may only reach tools its assistant was given. */
  #resolveTarget(
    target: Pick<CallToolOptions, 'name' | 'serverId' | 'tool' | 'source'>,
    assistantId: string,
  ): { serverId: string; tool: Tool; name: string } {
    const s = this.ctx.store.settled;
    const mine = this.assistants.tools(assistantId);
    // a view names its tool by server and MCP name only (never a model-facing name)
    if (target.name !== undefined && target.source !== 'app') {
      // a name of no tool is the model's mistake (unknown-tool, the model is told); a name that
      // is not a string is the host's
      if (typeof target.name !== 'string') throw new McpConfigError([{ path: 'name', message: 'must be a string' }]);
      const t = mine.byName.get(target.name) ?? mine.aliases.get(target.name);
      if (!t) throw new McpToolError('unknown-tool', `"${target.name}" is not a tool of assistant "${assistantId}".`);
      return { serverId: t.serverId, tool: t.tool, name: t.name };
    }
    const { serverId, tool: toolName } = target;
    if (!serverId || !toolName)
      throw new McpConfigError([{ path: 'name', message: 'give name, or serverId and tool' }]);
    if (!s.servers[serverId]) throw new McpNotFoundError('server', serverId);
    const named = mine.tools.find((x) => x.serverId === serverId && x.tool.name === toolName);
    if (target.source !== 'user' && target.source !== 'app') {
      if (!named) throw new McpToolError('unknown-tool', `"${toolName}" is not a tool of assistant "${assistantId}".`);
      return { serverId: named.serverId, tool: named.tool, name: named.name };
    }
    // a person's call or a view's (by the server's own name: a view cannot name another server's)
    const tool = s.catalogues[serverId]?.tools.find((t) => t.name === toolName);
    if (!tool)
      throw new McpToolError('unknown-tool', `Server "${s.servers[serverId].name}" has no tool "${toolName}".`);
    if (target.source === 'app' && !toolUi(tool).visibility.includes('app'))
      throw new McpToolError(
        'not-app-tool',
        `"${toolName}" is not callable by a view (its visibility excludes "app").`,
      );
    return { serverId, tool, name: target.source === 'app' ? toolName : (named?.name ?? toolName) };
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

  /** 2a. Approval that needs no wait (a person's call, a view's allowed call, an `auto` assistant). */
  #approvedAlready(call: Running, record: ToolCallRecord): ApprovalSource | undefined {
    if (record.source === 'user') return 'user-initiated';
    if (record.source === 'app') {
      if (call.appGranted) return 'app-granted';
      if (call.tool.annotations?.readOnlyHint === true) return 'app-read-only';
    }
    if (this.assistants.get(call.assistantId).approval === 'auto') return 'auto';
    return undefined;
  }

  /**
   * 2b. Approval that may wait (after #approvedAlready found none): a trusted definition, else the
   * user. Annotations are untrusted hints: they never approve anything by themselves.
   */
  async #approve(call: Running, record: ToolCallRecord): Promise<ApprovalSource> {
    const profile = this.assistants.get(call.assistantId);
    // trusted: this definition, from this origin (assistants/trust.ts)
    const url = this.ctx.store.state.servers[call.serverId]?.url;
    if (profile.approval === 'trusted-only' && url && (await isTrustedNow(profile, call.serverId, url, call.tool)))
      return 'trusted';
    void this.#hold(call.id);
    const waiting = this.history.patch(call.id, { status: 'awaiting-approval' });
    const decision = await new Promise<Decision>((resolve) => {
      const onAbort = () => {
        this.#approvals.delete(call.id);
        resolve({ ok: false, aborted: true });
      };
      if (call.signal.aborted) return onAbort();
      call.signal.addEventListener('abort', onAbort, { once: true });
      this.#approvals.set(call.id, (d) => {
        call.signal.removeEventListener('abort', onAbort);
        resolve(d);
      });
      this.ctx.emit(new McpToolCallAwaitingApprovalEvent({ call: waiting }));
    });
    if (decision.aborted)
      this.#stop(call.id, 'cancelled', { code: 'cancelled', message: 'Cancelled before approval.' });
    if (!decision.ok)
      this.#stop(call.id, 'denied', { code: 'denied', message: decision.reason?.trim() || 'Denied.' }, 'denied');
    // "Always allow" means "don't ask again for this tool": trust it, and if the assistant
    // asks for everything, move it to asking only for untrusted tools
    // (for a view's call, "always" is the view's to remember: src/apps)
    if (decision.always && record.source !== 'app') {
      const alsoMode =
        this.assistants.get(call.assistantId).approval === 'always-ask' ? { approval: 'trusted-only' as const } : {};
      // bound to the definition the user saw in the approval card
      await this.assistants.trust(call.assistantId, call.serverId, call.tool.name, true, alsoMode, call.tool);
    }
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
      return await this.#limiter(call.serverId).acquire(call.signal);
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

  #limiter(serverId: string): Limiter {
    let limiter = this.#limiters.get(serverId);
    if (!limiter) this.#limiters.set(serverId, (limiter = new Limiter(this.ctx.limits.callConcurrency)));
    return limiter;
  }

  /**
   * 5. Connect if needed, run on the server with progress, and settle with the result. A server
   * that asks for sign-in (401, or 403 insufficient_scope) puts the call in `needs-sign-in`
   * until the user signed in, then it runs again — once: a second refusal ends it.
   */
  async #execute(call: Running, approval: ApprovalSource): Promise<ToolCallRecord> {
    for (let resumed = false, urlRounds = 0; ;) {
      const settled = this.signIns?.callRunning?.(call.serverId);
      try {
        return await this.#run(call, approval);
      } catch (e) {
        // -32042: the user must open a page first; the call runs again once they did
        const urls = urlElicitations(e);
        if (urls && this.urlElicit && urlRounds < URL_ROUNDS && !call.signal.aborted) {
          urlRounds++;
          const answers = await this.urlElicit(call.serverId, call.id, urls, call.signal);
          if (call.signal.aborted) throw e;
          if (answers.every((a) => a.action === 'accept')) continue;
          throw new McpToolError(
            'url-required',
            'The server needs a page opened first; it was not, so the call did not run.',
          );
        }
        const asks = e instanceof McpAuthError && (e.code === 'sign-in-required' || e.code === 'insufficient-scope');
        if (!asks || resumed || !this.signIns || call.signal.aborted) throw e;
        this.history.patch(call.id, { status: 'needs-sign-in' });
        const signedIn = this.signIns.waitFor(call.serverId, e, call.id, call.signal);
        settled?.();
        await signedIn;
        this.history.patch(call.id, { status: 'pending' });
        resumed = true;
      } finally {
        settled?.();
      }
    }
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
    // a result without `content` keeps what the server sent, flagged (result-shape.ts)
    const { result, issue } = conformResult(sent);
    // a server may repeat what it was sent (an Authorization header in an error text): what
    // reaches history, events and the card never holds a secret this page has handled (a scoped
    // vault: a secret of this call's server)
    const serverId = this.history.get(id)?.serverId;
    const kept = redactDeep(
      {
        content: result.content ?? [],
        ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
        ...(result.isError ? { isError: true } : {}),
        ...(issue ? { nonConformant: issue } : {}),
      },
      secretsOf(secretsOfServer(this.ctx.vault, serverId ? this.ctx.store.settled.servers[serverId] : undefined)),
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
    this.#gone.abort();
    for (const id of [...this.#approvals.keys()]) this.decide(id, { ok: false, reason: 'The page is closing.' });
    for (const c of this.#controllers.values()) c.abort();
  }
}
