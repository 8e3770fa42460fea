// The CDN entry: everything in one module, and `globalThis.McpElements` for classic scripts.
import * as McpElements from './index.js';

export * from './index.js';
(globalThis as { McpElements?: typeof McpElements }).McpElements = McpElements;
