// Registers <mcp-tool-explorer> (importing this module is the side effect), and tells it where its
// lazy tabs' modules are: here, not in the element's module, so that what the element imports
// never reaches the tabs, which import the element (tabs.ts).
import { define } from '../../internal/mcp-element.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { useTabImports } from './tabs.js';
// "Try it" shows its call as the card every call gets
import '../mcp-tool-call/define.js';

// the Resources and Prompts tabs are one chunk
const resourcesPrompts = () => import('./resources-prompts.js');
useTabImports({
  resources: resourcesPrompts,
  prompts: resourcesPrompts,
  skills: () => import('./skills-panel.js'),
  log: () => import('./log-panel.js'),
});
define('mcp-tool-explorer', McpToolExplorerElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-explorer': McpToolExplorerElement;
  }
}
