// Servers nobody here wrote, pinned in package.json, each on 127.0.0.1 only (checked in
// /proc/net/tcp*, not assumed): `fastmcp` 4.20.16 over Streamable HTTP (/mcp) and legacy HTTP+SSE
// (/sse), and `mcp-proxy` 6.7.19 in front of the reference server over stdio
// (server-everything `stdio`), and Cloudflare's `agents` McpAgent in workerd through Miniflare
// (test/fixtures/cf-agent/: Streamable HTTP at /mcp, legacy HTTP+SSE at /sse). Each is listed and
// called through the hub (a Node host: memory storage, the documented API) and through the bare
// SDK client in the same test; the two must see the same tools and get the same results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort } from '../fixtures/servers.mjs';
import { startCfAgent } from '../fixtures/cf-agent/start.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { McpHub, MemoryStorage } = await import(path.join(root, 'dist/core/index.js'));
const loopback = path.join(root, 'test/fixtures/loopback.cjs');
const pkgVersion = (name) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** Start a server process (with the loopback preload) and wait for its `ready` line. */
function start(args, env, ready) {
  const child = spawn(process.execPath, ['-r', loopback, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`not ready in 30 s:\n${out}`)), 30000);
    const fail = (e) => {
      clearTimeout(timer);
      child.kill();
      reject(e);
    };
    const look = (d) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ stop: () => new Promise((r) => (child.once('exit', r), child.kill())) });
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => fail(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** The local addresses of the sockets listening on `port` (hex as in /proc/net/tcp: 0100007F is 127.0.0.1). */
function listeners(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .filter((c) => c[1]?.endsWith(`:${hex}`) && c[3] === '0A')
      .map((c) => c[1].split(':')[0]),
  );
}
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F']);

