// Opening one session: the server's headers and secrets, its token source, retries with backoff
// (inside the connect budget when there is one), a request slot of the origin for each attempt,
// and the long-lived stream the session may hold on its origin's budget.
import { relayUrlFor } from '../relay-url.js';
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { HubContext } from '../context.js';
import { McpAuthError, McpConnectionError, type McpElementsError } from '../errors.js';
import { openHeaders, type ConnectTarget } from '../servers/secrets.js';
import type { ClientAnswers, McpSession } from '../session/index.js';
import type { DiscoverySlot } from './discovery.js';
import { OriginBudget, type StreamClaim } from './origins.js';
import { backoffDelay, retryable, sleep } from './retry.js';
import { loadSession } from './session-loader.js';

/** A session's long-lived stream on its origin's budget (`claim` while one is held). */
interface StreamHold {
  claim?: StreamClaim;
  url: string;
}

/** What the opener needs from the rest of the connections. */
export interface OpenerHooks {
  /** The transport's token source for an OAuth server or machine credentials (auth wired in later). */
  authProviderFor(authId: string | undefined, target: ConnectTarget): AuthProvider | undefined;
  /** How a server's session answers the server's requests (elicitation, sampling, roots, logs). */
  answersFor?: (serverId: string) => ClientAnswers;
  /** Tools the session left out (invalid x-mcp-header). */
  dropped(id: string | undefined, tools: readonly { name: string; reason: string }[]): void;
  /** Every secret the page has handled, for redaction. */
  secrets(): Iterable<string>;
  /** A server's session found it offers no GET stream (after its catalogue may have been stored). */
  streamDeclined?(id: string): void;
}

/** One session to open. */
export interface OpenRequest {
  cfg: ConnectTarget;
  signal: AbortSignal;
  /** Attempts after the first, for retryable failures. */
  retries: number;
  /** The server's id (undefined: a config being tested). */
  id?: string;
  /** `auto`: the transport the server spoke last time, tried first (session/types.ts `known`). */
  known?: NonNullable<import('../session/index.js').OpenOptions['known']>;
  /** A still-fresh `server/discover` answer (2026-07-28): connect without the probe. */
  prior?: Readonly<Record<string, unknown>>;
  /** Whose tokens to use (default `id`). */
  authId?: string;
  /** Whether the session may hold a stream for notifications (false for a one-off session). */
  notifications?: boolean;
  /** One deadline for every attempt, and who hears of each attempt. */
  budget?: { deadline: number; onAttempt: (n: number, of: number) => void };
}

/** A 401 from an OAuth server, however it surfaced, as a sign-in error. */
export function oauthError(cfg: ConnectTarget, e: McpAuthError | McpConnectionError): McpElementsError {
  if (e instanceof McpAuthError || cfg.auth.type !== 'oauth') return e;
  return new McpAuthError('sign-in-required', 'The server refused the token: sign in again.', { cause: e });
}

export class SessionOpener {
  readonly origins: OriginBudget;
  /** Each session's long-lived stream on its origin's budget (`claim` while one is held). */
  readonly #streams = new WeakMap<McpSession, StreamHold>();

  constructor(
    private readonly ctx: HubContext,
    private readonly hooks: OpenerHooks,
  ) {
    this.origins = new OriginBudget(ctx.limits.connectionsPerOrigin);
  }

  /** One unit of discovery work on a server's origin (origins.ts). */
  slot(url: string, signal?: AbortSignal): DiscoverySlot {
    return (priority, work) => this.origins.run(url, priority, work, signal);
  }

  /** Hold a stream for a session that has none yet (only a 2026-07-28 session can open one later). */
  holdStream(session: McpSession): boolean {
    const hold = this.#streams.get(session);
    if (!hold) return false;
    if (hold.claim) return true;
    if (session.era !== 'modern') return false; // a 2025 GET stream opens only at initialize
    hold.claim = this.origins.reserveStream(hold.url);
    return !!hold.claim;
  }

  /** A 2026-07-28 session that no longer listens gives its stream back. */
  streamIdle(session: McpSession): void {
    const hold = this.#streams.get(session);
    if (session.era !== 'modern' || session.listening || !hold?.claim) return;
    hold.claim.release();
    hold.claim = undefined;
  }

