// mcp-chat-elements/server: the hub in a chat backend (Node, Workers, Lambda): no IndexedDB, no DOM.
export {
  createChatHandler,
  type ChatHandler,
  type ChatHandlerOptions,
  type ChatRequest,
  type BuiltinTool,
} from './chat-handler.js';
export { streamCompletion, ModelError, type ModelOptions } from './model.js';
export type { RequestServer, ServerOutcome } from './discovery.js';
export { guardedFetch, createGuard, type GuardOptions } from '../edge/guard.js';
export { McpHub, MemoryStorage, type RecordStorage } from '../core/index.js';
