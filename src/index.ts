/**
 * mcp-elements: registers every element and re-exports the core and the events.
 * (The elements arrive with their own issue; today this is the core.)
 */
export * from './core/index.js';
