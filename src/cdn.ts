// The CDN entry: the core hub and the autoloader. Each element is a chunk imported the first
// time its tag appears (src/autoload.ts). `globalThis.McpElements` serves classic scripts.
// `mcp-elements.all.js` (src/cdn-all.ts) is the one-file build with every element inside.
import * as McpElements from './cdn-exports.js';
import { startAutoload } from './autoload.js';

export * from './cdn-exports.js';
(globalThis as { McpElements?: typeof McpElements }).McpElements = McpElements;
if (typeof document !== 'undefined') startAutoload(document);
