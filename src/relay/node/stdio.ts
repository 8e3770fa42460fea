/// <reference types="node" />
// stdio servers of an mcp.json served as Streamable HTTP on 127.0.0.1, for a page. Each server
// runs once (the SDK's StdioClientTransport) and every HTTP client shares it: request ids are
// rewritten per request so two pages never collide, the first `initialize` is forwarded and its
// result replayed to later ones (a page reload reconnects), requests the server makes of its
// client are answered "not supported" (there is no page to ask), and its notifications dropped.
// Every request needs the launch's token; CORS answers the configured origin only; the Host
// header must be the loopback address (no DNS rebinding).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { serveHandler, type ServedHandler } from './serve.js';

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

/** One running stdio server shared by every HTTP client. */
class Bridge {
  readonly #transport: StdioClientTransport;
  readonly #pending = new Map<string | number, Pending>();
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

  /** One client message; resolves with the answer (null for a notification). */
  async handle(message: JSONRPCMessage): Promise<JSONRPCMessage | null> {
    const msg = message as { id?: string | number; method?: string };
    if (this.closed)
      return msg.id === undefined ? null : errorFor(msg.id, -32000, `stdio server ${this.name} has exited`);
    if (msg.id === undefined) {
      if (msg.method === 'notifications/initialized') {
        if (this.#initialized) return null;
        this.#initialized = true;
      }
      await this.#transport.send(message);
      return null;
    }
    if (msg.method === 'initialize') {
      this.#initialize ??= this.#request(message);
      const first = await this.#initialize;
      if ('error' in first) this.#initialize = undefined;
      return { ...first, id: msg.id } as JSONRPCMessage;
    }
    const answer = await this.#request(message);
    return { ...answer, id: msg.id } as JSONRPCMessage;
  }

  #request(message: JSONRPCMessage): Promise<JSONRPCMessage> {
    const id = `relay-${++this.#next}`;
    return new Promise<JSONRPCMessage>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve(errorFor(id, -32001, `stdio server ${this.name} did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.#pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.#transport.send({ ...message, id } as JSONRPCMessage).catch(() => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(errorFor(id, -32000, `stdio server ${this.name} could not be written to`));
      });
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
  const reply = (status: number, body: unknown, o: string | null) =>
    new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { ...(body === null ? {} : { 'content-type': 'application/json' }), ...cors(o) },
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
      const answers = (await Promise.all(messages.map((x) => bridge.handle(x)))).filter((x) => x !== null);
      if (answers.length === 0) return reply(202, null, o);
      return reply(200, Array.isArray(body) ? answers : answers[0], o);
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
