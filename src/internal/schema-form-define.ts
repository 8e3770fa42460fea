// Registers <mcp-schema-form> (importing this module is the side effect).
import { define } from './mcp-element.js';
import { McpSchemaForm } from './schema-form.js';

define('mcp-schema-form', McpSchemaForm);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-schema-form': McpSchemaForm;
  }
}
