// What the one-file CDN build exports: the npm entry (every element, registered) and the same
// autoloader controls as the chunked entry (here every element is already defined).
export * from './index.js';
export { loadElements, discover, stopAutoload, AUTOLOADED_TAGS, type AutoloadedTag } from './autoload.js';
export * as g4f from './g4f/index.js';
