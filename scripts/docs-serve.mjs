// `npm run docs`: the docs site (VitePress, docs/.vitepress) on 127.0.0.1 with each element page
// running its element live against the MCP servers scripts/docs-peers.mjs starts on 127.0.0.1
// too. `npm run docs -- --build` writes the static site to dist/docs instead (its live examples
// use the servers named in MCP_DOCS_PEERS, if set). Ctrl-C stops all.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createServer } from 'vitepress';
import { startDocsPeers } from './docs-peers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docs = path.join(root, 'docs');

// the live examples load the CDN build (dist/cdn); MCP App views run in the sandbox page (dist/sandbox)
for (const [mode, file] of [
  ['cdn', 'dist/cdn/mcp-elements.js'],
  ['sandbox', 'dist/sandbox/index.html'],
]) {
  if (existsSync(path.join(root, file))) continue;
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', mode], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv.includes('--build')) {
  await build(docs);
  console.log('docs site written to dist/docs');
} else {
  const servers = await startDocsPeers({ everythingPort: Number(process.env.MCP_PORT ?? 3001) });
  process.env.MCP_DOCS_PEERS = JSON.stringify(servers.peers);
  const server = await createServer(docs, { host: '127.0.0.1', port: Number(process.env.PORT ?? 5180) });
  await server.listen();
  const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${server.config.server.port}/`;
  servers.allowHost(new URL(url).origin);
  console.log(`
  mcp-elements docs:        ${url}
  reference MCP server:     ${servers.peers.everything} (the element pages run against it)
  MCP Apps server (Debug):  ${servers.peers.apps} (<mcp-app-view>'s page shows its view)
  MCP Apps sandbox page:    ${servers.peers.sandbox}

  Ctrl-C stops them all.
`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([server.close(), servers.close()]);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
