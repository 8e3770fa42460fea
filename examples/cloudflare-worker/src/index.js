// The relay at /relay/… and the backend chat handler at /chat, on Cloudflare Workers.
// Deploy: npx wrangler deploy   (secrets: npx wrangler secret put MODEL_KEY)
import { createRelay } from 'mcp-chat-elements/relay';
import { createChatHandler } from 'mcp-chat-elements/server';

let relay;
let chat;

export default {
  async fetch(request, env) {
    const allow = env.ALLOW.split(',').filter(Boolean);
    // Workers' own fetch cannot reach private addresses; open mode adds https-only and the
    // address/name rules on top of the allowlist
    relay ??= createRelay({ allow, open: env.OPEN === 'true', basePath: '/relay', origins: [env.PAGE_ORIGIN] });
    chat ??= createChatHandler({
      model: { baseUrl: env.MODEL_URL, model: env.MODEL, apiKey: env.MODEL_KEY },
      servers: { allow, open: env.OPEN === 'true' },
      origins: [env.PAGE_ORIGIN],
    });
    return new URL(request.url).pathname === '/chat' ? chat(request) : relay(request);
  },
};
