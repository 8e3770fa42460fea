// Registers <mcp-app-view> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpAppViewElement } from './mcp-app-view.js';

export { prepareAppView } from './mcp-app-view.js';

define('mcp-app-view', McpAppViewElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-app-view': McpAppViewElement;
  }
}
