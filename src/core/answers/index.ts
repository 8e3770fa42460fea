// The client answers back: what the hub says when a server asks — elicitation (forms, URLs),
// sampling (the host's model), roots — and the server's log messages. One `ClientAnswers` per
// server is handed to the session layer, which wires it to the SDK client.
import type { ListRootsResult, LoggingLevel, LoggingMessageNotification, Root } from '@modelcontextprotocol/client';
import { McpServerLogEvent } from '../../events/index.js';
import type { HubContext } from '../context.js';
import { McpConfigError } from '../errors.js';
import type { ClientAnswers, McpSession } from '../session/index.js';
import { withEntry } from '../store.js';
import { Elicitations, type ElicitationResponse } from './elicitation.js';
import type { ServerLogEntry } from './records.js';
import { Sampling, type SamplingHandler, type SamplingOptions, type SamplingResponse } from './sampling.js';

export type { ElicitationResponse } from './elicitation.js';
export type {
  SamplingAnswer,
  SamplingHandler,
  SamplingOptions,
  SamplingRequest,
  SamplingResponse,
} from './sampling.js';
export { SAMPLING_LIMITS } from './sampling.js';
/** The answer types in one namespace, for the façade. */
export type * as AnswerTypes from './types-ns.js';
export type { ElicitationRecord, SamplingRecord, ServerLogEntry } from './records.js';
export { requestedSchemaProblem, sensitiveFields } from './elicitation-schema.js';

/** What the answers part needs from the connections: the live sessions. */
export interface SessionControl {
  sessions(): McpSession[];
  /** Reconnect connected servers (the client's declared capabilities changed). */
  reconnectConnected(): void;
}

/** Log messages kept per server; each at most this many characters. */
export const LOG_LIMITS = { perServer: 200, chars: 2000 };
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export class Answers {
  readonly elicitations: Elicitations;
  readonly sampling: Sampling;
  #roots: Root[] = [];

  constructor(
    private readonly ctx: HubContext,
    private readonly control: SessionControl,
  ) {
    this.elicitations = new Elicitations(ctx);
    this.sampling = new Sampling(ctx);
  }

  /** The answers one server's session uses; capabilities follow what the host has enabled. */
  forServer(serverId: string): ClientAnswers {
    return {
      capabilities: {
        elicitation: { form: { applyDefaults: true }, url: {} },
        roots: { listChanged: true },
        ...(this.sampling.enabled ? { sampling: {} } : {}),
      },
      elicit: (params, signal) => this.elicitations.request(serverId, params, signal),
      sample: (params, signal) =>
        this.sampling.request(serverId, params, signal, this.ctx.store.state.servers[serverId]?.allowSampling ?? false),
      roots: async (): Promise<ListRootsResult> => ({ roots: this.#roots.map((r) => ({ ...r })) }),
      onLog: (params) => this.log(serverId, params),
      onElicitationComplete: (elicitationId) => this.elicitations.completed(serverId, elicitationId),
    };
  }

  setSamplingHandler(handler: SamplingHandler | null, options?: SamplingOptions): void {
    const before = this.sampling.enabled;
    this.sampling.setHandler(handler, options);
    // capabilities are declared when a session opens: reconnect so servers see the change
    if (before !== this.sampling.enabled) this.control.reconnectConnected();
  }

  respondToElicitation(id: string, response: ElicitationResponse): void {
    this.elicitations.respond(id, response);
  }

  respondToSampling(id: string, decision: SamplingResponse): void {
    this.sampling.respond(id, decision);
  }

  /** The roots servers may work in (`file://` URIs); empty by default in a browser. */
  setRoots(list: readonly { uri: string; name?: string }[]): void {
    if (!Array.isArray(list) || list.length > 100)
      throw new McpConfigError([{ path: 'roots', message: 'must be an array of at most 100 roots' }]);
    const issues = list.flatMap((r, i) =>
      !r || typeof r.uri !== 'string' || !r.uri.startsWith('file://')
        ? [{ path: `roots.${i}.uri`, message: 'must be a file:// URI' }]
        : r.name !== undefined && (typeof r.name !== 'string' || r.name.length > 200)
          ? [{ path: `roots.${i}.name`, message: 'must be a string of at most 200 characters' }]
          : [],
    );
    if (issues.length) throw new McpConfigError(issues);
    this.#roots = list.map((r) => ({ uri: r.uri, ...(r.name !== undefined ? { name: r.name } : {}) }));
    for (const s of this.control.sessions()) void s.rootsChanged?.().catch(() => {});
  }

  get roots(): readonly Root[] {
    return this.#roots;
  }

  static checkLevel(level: unknown): LoggingLevel {
    if (!LEVELS.includes(level as LoggingLevel))
      throw new McpConfigError([{ path: 'level', message: `must be one of ${LEVELS.join(', ')}` }]);
    return level as LoggingLevel;
  }

  /** A log message into a server's log ring: the server's own, or its view's (hub.appLog). */
  log(serverId: string, params: LoggingMessageNotification['params']): void {
    if (!this.ctx.store.state.servers[serverId]) return;
    const data = params.data;
    const text = (typeof data === 'string' ? data : (JSON.stringify(data) ?? '')).slice(0, LOG_LIMITS.chars);
    this.#push(serverId, {
      level: LEVELS.includes(params.level) ? params.level : 'info',
      ...(typeof params.logger === 'string' ? { logger: params.logger.slice(0, 200) } : {}),
      text,
      at: Date.now(),
    });
  }

  /** A protocol-level failure with a server, kept in its log ring as kind `protocol` (protocol-log.ts). */
  protocolError(serverId: string, e: { level: 'error' | 'warning'; logger: string; text: string }): void {
    this.#push(serverId, { kind: 'protocol', ...e, text: e.text.slice(0, LOG_LIMITS.chars), at: Date.now() });
  }

  #push(serverId: string, fields: ServerLogEntry): void {
    if (!this.ctx.store.state.servers[serverId]) return;
    const entry: ServerLogEntry = Object.freeze(fields);
    this.ctx.store.update((s) => {
      const ring = [...(s.logs[serverId] ?? []), entry].slice(-LOG_LIMITS.perServer);
      return { ...s, logs: withEntry(s.logs, serverId, Object.freeze(ring)) };
    });
    this.ctx.emit(new McpServerLogEvent({ serverId, entry }));
  }

  /** Forget a server's log (it was removed, or the user cleared it). */
  clearLog(serverId: string): void {
    this.ctx.store.update((s) => ({ ...s, logs: withEntry(s.logs, serverId, undefined) }));
  }
}
