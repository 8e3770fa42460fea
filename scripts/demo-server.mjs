// Serves the demo (chat page and script-tag drop-in) on 127.0.0.1 next to a reference MCP server.
// Used by `npm start` and by the end-to-end tests.
import { createServer } from 'vite';
import { createServer as createHttpServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../test/fixtures/servers.mjs';
import { startOAuthServers } from '../test/fixtures/oauth-server.mjs';
import { startTasksServer } from '../test/fixtures/tasks-server.mjs';
import { startExample, startSandbox } from '../test/fixtures/apps-server.mjs';
import { demoRegistry } from './demo-registry.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Start server-everything (Streamable HTTP) and the demo. `port` and `everythingPort` are preferred
 * when free (a stable port keeps the server saved on a first visit valid next time); 0 (the
 * tests) takes any free port, read back from the listening server.
 */
export async function startDemo({ port = 5173, everythingPort = 3001, strictPort = false, quiet = false } = {}) {
  // the drop-in pages load the CDN builds (module and classic)
  // and the MCP Apps sandbox page (dist/sandbox), served on a second loopback port
  for (const [mode, file] of [
    ['cdn', 'cdn/mcp-elements.js'],
    ['cdn-classic', 'cdn/mcp-elements.classic.js'],
    ['sandbox', 'sandbox/index.html'],
  ]) {
    if (existsSync(path.join(root, 'dist', file))) continue;
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', mode, '--logLevel', 'warn'],
      { cwd: root, stdio: quiet ? 'ignore' : 'inherit' },
    );
    if (r.status !== 0) throw new Error(`could not build dist/${file}`);
  }
  const sandboxHosts = [];
  const [everything, oauth, tasks, debugApp, sandbox] = await Promise.all([
    startEverything('streamableHttp', everythingPort),
    startOAuthServers(),
    startTasksServer(),
    // MCP Apps: a real app server from npm ("show me the debug app") and the sandbox page
    startExample('@modelcontextprotocol/server-debug'),
    // framed by the demo page only (its origin is added once the page listens)
    startSandbox({ hostOrigins: sandboxHosts }),
  ]);
  // the "Protected demo server": an MCP server behind a real authorization server (oidc-provider,
  // its own login and consent pages: any login and password)
  const protectedUrl = `${oauth.mcp}/t/demo/mcp`;
  // "Jobs": a server whose tools run as tasks (test/fixtures/tasks-server.mjs); a job finishes
  // when POST <tasksBase>/finish is sent (the e2e test does; by hand: curl -X POST)
  const tasksBase = `${tasks.url}/t/demo`;
  const tasksUrl = `${tasksBase}/mcp`;
  const config = {
    everythingUrl: everything.url,
    protectedUrl,
    tasksUrl,
    debugUrl: debugApp.url,
    sandboxUrl: sandbox.url,
  };
  const demoConfig = {
    name: 'mcp-elements:demo-config',
    resolveId: (id) => (id === 'virtual:demo-config' ? '\0demo-config' : null),
    load: (id) =>
      id === '\0demo-config'
        ? `export const everythingUrl = ${JSON.stringify(everything.url)};\nexport const protectedUrl = ${JSON.stringify(protectedUrl)};\nexport const tasksUrl = ${JSON.stringify(tasksUrl)};\nexport const debugUrl = ${JSON.stringify(debugApp.url)};\nexport const sandboxUrl = ${JSON.stringify(sandbox.url)};`
        : null,
    configureServer(server) {
      // the drop-in pages are served as the static files they are (no dev-server client injected)
      for (const page of ['cdn.html', 'g4f.html'])
        server.middlewares.use(`/demo/${page}`, (_req, res) => {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(readFileSync(path.join(root, 'demo', page)));
        });
      // "Find servers": the demo's own MCP Registry, on this origin (scripts/demo-registry.mjs)
      server.middlewares.use('/registry', demoRegistry(config));
      // for the drop-in page, whose classic script cannot import a module
      server.middlewares.use('/demo-config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(config));
      });
    },
  };
  // vite as middleware behind our own server, which listens on `port` or, when that is taken
  // (and not strictPort) or 0, on a port the system gives and reads it back: no free port is
  // picked, closed and raced for (vite's own listen on 0 does exactly that). Vite's client on
  // the page keeps its WebSocket on this server (else it tries a fixed port and logs errors);
  // nothing is watched, so nothing is ever pushed to it (no HMR, as before).
  const http = createHttpServer();
  const server = await createServer({
    configFile: false,
    root,
    plugins: [demoConfig],
    appType: 'spa',
    server: { middlewareMode: true, hmr: { server: http }, watch: null },
    logLevel: quiet ? 'silent' : 'warn',
    clearScreen: false,
  });
  http.on('request', server.middlewares);
  const listen = (p) =>
    new Promise((resolve, reject) => {
      http.once('error', reject);
      http.listen({ port: p, host: '127.0.0.1' }, () => {
        http.off('error', reject);
        resolve(http.address().port);
      });
    });
  let bound;
  try {
    bound = await listen(port);
  } catch (e) {
    if (e.code !== 'EADDRINUSE' || strictPort) {
      await Promise.allSettled([server, everything, oauth, tasks, debugApp, sandbox].map((s) => s.close()));
      throw new Error(e.code === 'EADDRINUSE' ? `Port ${port} is already in use` : e.message, { cause: e });
    }
    bound = await listen(0);
  }
  const base = `http://127.0.0.1:${bound}`;
  sandboxHosts.push(base);
  return {
    url: `${base}/demo/`,
    cdnUrl: `${base}/demo/cdn.html`,
    g4fUrl: `${base}/demo/g4f.html`,
    registryUrl: `${base}/registry`,
    everythingUrl: everything.url,
    protectedUrl,
    tasksUrl,
    debugUrl: debugApp.url,
    sandboxUrl: sandbox.url,
    /** Finish every running job of the demo's tasks server. */
    finishTasks: () => fetch(`${tasksBase}/finish`, { method: 'POST' }),
    issuer: oauth.issuer,
    close: async () => {
      http.closeAllConnections();
      await Promise.allSettled([
        new Promise((r) => http.close(() => r())),
        server.close(),
        everything.close(),
        oauth.close(),
        tasks.close(),
        debugApp.close(),
        sandbox.close(),
      ]);
    },
  };
}
