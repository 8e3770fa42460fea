/// <reference types="node" />
// mcp-chat-elements/relay/node: the relay on Node (DNS checked and pinned), a server for it, and the
// stdio servers of an mcp.json served as Streamable HTTP. Node-only: never imported by the page bundle.
import { createRelay, type RelayHandler, type RelayOptions } from '../relay.js';
import { nodeUpstreamFetch, systemResolve, type NodeUpstreamOptions } from './fetch.js';

export { nodeUpstreamFetch, systemResolve, type NodeUpstreamOptions } from './fetch.js';
export { serveHandler, type ServedHandler } from '../../edge/node.js';
export { startStdioRelay, type StdioRelay, type StdioRelayOptions } from './stdio.js';

/** createRelay() with Node's DNS resolution checked and the connection pinned to the checked address. */
export function createNodeRelay(options: RelayOptions & NodeUpstreamOptions = {}): RelayHandler {
  // an explicit `undefined` in options must not take the pinning fetch away (open mode refuses that)
  return createRelay({
    ...options,
    resolve: options.resolve ?? systemResolve,
    fetch: options.fetch ?? nodeUpstreamFetch(options),
  });
}
