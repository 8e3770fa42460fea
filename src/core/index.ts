// Must be first: configures zod before anything parses.
import './zod-setup.js';

export { McpHub, getHub } from './hub.js';
export { HubKernel, type HubKernelOptions, type HubShell, type TabLink } from './kernel.js';
export type { McpHubOptions } from './context.js';
export type { AppModelContext, AppsStatus } from './apps/app-views.js';
export {
  modelVisible,
  toolUi,
  type ToolUi,
  type ToolVisibility,
  type UiCsp,
  type UiPermissions,
  type UiResourceMeta,
} from './apps/ui-meta.js';
export type { ServerRegistry, UpdateOptions } from './servers/registry.js';
export { backoffDelay } from './connections/retry.js';
export type { ConnectOptions, ServerClient } from './connections/manager.js';
export { MAX_SIGN_INS_PER_CONNECT, type ConnectSignInOptions } from './connections/connect-with-sign-in.js';
export { SKILLS_EXTENSION, type LoadedSkill, type SkillEntry, type SkillFileContent } from './skills/index.js';
export type { SignInOptions } from './auth/sign-ins.js';
export type { ClientKeyAlg, ClientKeyInfo, CreateClientKeyOptions } from './auth/client-keys.js';
export type { IdentityAssertionRequest, IdentityAssertionSource } from './auth/jwt-bearer.js';
export {
  completeSignIn,
  CALLBACK_CHANNEL,
  type CompleteSignInOptions,
  type CompleteSignInResult,
} from './auth/callback.js';
export { clientMetadataDocument, type ClientMetadataDocumentOptions } from './auth/cimd.js';
export type { AssistantRegistry, ToolsForOptions } from './assistants/registry.js';
export { estimateTokens } from './assistants/ranking.js';
export type { CallToolOptions } from './calls/pipeline.js';
export {
  SAMPLING_LIMITS,
  LOG_LIMITS,
  requestedSchemaProblem,
  sensitiveFields,
  type ElicitationRecord,
  type ElicitationResponse,
  type SamplingAnswer,
  type SamplingHandler,
  type SamplingOptions,
  type SamplingRecord,
  type SamplingRequest,
  type SamplingResponse,
  type ServerLogEntry,
} from './answers/index.js';
export type {
  RunToolCallsOptions,
  RunToolCallsResult,
  RunConversationOptions,
  RunConversationResult,
} from './calls/conversation.js';
export {
  AssistantIdSchema,
  AssistantProfileSchema,
  AssistantPatchSchema,
  ApprovalModeSchema,
  modelDescription,
  type AssistantProfile,
  type AssistantPatch,
  type AssistantRef,
  type ApprovalMode,
} from './assistants/profile.js';
export { validateArguments, argumentIssues, type ArgumentIssue } from './calls/validation.js';
export {
  McpToolError,
  outcomeOf,
  type ToolCallRecord,
  type ToolCallStatus,
  type CallTask,
  type ApprovalSource,
  type CallRegistry,
  type RunAgainOptions,
} from './calls/records.js';
export { loadValidator, validatorLoaded } from './calls/schema-validator.js';
export { TASKS_EXTENSION, type TaskForm, type TaskStatus } from './session/task-vocabulary.js';
export { toMcpJson, fromMcpJson, REDACTED, type McpJsonServer, type McpJsonEntryError } from './servers/mcp-json.js';
export { nameTools, suffixedName, MAX_TOOL_NAME, type NameInput } from './assistants/names.js';
export { expandTemplate, templateParams } from './uri-template.js';
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
  AuthOAuthSchema,
  ScopesSchema,
  HeaderSchema,
  TransportKindSchema,
  ProtocolRevisionSchema,
  MODERN_REVISION,
  SecretRefSchema,
  CatalogueSchema,
  urlProblem,
  toIssues,
  looksSecret,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigPatch,
  type AuthInput,
  type AuthOAuth,
  type SecretRef,
  type StoredAuth,
  type StoredHeader,
  type TransportKind,
  type ProtocolRevision,
} from './schemas.js';
export type * from './types.js';
export { Store, type Listener } from './store.js';
export { MemoryStorage, type RecordStorage } from './persistence/storage.js';
export { IdbStorage } from './persistence/idb-storage.js';
export { CORS_HINT } from './session/cross-origin.js';
export { normaliseCallResult } from './session/call-result.js';
export type { ProtocolEra, RequestOptions } from './session/types.js';
export * from '../events/index.js';
