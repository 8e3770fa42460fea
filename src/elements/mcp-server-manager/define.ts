// Registers <mcp-server-manager> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpServerManagerElement } from './mcp-server-manager.js';

define('mcp-server-manager', McpServerManagerElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-server-manager': McpServerManagerElement;
  }
}
