// Bad input through every public API (issue 13 item 3): wrong types, empty, huge and hostile
// values. Each must end in a typed error — a McpConfigError naming the field, or the documented
// McpNotFoundError / McpToolError — and change nothing: the hub's snapshot and the raw IndexedDB
// are compared before and after every single input. The count of inputs tried is printed.
import { expect } from '@open-wc/testing';
import { McpConfigError, McpElementsError, McpNotFoundError, McpToolError, type McpHub } from '../../src/core/index.js';
import { privateHub, rawIdb } from '../helpers.js';

const LONG_URL = `https://example.com/${'a'.repeat(10_000)}`;
/** URLs the policy refuses: schemes, remote plain http, credentials, controls, bidi, size, shape. */
const BAD_URLS: unknown[] = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://127.0.0.1/mcp',
  'ws://127.0.0.1:9/mcp',
  'blob:https://example.com/1',
  'http://example.com/mcp',
  'http://10.0.0.1/mcp',
  'http://192.168.1.1/mcp',
  'http://127.0.0.1.example.com/mcp',
  'http://localhost.evil.com/mcp',
  'http://[::2]/mcp',
  'http://bob:pw@127.0.0.1:9/mcp',
  'https://bob@example.com/mcp',
  'http://127.0.0.1:9/m\r\ncp',
  'http://127.0.0.1:9/m\u0000cp',
  'https://example.com/\u202Egnp',
  'https://example.com/\u2066x',
  LONG_URL,
  '',
  '   ',
  'not a url',
  'https://',
  '//example.com/mcp',
  '/relative/mcp',
  'http://[::1',
  123,
  null,
  true,
  {},
  [],
  ['https://example.com/mcp'],
];
/** Names refused: empty, too long, control, bidi, wrong types. */
const BAD_NAMES: unknown[] = [
  '',
  '   ',
  'x'.repeat(101),
  'x'.repeat(100_000),
  'a\u0000b',
  'a\u0007b',
  'a\u001bb',
  'a\u007fb',
  'a\nb',
  'a\u202Eb',
  'a\u202Ab',
  'a\u2066b',
  'a\u2069b',
  123,
  null,
  {},
  [],
];
const BAD_FIELDS: [string, unknown][] = [
  ['timeout', 0],
  ['timeout', -1],
  ['timeout', 1.5],
  ['timeout', 301],
  ['timeout', '30'],
  ['timeout', Number.NaN],
  ['timeout', Number.POSITIVE_INFINITY],
  ['retries', -1],
  ['retries', 6],
  ['retries', 'x'],
  ['transport', 'ws'],
  ['transport', ''],
  ['transport', 1],
  ['revision', '2099-01-01'],
  ['revision', null],
  ['enabled', 'yes'],
  ['description', 'd'.repeat(2001)],
  ['description', 5],
  ['allowSampling', 'no'],
  ['auth', 'bearer'],
  ['auth', { type: 'magic' }],
  ['auth', { type: 'bearer' }],
  ['auth', { type: 'bearer', token: '' }],
  ['auth', { type: 'bearer', token: 'a\r\nb' }],
  ['auth', { type: 'api-key', headerName: 'bad name', key: 'k' }],
  ['auth', { type: 'basic', username: 'u' }],
  ['auth', { type: 'oauth', clientMetadataUrl: 'javascript:alert(1)' }],
  ['auth', { type: 'oauth', clientMetadataUrl: 'http://example.com/cimd.json' }],
  ['headers', 'x-a: b'],
  ['headers', [{ name: 'bad name', value: 'v' }]],
  ['headers', [{ name: 'content-type', value: 'text/plain' }]],
  ['headers', [{ name: 'mcp-session-id', value: 'x' }]],
  ['headers', [{ name: 'x-a', value: 'a\r\nX-Injected: 1' }]],
  ['headers', [{ name: 'x-a', value: 'a\u0000b' }]],
  ['headers', [{ name: '', value: 'v' }]],
  ['headers', [{ name: 'x-a' }]],
  ['headers', Array.from({ length: 51 }, (_, i) => ({ name: `x-h${i}`, value: 'v' }))],
  ['id', 'bad id!'],
  ['id', ''],
  ['id', 'x'.repeat(65)],
];

