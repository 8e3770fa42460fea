// Registers <gpt-tool-selector> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { GptToolSelectorElement } from './gpt-tool-selector.js';

define('gpt-tool-selector', GptToolSelectorElement);

declare global {
  interface HTMLElementTagNameMap {
    'gpt-tool-selector': GptToolSelectorElement;
  }
}
