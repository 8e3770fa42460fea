// Registers <mcp-server-directory> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpServerDirectoryElement } from './mcp-server-directory.js';

define('mcp-server-directory', McpServerDirectoryElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-server-directory': McpServerDirectoryElement;
  }
}
