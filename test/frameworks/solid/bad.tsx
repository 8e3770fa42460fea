// Each line marked `expect-error` must fail the type check: if one passes, the typings are too loose.
import type {} from 'mcp-chat-elements/solid';
import type { McpToolCallCompletedEvent } from 'mcp-chat-elements';

export const misspelled = <mcp-tool-call them="dark" />; // expect-error: no attribute `them`
export const wrongValue = <mcp-tool-call theme="purple" />; // expect-error: not a theme
export const wrongMode = <mcp-app-view display-mode="window" />; // expect-error: not a display mode
export const wrongDetail = <mcp-tool-call on:mcp-tool-call-started={(e) => e.detail.call.id.toFixed()} />; // expect-error: the id is a string
export const wrongEvent = <mcp-tool-call on:mcp-tool-call-started={(e: McpToolCallCompletedEvent) => e} />; // expect-error: another event
