/// <reference types="node" />
// The relay's upstream connection on Node: node:http(s) with a `lookup` that hands the socket the
// address the relay already checked, so a second DNS answer (rebinding) can never be used.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns/promises';
import { Readable } from 'node:stream';
import type { UpstreamFetch } from '../../edge/guard.js';

/** Every address of a name (IPv4 and IPv6), as the system resolver gives them. */
export async function systemResolve(hostname: string): Promise<string[]> {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => a.address);
}

/** Options of `nodeUpstreamFetch()`. */
export interface NodeUpstreamOptions {
  /** Extra CA certificates (PEM) trusted for https upstreams, e.g. a test's own. */
  ca?: string | readonly string[];
}

/** A `lookup` that answers every name with the one address already checked (pinned). */
function pinTo(address: string): LookupFunction {
  const family = isIP(address);
  return (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Keep-alive agents kept for pinned upstreams at most (the least recently used is dropped). */
const PINNED_AGENTS = 256;
/** How long an idle pooled connection to a pinned upstream is kept, ms. */
const PINNED_IDLE_MS = 15_000;

/** An UpstreamFetch on node:http(s) that connects to `init.address` when given (pinned). */
export function nodeUpstreamFetch(options: NodeUpstreamOptions = {}): UpstreamFetch {
  // Pinned connections are pooled per (scheme, host, port, checked address): every socket of an
  // agent was opened to that agent's address, so a kept-alive socket never reaches an address
  // that was not checked for the request using it. Without pooling each request opened a new
  // connection (and TLS handshake) to the upstream.
  const agents = new Map<string, http.Agent>();
  const agentFor = (u: URL, address: string): http.Agent => {
    const key = `${u.protocol}//${u.host}@${address}`;
    let agent = agents.get(key);
    if (agent) agents.delete(key);
    else {
      const common = { keepAlive: true, timeout: PINNED_IDLE_MS, lookup: pinTo(address) };
      agent =
        u.protocol === 'https:'
          ? new https.Agent({ ...common, ...(options.ca ? { ca: options.ca as string[] } : {}) })
          : new http.Agent(common);
    }
    agents.set(key, agent);
    // dropped, not destroyed: requests under way finish, idle sockets close after PINNED_IDLE_MS
    if (agents.size > PINNED_AGENTS) agents.delete(agents.keys().next().value as string);
    return agent;
  };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const u = new URL(url);
      const pinned = init.address;
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      const mod = u.protocol === 'https:' ? https : http;
      const req = mod.request(u, {
        method: init.method ?? 'GET',
        headers,
        signal: init.signal ?? undefined,
        ...(pinned ? { lookup: pinTo(pinned), agent: agentFor(u, pinned) } : {}),
        ...(u.protocol === 'https:' && options.ca ? { ca: options.ca as string[] } : {}),
      });
      req.once('response', (res) => {
        const h = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) res.resume();
        const body = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: res.statusMessage, headers: h }));
      });
      req.once('error', reject);
      const body = init.body;
      if (body instanceof Uint8Array) req.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
      else if (body instanceof ArrayBuffer) req.end(Buffer.from(body));
      else if (typeof body === 'string') req.end(body);
      else req.end();
    });
}
