// Registers <mcp-tool-call> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpToolCallElement } from './mcp-tool-call.js';

define('mcp-tool-call', McpToolCallElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-call': McpToolCallElement;
  }
}
