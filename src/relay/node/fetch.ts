/// <reference types="node" />
// The relay's upstream connection on Node: node:http(s) with a `lookup` that hands the socket the
// address the relay already checked, so a second DNS answer (rebinding) can never be used.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns/promises';
import { Readable } from 'node:stream';
import type { UpstreamFetch } from '../guard.js';

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

/** An UpstreamFetch on node:http(s) that connects to `init.address` when given (pinned). */
export function nodeUpstreamFetch(options: NodeUpstreamOptions = {}): UpstreamFetch {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const u = new URL(url);
      const pinned = init.address;
      const pin: LookupFunction | undefined = pinned
        ? (_host, opts, callback) => {
            const family = isIP(pinned);
            if ((opts as { all?: boolean }).all)
              (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
                { address: pinned, family },
              ]);
            else callback(null, pinned, family);
          }
        : undefined;
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      const mod = u.protocol === 'https:' ? https : http;
      const req = mod.request(u, {
        method: init.method ?? 'GET',
        headers,
        signal: init.signal ?? undefined,
        lookup: pin,
        // a pinned connection never shares a pooled socket opened for another address
        agent: pinned ? false : undefined,
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
