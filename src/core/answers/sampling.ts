// Sampling: a server asks for a completion from the host's model. The hub declares the capability
// only while the host has registered a handler. Every request waits for the user's approval (the
// prompt, the server, max tokens), then the handler runs, then the answer waits for review before
// it goes back — the spec's human in the loop, twice. Size and rate are capped per server.
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';
import { AnswerRefusal, INVALID_PARAMS, INVALID_REQUEST } from './refusal.js';
import { McpSamplingRequestEvent } from '../../events/index.js';
import { randomId, type HubContext } from '../context.js';
import { McpConfigError, McpNotFoundError } from '../errors.js';
import { PendingRequests } from './pending.js';
import type { SamplingRecord } from './records.js';

/** What the host's handler receives: provider-neutral, text first. */
export interface SamplingRequest {
  readonly serverId: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: CreateMessageRequest['params']['modelPreferences'];
  /** The server's original messages (images, audio, tool use) for handlers that take them. */
  readonly raw: CreateMessageRequest['params']['messages'];
  readonly signal: AbortSignal;
}
/** What the handler returns: the model's text and which model wrote it. */
export interface SamplingAnswer {
  text: string;
  model: string;
  stopReason?: string;
}
export type SamplingHandler = (request: SamplingRequest) => Promise<SamplingAnswer>;

export interface SamplingOptions {
  /** Let the user review the model's answer before it is sent (default true). */
  review?: boolean;
}

/** The user's decisions: first `approve`, then (with review) `send` with the answer, maybe edited. */
export type SamplingResponse = { approve: boolean } | { send: boolean; text?: string };

export const SAMPLING_LIMITS = {
  /** Largest `maxTokens` passed to the handler (a bigger request is capped, not refused). */
  maxTokens: 4096,
  /** Largest request (messages + system prompt) as JSON. */
  maxRequestChars: 100_000,
  /** Requests per server per minute. */
  perMinute: 10,
};

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const c = b as { type?: string; text?: unknown };
      return c?.type === 'text' ? String(c.text ?? '') : `[${String(c?.type ?? 'content')}]`;
    })
    .join('\n');
}

export class Sampling {
  #handler?: SamplingHandler;
  #review = true;
  readonly #pending: PendingRequests<'samplings', SamplingRecord>;
  readonly #recent = new Map<string, number[]>();
  /** Set by the answers part: what to do with a record when a decision arrives. */
  readonly #next = new Map<string, (r: SamplingResponse) => void>();

  constructor(private readonly ctx: HubContext) {
    this.#pending = new PendingRequests(ctx, 'samplings');
  }

  get enabled(): boolean {
    return !!this.#handler;
  }

  setHandler(handler: SamplingHandler | null, options: SamplingOptions = {}): void {
    if (handler !== null && typeof handler !== 'function')
      throw new McpConfigError([{ path: 'handler', message: 'must be a function or null' }]);
    this.#handler = handler ?? undefined;
    this.#review = options.review ?? true;
  }

  #rateLimited(serverId: string): boolean {
    const now = Date.now();
    const times = (this.#recent.get(serverId) ?? []).filter((t) => now - t < 60_000);
    if (times.length >= SAMPLING_LIMITS.perMinute) return true;
    times.push(now);
    this.#recent.set(serverId, times);
    return false;
  }

