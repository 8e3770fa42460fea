// The relay's SSRF corpus: addresses and tricks an attacker would try, each refused with a clear
// status and message (a RelayRefusal: the relay marks it `mcp-relay-refusal`), and 0 forwarded,
// asserted after each target on a real upstream's connection log, so a failure names the target
// that got through. The recorder below listens on 127.0.0.1:<port>; open mode is told to accept
// that port, and the injected resolver points names at private addresses, so a check that failed
// would connect (a literal or `rebind.example.com` to the recorder itself). The same targets go
// through `guardedFetch` (the backend's fetch) with a fetch spy: a RelayRefusal, the spy idle.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { createNodeRelay, serveHandler } = await import(path.join(root, 'dist/relay/node/index.js'));
const { addressProblem, createGuard, guardedFetch, RelayRefusal } = await import(
  path.join(root, 'dist/relay/index.js')
);

const PAGE = 'https://chat.example';
const recorder = { connections: 0, requests: [] };
let rec, redirector, open, strict, limited, P;

const NAMES = {
  'rebind.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'v6loop.example.com': ['::1'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'cgnat.example.com': ['100.64.0.1'],
  'private.example.com': ['10.1.2.3'],
  'linklocal6.example.com': ['fe80::1'],
  'ula.example.com': ['fd12:3456::1'],
  'zero.example.com': ['0.0.0.0'],
  'metadata6.example.com': ['fd00:ec2::254'],
  'internal.example.com': ['10.0.0.5'],
  'siit.example.com': ['::ffff:0:a00:5'],
  'nat64local.example.com': ['64:ff9b:1::a00:5'],
  'sixtofour.example.com': ['2002:a00:5::1'],
  'benchmark.example.com': ['198.18.0.1'],
  'notip.example.com': ['not-an-address'],
};
// like DNS: case and one trailing dot make no other name
const resolve = async (host) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name in NAMES) return NAMES[name];
  throw new Error('NXDOMAIN');
};

function listen(server) {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server.address().port)));
}

