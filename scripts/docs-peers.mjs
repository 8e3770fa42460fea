// The MCP servers the docs site's live examples run against, all on 127.0.0.1: the reference
// server (server-everything), an MCP Apps server from npm (server-debug: its tool has a view) and
// the sandbox page (dist/sandbox) on an origin of its own. Used by `npm run docs` and the docs test.
import { startEverything } from '../test/fixtures/servers.mjs';
import { startExample, startSandbox } from '../test/fixtures/apps-server.mjs';

/**
 * Start them; `peers` is what the site is built with (the MCP_DOCS_PEERS environment variable,
 * read by docs/.vitepress/config.mjs).
 */
export async function startDocsPeers({ everythingPort } = {}) {
  const [everything, debug, sandbox] = await Promise.all([
    startEverything('streamableHttp', everythingPort),
    startExample('@modelcontextprotocol/server-debug'),
    startSandbox(),
  ]);
  return {
    peers: { everything: everything.url, apps: debug.url, sandbox: sandbox.url },
    close: () => Promise.allSettled([everything.close(), debug.close(), sandbox.close()]),
  };
}
