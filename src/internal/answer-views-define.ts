// Registers the internal answer views (importing this module is the side effect).
import { McpElicitationView } from './elicitation-view.js';
import { define } from './mcp-element.js';
import { McpSamplingView } from './sampling-view.js';

define('mcp-elicitation-view', McpElicitationView);
define('mcp-sampling-view', McpSamplingView);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-elicitation-view': McpElicitationView;
    'mcp-sampling-view': McpSamplingView;
  }
}
