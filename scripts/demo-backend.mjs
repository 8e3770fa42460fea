// The demo's "backend mode" (issue 24): the chat runs in a backend, through createChatHandler()
// (mcp-elements/server, built in dist/), with the demo's offline model (demo/demo-model.ts) behind
// an OpenAI-compatible streamed endpoint. Served on 127.0.0.1 for the demo page's origin; the page
// uses it when opened with `?backend=<this URL>/chat` (demo/backend-mode.ts). Used by `npm start`
// and by test/e2e/backend-mode.test.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The built package entries this needs; built when missing (like the demo's CDN files). */
function ensureBuilt(quiet) {
  if (['dist/server/index.js', 'dist/relay/node/index.js'].every((f) => existsSync(path.join(root, f)))) return;
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: quiet ? 'ignore' : 'inherit',
    },
  );
  if (r.status !== 0) throw new Error('could not build dist/ (the backend mode serves dist/server)');
}

/** demo/demo-model.ts (no imports of its own) as a module Node can load. */
async function loadDemoModel() {
  const source = readFileSync(path.join(root, 'demo/demo-model.ts'), 'utf8');
  const { code } = await transformWithOxc(source, 'demo-model.ts', { lang: 'ts' });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/**
 * The demo model as an OpenAI-compatible `/chat/completions` that streams (SSE): its text in a
 * few pieces, or its tool calls in one chunk, then `[DONE]`.
 */
function demoModelEndpoint(demoComplete) {
  return async (request) => {
    const body = await request.json();
    const reply = demoComplete(body.messages ?? [], body.tools ?? []);
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', model: 'mcp-elements-demo', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const parts = [];
    if (reply.tool_calls?.length) {
      parts.push(chunk({ role: 'assistant', tool_calls: reply.tool_calls.map((c, index) => ({ index, ...c })) }));
      parts.push(chunk({}, 'tool_calls'));
    } else {
      // a few pieces, as a real model streams
      for (const piece of String(reply.content ?? '').match(/.{1,24}(\s|$)|\S+/g) ?? [])
        parts.push(chunk({ content: piece }));
      parts.push(chunk({}, 'stop'));
    }
    parts.push('data: [DONE]\n\n');
    return new Response(parts.join(''), { headers: { 'content-type': 'text/event-stream' } });
  };
}

/**
 * Start the backend for pages of `pageOrigin`, allowed to reach the MCP servers at `servers`
 * (URLs; only their origins count). Resolves to { url (POST chat requests here), close }.
 */
export async function startDemoBackend({ pageOrigin, servers, port = 0, quiet = false }) {
  ensureBuilt(quiet);
  const [{ createChatHandler }, { serveHandler }, { demoComplete }] = await Promise.all([
    import(path.join(root, 'dist/server/index.js')),
    import(path.join(root, 'dist/relay/node/index.js')),
    loadDemoModel(),
  ]);
  const model = demoModelEndpoint(demoComplete);
  const handler = createChatHandler({
    // the model is called in-process: its "endpoint" is a function
    model: {
      baseUrl: 'http://demo-model.invalid/v1',
      model: 'mcp-elements-demo',
      fetch: (url, init) => model(new Request(url, init)),
    },
    // the demo's servers are on loopback http: named in the allowlist (open mode is https only)
    servers: { allow: [...new Set(servers.map((u) => new URL(u).origin))] },
    origins: [pageOrigin],
  });
  const served = await serveHandler(
    (request, info) =>
      new URL(request.url).pathname === '/chat'
        ? handler(request, info)
        : Promise.resolve(new Response('POST chat requests to /chat', { status: 404 })),
    { port },
  );
  return {
    url: `${served.url}/chat`,
    close: async () => {
      await served.close();
      await handler.hub.dispose();
    },
  };
}