before(async () => {
  rec = http.createServer((req, res) => {
    recorder.requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  rec.on('connection', () => recorder.connections++);
  P = await listen(rec);
  redirector = http.createServer((req, res) => {
    const to = new URL(req.url, 'http://x').searchParams.get('to');
    res.writeHead(307, { location: to }).end();
  });
  const R = await listen(redirector);
  // the raw requests below name the relay `relay` in their Host (it answers that name only)
  const common = { origins: [PAGE], resolve, requestTimeoutMs: 300, maxRequestBytes: 1024, allowedHosts: ['relay'] };
  // open mode (https, ports 443 and the recorder's), only the redirector allowlisted
  open = await serveHandler(
    createNodeRelay({ ...common, open: true, openPorts: [443, P], allow: [`http://127.0.0.1:${R}`], rateLimit: false }),
  );
  // allowlist mode naming the recorder: every refusal here is about the request itself
  strict = await serveHandler(createNodeRelay({ ...common, allow: [`http://127.0.0.1:${P}`], rateLimit: false }));
  limited = await serveHandler(
    createNodeRelay({ ...common, allow: [`http://127.0.0.1:${P}`], rateLimit: { requests: 2, perMs: 60_000 } }),
  );
  open.redirector = `http/127.0.0.1:${R}`;
});
after(async () => {
  await Promise.all([open?.close(), strict?.close(), limited?.close()]);
  await new Promise((r) => rec.close(r));
  await new Promise((r) => redirector.close(r));
});

const rpc = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const post = { method: 'POST', headers: { 'content-type': 'application/json', origin: PAGE }, body: rpc };

/** Targets refused by address or name in open mode (path after the relay's origin). */
function targetCorpus() {
  const at = (host) => `/https/${host}:${P}/mcp`;
  const redirect = (to) => `/${open.redirector}/go?to=${encodeURIComponent(to)}`;
  return [
    ['loopback', at('127.0.0.1')],
    ['loopback, other address', at('127.9.9.9')],
    ['short form 127.1', at('127.1')],
    ['integer form', at('2130706433')],
    ['hex form 0x7f.1', at('0x7f.1')],
    ['hex integer', at('0x7f000001')],
    ['octal form', at('0177.0.0.1')],
    ['zero-padded', at('127.000.000.001')],
    ['percent-encoded', at('%31%32%37.0.0.1')],
    ['encoded dots %2e', at('127%2e0%2e0%2e1')],
    ['ideographic full stops', at('127%E3%80%820%E3%80%820%E3%80%821')],
    ['fullwidth digits', at('%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1')],
    ['trailing dot on an address', at('127.0.0.1.')],
    ['unspecified 0.0.0.0', at('0.0.0.0')],
    ['bare 0', at('0')],
    ['IPv6 loopback', at('[::1]')],
    ['IPv6 loopback, long form', at('[0:0:0:0:0:0:0:1]')],
    ['IPv6 unspecified', at('[::]')],
    ['IPv6 zone id', at('[fe80::1%25eth0]')],
    ['IPv4-mapped loopback', at('[::ffff:127.0.0.1]')],
    ['IPv4-mapped hex', at('[::ffff:7f00:1]')],
    ['IPv4-mapped long form', at('[0:0:0:0:0:ffff:127.0.0.1]')],
    ['IPv4-mapped metadata', at('[::ffff:169.254.169.254]')],
    ['IPv4-compatible', at('[::127.0.0.1]')],
    ['IPv4-compatible, public address', at('[::93.184.216.34]')],
    ['NAT64 loopback', at('[64:ff9b::127.0.0.1]')],
    ['NAT64 metadata', at('[64:ff9b::a9fe:a9fe]')],
    ['NAT64 local-use 64:ff9b:1::/48 (private)', at('[64:ff9b:1::a00:1]')],
    ['NAT64 local-use 64:ff9b:1::/48 (loopback)', at('[64:ff9b:1:7f00:1::]')],
    ['SIIT IPv4-translated ::ffff:0:a.b.c.d', at('[::ffff:0:127.0.0.1]')],
    ['SIIT IPv4-translated, metadata', at('[::ffff:0:a9fe:a9fe]')],
    ['6to4 loopback', at('[2002:7f00:1::1]')],
    ['6to4 private', at('[2002:a00:1::1]')],
    ['Teredo', at('[2001:0:4136:e378:8000:63bf:3fff:fdd2]')],
    ['AWS metadata', at('169.254.169.254')],
    ['AWS metadata IPv6', at('[fd00:ec2::254]')],
    ['Alibaba metadata (CGNAT)', at('100.100.100.200')],
    ['metadata as integer', at('2852039166')],
    ['private 10/8', at('10.0.0.1')],
    ['private 172.16/12', at('172.16.0.1')],
    ['private 192.168/16', at('192.168.1.1')],
    ['CGNAT', at('100.64.0.1')],
    ['benchmarking 198.18/15', at('198.19.255.1')],
    ['IETF assignments 192.0.0/24', at('192.0.0.8')],
    ['reserved 240/4', at('240.0.0.1')],
    ['link-local IPv6', at('[fe80::1]')],
    ['unique local IPv6 fc00::/7', at('[fc00::1]')],
    ['unique local IPv6 fd', at('[fd12:3456::1]')],
    ['site-local IPv6', at('[fec0::1]')],
    ['multicast', at('224.0.0.1')],
    ['multicast IPv6', at('[ff02::1]')],
    ['broadcast', at('255.255.255.255')],
    ['localhost', at('localhost')],
    ['localhost, upper case and a trailing dot', at('LOCALHOST.')],
    ['sub.localhost', at('app.localhost')],
    ['GCP metadata name', at('metadata.google.internal')],
    ['single-label name', at('intranet')],
    ['.internal name', at('db.internal')],
    ['DNS name resolving to loopback', at('rebind.example.com')],
    ['DNS name resolving to loopback, trailing dot', at('rebind.example.com.')],
    ['DNS name with one private address among public ones', at('mixed.example.com')],
    ['DNS name resolving to IPv6 loopback', at('v6loop.example.com')],
    ['DNS name resolving to mapped metadata', at('mapped.example.com')],
    ['DNS name resolving to CGNAT', at('cgnat.example.com')],
    ['DNS name resolving to 10/8', at('private.example.com')],
    ['DNS name resolving to 10.0.0.5', at('internal.example.com')],
    ['DNS name resolving to link-local IPv6', at('linklocal6.example.com')],
    ['DNS name resolving to unique local IPv6', at('ula.example.com')],
    ['DNS name resolving to 0.0.0.0', at('zero.example.com')],
    ['DNS name resolving to metadata IPv6', at('metadata6.example.com')],
    ['DNS name resolving to SIIT', at('siit.example.com')],
    ['DNS name resolving to NAT64 local-use', at('nat64local.example.com')],
    ['DNS name resolving to 6to4 private', at('sixtofour.example.com')],
    ['DNS name resolving to benchmarking', at('benchmark.example.com')],
    ['DNS name resolving to something not an address', at('notip.example.com')],
    ['DNS name that does not resolve', at('nowhere.example.com')],
    ['plain http in open mode', `/http/example.com/mcp`],
    ['http to loopback', `/http/127.0.0.1:${P}/mcp`],
    ['odd port (ssh)', `/https/example.com:22/mcp`],
    ['odd port (redis)', `/https/example.com:6379/mcp`],
    ['userinfo', `/https/user:pass@example.com/mcp`],
    ['userinfo hiding loopback', `/https/example.com@127.0.0.1:${P}/mcp`],
    ['userinfo public@127.0.0.1', `/https/public@127.0.0.1:${P}/mcp`],
    ['encoded userinfo', `/https/example.com%40127.0.0.1:${P}/mcp`],
    ['backslash trick', `/https/example.com%5C@127.0.0.1:${P}/mcp`],
    ['other scheme', `/ftp/127.0.0.1/x`],
    ['file scheme', `/file/etc/passwd`],
    ['no target', `/`],
    ['redirect to plain http loopback', redirect(`http://127.0.0.1:${P}/mcp`)],
    ['redirect to https loopback', redirect(`https://127.0.0.1:${P}/mcp`)],
    ['redirect to a name resolving to loopback', redirect(`https://rebind.example.com:${P}/mcp`)],
    ['redirect to mapped loopback', redirect(`https://[::ffff:127.0.0.1]:${P}/mcp`)],
    ['redirect to 0x7f.1', redirect(`https://0x7f.1:${P}/mcp`)],
    ['redirect to NAT64 local-use', redirect(`https://[64:ff9b:1::7f00:1]:${P}/mcp`)],
    ['redirect to SIIT', redirect(`https://[::ffff:0:7f00:1]:${P}/mcp`)],
    ['redirect to metadata', redirect(`http://169.254.169.254/latest/meta-data/`)],
    ['redirect with credentials', redirect(`https://user:pw@example.com/`)],
  ];
}

test('SSRF corpus: every target refused (a RelayRefusal) with a status and a message, 0 forwarded', async () => {
  const corpus = targetCorpus();
  assert.ok(corpus.length >= 51, `${corpus.length} targets`);
  const results = [];
  for (const [name, target] of corpus) {
    const before = recorder.connections;
    const r = await fetch(open.url + target, post);
    const body = await r.json().catch(() => ({}));
    assert.equal(recorder.connections, before, `${name}: reached the upstream (${target})`);
    assert.ok([400, 403, 404].includes(r.status), `${name}: status ${r.status}`);
    assert.equal(r.headers.get('mcp-relay-refusal'), '1', `${name}: not the relay's own refusal`);
    assert.match(String(body.error), /\S{3}/, `${name}: a message`);
    results.push({ name, status: r.status, error: body.error });
  }
  // the messages say why: the class of an address the client wrote, a scheme, a port, credentials
  const byName = Object.fromEntries(results.map((r) => [r.name, r]));
  assert.match(byName['AWS metadata'].error, /link-local/);
  assert.match(byName['IPv4-mapped loopback'].error, /mapped loopback/);
  assert.match(byName['NAT64 local-use 64:ff9b:1::/48 (private)'].error, /NAT64 local-use/);
  assert.match(byName['SIIT IPv4-translated ::ffff:0:a.b.c.d'].error, /IPv4-translated/);
  assert.match(byName['plain http in open mode'].error, /https only/);
  assert.match(byName['odd port (ssh)'].error, /port 22/);
  assert.match(byName['userinfo'].error, /credentials/);
  assert.match(byName['redirect to NAT64 local-use'].error, /refused/);
  assert.equal(recorder.connections, 0, 'no connection reached the upstream');
  assert.deepEqual(recorder.requests, []);
});

/** What a refusal may not use to tell a client where an internal name points. */
const SAYS_WHERE =
  /\d+\.\d+\.\d+\.\d+|[0-9a-f]*::?[0-9a-f]+|loopback|private|link-local|local|NAT|metadata|mapped|unspecified/i;

test('a DNS name refused: the message tells neither the address nor its kind, and reads as one that does not resolve', async () => {
  const dnsCases = targetCorpus().filter(([name]) => name.startsWith('DNS name'));
  assert.ok(dnsCases.length >= 15);
  const answers = [];
  for (const [name, target] of dnsCases) {
    const r = await fetch(open.url + target, post);
    const { error } = await r.json();
    // what is left once the origin the client wrote is taken out must not say where it points
    const said = error.replace(/https:\/\/[^\s]+/, '<target>');
    assert.doesNotMatch(said, SAYS_WHERE, `${name}: "${error}" describes the internal address`);
    answers.push(`${r.status} ${said}`);
  }
  // NXDOMAIN and "resolves to 10.0.0.5" answer alike: no oracle for which internal names exist
  assert.deepEqual([...new Set(answers)], [answers[0]], 'DNS refusals differ by what the name resolves to');
  assert.equal(recorder.connections, 0);
});

test("the same corpus through guardedFetch (the backend hub's fetch): a RelayRefusal, the fetch never called", async () => {
  let called = 0;
  const spy = async () => (called++, new Response('{}', { headers: { 'content-type': 'application/json' } }));
  const f = guardedFetch(createGuard({ open: true, openPorts: [443, P], resolve, fetch: spy }));
  let tried = 0;
  for (const [name, target] of targetCorpus()) {
    const m = /^\/(https?)\/([^/?#]+)(\/[^?#]*)?$/.exec(target);
    if (!m) continue; // relay-path tricks (no target, other schemes, redirects): the relay's own part
    let url;
    try {
      url = new URL(`${m[1]}://${m[2]}${m[3] ?? '/'}`);
    } catch {
      continue; // not a URL at all (a zone id): nothing a fetch could be given
    }
    tried++;
    await assert.rejects(
      f(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc }),
      (e) => e instanceof RelayRefusal && [400, 403].includes(e.status),
      `${name}: not refused with a RelayRefusal`,
    );
    assert.equal(called, 0, `${name}: the fetch was called (${url.href})`);
  }
  assert.ok(tried >= 60, `${tried} targets tried`);
  // the control: a public address of the same shape is fetched
  await f(new URL(`https://93.184.216.34:${P}/mcp`), { method: 'POST', body: rpc });
  assert.equal(called, 1);
});

test('open mode: a resolver without a fetch that connects to the checked address is refused at creation (DNS rebinding)', async () => {
  const { createRelay } = await import(path.join(root, 'dist/relay/index.js'));
  for (const make of [
    () => createGuard({ open: true, resolve }),
    () => createRelay({ open: true, resolve }),
    () => guardedFetch({ open: true, resolve }),
  ])
    assert.throws(
      make,
      (e) =>
        e instanceof TypeError &&
        /needs a `fetch` that connects to the checked address/.test(e.message) &&
        /nodeUpstreamFetch/.test(e.message),
    );
  // what works: a pinning fetch given, Node's relay (which brings one), a public-only platform fetch
  assert.doesNotThrow(() => createGuard({ open: true, resolve, fetch: async () => new Response() }));
  assert.doesNotThrow(() => createNodeRelay({ open: true, resolve }));
  assert.doesNotThrow(() => createNodeRelay({ open: true, resolve, fetch: undefined }));
  assert.doesNotThrow(() => createGuard({ open: true, resolve, publicOnlyFetch: true }));
  assert.doesNotThrow(() => createGuard({ allow: ['https://mcp.example.com'], resolve }));
});

/** A raw HTTP/1.1 exchange: the status of the answer. */
function raw(url, text, { keepOpen = false } = {}) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m && data.includes('\r\n\r\n')) {
        socket.destroy();
        resolve({ status: Number(m[1]), text: data });
      }
    });
    socket.on('error', reject);
    if (!keepOpen) socket.on('end', () => resolve({ status: 0, text: data }));
  });
}

