// The MCP Registry client and server.json reader against the fixture registry
// (test/fixtures/registry-server.mjs): real published entries, the /v0.1 shapes with paging,
// the hostile corpus, cursor loops, oversized answers, the cache and offline.
import { expect } from '@open-wc/testing';
import { MemoryStorage, McpConfigError } from '../../src/core/index.js';
import {
  buildServerInput,
  catalogUrl,
  chooseRemote,
  fromWebsite,
  fieldsFor,
  readEntry,
  RegistryClient,
  RegistryError,
  relayCommand,
  type RegistryEntry,
} from '../../src/core/registry/index.js';
import { privateHub, urls } from '../helpers.js';

const reg = () => urls.registry;
const requests = async () => (await (await fetch(`${reg()}/control/requests`)).json()) as Record<string, number>;

async function entry(name: string, client = new RegistryClient({ registries: [reg()], pageSize: 100 })) {
  const page = await client.search(name);
  const e = page.entries.find((x) => x.name === name);
  expect(e, name).to.exist;
  return e!;
}

describe('registry client', () => {
  it('pages through /v0.1/servers with the opaque cursor: latest versions, deleted hidden, deprecated with its message', async () => {
    const client = new RegistryClient({ registries: [reg()], pageSize: 50 });
    const first = await client.search('');
    // 50 asked for; the deleted one among them is hidden
    expect(first.entries.length + first.skipped.length).to.equal(49);
    expect(first.nextCursor).to.be.a('string');
    const names: string[] = [];
    let page = first;
    for (;;) {
      names.push(...page.entries.map((e) => e.name));
      if (!page.nextCursor) break;
      page = await client.search('', { cursor: page.nextCursor });
    }
    expect(names).to.include('io.github.domdomegg/airtable-mcp-server');
    expect(names.filter((n) => n === 'io.github.domdomegg/airtable-mcp-server')).to.have.length(1);
    expect(names, 'deleted entries are hidden').not.to.include('io.github.mcp-elements/deleted');
    expect(names.filter((n) => n.startsWith('io.example.filler/'))).to.have.length(120);
    const airtable = first.entries.find((e) => e.name === 'io.github.domdomegg/airtable-mcp-server')!;
    expect(airtable.version).to.equal('1.7.3');
    expect(airtable.packages.map((p) => p.registryType)).to.deep.equal(['npm', 'oci', 'mcpb']);
    const old = first.entries.find((e) => e.name === 'io.github.mcp-elements/old-fixture')!;
    expect(old.status).to.equal('deprecated');
    expect(old.statusMessage).to.equal('Use io.github.mcp-elements/fixture instead.');
    // a real published entry whose name is not namespace/name: left out, with the rule it broke
    expect(first.skipped).to.deep.include({
      name: 'com.warppay402.api',
      reason: 'name must be namespace/name (letters, digits, . _ -)',
    });
  });

  it('searches with `search`, `version=latest` and a limit of at most 100', async () => {
    const client = new RegistryClient({ registries: [reg()], pageSize: 500 });
    const page = await client.search('mcp-elements');
    expect(page.entries.map((e) => e.name).sort()).to.deep.equal([
      'io.github.mcp-elements/everything',
      'io.github.mcp-elements/fixture',
      'io.github.mcp-elements/old-fixture',
    ]);
    expect(page.nextCursor).to.equal(undefined);
  });

  it('the hostile corpus: each bad entry is left out with its reason; markup is only text; nothing hostile is cached', async () => {
    const storage = new MemoryStorage();
    const client = new RegistryClient({ registries: [`${reg()}/hostile`], storage, pageSize: 100 });
    const page = await client.search('');
    const reasons = Object.fromEntries(page.skipped.map((s) => [s.name, s.reason]));
    expect(reasons['io.evil/<script>alert(1)</script>']).to.match(/^name must be namespace\/name/);
    expect(reasons['io.evil/javascript']).to.equal('remotes.0.url must use https: or http: (got "javascript:")');
    expect(reasons['io.evil/userinfo']).to.match(/^remotes\.0\.url must not contain a user name or password/);
    expect(reasons['io.evil/plain-http']).to.match(/^remotes\.0\.url must use https:/);
    expect(reasons['io.evil/website']).to.match(/^websiteUrl must use https: or http:/);
    expect(reasons['io.evil/huge']).to.equal('description is longer than 10000 characters');
    expect(reasons['io.evil/bidi']).to.equal('title contains control or bidirectional override characters');
    expect(reasons['io.evil/headers']).to.match(/^remotes\.0\.headers /);
    expect(reasons['io.evil/range']).to.equal('version must be one version, not a range');
    expect(reasons['io.evil/var']).to.equal('remotes.0.url has a variable "{a b}" that is not a name');
    expect(reasons['io.evil/shell']).to.equal('packages.0.identifier contains characters a shell would run');
    expect(reasons['(no name)']).to.be.a('string');
    const shown = page.entries.map((e) => e.name).sort();
    expect(shown).to.deep.equal(['io.evil/markup', 'io.evil/shell-arg', 'io.evil/svg']);
    const markup = page.entries.find((e) => e.name === 'io.evil/markup')!;
    expect(markup.title).to.equal('<img src=x onerror="window.__pwned=1">');
    expect(page.entries.find((e) => e.name === 'io.evil/svg')!.icon, 'no SVG icon, by URL or data:').to.equal(
      undefined,
    );
    const shell = page.entries.find((e) => e.name === 'io.evil/shell-arg')!;
    expect(relayCommand(shell, shell.packages[0]!, 'https://chat.example'))
      .to.have.property('problem')
      .that.match(/a shell would run/);
    // the cache holds only the entries that read
    const cached = (await storage.entries()).map(([, v]) => JSON.stringify(v)).join('');
    expect(cached).to.include('io.evil/markup');
    for (const bad of ['javascript:', 'user:pass@', 'xxxxxxxxxxxxxxxxxxxx', '\u202E', 'curl evil.example |'])
      expect(cached.includes(bad), `the cache holds ${JSON.stringify(bad)}`).to.equal(false);
  });

  it('stops at a cursor it already followed, cuts an oversized page to its limit, refuses a body over 5 MB', async () => {
    const loop = new RegistryClient({ registries: [`${reg()}/loop`], pageSize: 100 });
    const first = await loop.search('');
    expect(first.nextCursor).to.equal('c2FtZQ');
    const second = await loop.search('', { cursor: first.nextCursor });
    expect(second.nextCursor).to.equal(undefined);
    expect(second.stopped).to.equal('Stopped here: the registry sent a cursor it had sent before.');

    const huge = await new RegistryClient({ registries: [`${reg()}/huge`], pageSize: 100 }).search('');
    expect(huge.entries).to.have.length(100);
    expect(huge.stopped).to.equal('The registry sent 10000 entries for a page of 100; the rest were left out.');

    let error: unknown;
    await new RegistryClient({ registries: [`${reg()}/big`] }).search('').catch((e) => (error = e));
    expect(error).to.be.instanceOf(RegistryError);
    expect((error as Error).message).to.equal(`the answer is larger than ${5 * 1024 * 1024} bytes`);
  });

  it('a registry without CORS: a clear error, nothing cached', async () => {
    const storage = new MemoryStorage();
    let error: unknown;
    await new RegistryClient({ registries: [`${reg()}/nocors`], storage }).search('').catch((e) => (error = e));
    expect((error as Error).message).to.match(
      /could not be reached \(offline, or it does not allow calls from this page\)$/,
    );
    expect(await storage.entries()).to.deep.equal([]);
  });

  it('a registry without CORS is asked through the host’s relay (one it allows)', async () => {
    const page = await new RegistryClient({ registries: [`${reg()}/nocors`], relayUrl: urls.relay }).search('airtable');
    expect(page.entries.map((e) => e.name)).to.deep.equal(['io.github.domdomegg/airtable-mcp-server']);
    // the entries keep the registry's own URL as their provenance, not the relay's
    expect(page.entries[0]!.registry).to.equal(`${reg()}/nocors`);
    let error: unknown;
    const notAllowed = new RegistryClient({ registries: [new URL(urls.origins.dead).origin], relayUrl: urls.relay });
    await notAllowed.search('').catch((e) => (error = e));
    expect((error as Error).message).to.match(/could not be reached, nor through the relay$|answered HTTP 403/);
  });

  it('caches a search for an hour, a version for good; offline, the cache answers with its age', async () => {
    const storage = new MemoryStorage();
    let now = 1_000_000;
    let offline = false;
    const client = new RegistryClient({
      registries: [reg()],
      storage,
      now: () => now,
      fetch: (input, init) => (offline ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init)),
    });
    const before = (await requests()).main ?? 0;
    const fresh = await client.search('airtable');
    expect(fresh.cachedAt).to.equal(undefined);
    now += 59 * 60 * 1000;
    const cached = await client.search('airtable');
    expect(cached.cachedAt).to.equal(1_000_000);
    expect((await requests()).main).to.equal(before + 1);
    now += 2 * 60 * 1000; // past the hour: asked again
    await client.search('airtable');
    expect((await requests()).main).to.equal(before + 2);
    offline = true;
    now += 2 * 60 * 60 * 1000;
    const stale = await client.search('airtable');
    expect(stale.offline).to.equal(true);
    expect(stale.cachedAt).to.equal(1_000_000 + 61 * 60 * 1000);
    expect(stale.entries.map((e) => e.name)).to.deep.equal(['io.github.domdomegg/airtable-mcp-server']);
    // a version: fetched once, then from the cache however old (offline here)
    offline = false;
    const v = await client.version('io.github.mcp-elements/fixture', '1.2.0');
    offline = true;
    now += 365 * 24 * 60 * 60 * 1000;
    expect((await client.version('io.github.mcp-elements/fixture', '1.2.0')).name).to.equal(v.name);
  });

  it('a registry URL outside the URL policy is refused with a typed error', () => {
    for (const bad of ['javascript:alert(1)', 'http://registry.example', 'https://u:p@registry.example'])
      // by name: in the CDN pass the core is the built copy, the registry client the source
      expect(() => new RegistryClient({ registries: [bad] }), bad)
        .to.throw()
        .with.property('name', new McpConfigError([]).name);
  });

  it('the curated list is read once, not on every search (the directory asks on every render)', () => {
    let reads = 0;
    const item = {
      get name() {
        reads++;
        return 'com.example/counted';
      },
      description: 'd',
      version: '1.0.0',
    };
    const client = new RegistryClient({ registries: [reg()], curated: [item] });
    client.curated('');
    const once = reads;
    expect(once).to.be.greaterThan(0);
    client.curated('count');
    client.curated('');
    expect(reads, 'reads after two more searches').to.equal(once);
  });

  it('curated entries come first, filtered by the query, in the host’s order; a bad one is left out', () => {
    const client = new RegistryClient({
      registries: [reg()],
      curated: [
        { name: 'com.example/b', description: 'Second', version: '1.0.0' },
        { name: 'com.example/a', title: 'Alpha', description: 'First', version: '1.0.0' },
        { name: 'bad', description: 'x', version: '1' },
      ],
    });
    expect(client.curated('').entries.map((e) => e.name)).to.deep.equal(['com.example/b', 'com.example/a']);
    expect(client.curated('alpha').entries.map((e) => e.name)).to.deep.equal(['com.example/a']);
    expect(client.curated('').skipped).to.have.length(1);
    expect(client.curated('').entries[0]!.registry).to.equal('curated');
  });
});