  /** A server's `sampling/createMessage` (or an `input_required` round asking for one). */
  async request(
    serverId: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
    allowed: boolean,
  ): Promise<CreateMessageResult> {
    const handler = this.#handler;
    if (!handler || !allowed) throw new AnswerRefusal(INVALID_REQUEST, 'Sampling is not allowed for this server.');
    if (JSON.stringify([params.messages, params.systemPrompt ?? '']).length > SAMPLING_LIMITS.maxRequestChars)
      throw new AnswerRefusal(INVALID_PARAMS, 'The sampling request is too large.');
    if (this.#rateLimited(serverId))
      throw new AnswerRefusal(INVALID_REQUEST, 'Too many sampling requests; try again later.');
    const callId = this.#pending.callOn(serverId);
    const record: SamplingRecord = {
      id: randomId('smp'),
      serverId,
      ...(callId ? { callId } : {}),
      messages: params.messages.map((m) => ({ role: m.role, text: textOf(m.content) })),
      ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
      maxTokens: Math.min(Math.max(1, Math.floor(params.maxTokens || 1)), SAMPLING_LIMITS.maxTokens),
      status: 'awaiting-approval',
      host: false,
      createdAt: Date.now(),
    };
    const id = record.id;
    const cancel = () => {
      const current = this.#pending.get(id);
      if (current && this.#pending.isWaiting(id))
        this.#pending.settle(
          { ...current, status: 'cancelled' },
          { error: new AnswerRefusal(INVALID_REQUEST, 'The sampling request was cancelled.') },
        );
    };
    // pending before the event: a listener may decide inside its dispatch
    const done = this.#pending.wait(record, signal, cancel);
    this.#next.set(id, (decision) => void this.#decide(id, decision, params, handler, signal));
    if (!this.ctx.emit(new McpSamplingRequestEvent({ sampling: record }))) this.#pending.markHost(id);
    try {
      const final = await done;
      return {
        role: 'assistant',
        content: { type: 'text', text: final.answer!.text },
        model: final.answer!.model,
      } as CreateMessageResult;
    } finally {
      this.#next.delete(id);
    }
  }

  async #decide(
    id: string,
    decision: SamplingResponse,
    params: CreateMessageRequest['params'],
    handler: SamplingHandler,
    signal: AbortSignal,
  ): Promise<void> {
    const record = this.#pending.get(id)!;
    const refuse = (status: 'denied' | 'failed', message: string) =>
      this.#pending.settle(
        { ...(this.#pending.get(id) ?? record), status, ...(status === 'failed' ? { error: message } : {}) },
        { error: new AnswerRefusal(INVALID_REQUEST, message) },
      );
    if ('approve' in decision) {
      if (!decision.approve) return void refuse('denied', 'The user declined the sampling request.');
      this.#pending.put({ ...record, status: 'generating' });
      let answer: SamplingAnswer;
      try {
        answer = await handler({
          serverId: record.serverId,
          messages: record.messages,
          ...(record.systemPrompt ? { systemPrompt: record.systemPrompt } : {}),
          maxTokens: record.maxTokens,
          ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
          ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
          ...(params.modelPreferences ? { modelPreferences: params.modelPreferences } : {}),
          raw: params.messages,
          signal,
        });
      } catch (e) {
        return void refuse('failed', `The model failed: ${(e as Error)?.message ?? String(e)}`.slice(0, 500));
      }
      if (!answer || typeof answer.text !== 'string') return void refuse('failed', 'The model returned no text.');
      const reviewed = {
        ...(this.#pending.get(id) ?? record),
        status: 'awaiting-review' as const,
        answer: { model: String(answer.model ?? 'unknown'), text: answer.text },
      };
      if (!this.#review) return void this.#pending.settle({ ...reviewed, status: 'sent' }, { answer: reviewed });
      this.#pending.put(reviewed);
      return;
    }
    if (record.status !== 'awaiting-review') return;
    if (!decision.send) return void refuse('denied', 'The user did not send the answer.');
    const text = decision.text ?? record.answer!.text;
    const sent = { ...record, status: 'sent' as const, answer: { ...record.answer!, text } };
    this.#pending.settle(sent, { answer: sent });
  }

  /**
   * The user's decision on a sampling request: `{ approve }` while it awaits approval, then
   * `{ send, text? }` while its answer awaits review (`text` replaces the answer).
   */
  respond(id: string, decision: SamplingResponse): void {
    const record = this.#pending.get(id);
    const next = this.#next.get(id);
    if (!record || !next || !this.#pending.isWaiting(id)) throw new McpNotFoundError('pending sampling request', id);
    const expects =
      record.status === 'awaiting-approval' ? 'approve' : record.status === 'awaiting-review' ? 'send' : '';
    if (!expects || !decision || typeof decision !== 'object' || !(expects in decision))
      throw new McpConfigError([
        {
          path: expects || 'status',
          message: expects ? `expected { ${expects}: boolean }` : `the request is ${record.status}`,
        },
      ]);
    if ('text' in decision && decision.text !== undefined && typeof decision.text !== 'string')
      throw new McpConfigError([{ path: 'text', message: 'must be a string' }]);
    next(decision);
  }
}