test('hop-by-hop headers, bodies, methods, origins and slow clients: refused, nothing forwarded', async () => {
  const target = `/http/127.0.0.1:${P}/mcp`;
  const req = (extra, body = rpc, method = 'POST', type = 'application/json') =>
    `${method} ${target} HTTP/1.1\r\nHost: relay\r\nOrigin: ${PAGE}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
  const cases = [
    ['Upgrade', req('Upgrade: websocket\r\nConnection: Upgrade\r\n'), 400],
    ['Connection naming an end-to-end header', req('Connection: authorization\r\n'), 400],
    ['Keep-Alive', req('Keep-Alive: timeout=5\r\n'), 400],
    ['Proxy-Authorization', req('Proxy-Authorization: Basic eDp5\r\n'), 400],
    ['TE', req('TE: gzip\r\n'), 400],
    ['malformed JSON', req('', '{"jsonrpc":'), 400],
    ['not UTF-8', req('', '\u00ff\u00fe'), 400],
    ['wrong content type', req('', rpc, 'POST', 'text/plain'), 415],
    ['declared oversize body', req('', 'x'.repeat(2048)), 413],
    ['PUT', req('', rpc, 'PUT'), 405],
    ['PATCH', req('', rpc, 'PATCH'), 405],
    ['body on DELETE', req('', rpc, 'DELETE'), 400],
    ['other origin', req('').replace(`Origin: ${PAGE}`, 'Origin: https://evil.example'), 403],
    [
      'chunked oversize body',
      `POST ${target} HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n${'x'.repeat(2048)}\r\n0\r\n\r\n`,
      413,
    ],
  ];
  for (const [name, text, want] of cases) {
    const r = await raw(strict.url, text);
    assert.equal(r.status, want, name);
    assert.match(r.text, /"error":"[^"]{5,}/, `${name}: a message`);
  }
  // a slow client: half its body, then nothing; answered 408 once requestTimeoutMs (300 ms) passes
  const slow = await raw(
    strict.url,
    `POST ${target} HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":`,
    { keepOpen: true },
  );
  assert.equal(slow.status, 408);
  assert.equal(recorder.connections, 0, 'nothing reached the upstream');
  assert.deepEqual(recorder.requests, []);
});

