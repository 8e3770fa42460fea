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
  // the sandbox answers `frame-ancestors` with these (read on every request): the site's origin,
  // known once it listens, is added with `allowHost()`
  const hostOrigins = [];
  const [everything, debug, sandbox] = await Promise.all([
    startEverything('streamableHttp', everythingPort),
    startExample('@modelcontextprotocol/server-debug'),
    startSandbox({ hostOrigins }),
  ]);
  return {
    peers: { everything: everything.url, apps: debug.url, sandbox: sandbox.url },
    /** Let the page at `origin` frame the sandbox. */
    allowHost: (origin) => hostOrigins.push(origin),
    close: () => Promise.allSettled([everything.close(), debug.close(), sandbox.close()]),
  };
}
