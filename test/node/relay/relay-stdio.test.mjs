// `mcp-elements relay --config mcp.json`: the CLI (dist/relay/node/cli.js, the package's bin)
// starts @modelcontextprotocol/server-filesystem over stdio on a temp dir and serves it as
// Streamable HTTP on 127.0.0.1 behind a per-launch token, CORS for one origin.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliPath, filesystemEntry, runRelayCli } from '../../fixtures/stdio-relay-fixture.mjs';

const PAGE = 'https://chat.example';
let cli, pasted, dir;

before(async () => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'relay-fs-')));
  writeFileSync(path.join(dir, 'hello.txt'), 'hello from a stdio server');
  const config = path.join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        files: { command: process.execPath, args: [filesystemEntry, dir] },
        web: { url: 'https://example.com/mcp' },
      },
    }),
  );
  cli = await runRelayCli(config, PAGE);
  pasted = cli.pasted;
});
after(() => cli?.stop());

test('prints an mcp.json to paste: the stdio server with its URL and token, the URL entry left out', () => {
  assert.deepEqual(Object.keys(pasted.mcpServers), ['files']);
  const files = pasted.mcpServers.files;
  assert.match(files.url, /^http:\/\/127\.0\.0\.1:\d+\/stdio\/files\/mcp$/);
  assert.match(files.headers.Authorization, /^Bearer [\w-]{40,}$/);
});

test('the stdio server through the relay: list and call, twice (a page reload reconnects)', async () => {
  const { url, headers } = pasted.mcpServers.files;
  for (let round = 0; round < 2; round++) {
    const client = new Client({ name: 'page', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'read_text_file'));
    const r = await client.callTool({ name: 'read_text_file', arguments: { path: path.join(dir, 'hello.txt') } });
    assert.equal(r.content[0].text, 'hello from a stdio server');
    await client.close();
  }
});

test('wrong token 401, other origin 403, other Host 403, CORS for the configured origin only', async () => {
  const { url } = pasted.mcpServers.files;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const post = (headers) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  assert.equal((await post({ Authorization: 'Bearer nope' })).status, 401);
  assert.equal((await post({})).status, 401);
  assert.equal((await post({ ...pasted.mcpServers.files.headers, Origin: 'https://evil.example' })).status, 403);
  const ok = await post({ ...pasted.mcpServers.files.headers, Origin: PAGE });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('access-control-allow-origin'), PAGE);
  const pre = await fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: PAGE, 'Access-Control-Request-Method': 'POST' },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), PAGE);
  // DNS rebinding: a name that points at 127.0.0.1 still sends its own Host
  const { port } = new URL(url);
  const rebound = await new Promise((resolve) => {
    import('node:http').then(({ default: http }) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: new URL(url).pathname,
          method: 'POST',
          headers: {
            host: `evil.example:${port}`,
            'content-type': 'application/json',
            ...pasted.mcpServers.files.headers,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.end(body);
    });
  });
  assert.equal(rebound, 403);
});

test('bad input to the CLI: a clear message and exit code 2', async () => {
  const bin = cliPath();
  const run = (args) =>
    new Promise((resolve) => {
      const c = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      c.stderr.on('data', (d) => (err += d));
      c.once('exit', (code) => resolve({ code, err }));
    });
  const none = await run(['relay']);
  assert.equal(none.code, 2);
  assert.match(none.err, /usage/);
  const missing = await run(['relay', '--config', path.join(dir, 'nope.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read/);
  const noStdio = path.join(dir, 'web-only.json');
  writeFileSync(noStdio, JSON.stringify({ mcpServers: { web: { url: 'https://example.com/mcp' } } }));
  const r = await run(['relay', '--config', noStdio]);
  assert.equal(r.code, 1);
  assert.match(r.err, /no stdio server/);
});
