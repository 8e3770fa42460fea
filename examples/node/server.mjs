// The relay and the backend chat handler in a plain Node process, on 127.0.0.1:8787.
// Run: node server.mjs   (stdio servers instead: npx mcp-chat-elements relay --config mcp.json --origin <page>)
import { createNodeRelay, serveHandler } from 'mcp-chat-elements/relay/node';
import { systemResolve, nodeUpstreamFetch } from 'mcp-chat-elements/relay/node';
import { createChatHandler } from 'mcp-chat-elements/server';

const allow = (process.env.ALLOW ?? '').split(',').filter(Boolean);
const origins = [process.env.PAGE_ORIGIN ?? 'http://localhost:5173'];
// behind a proxy or on a name, PUBLIC_URL (e.g. https://relay.example.com/relay) is the Host it answers
const relay = createNodeRelay({
  allow,
  open: process.env.OPEN === 'true',
  basePath: '/relay',
  origins,
  publicUrl: process.env.PUBLIC_URL || undefined,
});
const chat = createChatHandler({
  model: {
    baseUrl: process.env.MODEL_URL ?? 'https://api.openai.com/v1',
    model: process.env.MODEL ?? 'gpt-4.1-mini',
    apiKey: process.env.MODEL_KEY,
  },
  servers: { allow, open: process.env.OPEN === 'true', resolve: systemResolve, fetch: nodeUpstreamFetch() },
  origins,
});
const served = await serveHandler(
  (request, info) => (new URL(request.url).pathname === '/chat' ? chat(request, info) : relay(request, info)),
  {
    port: Number(process.env.PORT ?? 8787),
  },
);
console.log(`relay at ${served.url}/relay/https/<host>/<path>, chat at ${served.url}/chat`);
