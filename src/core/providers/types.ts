import type { Tool, CallToolResult } from '@modelcontextprotocol/client';

/** The four request formats hosts ask for. */
export type Provider = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
export const PROVIDERS: readonly Provider[] = ['openai', 'openai-responses', 'anthropic', 'gemini'];

/** One tool as the model sees it. */
export interface ModelTool {
  /** Model-facing name, `<server>__<tool>`, provider-safe. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly serverId: string;
  readonly tool: Tool;
}

/** A tool call read from a provider message. */
export interface ProviderToolCall {
  /** The provider's id for the call (tool_call_id, call_id, tool_use id; Gemini may have none). */
  readonly id: string;
  readonly name: string;
  /** Parsed arguments, or undefined when they could not be parsed (see `argumentsError`). */
  readonly arguments?: Record<string, unknown>;
  readonly argumentsError?: string;
  /** The provider's own object for this call, untouched. */
  readonly raw: unknown;
}

/** What a call produced, ready to be told to the model. */
export interface ToolOutcome {
  readonly isError: boolean;
  readonly content: CallToolResult['content'];
  readonly structuredContent?: Record<string, unknown>;
}

export interface ProviderAdapter {
  /** The request's `tools` in this provider's format. */
  tools(tools: readonly ModelTool[]): unknown[];
  /** Tool calls in an assistant message (or whole response) of this provider. */
  readCalls(message: unknown): ProviderToolCall[];
  /** One call's result, in this provider's format (a message, item, block or part). */
  result(call: ProviderToolCall, outcome: ToolOutcome): unknown;
  /** What the host appends for a set of results. */
  messages(results: unknown[]): unknown[];
  /** What the host appends for the model's own reply (for runConversation). */
  replyMessages(reply: unknown): unknown[];
}
