// Property tests (fast-check): whatever a host or a user gives the server schemas and the mcp.json
// importer, the answer is a valid config or a typed McpConfigError naming fields, never another
// kind of throw, and a refused input stores nothing. Seeds are printed by fast-check on failure.
// Each property also gets inputs that are valid or invalid by construction (written from the
// documented policy, not from the schemas) and requires the verdict for them: 30–50 % of the
// inputs are valid, and every one of those must be accepted, so a schema that refuses everything
// fails here as surely as one that lets a bad URL through.
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

/** Configs valid by the documented policy: a printable name, https or loopback http, fields in range. */
const validConfig = fc.record(
  {
    name: goodName,
    url: goodUrl,
    description: fc.string({ maxLength: 200 }),
    transport: fc.constantFrom('auto', 'streamable-http', 'sse', 'jsonrpc'),
    auth: fc.oneof(
      fc.constant({ type: 'none' }),
      fc.record({ type: fc.constant('bearer'), token: fc.string({ minLength: 1, maxLength: 40 }) }),
    ),
    timeout: fc.integer({ min: 1, max: 300 }),
    retries: fc.integer({ min: 0, max: 5 }),
    enabled: fc.boolean(),
  },
  { requiredKeys: ['name', 'url'] },
);
/** One thing the policy forbids, as the fields to put over a valid config. */
const defect = fc.oneof(
  fc.tuple(goodName, fc.constantFrom(...BAD_CHARS)).map(([n, c]) => ({ name: `a${c}${n}` })),
  fc.tuple(goodUrl, fc.constantFrom('bob:PW@', 'bob@', ':PW@')).map(([u, c]) => ({ url: u.replace('://', `://${c}`) })),
  fc.tuple(goodUrl, fc.constantFrom(...BAD_CHARS)).map(([u, c]) => ({ url: u.replace('://', `://a${c}`) })),
  fc.constantFrom<Record<string, unknown>>(
    { name: '   ' },
    { name: 'x'.repeat(101) },
    { url: 'http://example.com/mcp' },
    { url: 'http://10.0.0.1/mcp' },
    { url: 'ftp://127.0.0.1/x' },
    { url: 'javascript:alert(1)' },
    { url: 'not a url' },
    { timeout: 0 },
    { timeout: 301 },
    { timeout: 1.5 },
    { retries: 6 },
    { retries: -1 },
    { enabled: 'yes' },
    { command: 'rm -rf /' },
    { auth: { type: 'bearer', token: '' } },
    { auth: { type: 'bearer', token: 'a\nb' } },
  ),
);
const invalidConfig = fc.tuple(validConfig, defect).map(([c, d]) => ({ ...c, ...d }));

type Verdict = 'valid' | 'invalid' | 'either';
interface Case {
  input: unknown;
  verdict: Verdict;
}
const as =
  (verdict: Verdict) =>
  (input: unknown): Case => ({ input, verdict });
/** 40 % valid by construction, 30 % invalid by construction, 30 % anything (nearly always refused). */
const configCases = (valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>, any: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { arbitrary: valid.map(as('valid')), weight: 4 },
    { arbitrary: invalid.map(as('invalid')), weight: 3 },
    { arbitrary: any.map(as('either')), weight: 3 },
  );

/** Counts what a property saw, and requires that the share of accepted inputs is 30–50 %. */
function tally() {
  const t = { runs: 0, accepted: 0 };
  return {
    t,
    saw(accepted: boolean) {
      t.runs++;
      if (accepted) t.accepted++;
    },
    expectShare(min = 0.3, max = 0.5) {
      expect(t.runs).to.be.greaterThan(0);
      expect(t.accepted / t.runs, `${t.accepted} of ${t.runs} accepted`).to.be.within(min, max);
    },
  };
}

