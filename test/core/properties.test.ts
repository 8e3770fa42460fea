// Property tests (fast-check): whatever a host or a user gives the server schemas and the mcp.json
// importer, the answer is a valid config or a typed McpConfigError naming fields, never another
// kind of throw, and a refused input stores nothing. Seeds are printed by fast-check on failure.
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import {
  McpConfigError,
  ServerConfigInputSchema,
  ServerConfigPatchSchema,
  ServerConfigSchema,
  fromMcpJson,
  urlProblem,
} from '../../src/core/index.js';
import { parseOrThrow } from '../../src/core/schemas.js';
import { privateHub, rawIdb } from '../helpers.js';

const HOSTILE = [
  '',
  ' ',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://127.0.0.1/x',
  'http://example.com/mcp',
  'http://10.0.0.1/mcp',
  'http://bob:PW@127.0.0.1:9/mcp',
  'https://user@example.com/mcp',
  'http://127.0.0.1:9/m\r\ncp',
  'http://127.0.0.1:9/\u0000',
  `https://example.com/${'a'.repeat(10_000)}`,
  'http://[::1]:9/mcp',
  'http://localhost:9/mcp',
  'https://example.com/mcp',
  'abc\u202Eexe.moc',
  'a\u0000b',
  'x\u2066y\u2069',
  '<img src=x onerror=alert(1)>',
  '__proto__',
  'constructor',
  '{{7*7}}',
];
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.webUrl(),
);
const anyValue = fc.oneof(hostileString, fc.anything({ maxDepth: 2 }), fc.integer(), fc.double(), fc.boolean());
/** Objects shaped like server configs, every field possibly wrong. */
const configLike = fc.record(
  {
    id: anyValue,
    name: hostileString,
    url: hostileString,
    description: anyValue,
    transport: fc.oneof(fc.constantFrom('auto', 'streamable-http', 'sse', 'jsonrpc', 'stdio'), anyValue),
    auth: fc.oneof(
      fc.record({ type: fc.constantFrom('none', 'bearer', 'api-key', 'basic', 'oauth'), token: anyValue }),
      fc.record({ type: fc.constant('basic'), username: hostileString, password: anyValue }),
      anyValue,
    ),
    headers: fc.oneof(fc.array(fc.record({ name: hostileString, value: anyValue, secret: anyValue })), anyValue),
    timeout: anyValue,
    retries: anyValue,
    enabled: anyValue,
  },
  { requiredKeys: [] },
);

/** Configs that are valid but for at most a few hostile touches, so both answers are exercised. */
const BAD_CHARS = ['\u0000', '\r', '\n', '\t', '\u001b', '\u007f', '\u202a', '\u202e', '\u2066', '\u2069'];
const insertAt = (s: string, at: number, what: string) => {
  const i = at % (s.length + 1);
  return s.slice(0, i) + what + s.slice(i);
};
const goodUrl = fc.oneof(
  fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
  fc.nat(65535).map((p) => `http://127.0.0.1:${p}/mcp`),
  fc.constantFrom('http://localhost:9/mcp', 'http://[::1]:9/mcp'),
);
const touchedUrl = fc.oneof(
  goodUrl,
  fc
    .tuple(goodUrl, fc.constantFrom('bob:PW@', 'bob@', ':PW@', 'a%40b:c%3Ad@'))
    .map(([u, cred]) => u.replace('://', `://${cred}`)),
  fc.tuple(goodUrl, fc.nat(), fc.constantFrom(...BAD_CHARS)).map(([u, at, c]) => insertAt(u, at, c)),
);
const goodName = fc.string({ minLength: 1, maxLength: 30 }).filter((n) => n.trim().length > 0);
const touchedName = fc.oneof(
  goodName,
  fc.tuple(goodName, fc.nat(), fc.constantFrom(...BAD_CHARS)).map(([n, at, c]) => insertAt(n, at, c)),
);
const nearlyValid = fc.record({ name: touchedName, url: touchedUrl });

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/** A McpConfigError whose every issue is a (path, sentence) pair. */
function expectTypedRefusal(e: unknown) {
  expect(e, String(e)).to.be.instanceOf(McpConfigError);
  const issues = (e as McpConfigError).issues;
  expect(issues.length).to.be.greaterThan(0);
  for (const i of issues) {
    expect(i.path).to.be.a('string');
    expect(i.message).to.be.a('string').and.not.be.empty;
  }
}

/** What every accepted config must satisfy, whatever produced it. */
function expectSafeConfig(c: { name: string; url: string }) {
  expect(urlProblem(c.url)).to.equal(null);
  const u = new URL(c.url);
  expect(u.username + u.password).to.equal('');
  expect(CONTROL_OR_BIDI.test(c.url)).to.equal(false);
  expect(CONTROL_OR_BIDI.test(c.name)).to.equal(false);
  expect(c.name.trim()).to.equal(c.name);
  expect(c.name.length).to.be.within(1, 100);
}

