// The MCP Apps view host, imported by <mcp-app-view> the first time a view is shown (a chunk of
// its own with the ext-apps SDK: a page whose servers have no views never fetches it).
export { AppViewHost, prepareView, viewModes, type ViewHooks, type ViewHostOptions } from './view-host.js';
export { loadUiResource, McpAppError, MAX_VIEW_HTML, type UiResource } from './resources.js';
export { hostContext, styleVariables } from './host-context.js';
export { VIEW_LIMITS, type ViewLimits } from './message-guard.js';
export { viewCsp, viewDocument, DEFAULT_VIEW_CSP } from './csp.js';
