// The CDN entry: everything in one module, and `globalThis.McpElements` for classic scripts
// (with `McpElements.g4f`, the drop-in for G4F-style pages).
import * as elements from './index.js';
import * as g4f from './g4f/index.js';

export * from './index.js';
export { g4f };
(globalThis as { McpElements?: unknown }).McpElements = { ...elements, g4f };
