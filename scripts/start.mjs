// `npm start`: the reference MCP server (server-everything, Streamable HTTP) and the demo chat,
// both on 127.0.0.1. Ctrl-C stops everything.
import { startDemo } from './demo-server.mjs';
import { startDemoBackend } from './demo-backend.mjs';

const demo = await startDemo({
  port: Number(process.env.PORT ?? 5173),
  everythingPort: Number(process.env.MCP_PORT ?? 3001),
});
// backend mode: the chat through mcp-elements/server (createChatHandler) on its own loopback port
const backend = await startDemoBackend({
  pageOrigin: new URL(demo.url).origin,
  servers: [demo.everythingUrl, demo.tasksUrl, demo.debugUrl],
  port: Number(process.env.BACKEND_PORT ?? 0),
});
console.log(`
  mcp-elements demo chat:   ${demo.url}
  the chat in backend mode: ${demo.url}?backend=${encodeURIComponent(backend.url)}
  script-tag drop-in:       ${demo.cdnUrl}
  G4F-style page:           ${demo.g4fUrl}
  reference MCP server:     ${demo.everythingUrl}
  protected MCP server:     ${demo.protectedUrl} (sign-in: any login and password)
  tasks MCP server (Jobs):  ${demo.tasksUrl} (finish jobs: curl -X POST ${demo.tasksUrl.replace(/\/mcp$/, '/finish')})
  MCP Apps server (Debug):  ${demo.debugUrl} (say "show me the debug app")
  MCP Apps sandbox page:    ${demo.sandboxUrl} (a second origin: views run there)
  MCP Registry ("Find servers"): ${demo.registryUrl} (the demo's own: nothing leaves this machine)

  Ctrl-C stops everything.
`);
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([backend.close(), demo.close()]);
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
