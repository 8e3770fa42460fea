// The backend chat handler's per-request secrets (issue 33 item 4) and the checks the mutation
// audit found untested: a request's header values redact only its own servers' results and leave
// with the request, are never written in clear to `storage`, key the discovery cache (two users'
// credentials never share a catalogue), and the hub reaches servers only through the guard.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { startFakeOpenAI } from '../../fixtures/fake-openai.mjs';
import { readChatStream } from './chat-stream.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createChatHandler, McpHub, MemoryStorage } = await import(path.join(root, 'dist/server/index.js'));
const { serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/**
 * A stateless MCP server whose tools depend on the caller's bearer token: `only_<user>` (one per
 * user), and `status`, which answers "your order is approved" — for alice only once the test says.
 */
async function startTokenPeer() {
  const peer = { requests: [] };
  let release;
  peer.aliceHeld = new Promise((held) => {
    const gate = new Promise((r) => (release = r));
    peer.releaseAlice = release;
    peer.aliceGate = () => (held(), gate);
  });
  const mcp = createMcpHandler(
    ({ requestInfo }) => {
      const user = /^Bearer (\w+)$/.exec(requestInfo?.headers.get('authorization') ?? '')?.[1] ?? 'nobody';
      const server = new McpServer({ name: 'token-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
      const args = { message: z.string().optional() };
      server.registerTool(
        `only_${user}`,
        { description: `A tool of ${user}'s account`, inputSchema: z.object(args) },
        async () => text(`${user}'s own tool`),
      );
      server.registerTool('status', { description: 'The order status', inputSchema: z.object(args) }, async () => {
        if (user === 'alice') await peer.aliceGate();
        return text('your order is approved');
      });
      return server;
    },
    { legacy: 'stateless' },
  );
  const served = await serveHandler(async (request) => {
    peer.requests.push({ url: request.url, authorization: request.headers.get('authorization') });
    return mcp.fetch(request);
  });
  peer.url = `${served.url}/mcp`;
  peer.close = async () => {
    await mcp.close?.().catch(() => {});
    await served.close();
  };
  return peer;
}

let peer, model;
before(async () => {
  [peer, model] = await Promise.all([startTokenPeer(), startFakeOpenAI({ wants: ['p__status', 'q__status'] })]);
});
after(async () => Promise.all([peer?.close(), model?.close()]));

const handlerWith = (extra = {}) =>
  createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [new URL(peer.url).origin] },
    ...extra,
  });
const chat = (h, servers, content = 'hi') =>
  h(
    new Request('http://backend/chat', {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content }], mcp_servers: servers }),
    }),
  ).then(readChatStream);
const answerOf = (events) => events.find((e) => e.event === 'done')?.data.message.content ?? JSON.stringify(events);

test("one user's header value never blanks a word in another user's tool result, and leaves with its request", async () => {
  const h = handlerWith();
  try {
    // alice's request: her header value is a common word; her status call is held at the server
    const alice = chat(h, [
      { name: 'p', url: peer.url, headers: { Authorization: 'Bearer alice', 'X-Note': 'approved' } },
    ]);
    await peer.aliceHeld;
    assert.ok(h.hub.secretsHeld >= 2, `alice's secrets are held while her request runs (${h.hub.secretsHeld})`);
    // bob's request runs to its end meanwhile: his result is his, whatever alice sent (his server
    // has a name of its own: two requests' servers of one name share the hub's tool names)
    const bob = answerOf(await chat(h, [{ name: 'q', url: peer.url, headers: { Authorization: 'Bearer bob' } }]));
    assert.match(bob, /your order is approved/, `bob's result was redacted with alice's secret: ${bob}`);
    peer.releaseAlice();
    // alice's own result is scrubbed of her own secret (a server repeating it back)
    assert.match(answerOf(await alice), /your order is \[redacted\]/);
    // after both, the hub holds none of their values
    assert.equal(h.hub.secretsHeld, 0, 'no secret outlives its request');
    const after = answerOf(await chat(h, [{ name: 'p', url: peer.url }]));
    assert.match(after, /your order is approved/, 'a later request is not redacted with an earlier one');
  } finally {
    await h.hub.dispose();
  }
});