interface Case {
  what: string;
  run: (hub: McpHub) => unknown;
  /** McpConfigError naming this field (a path equal to it or under it), or another class and code. */
  field?: string;
  error?: [typeof McpElementsError, string];
}

const OK = { name: 'Fine', url: 'http://127.0.0.1:9/mcp', enabled: false };
const cases: Case[] = [];
for (const url of BAD_URLS) {
  cases.push({
    what: `servers.add url ${JSON.stringify(url)?.slice(0, 60)}`,
    run: (h) => h.servers.add({ ...OK, url } as never),
    field: 'url',
  });
  cases.push({
    what: `servers.update url ${JSON.stringify(url)?.slice(0, 60)}`,
    run: (h) => h.servers.update(h.servers.list()[0]!.id, { url } as never),
    field: 'url',
  });
  cases.push({
    what: `testConnection url ${JSON.stringify(url)?.slice(0, 60)}`,
    run: (h) => h.testConnection({ ...OK, url } as never),
    field: 'url',
  });
  cases.push({
    what: `importConfig url ${JSON.stringify(url)?.slice(0, 60)}`,
    run: async (h) => {
      const r = await h.importConfig(JSON.stringify({ mcpServers: { bad: { url } } }));
      // the importer reports per entry: refused entries as errors naming the field
      if (r.added.length) throw new Error('imported a refused entry');
      throw new McpConfigError(r.errors.flatMap((e) => e.issues));
    },
    field: 'url',
  });
}
for (const name of BAD_NAMES) {
  cases.push({
    what: `servers.add name ${JSON.stringify(name)?.slice(0, 40)}`,
    run: (h) => h.servers.add({ ...OK, name } as never),
    field: 'name',
  });
  cases.push({
    what: `servers.update name ${JSON.stringify(name)?.slice(0, 40)}`,
    run: (h) => h.servers.update(h.servers.list()[0]!.id, { name } as never),
    field: 'name',
  });
}
for (const [field, value] of BAD_FIELDS) {
  cases.push({
    what: `servers.add ${field} ${JSON.stringify(value)?.slice(0, 40)}`,
    run: (h) => h.servers.add({ ...OK, [field]: value } as never),
    field,
  });
  if (field !== 'id')
    cases.push({
      what: `servers.update ${field} ${JSON.stringify(value)?.slice(0, 40)}`,
      run: (h) => h.servers.update(h.servers.list()[0]!.id, { [field]: value } as never),
      field,
    });
}
const notFound: [typeof McpElementsError, string] = [McpNotFoundError, 'not-found'];
cases.push(
  { what: 'servers.add: not an object', run: (h) => h.servers.add('https://example.com' as never), field: '' },
  { what: 'servers.add: null', run: (h) => h.servers.add(null as never), field: '' },
  { what: 'servers.add: unknown field', run: (h) => h.servers.add({ ...OK, script: 'x' } as never), field: '' },
  {
    what: 'servers.add: __proto__ key',
    run: (h) => h.servers.add(JSON.parse(`{"name":"P","url":"http://127.0.0.1:9/mcp","__proto__":{"enabled":true}}`)),
    field: '',
  },
  { what: 'servers.update: unknown id', run: (h) => h.servers.update('srv_nope', { name: 'x' }), error: notFound },
  {
    what: 'servers.update: id in the patch',
    run: (h) => h.servers.update(h.servers.list()[0]!.id, { id: 'other' } as never),
    field: '',
  },
  {
    what: 'servers.update: patch not an object',
    run: (h) => h.servers.update(h.servers.list()[0]!.id, 'x' as never),
    field: '',
  },
  { what: 'servers.remove: unknown id', run: (h) => h.servers.remove('srv_nope'), error: notFound },
  { what: 'servers.remove: a number', run: (h) => h.servers.remove(123 as never), error: notFound },
  { what: 'servers.remove: null', run: (h) => h.servers.remove(null as never), error: notFound },
  { what: 'connect: unknown id', run: (h) => h.connect('srv_nope'), error: notFound },
  { what: 'connect: disabled server', run: (h) => h.connect(h.servers.list()[0]!.id), field: 'enabled' },
);
// mcp.json of every shape that is not one
for (const text of [
  '',
  ' ',
  'not json',
  '{',
  'null',
  '42',
  '"a string"',
  '[]',
  '[{"url":"https://example.com"}]',
  '{}',
  '{"mcpServers": 5}',
  '{"mcpServers": "x"}',
  '{"mcpServers": null}',
  '{"mcpServers": []}',
  '{"servers": true}',
  '{"mcpServers": {"a": 5}}',
  '{"mcpServers": {"a": null}}',
  '{"mcpServers": {"a": []}}',
  '{"mcpServers": {"a": {}}}',
  '{"mcpServers": {"a": {"command": "rm", "args": ["-rf", "/"]}}}',
  '{"mcpServers": {"": {"url": "http://127.0.0.1:9/mcp"}}}',
  '{"mcpServers": {"a\\u202eb": {"url": "http://127.0.0.1:9/mcp"}}}',
  '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp", "headers": "x"}}}',
  '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp", "headers": {"bad name": "v"}}}}',
  '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp", "type": "ws"}}}',
  '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp", "timeout": "x"}}}',
  '['.repeat(100_000),
  JSON.stringify({ mcpServers: { big: { url: LONG_URL } } }),
  123 as never,
  null as never,
  {} as never,
]) {
  cases.push({
    what: `importConfig ${JSON.stringify(text)?.slice(0, 60)}`,
    run: async (h) => {
      const r = await h.importConfig(text);
      if (r.added.length) throw new Error('imported something from a malformed file');
      throw new McpConfigError(r.errors.flatMap((e) => e.issues));
    },
  });
}
// assistants
for (const id of ['', 'a b', 'x'.repeat(101), 'a\u202eb', 123, null, {}])
  cases.push({
    what: `assistants.update id ${JSON.stringify(id)}`,
    run: (h) => h.assistants.update(id as never, { approval: 'auto' }),
    field: 'assistantId',
  });
