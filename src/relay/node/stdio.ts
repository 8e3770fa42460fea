/// <reference types="node" />
// stdio servers of an mcp.json served as Streamable HTTP on 127.0.0.1, for a page. Each server
// runs once (the SDK's StdioClientTransport) and every HTTP client shares it: request ids are
// rewritten per request so two pages never collide (a client's `notifications/cancelled` is
// rewritten to the id the server saw, within the client's session), the first `initialize` is
// forwarded and its result replayed to later ones (a page reload reconnects), requests the server
// makes of its client are answered "not supported" (there is no page to ask), and its
// notifications dropped.
// Every request needs the launch's token; CORS answers the configured origin only; the Host
// header must be the loopback address (no DNS rebinding).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { serveHandler, type ServedHandler } from '../../edge/node.js';

/** One stdio entry of an mcp.json. */
export interface StdioServerEntry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** Options of `startStdioRelay()`. */
export interface StdioRelayOptions {
  /** The mcp.json (`mcpServers` or `servers`): its entries with a `command` are started. */
  config: { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
  /** The page origin allowed to call (CORS); none: only non-browser clients. */
  origin?: string;
  /** Port on 127.0.0.1. Default: any free port. */
  port?: number;
  /** The token; default 32 random bytes for this launch. */
  token?: string;
  /** Time a request to a stdio server may take, ms. Default 60 s. */
  timeoutMs?: number;
  /** Where the servers' stderr goes. Default: ignored. */
  stderr?: 'inherit' | 'ignore';
}

export interface StdioRelay {
  url: string;
  token: string;
  /** Each started server and its Streamable HTTP URL. */
  servers: { name: string; url: string }[];
  /** The mcp.json to import in the page's manager (URLs and the token as a bearer header). */
  pasteConfig(): string;
  close(): Promise<void>;
}

type Pending = (message: JSONRPCMessage) => void;

/** A client's request in flight, by its session and its own id. */
const inflightKey = (session: string, id: string | number) => `${session}\u0000${typeof id}:${id}`;

/** One running stdio server shared by every HTTP client. */
class Bridge {
  readonly #transport: StdioClientTransport;
  readonly #pending = new Map<string | number, Pending>();
  /** The ids the server saw for the requests in flight, by client session and client id. */
  readonly #inflight = new Map<string, string[]>();
  #next = 0;
  #initialize?: Promise<JSONRPCMessage>;
  #initialized = false;
  closed = false;

  constructor(
    readonly name: string,
    entry: StdioServerEntry,
    stderr: 'inherit' | 'ignore',
    readonly timeoutMs: number,
  ) {
    this.#transport = new StdioClientTransport({ ...entry, stderr });
    this.#transport.onmessage = (m) => this.#fromServer(m);
    this.#transport.onclose = () => {
      this.closed = true;
      for (const p of this.#pending.values()) p(errorFor(null, -32000, `stdio server ${name} exited`));
      this.#pending.clear();
    };
  }

  start(): Promise<void> {
    return this.#transport.start();
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  #fromServer(m: JSONRPCMessage): void {
    const msg = m as { id?: string | number; method?: string };
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      p?.(m);
    } else if (msg.id !== undefined && msg.method) {
      // a request of the server's (roots, sampling, elicitation): no page here to answer it
      const answer: JSONRPCMessage =
        msg.method === 'ping'
          ? ({ jsonrpc: '2.0', id: msg.id, result: {} } as JSONRPCMessage)
          : errorFor(msg.id, -32601, `${msg.method} is not supported through the stdio relay`);
      void this.#transport.send(answer).catch(() => {});
    }
  }

