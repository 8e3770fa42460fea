// Shared by bench/backend-cpu.mjs and bench/backend-cpu-ab.mjs: the network taken out of a call.
// `stubbedEcho(fetch)` answers every tools/call at once with server-everything's echo answer (an
// event stream, or JSON with `sse: false`) and sends everything else (handshake, listing) on;
// `backendHub(dir, url, fetch)` is a hub built as createChatHandler builds it (memory storage, no
// events, history limit 50) from the build in `dir`, its fetch the stub over the guarded fetch,
// connected to `url` as server "alpha" with an `auto` assistant "bench".
import { existsSync } from 'node:fs';
import path from 'node:path';

export const stubbedEcho =
  (fetchFn, { sse = true } = {}) =>
  async (input, init = {}) => {
    const body = typeof init.body === 'string' ? init.body : '';
    if (!body.includes('"tools/call"')) return fetchFn(input, init);
    const msg = JSON.stringify({
      result: { content: [{ type: 'text', text: 'Echo: x' }] },
      jsonrpc: '2.0',
      id: JSON.parse(body).id,
    });
    return sse
      ? new Response(`event: message\ndata: ${msg}\n\n`, { headers: { 'content-type': 'text/event-stream' } })
      : new Response(msg, { headers: { 'content-type': 'application/json' } });
  };

/** `{ hub, server }` from the build in `dir` (a dist/ folder), connected to `url`. */
export async function backendHub(dir, url, { sse = true } = {}) {
  const { McpHub, MemoryStorage } = await import(path.resolve(dir, 'core/index.js'));
  // the SSRF guard is the edge kit's (dist/edge) since the kit; a build before it has it in dist/relay
  const guardFile = path.resolve(
    dir,
    existsSync(path.resolve(dir, 'edge/guard.js')) ? 'edge/guard.js' : 'relay/guard.js',
  );
  const { guardedFetch, createGuard } = await import(guardFile);
  const hub = new McpHub({
    storeName: 'bench-cpu',
    storage: new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
    historyLimit: 50,
    fetch: stubbedEcho(
      guardedFetch(createGuard({ allow: [new URL(url).origin] }), { ownSignal: (init) => init.method === 'POST' }),
      { sse },
    ),
  });
  await hub.ready;
  const server = await hub.servers.add({ name: 'alpha', url, retries: 0 });
  await hub.connect(server.id);
  await hub.assistants.update('bench', { approval: 'auto', servers: { [server.id]: {} } });
  return { hub, server };
}
