/// <reference types="node" />
// An edge handler (the relay, the backend chat handler) served on Node through @hono/node-server (Node's http to Request/Response).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { EdgeHandler } from './handler.js';

/** A running HTTP server. */
export interface ServedHandler {
  url: string;
  close(): Promise<void>;
}

/** An address that stands for every interface: no client names the server by it. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Serve a Fetch handler on Node (through @hono/node-server), on 127.0.0.1 unless told otherwise;
 * the handler is given the client's address (the relay's rate limit counts by it) and the host it
 * is bound to (`host:port`, the relay's Host check; not given when bound to every interface).
 */
export function serveHandler(
  handler: EdgeHandler,
  options: { port?: number; hostname?: string } = {},
): Promise<ServedHandler> {
  const hostname = options.hostname ?? '127.0.0.1';
  const literal = hostname.includes(':') ? `[${hostname}]` : hostname;
  let host: string | undefined;
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: (request, env) => handler(request, { clientAddress: env.incoming.socket.remoteAddress, host }),
        port: options.port ?? 0,
        hostname,
      },
      (info: AddressInfo) => {
        if (!WILDCARD.has(hostname)) host = `${literal}:${info.port}`;
        resolve({
          url: `http://${literal}:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        });
      },
    );
  });
}
