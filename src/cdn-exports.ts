// What the CDN entry exports (and puts on `globalThis.McpElements`): the core, the events,
// StoreController and the autoloader's controls. Element classes are in their chunks: after
// `await loadElements('mcp-tool-call')`, `customElements.get('mcp-tool-call')` is the class.
export * from './core/index.js';
export { StoreController } from './controllers/store-controller.js';
export { loadElements, discover, stopAutoload, AUTOLOADED_TAGS, type AutoloadedTag } from './autoload.js';
// the G4F drop-in is a chunk here: `await McpElements.g4f.install()` (src/g4f/lazy.ts)
export * as g4f from './g4f/lazy.js';