for (const [k, v] of [
  ['approval', 'sometimes'],
  ['approval', null],
  ['servers', 5],
  ['servers', 'some'],
  ['trusted', 'x'],
  ['trusted', [{ serverId: 1 }]],
  ['pinned', [{}]],
] as [string, unknown][])
  cases.push({
    what: `assistants.update ${k} ${JSON.stringify(v)}`,
    run: (h) => h.assistants.update('default', { [k]: v } as never),
    field: k,
  });
cases.push(
  {
    what: 'assistants.update: unknown field',
    run: (h) => h.assistants.update('default', { evil: 1 } as never),
    field: '',
  },
  {
    what: 'assistants.update: patch not an object',
    run: (h) => h.assistants.update('default', 'x' as never),
    field: '',
  },
  {
    what: 'assistants.setServer: unknown server',
    run: (h) => h.assistants.setServer('default', 'srv_nope', true),
    error: notFound,
  },
  {
    what: 'assistants.setServer: selection a string',
    run: (h) => h.assistants.setServer('default', h.servers.list()[0]!.id, 'all' as never),
    field: 'selection',
  },
  { what: 'assistants.trust: empty tool', run: (h) => h.assistants.trust('default', h.servers.list()[0]!.id, '') },
  {
    what: 'assistants.trust: tool a number',
    run: (h) => h.assistants.trust('default', h.servers.list()[0]!.id, 5 as never),
  },
  { what: 'assistants.pin: bad assistant', run: (h) => h.assistants.pin('a b', h.servers.list()[0]!.id, 'x') },
);
// tools for the model
for (const provider of ['gpt', '', 'OPENAI', 123, null, {}])
  cases.push({
    what: `toolsFor provider ${JSON.stringify(provider)}`,
    run: (h) => h.toolsFor(provider as never),
    field: 'provider',
  });