describe('adding from an entry', () => {
  let fixture: RegistryEntry;
  before(async () => {
    fixture = await entry('io.github.mcp-elements/fixture');
  });

  it('Streamable HTTP before SSE; fields from the URL variables and headers; a secret is never pre-filled', () => {
    const remote = chooseRemote(fixture)!;
    expect(remote.type).to.equal('streamable-http');
    const fields = fieldsFor(remote);
    expect(fields.map((f) => [f.key, f.required, f.secret, f.initial])).to.deep.equal([
      ['url.tenant', true, false, ''],
      ['header.0.api_key', true, true, ''],
      ['header.1', false, false, 'eu-west-1'],
    ]);
    expect(fields[1]!.template).to.equal('Bearer {api_key}');
    expect(fields[2]!.choices).to.deep.equal(['us-east-1', 'eu-west-1']);
  });

  it('builds the config: URL variables percent-encoded, the fixed header value filled, provenance; missing or off-list values are refused', () => {
    const remote = chooseRemote(fixture)!;
    const missing = buildServerInput(fixture, remote, {});
    expect(missing).to.deep.equal({
      issues: [
        { key: 'url.tenant', message: 'tenant is required' },
        { key: 'header.0.api_key', message: 'Authorization: api_key is required' },
      ],
    });
    const offList = buildServerInput(fixture, remote, {
      'url.tenant': 't',
      'header.0.api_key': 'k',
      'header.1': 'mars',
    });
    expect(offList).to.deep.equal({
      issues: [{ key: 'header.1', message: 'X-Region must be one of: us-east-1, eu-west-1' }],
    });
    const r = buildServerInput(fixture, remote, {
      'url.tenant': 'a/../b?c#d',
      'header.0.api_key': 'k1',
      'header.1': 'us-east-1',
    });
    if (!('input' in r)) throw new Error(JSON.stringify(r));
    expect(r.input.url).to.equal(`${urls.fixture}/t/a%2F..%2Fb%3Fc%23d/mcp`);
    expect(r.input.headers).to.deep.equal([
      { name: 'Authorization', value: 'Bearer k1', secret: true },
      { name: 'X-Region', value: 'us-east-1', secret: false },
    ]);
    expect(r.input.transport).to.equal('streamable-http');
    expect(r.input.source).to.deep.equal({ registry: reg(), name: 'io.github.mcp-elements/fixture', version: '1.2.0' });
  });

  it('a header value with a line break is refused by the hub’s schema; nothing is added', async () => {
    const hub = privateHub();
    const r = buildServerInput(fixture, chooseRemote(fixture)!, {
      'url.tenant': 't',
      'header.0.api_key': 'k\r\nX-Evil: 1',
    });
    expect(r).to.have.property('issues');
    expect(hub.servers.list()).to.deep.equal([]);
  });

  it('saved: the secret header in the vault, the provenance on the record; connected; a tool call carries the header', async () => {
    const hub = privateHub();
    const tenant = `reg-${Math.random().toString(36).slice(2)}`;
    const r = buildServerInput(fixture, chooseRemote(fixture)!, {
      'url.tenant': tenant,
      'header.0.api_key': 'sk-test-1',
      'header.1': 'eu-west-1',
    });
    if (!('input' in r)) throw new Error(JSON.stringify(r));
    const saved = await hub.servers.add(r.input);
    expect(saved.source).to.deep.equal({ registry: reg(), name: 'io.github.mcp-elements/fixture', version: '1.2.0' });
    expect(saved.headers[0]!.value).to.have.property('secretRef');
    expect(saved.headers[1]!.value).to.equal('eu-west-1');
    await hub.connect(saved.id);
    const call = await hub.callTool({ serverId: saved.id, tool: 'headers', arguments: {}, source: 'user' });
    // the server got the key; the hub redacts a secret a result repeats
    const seen = JSON.parse((call.result!.content[0] as { text: string }).text);
    expect(seen.authorization).to.equal('[redacted]');
    expect(seen['x-region']).to.equal('eu-west-1');
    const stats = await (await fetch(`${urls.fixture}/t/${tenant}/control/stats`)).json();
    expect(stats.lastHeaders.authorization).to.equal('Bearer sk-test-1');
  });

  it('a package-only entry: the relay’s mcp.json (arguments as data) and its command line, quoted', async () => {
    const airtable = await entry('io.github.domdomegg/airtable-mcp-server');
    expect(chooseRemote(airtable)).to.equal(undefined);
    const r = relayCommand(airtable, airtable.packages[0]!, "https://chat.example/it's");
    if ('problem' in r) throw new Error(r.problem);
    expect(JSON.parse(r.config)).to.deep.equal({
      mcpServers: {
        'airtable-mcp-server': {
          command: 'npx',
          args: ['-y', 'airtable-mcp-server@1.7.3'],
          env: { AIRTABLE_API_KEY: '' },
        },
      },
    });
    expect(r.command).to.equal(
      `npx mcp-chat-elements relay --config mcp.json --origin 'https://chat.example/it'\\''s'`,
    );
    const nuget = await entry('io.github.domdomegg/time-mcp-nuget');
    expect(relayCommand(nuget, nuget.packages[0]!, 'https://chat.example')).to.deep.equal({
      problem: 'The relay’s command line does not start nuget packages.'.replace('’', "'"),
    });
  });

  it('readEntry takes a bare server.json too (a curated list) and hides a deleted one', () => {
    expect(readEntry({ name: 'a.b/c', description: 'd', version: '1' }, 'curated')).to.have.property('name', 'a.b/c');
    expect(
      readEntry(
        {
          server: { name: 'a.b/c', description: 'd', version: '1' },
          _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deleted' } },
        },
        'x',
      ),
    ).to.equal(null);
  });
});

