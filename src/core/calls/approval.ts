// Step 2 of a call, approval: the calls waiting for the user's decision, and what decides one
// without a wait. Annotations are untrusted hints: they never approve anything by themselves.
import { McpToolCallAwaitingApprovalEvent } from '../../events/index.js';
import type { Assistants } from '../assistants/registry.js';
import { isTrustedNow } from '../assistants/trust.js';
import type { HubContext } from '../context.js';
import type { ApprovalCoordination } from './restore.js';
import type { Decision, Running } from './call-options.js';
import type { CallHistory } from './history.js';
import { McpToolError, type ApprovalSource, type ToolCallRecord } from './records.js';

export class CallApprovals {
  /** Calls waiting for a decision on this page, each with how to give it. */
  readonly #waiting = new Map<string, (d: Decision) => void>();

  constructor(
    private readonly ctx: HubContext,
    private readonly history: CallHistory,
    private readonly assistants: Assistants,
    private readonly restore: ApprovalCoordination,
  ) {}

  /** Let a call waiting for approval run (`always` trusts the tool), or refuse it. */
  decide(id: string, decision: Decision): void {
    const resolve = this.#waiting.get(id);
    const pending = resolve ? undefined : this.restore.pending(id);
    if (pending === 'restoring')
      throw new McpToolError(
        'not-awaiting-approval',
        'This call is being restored after a reload; try again in a moment.',
      );
    if (pending === 'elsewhere')
      throw new McpToolError('not-awaiting-approval', 'This call waits for a decision in another tab of this page.');
    if (!resolve) throw new McpToolError('not-awaiting-approval', `Call "${id}" is not waiting for approval.`);
    this.#waiting.delete(id);
    resolve(decision);
  }

  /** The call no longer waits (it ended). */
  forget(id: string): void {
    this.#waiting.delete(id);
  }

  /** Refuse every call waiting here (the page is going away). */
  denyAll(reason: string): void {
    for (const id of [...this.#waiting.keys()]) this.decide(id, { ok: false, reason });
  }

  /** 2a. Approval that needs no wait (a person's call, a view's allowed call, an `auto` assistant). */
  already(call: Running, record: ToolCallRecord): ApprovalSource | undefined {
    if (record.source === 'user') return 'user-initiated';
    if (record.source === 'app') {
      if (call.appGranted) return 'app-granted';
      if (call.tool.annotations?.readOnlyHint === true) return 'app-read-only';
    }
    if (this.assistants.get(call.assistantId).approval === 'auto') return 'auto';
    return undefined;
  }

  /**
   * 2b. Approval that may wait (after `already` found none): a trusted definition (`trusted`),
   * else the user's decision (`aborted` when the call's signal ended the wait).
   */
  async ask(call: Running): Promise<Decision | 'trusted'> {
    const profile = this.assistants.get(call.assistantId);
    // trusted: this definition, from this origin (assistants/trust.ts)
    const url = this.ctx.store.state.servers[call.serverId]?.url;
    if (profile.approval === 'trusted-only' && url && (await isTrustedNow(profile, call.serverId, url, call.tool)))
      return 'trusted';
    void this.restore.hold(call.id);
    const waiting = this.history.patch(call.id, { status: 'awaiting-approval' });
    return new Promise<Decision>((resolve) => {
      const onAbort = () => {
        this.#waiting.delete(call.id);
        resolve({ ok: false, aborted: true });
      };
      if (call.signal.aborted) return onAbort();
      call.signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(call.id, (d) => {
        call.signal.removeEventListener('abort', onAbort);
        resolve(d);
      });
      this.ctx.emit(new McpToolCallAwaitingApprovalEvent({ call: waiting }));
    });
  }

  /**
   * "Always allow" means "don't ask again for this tool": trust it (bound to the definition the
   * user saw in the approval card), and if the assistant asks for everything, move it to asking
   * only for untrusted tools.
   */
  async trustAlways(call: Running): Promise<void> {
    const alsoMode =
      this.assistants.get(call.assistantId).approval === 'always-ask' ? { approval: 'trusted-only' as const } : {};
    await this.assistants.trust(call.assistantId, call.serverId, call.tool.name, true, alsoMode, call.tool);
  }
}