describe('properties: server schemas', () => {
  it('any input to the add schema parses to a safe config or throws McpConfigError', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyValid, configLike, anyValue), (input) => {
        let parsed;
        try {
          parsed = parseOrThrow(ServerConfigInputSchema, input);
        } catch (e) {
          expectTypedRefusal(e);
          return;
        }
        expectSafeConfig(parsed);
      }),
      { numRuns: 400 },
    );
  });

  it('any patch parses to safe fields or throws McpConfigError', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyValid, configLike, anyValue), (input) => {
        let parsed;
        try {
          parsed = parseOrThrow(ServerConfigPatchSchema, input);
        } catch (e) {
          expectTypedRefusal(e);
          return;
        }
        if (parsed.url !== undefined) expect(urlProblem(parsed.url)).to.equal(null);
        if (parsed.name !== undefined) expect(CONTROL_OR_BIDI.test(parsed.name)).to.equal(false);
      }),
      { numRuns: 400 },
    );
  });

  it('hub.servers.add: a stored, valid record or a McpConfigError with nothing stored', async () => {
    const hub = privateHub();
    await hub.ready;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearlyValid, configLike), async (input) => {
        const before = hub.servers.list().length;
        try {
          const s = await hub.servers.add(input as never);
          stored++;
          expect(ServerConfigSchema.safeParse(s).success).to.equal(true);
          expectSafeConfig(s);
          expect(hub.servers.list().length).to.equal(before + 1);
        } catch (e) {
          expectTypedRefusal(e);
          expect(hub.servers.list().length).to.equal(before);
        }
      }),
      { numRuns: 60 },
    );
    const raw = await rawIdb(hub.storeName);
    expect(raw.filter((r) => r.key.startsWith('server:'))).to.have.length(stored);
  });
});

describe('properties: the mcp.json importer', () => {
  const entry = fc.oneof(
    fc.record({ url: touchedUrl }),
    fc.record(
      {
        url: hostileString,
        type: fc.oneof(fc.constantFrom('http', 'streamable-http', 'sse', 'jsonrpc', 'stdio'), anyValue),
        headers: fc.oneof(fc.dictionary(hostileString, anyValue, { maxKeys: 4 }), anyValue),
        description: anyValue,
        timeout: anyValue,
        retries: anyValue,
        enabled: anyValue,
        command: anyValue,
      },
      { requiredKeys: [] },
    ),
    anyValue,
  );
  const doc = fc.oneof(
    fc.record({ mcpServers: fc.dictionary(touchedName, entry, { maxKeys: 5 }) }),
    fc.record({ mcpServers: fc.dictionary(hostileString, entry, { maxKeys: 5 }) }),
    fc.record({ servers: fc.dictionary(hostileString, entry, { maxKeys: 5 }) }),
    fc.record({ mcpServers: anyValue }),
    anyValue,
  );
  const text = fc.oneof(
    doc.map((d) => {
      try {
        return JSON.stringify(d) ?? 'undefined';
      } catch {
        return '{}';
      }
    }),
    fc.string(),
    fc.json(),
    fc.constantFrom('', '{', 'null', '[]', '{"mcpServers":null}', '{"mcpServers":[]}', '{"__proto__":{"x":1}}'),
  );

  it('any text: entries that validate, errors per entry, or a McpConfigError; never another throw', () => {
    fc.assert(
      fc.property(text, (t) => {
        let r;
        try {
          r = fromMcpJson(t);
        } catch (e) {
          expectTypedRefusal(e);
          return;
        }
        for (const e of r.entries) {
          const p = ServerConfigInputSchema.safeParse(e.input);
          expect(p.success, JSON.stringify(e.input)).to.equal(true);
          if (p.success) expectSafeConfig(p.data);
        }
        for (const e of r.errors) expectTypedRefusal(new McpConfigError(e.issues));
      }),
      { numRuns: 400 },
    );
  });

  it('hub.importConfig: stores exactly what it reports as added, each valid', async () => {
    const hub = privateHub();
    await hub.ready;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const before = hub.servers.list().length;
        try {
          const r = await hub.importConfig(t);
          total += r.added.length;
          for (const s of r.added) {
            expect(ServerConfigSchema.safeParse(s).success).to.equal(true);
            expectSafeConfig(s);
          }
          expect(hub.servers.list().length).to.equal(before + r.added.length);
        } catch (e) {
          expectTypedRefusal(e);
          expect(hub.servers.list().length).to.equal(before);
        }
      }),
      { numRuns: 40 },
    );
    const raw = await rawIdb(hub.storeName);
    expect(raw.filter((r) => r.key.startsWith('server:'))).to.have.length(total);
  });
});
