// `npm start`: the reference MCP server (server-everything, Streamable HTTP) and the demo page,
// both on 127.0.0.1. Ctrl-C stops everything.
import { createServer } from 'vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../test/fixtures/servers.mjs';
import { stubAjv } from './vite-plugins.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// a stable port when free, so the server saved on first visit is still right next time
const everything = await startEverything('streamableHttp', Number(process.env.MCP_PORT ?? 3001));
const demoConfig = {
  name: 'mcp-elements:demo-config',
  resolveId: (id) => (id === 'virtual:demo-config' ? '\0demo-config' : null),
  load: (id) => (id === '\0demo-config' ? `export const everythingUrl = ${JSON.stringify(everything.url)};` : null),
};
const server = await createServer({
  configFile: false,
  root,
  plugins: [stubAjv(), demoConfig],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173), strictPort: false, open: false },
  logLevel: 'warn',
});
await server.listen();
const url = `${server.resolvedUrls?.local?.[0] ?? 'http://127.0.0.1:5173/'}demo/`;
console.log(`\n  mcp-elements demo:        ${url}\n  reference MCP server:     ${everything.url}\n\n  Ctrl-C stops both.\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([server.close(), everything.close()]);
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
