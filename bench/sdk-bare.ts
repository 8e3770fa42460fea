// The baseline: the bare SDK client as others ship it (default ajv validator), built the same
// way as our CDN file. Not shipped; bench/run.mjs builds it.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
