// mcp-chat-elements/server: the hub in a chat backend (Node, Workers, Lambda): no IndexedDB, no DOM.
// Must be first: configures zod before anything parses (the page's core/index does it there).
import '../core/zod-setup.js';
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
// the runtime-neutral kernel; `McpHub` here is that kernel (a page's McpHub adds the page shell)
export { HubKernel, HubKernel as McpHub, type HubKernelOptions } from '../core/kernel.js';
export { MemoryStorage, type RecordStorage } from '../core/persistence/storage.js';
