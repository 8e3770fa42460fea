// The tool-call loop for chat hosts: run every tool call in a provider's assistant message, and
// alternate model and tools until the model stops calling tools.
import { assistantIdOf, type AssistantRef } from '../assistants/profile.js';
import type { Assistants } from '../assistants/registry.js';
import type { HubContext } from '../context.js';
import { adapterFor, type Provider, type ProviderToolCall, type ToolOutcome } from '../providers/index.js';
import type { CallPipeline } from './pipeline.js';
import type { CallHistory } from './history.js';
import { interruptedRecord, outcomeOf, TERMINAL, type ToolCallRecord } from './records.js';

/** Options of `hub.runToolCalls()`. */
export interface RunToolCallsOptions extends AssistantRef {
  signal?: AbortSignal;
  /**
   * Tool calls that are not MCP tools of this assistant: `return` hands them back untouched in
   * `unhandled` (default, for hosts with tools of their own); `error` answers them as unknown.
   */
  unknownTools?: 'return' | 'error';
  /** Run a host tool call and give its result; its answer joins `messages` in order. */
  runHostTool?: (call: ProviderToolCall) => Promise<string | ToolOutcome>;
  /** Called with each MCP call's record as soon as it exists (see `CallToolOptions.onCall`). */
  onCall?: (record: ToolCallRecord) => void;
  /**
   * The same assistant message again, after a reload: a tool call that already has a record
   * (same provider call id, name and assistant; the newest, so a run-again counts) is not run
   * again. One still in flight here (e.g. waiting for approval since before the reload) is
   * awaited (`signal` cancels it), a finished one is answered from its record; a tool call
   * without a record runs as usual.
   */
  resume?: boolean;
}

/** What `hub.runToolCalls()` returns. */
export interface RunToolCallsResult {
  /** Append these to the conversation before the next model request (provider format). */
  messages: unknown[];
  /** One provider-format result per answered call, in the order of the calls. */
  results: unknown[];
  /** The host's own tool calls, untouched (provider format), when not run by `runHostTool`. */
  unhandled: unknown[];
  /** The MCP calls' records, in the order of the calls. */
  calls: ToolCallRecord[];
}

/** Options of `hub.runConversation()`. */
export interface RunConversationOptions extends AssistantRef {
  provider: Provider;
  /** Call your LLM with the conversation and tools; return its assistant message/response. */
  complete: (messages: unknown[], tools: unknown[]) => Promise<unknown>;
  messages: unknown[];
  /** Model turns at most. Default 8. */
  maxSteps?: number;
  signal?: AbortSignal;
  runHostTool?: RunToolCallsOptions['runHostTool'];
  onCall?: RunToolCallsOptions['onCall'];
}

/** What `hub.runConversation()` returns. */
export interface RunConversationResult {
  messages: unknown[];
  reply: unknown;
  steps: number;
  stopped: 'done' | 'max-steps';
}

export class Conversation {
  constructor(
    private readonly ctx: HubContext,
    private readonly assistants: Assistants,
    private readonly pipeline: CallPipeline,
    private readonly history: CallHistory,
  ) {}

  /** Run every tool call of a provider's message in parallel; return what to append next. */
  async runToolCalls(
    provider: Provider,
    assistantMessage: unknown,
    options: RunToolCallsOptions = {},
  ): Promise<RunToolCallsResult> {
    const adapter = adapterFor(provider);
    await this.ctx.ready;
    const assistantId = assistantIdOf(options);
    const { byName, aliases } = this.assistants.tools(assistantId);
    const found = adapter.readCalls(assistantMessage);
    const unhandled: unknown[] = [];
    const records: (ToolCallRecord | undefined)[] = [];
    const text = (t: string, isError: boolean): ToolOutcome => ({ isError, content: [{ type: 'text', text: t }] });
    const answers = await Promise.all(
      found.map(async (call, index): Promise<unknown | undefined> => {
        if (byName.has(call.name) || aliases.has(call.name)) {
          const prior = options.resume ? this.#recorded(assistantId, call.id, call.name) : undefined;
          if (prior) {
            const r = (await this.pipeline.settled(prior.id, options.signal)) ?? prior;
            // not driven by this page and not over: it will not end here
            const done = TERMINAL.has(r.status) ? r : interruptedRecord(r);
            records[index] = done;
            return adapter.result(call, outcomeOf(done));
          }
          const r = await this.pipeline.callTool({
            name: call.name,
            arguments: call.arguments ?? {},
            ...(call.argumentsError ? { argumentsError: call.argumentsError } : {}),
            assistantId,
            ...(options.signal ? { signal: options.signal } : {}),
            providerCallId: call.id,
            ...(options.onCall ? { onCall: options.onCall } : {}),
          });
          records[index] = r;
          return adapter.result(call, outcomeOf(r));
        }
        if (options.runHostTool) {
          let out: string | ToolOutcome;
          try {
            out = await options.runHostTool(call);
          } catch (e) {
            out = text(`The tool failed: ${(e as Error)?.message ?? String(e)}`, true);
          }
          return adapter.result(call, typeof out === 'string' ? text(out, false) : out);
        }
        if (options.unknownTools === 'error') {
          const names = [...byName.keys()].slice(0, 50).join(', ');
          return adapter.result(
            call,
            text(`There is no tool named "${call.name}". Available tools: ${names || 'none'}.`, true),
          );
        }
        unhandled.push(call.raw);
        return undefined;
      }),
    );
    const results = answers.filter((a) => a !== undefined);
    return {
      messages: adapter.messages(results),
      results,
      unhandled,
      calls: records.filter((r): r is ToolCallRecord => !!r),
    };
  }

  /** The newest call recorded for a provider's tool call. */
  #recorded(assistantId: string, providerCallId: string, name: string): ToolCallRecord | undefined {
    if (!providerCallId) return undefined;
    const { byName, aliases } = this.assistants.tools(assistantId);
    const tool = byName.get(name) ?? aliases.get(name);
    return this.history
      .list({ assistantId })
      .find(
        (r) =>
          r.providerCallId === providerCallId &&
          (r.name === name || (tool && r.serverId === tool.serverId && r.tool === tool.tool.name)),
      );
  }

  /** Alternate model and tools until the model stops calling tools or `maxSteps` turns were taken. */
  async runConversation(options: RunConversationOptions): Promise<RunConversationResult> {
    const { provider, signal, runHostTool, onCall } = options;
    const adapter = adapterFor(provider);
    const assistantId = assistantIdOf(options);
    const maxSteps = options.maxSteps ?? 8;
    const messages = [...options.messages];
    let reply: unknown;
    for (let step = 1; step <= maxSteps; step++) {
      signal?.throwIfAborted();
      reply = await options.complete([...messages], this.assistants.toolsFor(provider, { assistantId }));
      messages.push(...adapter.replyMessages(reply));
      if (adapter.readCalls(reply).length === 0) return { messages, reply, steps: step, stopped: 'done' };
      const run = await this.runToolCalls(provider, reply, {
        assistantId,
        signal,
        unknownTools: 'error',
        ...(runHostTool ? { runHostTool } : {}),
        ...(onCall ? { onCall } : {}),
      });
      messages.push(...run.messages);
    }
    return { messages, reply, steps: maxSteps, stopped: 'max-steps' };
  }
}
