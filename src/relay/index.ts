// mcp-chat-elements/relay: the runtime-neutral relay (Workers, Lambda, Node). The Node-only parts
// (address-pinning fetch, stdio servers, CLI) are in mcp-chat-elements/relay/node. The SSRF guard,
// the refusal and the rules it exports are the edge kit's (src/edge), shared with the backend hub.
export {
  createRelay,
  type RelayOptions,
  type RelayHandler,
  type RelayLogEntry,
  type RelayRequestInfo,
  type UpstreamFetch,
} from './relay.js';
export { relayUrlFor } from './targets.js';
export { RelayRefusal } from '../edge/refusal.js';
export type { TargetPolicy } from '../edge/targets.js';
export { createGuard, guardedFetch, type Guard, type GuardOptions, type GuardedFetchOptions } from '../edge/guard.js';
export { addressProblem, hostNameProblem } from '../edge/addresses.js';
export type { RateLimit } from '../edge/rate-limit.js';
