// Resource subscriptions: which resources of which server the hub wants update notifications
// for (`state.resourceSubscriptions`, the source of truth), told to each new session of the
// server (connect, reconnect, re-initialise after expiry) and forgotten on disconnect or removal.
// The protocol work is the session's (`watchResources`): 2025 `resources/subscribe`, 2026-07-28
// `subscriptions/listen` with `resourceSubscriptions`.
import { McpResourceUpdatedEvent } from '../../events/index.js';
import type { HubContext } from '../context.js';
import { McpConfigError, McpConnectionError, McpNotFoundError } from '../errors.js';
import type { McpSession, RequestOptions } from '../session/index.js';

/** Resources one server may be subscribed to at once (a 2026-07-28 listen carries them all each time). */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;
/** Times one session's listen stream is opened again after the server's side ended it. */
const MAX_REOPENS = 10;
/** Longest resource URI accepted. */
const MAX_URI_LENGTH = 4096;

/** What subscriptions need from the connections (manager.ts). */
export interface SubscriptionControl {
  /** The server's live session, if any. */
  session(id: string): McpSession | undefined;
  withSession<T>(
    id: string,
    options: RequestOptions,
    run: (session: McpSession, request: RequestOptions) => Promise<T>,
  ): Promise<T>;
  /** Hold a long-lived stream for the session's notifications; false when the origin has none to spare. */
  holdStream(session: McpSession): boolean;
  /** Give the stream back if the session no longer listens on it. */
  streamIdle(session: McpSession): void;
}

/** A resource URI as given: a non-empty string with a scheme, no longer than 4096 characters. */
function checkUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length === 0)
    throw new McpConfigError([{ path: 'uri', message: 'a resource URI is required' }]);
  if (uri.length > MAX_URI_LENGTH)
    throw new McpConfigError([{ path: 'uri', message: `longer than ${MAX_URI_LENGTH} characters` }]);
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(uri))
    throw new McpConfigError([{ path: 'uri', message: 'not a URI (a scheme, then no spaces)' }]);
  return uri;
}

export class ResourceSubscriptions {
  /** Per server: the last change still running, so changes reach the server in order. */
  readonly #queue = new Map<string, Promise<unknown>>();
  /** Per session: how often its listen stream was opened again. */
  readonly #reopens = new WeakMap<McpSession, number>();

  constructor(
    private readonly ctx: HubContext,
    private readonly control: SubscriptionControl,
  ) {}

  /** Whether the server's live session can carry resource subscriptions (capability resources.subscribe). */
  supported(id: string): boolean {
    const session = this.control.session(id);
    return !!(session?.capabilities?.resources?.subscribe && session.watchResources);
  }

  /** The URIs the hub is subscribed to on a server. */
  of(id: string): readonly string[] {
    return this.ctx.store.state.resourceSubscriptions[id] ?? [];
  }

