// The baseline: the bare SDK client as others ship it (default ajv validator), built the same
// way as our CDN file. Not shipped; bench/run.mjs builds it.
export { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
