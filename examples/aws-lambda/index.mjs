// The backend chat handler as a Lambda function with response streaming (Function URL with
// InvokeMode RESPONSE_STREAM). The relay is the same: lambdaHandler(createNodeRelay({ … })).
// Deploy: see README.md (one `sam deploy --guided`).
import { lambdaHandler } from 'mcp-chat-elements/relay/lambda';
import { createNodeRelay, systemResolve, nodeUpstreamFetch } from 'mcp-chat-elements/relay/node';
import { createChatHandler } from 'mcp-chat-elements/server';

const allow = (process.env.ALLOW ?? '').split(',').filter(Boolean);
const open = process.env.OPEN === 'true';

const chat = createChatHandler({
  model: { baseUrl: process.env.MODEL_URL, model: process.env.MODEL, apiKey: process.env.MODEL_KEY },
  // on Node the names a request gives are resolved, checked and the connection pinned
  servers: { allow, open, resolve: systemResolve, fetch: nodeUpstreamFetch() },
  origins: [process.env.PAGE_ORIGIN],
});
const relay = createNodeRelay({ allow, open, basePath: '/relay', origins: [process.env.PAGE_ORIGIN] });

// `info` is the event's source IP (the rate limit's client) and domain (the Host the relay answers)
export const handler = lambdaHandler((request, info) =>
  new URL(request.url).pathname === '/chat' ? chat(request, info) : relay(request, info),
);