  #set(id: string, uris: readonly string[]) {
    this.ctx.store.update((s) => {
      const next = { ...s.resourceSubscriptions };
      if (uris.length) next[id] = Object.freeze([...uris]);
      else delete next[id];
      return { ...s, resourceSubscriptions: Object.freeze(next) };
    });
  }

  #serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#queue.get(id) ?? Promise.resolve()).catch(() => {}).then(work);
    this.#queue.set(id, run);
    void run
      .catch(() => {})
      .finally(() => {
        if (this.#queue.get(id) === run) this.#queue.delete(id);
      });
    return run;
  }

  #name(id: string): string {
    return this.ctx.store.state.servers[id]?.name ?? id;
  }

  /** Why a session cannot carry subscriptions, or undefined when it can. */
  #refusal(id: string, session: McpSession): McpConnectionError | undefined {
    if (!session.capabilities?.resources?.subscribe || !session.watchResources)
      return new McpConnectionError(
        'unsupported',
        `Server "${this.#name(id)}" does not offer resource subscriptions (capability resources.subscribe).`,
      );
    if (!this.control.holdStream(session))
      return new McpConnectionError(
        'no-stream',
        `No stream for the notifications of server "${this.#name(id)}": the server declined one, or its ` +
          "origin's connections are taken by other servers' streams (raise connectionsPerOrigin for HTTP/2).",
      );
    return undefined;
  }

  /** Subscribe to updates of one resource of a connected server. */
  async subscribe(id: string, uri: string, options: RequestOptions = {}): Promise<void> {
    await this.ctx.ready;
    if (!this.ctx.store.state.servers[id]) throw new McpNotFoundError('server', id);
    checkUri(uri);
    return this.#serial(id, () =>
      this.control.withSession(id, options, async (session, request) => {
        const current = this.of(id);
        if (current.includes(uri)) return;
        if (current.length >= MAX_RESOURCE_SUBSCRIPTIONS)
          throw new McpConfigError([
            { path: 'uri', message: `at most ${MAX_RESOURCE_SUBSCRIPTIONS} resource subscriptions per server` },
          ]);
        const refused = this.#refusal(id, session);
        if (refused) throw refused;
        try {
          await session.watchResources!([...current, uri], request);
        } catch (e) {
          this.control.streamIdle(session);
          throw e;
        }
        this.#set(id, [...this.of(id), uri]);
      }),
    );
  }

  /**
   * Stop updates of one resource. The hub stops reporting it at once; the server is then told
   * (a failure to tell it rejects, but the subscription is gone either way).
   */
  async unsubscribe(id: string, uri: string, options: RequestOptions = {}): Promise<void> {
    await this.ctx.ready;
    if (!this.ctx.store.state.servers[id]) throw new McpNotFoundError('server', id);
    checkUri(uri);
    const drop = () => {
      if (!this.of(id).includes(uri)) return false;
      this.#set(
        id,
        this.of(id).filter((u) => u !== uri),
      );
      return true;
    };
    let dropped = drop(); // at once: no event for it from now on
    return this.#serial(id, () => {
      // a subscribe of the same URI queued before this may have added it meanwhile
      dropped = drop() || dropped;
      if (!dropped) return Promise.resolve();
      return this.control
        .withSession(id, options, async (session, request) => {
          try {
            await session.watchResources?.(this.of(id), request);
          } finally {
            this.control.streamIdle(session);
          }
        })
        .catch((e) => {
          // no session: nothing to tell the server
          if (!(e instanceof McpConnectionError && e.code === 'not-connected')) throw e;
        });
    });
  }

  /** Wire a new session of the server: its updates become events; a dropped listen stream is re-opened. */
  adopt(id: string, session: McpSession): void {
    session.onListenEnded = () => this.#reopen(id, session);
    session.onResourceUpdated = (uri) => {
      // a sub-resource of a subscribed one counts (the spec allows servers to send those)
      if (this.of(id).some((u) => u === uri || uri.startsWith(u.endsWith('/') ? u : `${u}/`)))
        this.ctx.emit(new McpResourceUpdatedEvent({ serverId: id, uri }));
    };
  }

  /**
   * 2026-07-28: the listen stream (list changes, and the subscribed resources) dropped: neither
   * the hub nor (gracefully) the server closed it. Open it again with the same set, up to
   * MAX_REOPENS times per session (a server that keeps ending it is not hammered; the next
   * session starts afresh).
   */
  #reopen(id: string, session: McpSession): void {
    const n = (this.#reopens.get(session) ?? 0) + 1;
    this.#reopens.set(session, n);
    if (n > MAX_REOPENS) {
      if (n === MAX_REOPENS + 1)
        this.ctx.warn(`The notification stream of server "${this.#name(id)}" keeps ending; not re-opened again.`);
      return;
    }
    void this.#serial(id, async () => {
      if (this.control.session(id) !== session || !session.watchResources) return;
      await session.watchResources(this.of(id), {});
    }).catch((e) => {
      this.control.streamIdle(session);
      this.ctx.warn(`Could not re-open the notification stream of server "${this.#name(id)}": ${(e as Error).message}`);
    });
  }

  /**
   * Tell a new session of the server (reconnect, re-initialised after expiry) what the hub is
   * subscribed to. A server that no longer offers subscriptions, or that refuses them, loses
   * them with a warning; the connection itself is not failed for it.
   */
  async restore(id: string, session: McpSession): Promise<void> {
    const wanted = this.of(id);
    if (!wanted.length) return;
    const refused = this.#refusal(id, session);
    try {
      if (refused) throw refused;
      await session.watchResources!(wanted, {});
    } catch (e) {
      this.control.streamIdle(session);
      this.#set(id, []);
      this.ctx.warn(
        `Dropped the resource subscriptions of server "${this.#name(id)}" on its new session: ${(e as Error).message}`,
      );
    }
  }

  /** Forget the server's subscriptions (disconnected or removed). */
  drop(id: string): void {
    if (this.of(id).length) this.#set(id, []);
  }
}