  /**
   * Open a session, retrying retryable failures with backoff; each attempt holds a request slot
   * of the origin. The session gets a stream for notifications only while the origin has one
   * to spare, and gives it back when closed.
   */
  async open(req: OpenRequest): Promise<McpSession> {
    const { cfg, signal, retries, id, prior, authId = req.id, notifications = true, budget } = req;
    const spoke = req.known;
    const { headers, secrets } = await openHeaders(this.ctx.vault, cfg);
    const authProvider =
      cfg.auth.type === 'oauth' || cfg.auth.type === 'client-credentials' || cfg.auth.type === 'jwt-bearer'
        ? this.hooks.authProviderFor(authId, cfg)
        : undefined;
    // through a relay: the session (and the origin's budget) is the relay's URL for the server
    const url = cfg.relay ? relayUrlFor(cfg.relay, cfg.url) : cfg.url;
    // granted now, opened later: a 2025 GET stream takes its connection once the origin's burst
    // of discovery is through (origins.ts); a 2026-07-28 listen or an SSE channel at once
    const hold: StreamHold = {
      claim: notifications ? this.origins.reserveStream(url, 'later') : undefined,
      url,
    };
    const free = () => {
      hold.claim?.release();
      hold.claim = undefined;
    };
    const known = () => [...secrets, ...this.hooks.secrets()];
    let sdk: Awaited<ReturnType<typeof loadSession>> | undefined;
    for (let attempt = 0; ; attempt++) {
      budget?.onAttempt(attempt + 1, retries + 1);
      try {
        // the connection code is a chunk of its own; a failed import is a retryable network error
        const { openSession } = (sdk ??= await loadSession());
        const session = await this.origins.run(
          url,
          'tools',
          () =>
            openSession({
              ...(authProvider ? { authProvider } : {}),
              url,
              transport: cfg.transport,
              revision: cfg.revision,
              headers,
              // with a budget, an attempt has what is left of it
              timeoutMs: budget ? Math.max(1, budget.deadline - Date.now()) : cfg.timeout * 1000,
              signal,
              secrets: known(),
              clientInfo: this.ctx.clientInfo,
              fetch: this.ctx.fetch,
              maxResponseBytes: this.ctx.limits.maxResponseBytes,
              onToolsDropped: (tools) => this.hooks.dropped(id, tools),
              notifications: !!hold.claim,
              onStreamUnused: free,
              ...(id && this.hooks.streamDeclined ? { onStreamDeclined: () => this.hooks.streamDeclined!(id) } : {}),
              streamOpen: (sig) => hold.claim?.open(sig) ?? Promise.resolve(),
              ...(this.hooks.answersFor ? { answers: this.hooks.answersFor(id ?? '') } : {}),
              ...(prior ? { prior } : {}),
              // what the server spoke and offered last time (its stream: whatever the transport)
              ...(spoke ? { known: cfg.transport === 'auto' ? spoke : { ...spoke, transport: cfg.transport } } : {}),
            }),
          signal,
        );
        // a stream is held by a legacy SSE channel (always), a 2025 session (unless the server
        // declined its GET stream) and a 2026-07-28 session whose server announces list changes
        const c = session.capabilities ?? {};
        const listens = !!(c.tools?.listChanged || c.resources?.listChanged || c.prompts?.listChanged);
        if (session.kind === 'jsonrpc' || (session.era === 'modern' && !listens)) free();
        if (session.kind === 'sse') hold.claim ??= this.origins.reserveStream(url, 'required');
        // a listen stream (or SSE channel) was opened by the handshake: it holds its connection now
        if (session.kind === 'sse' || session.era === 'modern') hold.claim?.openNow();
        this.#streams.set(session, hold);
        const close = session.close.bind(session);
        session.close = () => {
          free();
          return close();
        };
        return session;
      } catch (e) {
        const auth = sdk?.signInError(e);
        if (auth) {
          free();
          throw oauthError(cfg, auth);
        }
        const err = sdk ? sdk.toConnectionError(e, known(), signal) : (e as McpConnectionError);
        if (attempt >= retries || !retryable(err) || signal.aborted) {
          free();
          if (cfg.auth.type === 'oauth' && err.code === 'unauthorized') throw oauthError(cfg, err);
          throw err;
        }
        await sleep(backoffDelay(attempt), signal);
      }
    }
  }
}
