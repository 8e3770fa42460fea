// The MCP Registry: a client for `/v0.1/servers` and host-curated lists, the server.json reader,
// and turning an entry into a server config or a relay command line. Not part of the core's
// first load: the directory element imports it (its own chunk in the CDN build).
export * from './server-json.js';
export * from './client.js';
export * from './add.js';
export * from './website.js';
export * from './update.js';
