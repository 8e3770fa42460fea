// The client the conformance suite drives: our built core in Node with fake-indexeddb.
// Usage (by `conformance client --command`): node client.mjs <serverUrl>
import 'fake-indexeddb/auto';
import { McpHub } from '../../dist/core/index.js';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const hub = new McpHub({
  storeName: `conformance-${process.pid}`,
  eventTarget: null,
  broadcast: false,
  logger: { warn() {} },
});
const server = await hub.servers.add({
  name: 'conformance',
  url,
  transport: 'streamable-http',
  retries: 0,
  timeout: 20,
});
const catalogue = await hub.connect(server.id);
const client = hub.client(server.id);
if (scenario === 'tools_call') {
  await client.callTool('add_numbers', { a: 5, b: 3 });
} else if (scenario === 'sse-retry') {
  await client.callTool('test_reconnection', {});
} else {
  // initialize and anything else: the handshake and discovery are the test
  void catalogue;
}
await hub.dispose();
process.exit(0);