for (const [k, v] of [
  ['maxTools', -1],
  ['maxTools', 1.5],
  ['maxTools', '5'],
  ['maxTokens', -1],
  ['maxTokens', 1e12],
  ['query', 5],
  ['query', 'q'.repeat(100_001)],
  ['assistantId', 'a b'],
  ['gptId', 5],
] as [string, unknown][])
  cases.push({
    what: `toolsFor ${k} ${JSON.stringify(v)?.slice(0, 30)}`,
    run: (h) => h.toolsFor('openai', { [k]: v } as never),
    field: k,
  });
cases.push(
  { what: 'toolsFor: unknown option', run: (h) => h.toolsFor('openai', { evil: 1 } as never), field: '' },
  {
    what: 'toolsFor: assistantId and gptId differ',
    run: (h) => h.toolsFor('openai', { assistantId: 'a', gptId: 'b' }),
  },
  { what: 'modelTools: maxTools a string', run: (h) => h.modelTools({ maxTools: 'x' } as never), field: 'maxTools' },
);
// calls
cases.push(
  { what: 'callTool: neither name nor server + tool', run: (h) => h.callTool({} as never) },
  {
    what: 'callTool: name of no tool',
    run: (h) => h.callTool({ name: 'nope__x' }),
    error: [McpToolError, 'unknown-tool'],
  },
  { what: 'callTool: empty name', run: (h) => h.callTool({ name: '' }), error: [McpToolError, 'unknown-tool'] },
  { what: 'callTool: name a number', run: (h) => h.callTool({ name: 5 } as never), field: 'name' },
  {
    what: 'callTool: 10 KB name',
    run: (h) => h.callTool({ name: 'n'.repeat(10_240) }),
    error: [McpToolError, 'unknown-tool'],
  },
  { what: 'callTool: unknown server', run: (h) => h.callTool({ serverId: 'srv_nope', tool: 'x' }), error: notFound },
  { what: 'callTool: bad assistant', run: (h) => h.callTool({ name: 'x', assistantId: 'a b' }) },
  {
    what: 'callTool: assistantId and gptId differ',
    run: (h) => h.callTool({ name: 'x', assistantId: 'a', gptId: 'b' }),
  },
  {
    what: 'calls.approve: no such call',
    run: (h) => h.calls.approve('call_nope'),
    error: [McpToolError, 'not-awaiting-approval'],
  },
  {
    what: 'calls.deny: no such call',
    run: (h) => h.calls.deny('call_nope'),
    error: [McpToolError, 'not-awaiting-approval'],
  },
  { what: 'calls.cancel: no such call', run: (h) => h.calls.cancel('call_nope'), error: notFound },
  { what: 'calls.list: names differ', run: (h) => h.calls.list({ assistantId: 'a', gptId: 'b' }) },
  { what: 'calls.clear: names differ', run: (h) => h.calls.clear({ assistantId: 'a', gptId: 'b' }) },
);
for (const provider of ['gpt', '', 5, null])
  cases.push({
    what: `runToolCalls provider ${JSON.stringify(provider)}`,
    run: (h) => h.runToolCalls(provider as never, { role: 'assistant' }),
    field: 'provider',
  });
