// The one-file CDN build (`mcp-elements.all.js`): everything in one module, every element
// defined on load, and `globalThis.McpElements` for classic scripts.
import * as McpElements from './cdn-all-exports.js';

export * from './cdn-all-exports.js';
(globalThis as { McpElements?: typeof McpElements }).McpElements = McpElements;
