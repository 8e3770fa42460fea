// Registers <mcp-elicitation> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpElicitationElement } from './mcp-elicitation.js';

define('mcp-elicitation', McpElicitationElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-elicitation': McpElicitationElement;
  }
}
