// Registers <mcp-task-monitor> (importing this module is the side effect).
import { define } from '../../internal/mcp-element.js';
import { McpTaskMonitorElement } from './mcp-task-monitor.js';

define('mcp-task-monitor', McpTaskMonitorElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-task-monitor': McpTaskMonitorElement;
  }
}
