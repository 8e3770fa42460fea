// Elicitation: a server asks the user for input — a form from a restricted schema, or a URL to
// open. The request becomes a record in `state.elicitations` and an `mcp-elicitation-request`
// event; the elements (or the host, after `preventDefault()`) answer with `respond()`.
import type { ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/client';
import { AnswerRefusal, INVALID_PARAMS } from './refusal.js';
import { McpElicitationRequestEvent } from '../../events/index.js';
import { validateArguments } from '../calls/validation.js';
import { randomId, type HubContext } from '../context.js';
import { McpConfigError, McpNotFoundError } from '../errors.js';
import { urlProblem } from '../schemas.js';
import { requestedSchemaProblem, withDefaults } from './elicitation-schema.js';
import { PendingRequests } from './pending.js';
import type { ElicitationRecord } from './records.js';

/** What the user (or host) answers. `content` only with `accept` of a form. */
export interface ElicitationResponse {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

const LIMIT = { message: 4000 };

export class Elicitations {
  readonly #pending: PendingRequests<'elicitations', ElicitResult>;
  constructor(private readonly ctx: HubContext) {
    this.#pending = new PendingRequests(ctx, 'elicitations');
  }

  /**
   * A server's `elicitation/create` (or an `input_required` round asking for one). `callId`: the
   * call it belongs to when the caller knows (a -32042 answer to that call); else the one call
   * running on the server, if exactly one is.
   */
  request(
    serverId: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
    callId = this.#pending.callOn(serverId),
  ): Promise<ElicitResult> {
    const url = params.mode === 'url';
    const base = {
      id: randomId('eli'),
      serverId,
      ...(callId ? { callId } : {}),
      message: String(params.message ?? '').slice(0, LIMIT.message),
      status: 'pending' as const,
      createdAt: Date.now(),
    };
    let record: ElicitationRecord;
    if (url) {
      const p = params as { url: string; elicitationId?: string };
      // only a URL the user can trust at a glance: https (or loopback http), no credentials
      const problem = urlProblem(p.url);
      if (problem) throw new AnswerRefusal(INVALID_PARAMS, `Elicitation URL refused: ${problem}`);
      record = {
        ...base,
        mode: 'url',
        url: p.url,
        domain: new URL(p.url).hostname,
        ...(p.elicitationId ? { elicitationId: p.elicitationId } : {}),
        host: false,
      };
    } else {
      const schema = (params as { requestedSchema?: unknown }).requestedSchema;
      const problem = requestedSchemaProblem(schema);
      if (problem) throw new AnswerRefusal(INVALID_PARAMS, `Elicitation form refused: ${problem}`);
      record = { ...base, mode: 'form', requestedSchema: schema as Record<string, unknown>, host: false };
    }
    // pending before the event: a listener may answer inside its dispatch
    const waiting = this.#pending.wait(record, signal, () => {
      const current = this.#pending.get(record.id);
      if (current) this.#pending.settle({ ...current, status: 'cancelled' }, { answer: { action: 'cancel' } });
    });
    if (!this.ctx.emit(new McpElicitationRequestEvent({ elicitation: record }))) this.#pending.markHost(record.id);
    return waiting;
  }

  /**
   * Answer a pending elicitation. A form's `accept` content is checked against the requested
   * schema (defaults applied first); invalid content is a McpConfigError and the request stays
   * pending. Values are handed to the server and not kept.
   */
  respond(id: string, response: ElicitationResponse): void {
    const record = this.#pending.get(id);
    if (!record || !this.#pending.isWaiting(id)) throw new McpNotFoundError('pending elicitation', id);
    const action = response?.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
      throw new McpConfigError([{ path: 'action', message: 'must be accept, decline or cancel' }]);
    if (action !== 'accept' || record.mode === 'url') {
      const status = action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'cancelled';
      this.#pending.settle({ ...record, status }, { answer: { action } });
      return;
    }
    const schema = record.requestedSchema!;
    const content = withDefaults(schema, (response.content ?? {}) as Record<string, unknown>);
    const problem = validateArguments({ inputSchema: schema } as unknown as Tool, content);
    if (problem) throw new McpConfigError([{ path: 'content', message: problem }]);
    this.#pending.settle(
      { ...record, status: 'accepted' },
      { answer: { action: 'accept', content: content as ElicitResult['content'] } },
    );
  }

  /**
   * 2025-11-25 URL-elicitation-required (-32042): a tool call was refused until the user has
   * been to one or more URLs. Each becomes a URL record linked to the call (the card shows it);
   * resolves with the answers once every one was answered (accepting = the user opened it).
   * Malformed entries or refused URLs reject with the reason (typed, nothing is shown).
   */
  urlRequired(serverId: string, callId: string, elicitations: unknown, signal: AbortSignal): Promise<ElicitResult[]> {
    const list = Array.isArray(elicitations) ? elicitations.slice(0, 5) : [];
    const urls = list.filter(
      (e): e is ElicitRequest['params'] =>
        !!e &&
        typeof e === 'object' &&
        (e as { mode?: unknown }).mode === 'url' &&
        typeof (e as { url?: unknown }).url === 'string',
    );
    if (!urls.length)
      return Promise.reject(
        new AnswerRefusal(INVALID_PARAMS, 'The server asked for a URL to be opened but sent none.'),
      );
    return Promise.all(urls.map((params) => this.request(serverId, params, signal, callId)));
  }

  /** 2025-11-25: the server says the URL elicitation with this id finished. */
  completed(serverId: string, elicitationId: string): void {
    const match = Object.values(this.ctx.store.state.elicitations).find(
      (e) => e.serverId === serverId && e.elicitationId === elicitationId,
    );
    if (match) this.#pending.put({ ...match, status: 'completed' });
  }
}
