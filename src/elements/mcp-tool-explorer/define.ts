// Registers <mcp-tool-explorer> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
// "Try it" shows its call as the card every call gets
import '../mcp-tool-call/define.js';

define('mcp-tool-explorer', McpToolExplorerElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-explorer': McpToolExplorerElement;
  }
}
