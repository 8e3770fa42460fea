// The CDN entry: the core hub and the autoloader. Each element is a chunk imported the first
// time its tag appears (src/autoload.ts). `globalThis.McpElements` serves classic scripts (with
// `McpElements.g4f`, the drop-in for G4F-style pages, a chunk its `install()` fetches). `mcp-elements.all.js` (src/cdn-all.ts) is
// the one-file build with every element inside; `mcp-elements.classic.js` (src/cdn-classic.ts)
// is that build as a classic script.
import * as exports from './cdn-exports.js';
import { startAutoload } from './autoload.js';

export * from './cdn-exports.js';
(globalThis as { McpElements?: typeof exports }).McpElements = exports;
if (typeof document !== 'undefined') startAutoload(document);
