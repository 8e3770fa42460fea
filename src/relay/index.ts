// mcp-chat-elements/relay: the runtime-neutral relay (Workers, Lambda, Node). The Node-only parts
// (address-pinning fetch, stdio servers, CLI) are in mcp-chat-elements/relay/node.
export {
  createRelay,
  type RelayOptions,
  type RelayHandler,
  type RelayLogEntry,
  type RelayRequestInfo,
  type UpstreamFetch,
} from './relay.js';
export { relayUrlFor, RelayRefusal, type TargetPolicy } from './targets.js';
export { createGuard, guardedFetch, type Guard, type GuardOptions } from './guard.js';
export { addressProblem, hostNameProblem } from './addresses.js';
export type { RateLimit } from './rate-limit.js';