test('per-client rate limit: 429 with Retry-After past the budget; the control requests are forwarded', async () => {
  const target = `${limited.url}/http/127.0.0.1:${P}/mcp`;
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await fetch(target, post)).status);
  assert.deepEqual(statuses, [200, 200, 429, 429]);
  const r = await fetch(target, post);
  assert.equal(r.headers.get('retry-after'), '60');
  // the positive control: the recorder does see what the relay forwards
  assert.deepEqual(recorder.requests, ['POST /mcp', 'POST /mcp']);
});

test('address classes (unit): public addresses pass, every special range is named', () => {
  for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '1.1.1.1', '2a00:1450:4001::200e'])
    assert.equal(addressProblem(ok), null, ok);
  for (const bad of [
    '127.0.0.1',
    '::1',
    '::ffff:10.0.0.1',
    '169.254.0.1',
    '100.127.255.255',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    '64:ff9b:1::8.8.8.8',
    '::ffff:0:8.8.8.8',
    '::8.8.8.8',
    '2002:c0a8:101::1',
    '2001::1',
    'not-an-ip',
  ])
    assert.notEqual(addressProblem(bad), null, bad);
  // the translated forms of a public IPv4 address that do reach the Internet pass
  for (const ok of ['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])
    assert.equal(addressProblem(ok), null, ok);
});