  /**
   * One client message of `session` (its Mcp-Session-Id, '' without one); resolves with the
   * answer (null for a notification).
   */
  async handle(message: JSONRPCMessage, session = ''): Promise<JSONRPCMessage | null> {
    const msg = message as { id?: string | number; method?: string; params?: { requestId?: unknown } };
    if (this.closed)
      return msg.id === undefined ? null : errorFor(msg.id, -32000, `stdio server ${this.name} has exited`);
    if (msg.id === undefined) {
      if (msg.method === 'notifications/initialized') {
        if (this.#initialized) return null;
        this.#initialized = true;
      }
      if (msg.method === 'notifications/cancelled') return this.#cancel(message, session);
      await this.#transport.send(message);
      return null;
    }
    if (msg.method === 'initialize') {
      this.#initialize ??= this.#request(message);
      const first = await this.#initialize;
      if ('error' in first) this.#initialize = undefined;
      return { ...first, id: msg.id } as JSONRPCMessage;
    }
    const key = inflightKey(session, msg.id);
    const answer = await this.#request(message, (id) => {
      const ids = this.#inflight.get(key);
      if (ids) ids.push(id);
      else this.#inflight.set(key, [id]);
      return () => {
        const left = this.#inflight.get(key)?.filter((x) => x !== id) ?? [];
        if (left.length) this.#inflight.set(key, left);
        else this.#inflight.delete(key);
      };
    });
    return { ...answer, id: msg.id } as JSONRPCMessage;
  }

  /**
   * A client cancels its request by the id it sent; the server knows it by ours. Forwarded with
   * ours when exactly one request of that session has that id in flight; otherwise dropped: a
   * client never cancels another's request (by naming our id or an id two clients share).
   */
  async #cancel(message: JSONRPCMessage, session: string): Promise<null> {
    const params = (message as { params?: { requestId?: unknown } }).params;
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return null;
    const ids = this.#inflight.get(inflightKey(session, requestId));
    if (ids?.length !== 1) return null;
    const id = ids[0];
    await this.#transport.send({ ...message, params: { ...params, requestId: id } } as JSONRPCMessage);
    // the server answers a cancelled request with nothing: free the client's HTTP request now
    this.#pending.get(id)?.(errorFor(id, -32800, 'request cancelled by the client'));
    return null;
  }

  #request(message: JSONRPCMessage, track?: (id: string) => () => void): Promise<JSONRPCMessage> {
    const id = `relay-${++this.#next}`;
    const untrack = track?.(id);
    return new Promise<JSONRPCMessage>((resolve) => {
      const settle = (m: JSONRPCMessage) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        untrack?.();
        resolve(m);
      };
      const timer = setTimeout(
        () => settle(errorFor(id, -32001, `stdio server ${this.name} did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      this.#pending.set(id, settle);
      this.#transport
        .send({ ...message, id } as JSONRPCMessage)
        .catch(() => settle(errorFor(id, -32000, `stdio server ${this.name} could not be written to`)));
    });
  }
}

function errorFor(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

function stdioEntries(config: StdioRelayOptions['config']): [string, StdioServerEntry][] {
  const servers = config.mcpServers ?? config.servers;
  if (!servers || typeof servers !== 'object') throw new TypeError('mcp.json has no "mcpServers" object');
  const out: [string, StdioServerEntry][] = [];
  for (const [name, raw] of Object.entries(servers)) {
    const e = raw as Partial<StdioServerEntry>;
    if (typeof e?.command !== 'string') continue;
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
      throw new TypeError(`server name "${name}" must be 1-64 of A-Z a-z 0-9 _ . -`);
    if (e.args !== undefined && !(Array.isArray(e.args) && e.args.every((a) => typeof a === 'string')))
      throw new TypeError(`server ${name}: "args" must be a list of strings`);
    out.push([name, { command: e.command, args: e.args, env: e.env, cwd: e.cwd }]);
  }
  return out;
}

function sameToken(given: string | null, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(`Bearer ${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Start the stdio servers of an mcp.json and serve each as Streamable HTTP. See docs/API.md. */
export async function startStdioRelay(options: StdioRelayOptions): Promise<StdioRelay> {
  const entries = stdioEntries(options.config);
  if (entries.length === 0) throw new TypeError('mcp.json names no stdio server (an entry with "command")');
  const origin = options.origin ? new URL(options.origin).origin : null;
  const token = options.token ?? randomBytes(32).toString('base64url');
  const bridges = new Map(
    entries.map(([name, entry]) => [
      name,
      new Bridge(name, entry, options.stderr ?? 'ignore', options.timeoutMs ?? 60_000),
    ]),
  );
  await Promise.all([...bridges.values()].map((b) => b.start()));
  let host = '';
  const cors = (o: string | null): Record<string, string> =>
    o && o === origin
      ? {
          'access-control-allow-origin': o,
          'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
          vary: 'Origin',
        }
      : { vary: 'Origin' };
  const reply = (status: number, body: unknown, o: string | null, extra?: Record<string, string>) =>
    new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { ...(body === null ? {} : { 'content-type': 'application/json' }), ...cors(o), ...extra },
    });

  const served: ServedHandler = await serveHandler(
    async (request) => {
      const o = request.headers.get('origin');
      if (request.headers.get('host') !== host) return reply(403, { error: 'wrong Host header' }, null);
      if (o !== null && o !== origin) return reply(403, { error: 'origin not allowed by this relay' }, null);
      if (request.method === 'OPTIONS')
        return new Response(null, {
          status: 204,
          headers: {
            ...cors(o),
            'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
            'access-control-allow-headers':
              request.headers.get('access-control-request-headers') ?? 'content-type, authorization',
            'access-control-max-age': '600',
          },
        });
      if (!sameToken(request.headers.get('authorization'), token))
        return reply(401, { error: 'the relay token is missing or wrong (see what the relay printed at start)' }, o);
      const m = /^\/stdio\/([^/]+)\/mcp$/.exec(new URL(request.url).pathname);
      const bridge = m ? bridges.get(m[1]) : undefined;
      if (!bridge) return reply(404, { error: 'no such stdio server' }, o);
      if (request.method !== 'POST') return reply(405, { error: 'this server has no event stream; POST only' }, o);
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return reply(400, errorFor(null, -32700, 'request body is not valid JSON'), o);
      }
      const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
      if (
        messages.length === 0 ||
        messages.some((x) => typeof x !== 'object' || x === null || (x as { jsonrpc?: string }).jsonrpc !== '2.0')
      )
        return reply(400, errorFor(null, -32600, 'not a JSON-RPC 2.0 message'), o);
      // a session per initialize: a cancellation names its request by the client's own id, which
      // another client may use too (every SDK client counts from 0)
      const opens = messages.some((x) => (x as { method?: string }).method === 'initialize');
      const session = opens ? randomBytes(16).toString('base64url') : (request.headers.get('mcp-session-id') ?? '');
      const answers = (await Promise.all(messages.map((x) => bridge.handle(x, session)))).filter((x) => x !== null);
      const headers = opens && answers.some((a) => 'result' in a) ? { 'mcp-session-id': session } : undefined;
      if (answers.length === 0) return reply(202, null, o);
      return reply(200, Array.isArray(body) ? answers : answers[0], o, headers);
    },
    { port: options.port },
  );
  host = new URL(served.url).host;
  const servers = entries.map(([name]) => ({ name, url: `${served.url}/stdio/${name}/mcp` }));
  return {
    url: served.url,
    token,
    servers,
    pasteConfig: () =>
      JSON.stringify(
        {
          mcpServers: Object.fromEntries(
            servers.map((s) => [s.name, { url: s.url, type: 'http', headers: { Authorization: `Bearer ${token}` } }]),
          ),
        },
        null,
        2,
      ),
    close: async () => {
      await served.close();
      await Promise.all([...bridges.values()].map((b) => b.close().catch(() => {})));
    },
  };
}
