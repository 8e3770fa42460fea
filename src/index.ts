/**
 * mcp-elements: registers every element and re-exports the core and the events.
 */
import './elements/mcp-tool-call/define.js';
import './elements/gpt-tool-selector/define.js';
import './elements/mcp-server-manager/define.js';
import './elements/mcp-tool-explorer/define.js';
import './elements/mcp-elicitation/define.js';
import './elements/mcp-task-monitor/define.js';
import './elements/mcp-app-view/define.js';
import './elements/mcp-server-directory/define.js';

export * from './core/index.js';
export { McpToolCallElement, type McpToolCallStrings } from './elements/mcp-tool-call/mcp-tool-call.js';
export { StoreController } from './controllers/store-controller.js';
export { GptToolSelectorElement, type GptToolSelectorStrings } from './elements/gpt-tool-selector/gpt-tool-selector.js';
export {
  McpServerManagerElement,
  type McpServerManagerStrings,
} from './elements/mcp-server-manager/mcp-server-manager.js';
export { McpToolExplorerElement, type McpToolExplorerStrings } from './elements/mcp-tool-explorer/mcp-tool-explorer.js';
export { McpElicitationElement, type McpElicitationStrings } from './elements/mcp-elicitation/mcp-elicitation.js';
export { McpTaskMonitorElement, type McpTaskMonitorStrings } from './elements/mcp-task-monitor/mcp-task-monitor.js';
export { McpAppViewElement, type McpAppViewStrings } from './elements/mcp-app-view/mcp-app-view.js';
export {
  McpServerDirectoryElement,
  type McpServerDirectoryStrings,
} from './elements/mcp-server-directory/mcp-server-directory.js';
export * from './elements/mcp-server-directory/directory-closed-event.js';
// the MCP Registry client and server.json reader (not in the core: only the directory needs them)
export * from './core/registry/index.js';