test('after N requests with distinct header values the hub holds none of them', async () => {
  const h = handlerWith();
  try {
    for (let i = 0; i < 6; i++) {
      const events = await chat(h, [
        { name: 'p', url: peer.url, headers: { 'X-Api-Key': `key-${i}-${crypto.randomUUID()}` } },
      ]);
      assert.ok(events.some((e) => e.event === 'done'));
      assert.equal(h.hub.secretsHeld, 0, `secrets held after request ${i + 1}: ${h.hub.secretsHeld}`);
    }
    assert.deepEqual(h.hub.servers.list(), []);
  } finally {
    await h.hub.dispose();
  }
});

/** A RecordStorage that remembers every value written to it. */
class RecordingStorage extends MemoryStorage {
  written = [];
  async set(key, value) {
    this.written.push([key, value]);
    return super.set(key, value);
  }
  async update(key, fn) {
    const v = await super.update(key, fn);
    this.written.push([key, v]);
    return v;
  }
  async batch(writes, deletes) {
    this.written.push(...writes);
    return super.batch(writes, deletes);
  }
}

/** Whether `needle` appears anywhere in `value`: strings, keys, bytes (as Latin-1), nested. */
function holds(value, needle, seen = new Set()) {
  if (typeof value === 'string') return value.includes(needle);
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('latin1').includes(needle);
  if (ArrayBuffer.isView(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1').includes(needle);
  if (!value || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  return Object.entries(value).some(([k, v]) => k.includes(needle) || holds(v, needle, seen));
}

test('per-request secret headers are never written in clear to storage', async () => {
  const storage = new RecordingStorage();
  const h = handlerWith({ storage });
  const secrets = ['carol-token-5e1f0a', 'api-key-77c3d9b2'];
  try {
    const events = await chat(h, [
      { name: 'p', url: peer.url, headers: { Authorization: `Bearer ${secrets[0]}`, 'X-Api-Key': secrets[1] } },
    ]);
    assert.ok(events.some((e) => e.event === 'done'));
    assert.ok(
      storage.written.some(([k]) => k.startsWith('server:')),
      'the server record went through storage',
    );
    for (const s of secrets) {
      const leaked = storage.written.filter(([, v]) => holds(v, s)).map(([k]) => k);
      assert.deepEqual(leaked, [], `${s} was written in clear under ${leaked.join(', ')}`);
    }
    // the sealed copies left with the request too
    assert.deepEqual(
      (await storage.entries()).filter(([k]) => k.startsWith('secret:sec_')).map(([k]) => k),
      [],
      'no sealed secret kept after the request',
    );
  } finally {
    await h.hub.dispose();
  }
});

test("the discovery cache is keyed by the request's headers: each user's credentials list their own tools", async () => {
  const h = handlerWith();
  const offered = async (user) => {
    const at = model.requests.length;
    const events = await chat(h, [{ name: 'p', url: peer.url, headers: { Authorization: `Bearer ${user}` } }]);
    assert.ok(events.some((e) => e.event === 'done'));
    return model.requests[at].body.tools.map((t) => t.function.name);
  };
  try {
    const listsBefore = peer.requests.length;
    assert.ok((await offered('dave')).includes('p__only_dave'));
    const erin = await offered('erin');
    assert.ok(erin.includes('p__only_erin'), `erin was offered ${erin.join(', ')}: dave's cached catalogue`);
    assert.ok(!erin.includes('p__only_dave'), "erin was offered a tool of dave's account");
    // the same user again within the TTL: cached (no new listing needed) and still hers
    const again = await offered('erin');
    assert.deepEqual(again, erin);
    const erinLists = peer.requests.slice(listsBefore).filter((r) => r.authorization === 'Bearer erin').length;
    assert.ok(erinLists > 0, "erin's own credentials reached the server");
  } finally {
    await h.hub.dispose();
  }
});

test('the hub reaches servers only through the guard: a redirect to a server off the allowlist is refused, nothing reaches it', async () => {
  // the victim: a loopback server not on the allowlist
  let reached = 0;
  const victim = http.createServer(
    (_, res) => (reached++, res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
  );
  await new Promise((r) => victim.listen(0, '127.0.0.1', r));
  const victimUrl = `http://127.0.0.1:${victim.address().port}/mcp`;
  // the allowlisted front redirects every request there
  const front = http.createServer((_, res) => res.writeHead(307, { location: victimUrl }).end());
  await new Promise((r) => front.listen(0, '127.0.0.1', r));
  const frontUrl = `http://127.0.0.1:${front.address().port}/mcp`;
  const h = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: { allow: [new URL(frontUrl).origin] },
  });
  try {
    const events = await chat(h, [
      { name: 'front', url: frontUrl },
      { name: 'direct', url: victimUrl },
    ]);
    const outcomes = Object.fromEntries(events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data]));
    assert.equal(outcomes.direct.status, 'failed');
    assert.match(outcomes.direct.error, /allowlist/);
    assert.equal(outcomes.front.status, 'failed');
    assert.equal(reached, 0, `the server off the allowlist received ${reached} requests`);
  } finally {
    await h.hub.dispose();
    await Promise.all([new Promise((r) => victim.close(r)), new Promise((r) => front.close(r))]);
  }
});

