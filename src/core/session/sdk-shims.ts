// Stands in for `@modelcontextprotocol/client/_shims` in the CDN builds (vite.config.ts): the
// browser values of the SDK's shim, with our validator as the default so the SDK's bundled copy
// of @cfworker/json-schema is left out. The hub always passes its own validator anyway.
/** In a browser a `fetch` TypeError may be a CORS refusal (the SDK's probe classifier reads this). */
export const CORS_IS_POSSIBLE = true;
export { SchemaValidator as DefaultJsonSchemaValidator } from './validator.js';