/** `pid` and all its descendants (from /proc/<pid>/task/<tid>/children). */
function processTree(pid) {
  const tasks = readdirSync(`/proc/${pid}/task`);
  const children = tasks.flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

/** Every listening TCP socket held by `pid` or its descendants, as hex `address:port` from /proc/net/tcp*. */
function listeningSocketsOf(pid) {
  const inodes = new Set(
    processTree(pid).flatMap((p) =>
      readdirSync(`/proc/${p}/fd`).flatMap((fd) => {
        try {
          return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${p}/fd/${fd}`))?.[1]].filter(Boolean);
        } catch {
          return []; // closed meanwhile
        }
      }),
    ),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .filter((c) => c[3] === '0A' && inodes.has(c[9]))
      .map((c) => c[1]),
  );
}

/** 127.0.0.0/8 (IPv4 or IPv4-mapped; /proc writes each 32-bit word little-endian, so 7F comes last) or ::1. */
const isLoopback = (hexAddress) =>
  /^(?:0000000000000000FFFF0000)?[0-9A-F]{6}7F$/.test(hexAddress) || hexAddress === '00000000000000000000000001000000';

/** The listening sockets on `port`, once there is one (a server may print its line before it listens). */
async function boundTo(port) {
  for (let i = 0; i < 200; i++) {
    const found = listeners(port);
    if (found.length) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

/** What the hub declares (no sampling handler set), so the bare client sees the same tool list. */
const CAPABILITIES = { elicitation: { form: { applyDefaults: true }, url: {} }, roots: { listChanged: true } };

/** List and call through the bare SDK client. */
async function bare(url, transport, call) {
  const client = new Client({ name: 'bare-sdk', version: '1.0.0' }, { capabilities: CAPABILITIES });
  await client.connect(
    transport === 'sse' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url)),
  );
  try {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    return { tools: tools.map((t) => t.name).sort(), content: result.content };
  } finally {
    await client.close();
  }
}

/** List and call through the hub, as a Node host does. */
async function viaHub(url, transport, call) {
  const hub = new McpHub({ storage: new MemoryStorage(), eventTarget: null, broadcast: false });
  try {
    const s = await hub.servers.add({ name: 'third party', url, transport, retries: 1 });
    const catalogue = await hub.connect(s.id);
    const record = await hub.callTool({ serverId: s.id, tool: call.name, arguments: call.arguments, source: 'user' });
    assert.equal(record.status, 'success', `${call.name}: ${record.error?.code} ${record.error?.message}`);
    return {
      tools: catalogue.tools.map((t) => t.name).sort(),
      content: record.result.content,
      transport: catalogue.transport,
    };
  } finally {
    await hub.dispose();
  }
}

async function compare(url, transport, call, expectText) {
  const [a, b] = [await viaHub(url, transport, call), await bare(url, transport, call)];
  assert.equal(a.transport, transport);
  assert.ok(a.tools.length > 0);
  assert.deepEqual(a.tools, b.tools, 'the hub lists what the bare client lists');
  assert.deepEqual(a.content, b.content, 'the hub gets what the bare client gets');
  assert.match(JSON.stringify(a.content), expectText);
}

test(`fastmcp ${pkgVersion('fastmcp')}: Streamable HTTP and SSE, hub = bare SDK client; bound to 127.0.0.1 only`, async () => {
  const port = await freePort();
  const server = await start(['test/fixtures/fastmcp-server.mjs'], { PORT: String(port) }, /^ready$/m);
  try {
    const bound = await boundTo(port);
    assert.ok(bound.length > 0 && bound.every((a) => LOOPBACK.has(a)), `listening on ${bound.join(', ')}`);
    const call = { name: 'add', arguments: { a: 2, b: 3 } };
    await compare(`http://127.0.0.1:${port}/mcp`, 'streamable-http', call, /"5"/);
    await compare(`http://127.0.0.1:${port}/sse`, 'sse', call, /"5"/);
  } finally {
    await server.stop();
  }
});

test(`mcp-proxy ${pkgVersion('mcp-proxy')} in front of server-everything (stdio): hub = bare SDK client; bound to 127.0.0.1 only`, async () => {
  const port = await freePort();
  const proxy = await start(
    [
      'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--',
      process.execPath,
      'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      'stdio',
    ],
    {},
    /starting server on port/,
  );
  try {
    const bound = await boundTo(port);
    assert.ok(bound.length > 0 && bound.every((a) => LOOPBACK.has(a)), `listening on ${bound.join(', ')}`);
    const call = { name: 'echo', arguments: { message: 'through the proxy' } };
    await compare(`http://127.0.0.1:${port}/mcp`, 'streamable-http', call, /Echo: through the proxy/);
    await compare(`http://127.0.0.1:${port}/sse`, 'sse', call, /Echo: through the proxy/);
  } finally {
    await proxy.stop();
  }
});

test(`agents ${pkgVersion('agents')} McpAgent in workerd (miniflare ${pkgVersion('miniflare')}): Streamable HTTP and SSE, hub = bare SDK client; every socket of workerd and miniflare on 127.0.0.0/8`, async () => {
  const worker = await startCfAgent();
  try {
    const sockets = listeningSocketsOf(worker.pid);
    const port = new URL(worker.url).port;
    const portHex = Number(port).toString(16).toUpperCase().padStart(4, '0');
    assert.ok(
      sockets.some((s) => s.endsWith(`:${portHex}`)),
      `the worker's port ${port} is among ${sockets.join(', ')}`,
    );
    assert.ok(
      sockets.every((s) => isLoopback(s.split(':')[0])),
      `listening on ${sockets.join(', ')}`,
    );
    for (const transport of ['streamable-http', 'sse']) {
      const url = `${worker.url}/${transport === 'sse' ? 'sse' : 'mcp'}`;
      await compare(url, transport, { name: 'add', arguments: { a: 2, b: 3 } }, /"5"/);
      await compare(url, transport, { name: 'echo', arguments: { message: 'from workerd' } }, /Echo: from workerd/);
    }
  } finally {
    await worker.stop();
  }
});

test(`agents ${pkgVersion('agents')} McpAgent over legacy SSE: its POSTs are answered 202 text/event-stream "Accepted", and 20 of 20 connect+call attempts through the hub succeed (issue 22 item 8)`, async () => {
  const worker = await startCfAgent();
  try {
    // The quirk itself, read off the wire: the GET stream names the POST endpoint; the POST's
    // answer is a 202 whose type claims an event stream, the result comes on the GET stream.
    const controller = new AbortController();
    const stream = await fetch(`${worker.url}/sse`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!/event: endpoint\r?\ndata: (\S+)/.test(seen)) seen += (await reader.read()).value;
    const endpoint = new URL(/event: endpoint\r?\ndata: (\S+)/.exec(seen)[1], worker.url);
    const post = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'wire', version: '1' } },
      }),
    });
    assert.equal(post.status, 202);
    assert.match(post.headers.get('content-type'), /^text\/event-stream/);
    assert.equal(await post.text(), 'Accepted');
    while (!/"id":1\b/.test(seen)) seen += (await reader.read()).value;
    assert.match(seen, /"serverInfo"/, 'the initialize result came on the GET stream');
    controller.abort();

    const failures = [];
    for (let i = 0; i < 20; i++) {
      try {
        const call = { name: 'slow-echo', arguments: { message: `attempt ${i}`, ms: 100 } };
        const { content } = await viaHub(`${worker.url}/sse`, 'sse', call);
        assert.deepEqual(content, [{ type: 'text', text: `Echo: attempt ${i}` }]);
      } catch (e) {
        failures.push(`attempt ${i}: ${e.message}`);
      }
    }
    assert.deepEqual(failures, [], `${20 - failures.length} of 20 succeeded`);
  } finally {
    await worker.stop();
  }
});