test("the hub's requests go through the guard: each pinned to the checked address, a name rebinding to loopback refused", async () => {
  const port = new URL(peer.url).port;
  const resolved = [];
  const sent = [];
  const h = createChatHandler({
    model: { baseUrl: model.url, model: 'fake-1' },
    servers: {
      open: true,
      openPorts: [Number(port)],
      // pinned.example is public; rebind.example answers public once (the first check), then loopback
      resolve: async (host) => {
        resolved.push(host);
        const n = resolved.filter((x) => x === host).length;
        return host === 'rebind.example' && n > 1 ? ['127.0.0.1'] : ['93.184.216.34'];
      },
      // the "network": both names lead to the token peer on loopback (what pinning must keep out)
      fetch: (url, init) => {
        sent.push({ host: new URL(url).hostname, address: init.address });
        const u = new URL(url);
        return fetch(`http://127.0.0.1:${port}${u.pathname}${u.search}`, { ...init, address: undefined });
      },
    },
  });
  try {
    const events = await chat(h, [
      { name: 'pinned', url: `https://pinned.example:${port}/mcp` },
      { name: 'rebind', url: `https://rebind.example:${port}/mcp` },
    ]);
    const outcomes = Object.fromEntries(events.filter((e) => e.event === 'server').map((e) => [e.data.name, e.data]));
    const pinned = sent.filter((s) => s.host === 'pinned.example');
    assert.ok(pinned.length > 0, "the hub's requests did not go through the guard's fetch");
    assert.deepEqual(
      [...new Set(pinned.map((s) => s.address))],
      ['93.184.216.34'],
      'each pinned to the checked address',
    );
    assert.equal(outcomes.pinned.status, 'ready');
    assert.equal(outcomes.rebind.status, 'failed');
    // checked when admitted, then again when the hub connected: the second answer was loopback
    assert.ok(resolved.filter((x) => x === 'rebind.example').length > 1, 'the name was resolved again to connect');
    assert.equal(sent.filter((s) => s.host === 'rebind.example').length, 0, 'nothing was sent to the rebound name');
  } finally {
    await h.hub.dispose();
  }
});

test("secretScope: a page's hub ('hub', the default) scrubs every secret it handled from every result; 'server' only the call's own server's", async () => {
  const scrubbed = async (secretScope) => {
    const hub = new McpHub({
      storeName: `scope-${secretScope}-${Math.random()}`,
      storage: new MemoryStorage(),
      eventTarget: null,
      broadcast: false,
      ...(secretScope ? { secretScope } : {}),
    });
    try {
      const a = await hub.servers.add({
        name: 'a',
        url: peer.url,
        headers: [{ name: 'X-Note', value: 'approved', secret: true }],
      });
      const b = await hub.servers.add({ name: 'b', url: peer.url });
      await Promise.all([hub.connect(a.id), hub.connect(b.id)]);
      const call = await hub.callTool({ serverId: b.id, tool: 'status', arguments: {}, source: 'user' });
      const held = hub.secretsHeld;
      await hub.servers.remove(a.id);
      return { text: call.result.content[0].text, held, after: hub.secretsHeld };
    } finally {
      await hub.dispose();
    }
  };
  const page = await scrubbed(undefined);
  assert.equal(page.text, 'your order is [redacted]', "a page scrubs server a's secret from server b's result");
  assert.equal(page.after, 1, "a page keeps scrubbing a removed server's secret");
  const backend = await scrubbed('server');
  assert.equal(backend.text, 'your order is approved');
  assert.equal(backend.held, 1);
  assert.equal(backend.after, 0);
});