cases.push(
  {
    what: 'runToolCalls: bad assistant',
    run: (h) => h.runToolCalls('openai', { role: 'assistant' }, { assistantId: 'a b' }),
  },
  {
    what: 'runConversation: bad provider',
    run: (h) => h.runConversation({ provider: 'x', complete: async () => ({}) } as never),
  },
);
// what servers ask of the client, and other settings
for (const roots of [
  'file:///a',
  null,
  5,
  [{ uri: 5 }],
  [{ uri: 'http://example.com/' }],
  [{ uri: 'javascript:alert(1)' }],
  [{ uri: 'file:///a', name: 5 }],
  Array.from({ length: 101 }, (_, i) => ({ uri: `file:///r${i}` })),
])
  cases.push({ what: `setRoots ${JSON.stringify(roots)?.slice(0, 50)}`, run: (h) => h.setRoots(roots as never) });
cases.push(
  { what: 'setSamplingHandler: a string', run: (h) => h.setSamplingHandler('x' as never) },
  { what: 'setSamplingHandler: an object', run: (h) => h.setSamplingHandler({} as never) },
  { what: 'setLogLevel: unknown level', run: (h) => h.setLogLevel(h.servers.list()[0]!.id, 'loud') },
  {
    what: 'setSignInOptions: javascript: redirect',
    run: (h) => h.setSignInOptions({ redirectUrl: 'javascript:alert(1)' }),
  },
  {
    what: 'setSignInOptions: remote http metadata URL',
    run: (h) => h.setSignInOptions({ clientMetadataUrl: 'http://example.com/m.json' }),
  },
  {
    what: 'respondToElicitation: none pending',
    run: (h) => h.respondToElicitation('eli_nope', { action: 'accept' }),
    error: notFound,
  },
  {
    what: 'respondToSampling: none pending',
    run: (h) => h.respondToSampling('smp_nope', { approve: true }),
    error: notFound,
  },
);

/** The parts of the snapshot an input could change, and every raw IndexedDB record. */
async function observe(hub: McpHub) {
  const s = hub.store.state;
  return JSON.stringify({
    servers: s.servers,
    assistants: s.assistants,
    calls: s.calls,
    activeCalls: s.activeCalls,
    catalogues: s.catalogues,
    connections: s.connections,
    elicitations: s.elicitations,
    samplings: s.samplings,
    signIns: s.signIns,
    storage: s.storage,
    idb: (await rawIdb(hub.storeName)).filter((r) => !r.key.startsWith('vault:')),
  });
}

describe('bad input through every public API', function () {
  this.timeout(120_000);

  it(`${cases.length} inputs: each a typed error naming the field, nothing changed`, async () => {
    const hub = privateHub();
    await hub.ready;
    await hub.servers.add({ name: 'Existing', url: 'http://127.0.0.1:9/mcp', enabled: false });
    await hub.assistants.update('default', { approval: 'always-ask' });
    const problems: string[] = [];
    let before = await observe(hub);
    for (const c of cases) {
      let err: unknown;
      try {
        await c.run(hub);
        problems.push(`${c.what}: accepted`);
      } catch (e) {
        err = e;
      }
      const after = await observe(hub);
      if (after !== before) {
        problems.push(`${c.what}: changed the state or storage`);
        before = after;
      }
      if (err === undefined) continue;
      const [cls, code] = c.error ?? [McpConfigError, 'invalid-config'];
      if (!(err instanceof cls) || (err as McpElementsError).code !== code) {
        problems.push(
          `${c.what}: ${(err as Error)?.name} ${(err as McpElementsError)?.code}: ${(err as Error)?.message?.slice(0, 120)}`,
        );
        continue;
      }
      if (c.field !== undefined && err instanceof McpConfigError) {
        const f = c.field;
        const named = err.issues.some((i) => i.path === f || i.path.startsWith(`${f}.`) || i.path.startsWith(`${f}[`));
        if (!named)
          problems.push(
            `${c.what}: issues ${JSON.stringify(err.issues.map((i) => i.path))} do not name ${f || '(the input)'}`,
          );
        else if (f && !err.message.includes(f)) problems.push(`${c.what}: message does not name ${f}`);
      }
    }
    console.log(`bad input: ${cases.length} inputs tried through the public API, ${problems.length} problems`);
    expect(problems).to.deep.equal([]);
  });
});
