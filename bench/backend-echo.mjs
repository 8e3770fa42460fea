// Shared by the backend benches (backend-ab.mjs, backend-history.mjs): createChatHandler()'s hub
// (from whichever build's module is given) with server-everything at `url` as server "alpha",
// an assistant that may call it without approval, and one `runToolCalls` echo call.

/** `{ hub, call }`: `call()` runs one echo through `runToolCalls('openai', …)` and checks the answer. */
export async function echoBackend(createChatHandler, url) {
  const { hub } = createChatHandler({
    model: { baseUrl: 'http://127.0.0.1:9/v1', model: 'unused' },
    servers: { allow: [new URL(url).origin] },
  });
  await hub.ready;
  const server = await hub.servers.add({ name: 'alpha', url, retries: 0 });
  await hub.connect(server.id);
  await hub.assistants.update('bench', { approval: 'auto', servers: { [server.id]: {} } });
  let n = 0;
  const call = async () => {
    const c = { id: `c${++n}`, type: 'function', function: { name: 'alpha__echo', arguments: '{"message":"x"}' } };
    const r = await hub.runToolCalls(
      'openai',
      { role: 'assistant', content: null, tool_calls: [c] },
      { assistantId: 'bench' },
    );
    if (!String(r.messages[0]?.content).includes('Echo: x')) throw new Error(`unexpected: ${r.messages[0]?.content}`);
  };
  return { hub, call };
}
