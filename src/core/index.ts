// Must be first: configures zod before anything parses.
import './zod-setup.js';

export {
  McpHub,
  getHub,
  backoffDelay,
  type McpHubOptions,
  type ConnectOptions,
  type ServerClient,
  type ServerRegistry,
  type AssistantRegistry,
  type CallRegistry,
  type CallToolOptions,
  type RunToolCallsOptions,
  type RunToolCallsResult,
  type RunConversationOptions,
} from './hub.js';
export {
  AssistantProfileSchema,
  AssistantPatchSchema,
  ApprovalModeSchema,
  modelDescription,
  type AssistantProfile,
  type AssistantPatch,
  type ApprovalMode,
} from './assistants.js';
export {
  McpToolError,
  validateArguments,
  outcomeOf,
  type ToolCallRecord,
  type ToolCallStatus,
  type ApprovalSource,
} from './calls.js';
export { toMcpJson, fromMcpJson, REDACTED, type McpJsonServer, type McpJsonEntryError } from './mcp-json.js';
export { nameTools, MAX_TOOL_NAME, type NameInput } from './names.js';
export {
  PROVIDERS,
  toGeminiSchema,
  outcomeText,
  OpenAIStreamAccumulator,
  AnthropicStreamAccumulator,
  type Provider,
  type ModelTool,
  type ProviderToolCall,
  type ToolOutcome,
} from './providers/index.js';
export * from './errors.js';
export {
  ServerConfigSchema,
  ServerConfigInputSchema,
  ServerConfigPatchSchema,
  AuthSchema,
  HeaderSchema,
  TransportKindSchema,
  SecretRefSchema,
  CatalogueSchema,
  urlProblem,
  looksSecret,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigPatch,
  type AuthInput,
  type SecretRef,
  type StoredAuth,
  type StoredHeader,
  type TransportKind,
} from './schemas.js';
export type * from './types.js';
export { Store, type Listener } from './store.js';
export { MemoryStorage, IdbStorage, type RecordStorage } from './storage.js';
export { CORS_HINT, normaliseCallResult, type RequestOptions } from './session.js';
export * from '../events/index.js';
