// The Worker the workerd tests run (bundled by test/node/edge/workerd.test.mjs): the relay at /relay
// and the backend chat handler at /chat, configured from bindings, both built from dist/.
import { createRelay } from '../../dist/relay/index.js';
import { createChatHandler, createGuard } from '../../dist/server/index.js';

let relay;
let chat;

export default {
  async fetch(request, env) {
    const allow = JSON.parse(env.ALLOW);
    relay ??= createRelay({ allow, basePath: '/relay', origins: [env.PAGE_ORIGIN] });
    chat ??= createChatHandler({
      model: { baseUrl: env.MODEL_URL, model: 'fake-1', apiKey: env.MODEL_KEY },
      servers: { allow },
      origins: [env.PAGE_ORIGIN],
      tools: [
        { name: 'clock', description: 'The time', parameters: { type: 'object', properties: {} }, run: () => 'noon' },
      ],
    });
    const { pathname } = new URL(request.url);
    if (pathname === '/chat') return chat(request);
    // open mode without a resolver: accepted here only because Workers' fetch is public-only
    if (pathname === '/open-mode') {
      try {
        createGuard({ open: true });
        return new Response(`accepted (${navigator.userAgent})`);
      } catch (e) {
        return new Response(e.message, { status: 500 });
      }
    }
    return relay(request);
  },
};
