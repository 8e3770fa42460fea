// The backend chat handler and the relay as AWS Lambda handlers (dist/relay/lambda.js, Hono's
// aws-lambda adapter), invoked with the event shapes Lambda sends: a Function URL event with
// response streaming, and an API Gateway HTTP API (payload 2.0) event, buffered.
// Response streaming is driven through the runtime's documented global (`awslambda.
// streamifyResponse`, `awslambda.HttpResponseStream.from`), given here as the runtime gives it:
// the handler receives a writable stream and writes the metadata, then the body, chunk by chunk.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from '../../fixtures/servers.mjs';
import { startModernServer } from '../../fixtures/modern-server.mjs';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { parseChatStream } from '../server/chat-stream.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
globalThis.awslambda ??= {
  streamifyResponse: (fn) => fn,
  HttpResponseStream: { from: (stream, metadata) => Object.assign(stream, { metadata }) },
};
const { lambdaHandler } = await import(path.join(root, 'dist/relay/lambda.js'));
const { createChatHandler } = await import(path.join(root, 'dist/server/index.js'));
const { createRelay } = await import(path.join(root, 'dist/relay/index.js'));

const tenant = `lambda-${process.pid}`;
let everything, modern, model, chat;

before(async () => {
  [everything, modern, model] = await Promise.all([
    startEverything('streamableHttp'),
    startModernServer(),
    startFakeOpenAI({ wants: ['alpha__echo', 'beta__add'] }),
  ]);
  chat = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [new URL(everything.url).origin, new URL(modern.url).origin] },
  });
});
after(async () => {
  await chat?.hub.dispose();
  await Promise.all([everything?.close(), modern?.close(), model?.close()]);
});

const body = () =>
  JSON.stringify({
    messages: [{ role: 'user', content: 'hi' }],
    mcp_servers: [
      { name: 'alpha', url: everything.url },
      { name: 'beta', url: `${modern.url}/t/${tenant}/mcp` },
      { name: 'broken', url: `${modern.url}/nowhere/mcp` },
    ],
  });

/** A Lambda Function URL event (payload format 2.0), as AWS documents it. */
function functionUrlEvent(method, rawPath, payload, headers = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'abc123.lambda-url.eu-west-1.on.aws', ...headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.eu-west-1.on.aws',
      domainPrefix: 'abc123',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: '$default',
      time: '24/Nov/2026:23:00:00 +0000',
      timeEpoch: 1795993200000,
    },
    body: payload,
    isBase64Encoded: false,
  };
}

/** A buffered result's body (API Gateway decodes base64 bodies for the client: so do we). */
const text = (r) => (r.isBase64Encoded ? Buffer.from(r.body, 'base64').toString('utf8') : r.body);

/** An API Gateway HTTP API event (payload format 2.0). */
function apiGatewayEvent(method, rawPath, payload, headers = {}) {
  const e = functionUrlEvent(method, rawPath, payload, { host: 'api.example.com', ...headers });
  e.routeKey = `${method} ${rawPath}`;
  e.requestContext = {
    ...e.requestContext,
    apiId: 'api1',
    domainName: 'api.example.com',
    routeKey: e.routeKey,
    stage: '$default',
  };
  return e;
}

test('Function URL with response streaming: the seed flow, written chunk by chunk, then cached', async () => {
  const handler = lambdaHandler(chat);
  const toolsLists = async () =>
    (await (await fetch(`${modern.url}/t/${tenant}/seen`)).json()).requests.filter((r) =>
      JSON.stringify(r).includes('"tools/list"'),
    ).length;
  let lists;
  for (const round of [1, 2]) {
    const writes = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        writes.push(String(chunk));
        done();
      },
    });
    const ended = new Promise((r) => stream.on('finish', r));
    await handler(functionUrlEvent('POST', '/chat', body()), stream, {});
    await ended;
    assert.equal(stream.metadata.statusCode, 200);
    assert.equal(stream.metadata.headers['content-type'], 'text/event-stream');
    assert.ok(writes.length >= 4, `streamed in ${writes.length} writes, not one buffer`);
    const events = parseChatStream(writes.join(''));
    const servers = Object.fromEntries(events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data]));
    assert.equal(servers.broken.status, 'failed');
    assert.equal(servers.beta.cached, round === 2);
    assert.deepEqual(
      events
        .filter((e) => e.event === 'tool')
        .map((e) => e.data.name)
        .sort(),
      ['alpha__echo', 'beta__add'],
    );
    assert.match(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.content)
        .join(''),
      /Echo: hi \| 5/,
    );
    if (round === 1) lists = await toolsLists();
    else assert.equal(await toolsLists(), lists, 'no tools/list on the second invocation');
  }
});

test('API Gateway HTTP API event, buffered: the chat answer; a bad request is a 400', async () => {
  const handler = lambdaHandler(chat, { stream: false });
  const r = await handler(apiGatewayEvent('POST', '/chat', body()), {});
  assert.equal(r.statusCode, 200);
  const events = parseChatStream(text(r));
  assert.ok(events.some((e) => e.event === 'done'));
  const bad = await handler(apiGatewayEvent('POST', '/chat', '{"messages":[]}'), {});
  assert.equal(bad.statusCode, 400);
  assert.match(JSON.parse(text(bad)).error, /messages/);
});

test('the relay as a Lambda handler: an MCP initialize forwarded, a metadata address refused', async () => {
  const handler = lambdaHandler(createRelay({ allow: [new URL(everything.url).origin] }), { stream: false });
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lambda', version: '1' } },
  });
  const r = await handler(
    apiGatewayEvent('POST', `/http/${new URL(everything.url).host}/mcp`, init, {
      accept: 'application/json, text/event-stream',
    }),
    {},
  );
  assert.equal(r.statusCode, 200);
  assert.match(r.headers['mcp-session-id'], /\S/);
  assert.match(text(r), /"serverInfo"/);
  const refused = await handler(apiGatewayEvent('POST', '/https/169.254.169.254/latest', '{}'), {});
  assert.equal(refused.statusCode, 403);
});