describe('add from a website (MCP Catalog, SEP-2127 draft)', () => {
  it('reads /.well-known/mcp/catalog.json and its Server Cards with the same reader; the rest is left out with why', async () => {
    const page = await fromWebsite(reg());
    expect(page.registry).to.equal(new URL(reg()).origin);
    expect(page.entries.map((e) => e.name)).to.deep.equal([
      'io.github.mcp-elements/fixture',
      'io.github.mcp-elements/everything',
    ]);
    expect(chooseRemote(page.entries[0]!)!.type).to.equal('streamable-http');
    const reasons = Object.fromEntries(page.skipped.map((s) => [s.name, s.reason]));
    expect(reasons).to.deep.equal({
      'An agent': 'type is not application/mcp-server-card+json',
      'Script URL': 'url must use https: or http: (got "javascript:")',
      'io.evil/card': 'remotes.0.url must use https: or http: (got "javascript:")',
      'Missing card': `${reg()}/cards/missing.json answered HTTP 404`,
    });
  });

  it('the site typed: a domain means https; a URL outside the policy is refused', () => {
    expect(catalogUrl('example.com')).to.equal('https://example.com/.well-known/mcp/catalog.json');
    expect(catalogUrl('https://example.com/some/page?x=1')).to.equal(
      'https://example.com/.well-known/mcp/catalog.json',
    );
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'https://u:p@example.com'])
      expect(() => catalogUrl(bad), bad).to.throw(RegistryError);
  });
});