/** The verdict a case asks for: a valid input must be accepted, an invalid one refused. */
function expectVerdict(c: Case, accepted: boolean, error?: unknown) {
  if (c.verdict === 'valid')
    expect(accepted, `refused a valid input ${JSON.stringify(c.input)}: ${String(error)}`).to.equal(true);
  if (c.verdict === 'invalid') expect(accepted, `accepted an invalid input ${JSON.stringify(c.input)}`).to.equal(false);
}

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
  it('any input to the add schema parses to a safe config or throws McpConfigError; valid ones are accepted as given', () => {
    const seen = tally();
    fc.assert(
      fc.property(configCases(validConfig, invalidConfig, fc.oneof(nearlyValid, configLike, anyValue)), (c) => {
        let parsed;
        try {
          parsed = parseOrThrow(ServerConfigInputSchema, c.input);
        } catch (e) {
          expectTypedRefusal(e);
          expectVerdict(c, false, e);
          seen.saw(false);
          return;
        }
        expectVerdict(c, true);
        seen.saw(true);
        expectSafeConfig(parsed);
        if (c.verdict === 'valid') {
          const given = c.input as { name: string; url: string };
          expect([parsed.name, parsed.url]).to.deep.equal([given.name.trim(), given.url]);
        }
      }),
      { numRuns: 400 },
    );
    seen.expectShare();
  });

  it('any patch parses to safe fields or throws McpConfigError; valid patches are accepted', () => {
    const seen = tally();
    const validPatch = validConfig.chain((c) =>
      fc.subarray(Object.keys(c)).map((keys) => Object.fromEntries(keys.map((k) => [k, c[k as keyof typeof c]]))),
    );
    const invalidPatch = fc.tuple(validPatch, defect).map(([p, d]) => ({ ...p, ...d }));
    fc.assert(
      fc.property(configCases(validPatch, invalidPatch, fc.oneof(nearlyValid, configLike, anyValue)), (c) => {
        let parsed;
        try {
          parsed = parseOrThrow(ServerConfigPatchSchema, c.input);
        } catch (e) {
          expectTypedRefusal(e);
          expectVerdict(c, false, e);
          seen.saw(false);
          return;
        }
        expectVerdict(c, true);
        seen.saw(true);
        if (parsed.url !== undefined) expect(urlProblem(parsed.url)).to.equal(null);
        if (parsed.name !== undefined) expect(CONTROL_OR_BIDI.test(parsed.name)).to.equal(false);
      }),
      { numRuns: 400 },
    );
    seen.expectShare();
  });

  it('hub.servers.add: a stored, valid record or a McpConfigError with nothing stored; valid ones are stored', async () => {
    const hub = privateHub();
    await hub.ready;
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(configCases(validConfig, invalidConfig, fc.oneof(nearlyValid, configLike)), async (c) => {
        const before = hub.servers.list().length;
        try {
          const s = await hub.servers.add(c.input as never);
          expectVerdict(c, true);
          seen.saw(true);
          expect(ServerConfigSchema.safeParse(s).success).to.equal(true);
          expectSafeConfig(s);
          expect(hub.servers.list().length).to.equal(before + 1);
        } catch (e) {
          expectTypedRefusal(e);
          expectVerdict(c, false, e);
          seen.saw(false);
          expect(hub.servers.list().length).to.equal(before);
        }
      }),
      { numRuns: 60 },
    );
    // 60 runs: a wider band than the 400-run properties (40 % expected either way)
    seen.expectShare(0.15, 0.7);
    const raw = await rawIdb(hub.storeName);
    expect(raw.filter((r) => r.key.startsWith('server:'))).to.have.length(seen.t.accepted);
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

  /** mcp.json texts valid by construction: 1–5 servers with distinct printable names and good URLs. */
  const servers = fc.uniqueArray(
    fc.record(
      {
        name: goodName.map((n) => n.trim()),
        url: goodUrl,
        type: fc.constantFrom('http', 'streamable-http', 'sse', 'jsonrpc'),
        timeout: fc.integer({ min: 1, max: 300 }),
      },
      { requiredKeys: ['name', 'url'] },
    ),
    { minLength: 1, maxLength: 5, selector: (e) => e.name },
  );
  const asText = (list: { name: string }[]) =>
    JSON.stringify({ mcpServers: Object.fromEntries(list.map(({ name, ...e }) => [name, e])) });
  const validDoc = servers.map((list) => ({ text: asText(list), names: list.map((e) => e.name), bad: [] as string[] }));
  /** The same with one server's URL broken: that one must be reported, the others read. */
  const oneBad = fc
    .tuple(
      servers,
      fc.nat(),
      defect.filter((d) => 'url' in d),
    )
    .map(([list, at, d]) => {
      const i = at % list.length;
      const broken = list.map((e, j) => (j === i ? { ...e, url: (d as { url: string }).url } : e));
      return { text: asText(broken), names: list.filter((_, j) => j !== i).map((e) => e.name), bad: [list[i].name] };
    });
  type Doc = { text: string; names: string[]; bad: string[] } | { text: string; names?: undefined; bad?: undefined };
  const docs: fc.Arbitrary<Doc> = fc.oneof(
    { arbitrary: validDoc, weight: 4 },
    { arbitrary: oneBad, weight: 3 },
    { arbitrary: text.map((t) => ({ text: t })), weight: 3 },
  );
  /** A known document's verdict: exactly its good servers read, its bad one reported by name (in any order:
   * a JSON object puts integer-like keys first). */
  const expectRead = (d: Doc, read: string[], refused: string[]) => {
    if (!d.names) return;
    const sorted = (l: string[]) => [...l].sort();
    expect(sorted(read), d.text).to.deep.equal(sorted(d.names));
    expect(sorted(refused), d.text).to.deep.equal(sorted(d.bad));
  };

  it('any text: entries that validate, errors per entry, or a McpConfigError; never another throw; good servers are read', () => {
    const seen = tally();
    fc.assert(
      fc.property(docs, (d) => {
        const t = d.text;
        let r;
        try {
          r = fromMcpJson(t);
        } catch (e) {
          expectTypedRefusal(e);
          expect(d.names, `refused a valid document ${t}: ${String(e)}`).to.equal(undefined);
          seen.saw(false);
          return;
        }
        expectRead(
          d,
          r.entries.map((e) => e.name),
          r.errors.map((e) => e.name),
        );
        seen.saw(r.entries.length > 0 && r.errors.length === 0);
        for (const e of r.entries) {
          const p = ServerConfigInputSchema.safeParse(e.input);
          expect(p.success, JSON.stringify(e.input)).to.equal(true);
          if (p.success) expectSafeConfig(p.data);
        }
        for (const e of r.errors) expectTypedRefusal(new McpConfigError(e.issues));
      }),
      { numRuns: 400 },
    );
    seen.expectShare();
  });

  it('hub.importConfig: stores exactly what it reports as added, each valid; good servers are added', async () => {
    const hub = privateHub();
    await hub.ready;
    let total = 0;
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(docs, async (d) => {
        const t = d.text;
        const before = hub.servers.list().length;
        try {
          const r = await hub.importConfig(t);
          expectRead(
            d,
            r.added.map((s) => s.name),
            r.errors.map((e) => e.name),
          );
          seen.saw(r.added.length > 0 && r.errors.length === 0);
          total += r.added.length;
          for (const s of r.added) {
            expect(ServerConfigSchema.safeParse(s).success).to.equal(true);
            expectSafeConfig(s);
          }
          expect(hub.servers.list().length).to.equal(before + r.added.length);
        } catch (e) {
          expectTypedRefusal(e);
          expect(d.names, `refused a valid document ${t}: ${String(e)}`).to.equal(undefined);
          seen.saw(false);
          expect(hub.servers.list().length).to.equal(before);
        }
      }),
      { numRuns: 40 },
    );
    seen.expectShare(0.15, 0.7);
    const raw = await rawIdb(hub.storeName);
    expect(raw.filter((r) => r.key.startsWith('server:'))).to.have.length(total);
  });
});
