// <mcp-server-directory> against the fixture registry (test/fixtures/registry-server.mjs): opened
// from the manager, search, add with a secret header → connected → a tool call, a package-only
// entry's relay command, the hostile corpus (nothing runs, nothing is stored), keyboard only,
// phone width, axe.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { MemoryStorage, type McpHub } from '../../src/core/index.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import type { McpServerDirectoryElement } from '../../src/elements/mcp-server-directory/mcp-server-directory.js';
import { focused, privateHub, q, qa, rawIdb, untilRendered, urls } from '../helpers.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';

async function directory(hub: McpHub, registry = urls.registry, width?: number) {
  const el = await fixture<McpServerDirectoryElement>(
    html`<mcp-server-directory
      style=${width ? `width: ${width}px` : ''}
      .hub=${hub}
      .registries=${[registry]}
      .storage=${new MemoryStorage()}
    ></mcp-server-directory>`,
  );
  await untilRendered(el, () => !el._busy, 'the first search');
  return el;
}

async function search(el: McpServerDirectoryElement, query: string) {
  await el.search(query);
  await el.updateComplete;
}

function entryOf(el: McpServerDirectoryElement, name: string) {
  const li = qa(el, 'li.entry').find((x) => x.dataset.name === name);
  expect(li, name).to.exist;
  return li!;
}

async function fill(el: McpServerDirectoryElement, key: string, value: string) {
  const input = q<HTMLInputElement>(el, `[id="f-${key}"]`)!;
  input.value = value;
  input.dispatchEvent(new Event('input'));
  await el.updateComplete;
}

describe('<mcp-server-directory>', () => {
  it('the manager opens it (its own chunk), searches, and an entry shows its title, description, badges, version and links', async () => {
    const hub = privateHub();
    const manager = await fixture<McpServerManagerElement>(
      html`<mcp-server-manager
        .hub=${hub}
        .directory=${{ registries: [urls.registry], storage: new MemoryStorage() }}
      ></mcp-server-manager>`,
    );
    q<HTMLButtonElement>(manager, '[data-action=find]')!.click();
    await untilRendered(manager, () => q(manager, 'mcp-server-directory'), 'the directory');
    const el = q<McpServerDirectoryElement>(manager, 'mcp-server-directory')!;
    await untilRendered(el, () => !el._busy, 'the first search');
    expect(focused()?.id, 'focus in the search box').to.equal('q');
    await search(el, 'mcp-elements');
    const fx = entryOf(el, 'io.github.mcp-elements/fixture');
    expect(fx.querySelector('h3')!.textContent).to.equal('Suite fixture server');
    expect(fx.querySelector('[data-badge=works-here]')).to.exist;
    expect(fx.querySelector('.meta')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'Version 1.2.0 · published 2025-11-20 · updated 2025-11-21 · Transports: sse, streamable-http',
    );
    const repo = fx.querySelector('a')!;
    expect([repo.href, repo.rel, repo.target]).to.deep.equal([
      'https://github.com/mcp-elements/fixture',
      'noopener noreferrer',
      '_blank',
    ]);
    const old = entryOf(el, 'io.github.mcp-elements/old-fixture');
    expect(old.querySelector('[data-badge=deprecated]')).to.exist;
    expect(old.textContent).to.contain('Use io.github.mcp-elements/fixture instead.');
    await expect(el).to.be.accessible();
    // Close: back to the manager's list, focus on Find servers
    q<HTMLButtonElement>(el, '[data-action=close]')!.click();
    await untilRendered(manager, () => !q(manager, 'mcp-server-directory'), 'the directory closed');
    expect(focused()?.getAttribute('data-action')).to.equal('find');
  });

  it('"More" follows the cursor; a real published entry that breaks the rules is listed as left out, with why', async () => {
    const el = await directory(privateHub());
    const before = qa(el, 'li.entry').length;
    expect(before).to.equal(28); // a page of 30: one deleted (hidden), one left out (warppay402)
    q<HTMLButtonElement>(el, '[data-action=more]')!.click();
    await untilRendered(el, () => qa(el, 'li.entry').length > before, 'the next page');
    expect(qa(el, 'li.entry').length).to.be.greaterThan(before);
    const skipped = q(el, '[part=skipped]')!;
    expect(skipped.textContent).to.contain('com.warppay402.api: name must be namespace/name');
  });

  it('add: fill the URL variable and the secret header, Test, Save; connected; the tool call carries the header', async () => {
    const hub = privateHub();
    const el = await directory(hub);
    await search(el, 'io.github.mcp-elements/fixture');
    entryOf(el, 'io.github.mcp-elements/fixture').querySelector<HTMLButtonElement>('[data-action=add]')!.click();
    await untilRendered(el, () => focused()?.id === 'f-url.tenant', 'the add form, focus in its first field');
    const secret = q<HTMLInputElement>(el, '[id="f-header.0.api_key"]')!;
    expect([secret.type, secret.value], 'a secret: a password field, never pre-filled').to.deep.equal(['password', '']);
    expect(q(el, 'form.add')!.textContent).to.contain('Sent as Bearer {api_key}');
    expect(q<HTMLSelectElement>(el, '[id="f-header.1"]')!.value).to.equal('eu-west-1');
    await expect(el).to.be.accessible();
    // Save with nothing filled: the required fields say so, nothing is added
    q<HTMLButtonElement>(el, '[data-action=save]')!.click();
    await el.updateComplete;
    expect(q(el, '[id="e-url.tenant"]')!.textContent).to.equal(REQUIRED_MESSAGE);
    expect(hub.servers.list()).to.deep.equal([]);
    const tenant = `dir-${Math.random().toString(36).slice(2)}`;
    // Test against a server that fails: the manager's own error wording (a summary, then Details)
    await fill(el, 'header.0.api_key', 'sk-dir-1');
    const remote = el._adding!.remote;
    el._adding = { ...el._adding!, remote: { ...remote, url: `${urls.fixture}/status/404/mcp` } };
    await el.updateComplete;
    q<HTMLButtonElement>(el, '[data-action=test]')!.click();
    await untilRendered(el, () => el._adding?.test.state === 'error', 'the failed test');
    expect(q(el, '[part=test-result] .error-summary')!.textContent).to.match(/404/);
    el._adding = { ...el._adding!, remote, test: { state: 'idle' } };
    await el.updateComplete;
    await fill(el, 'url.tenant', tenant);
    q<HTMLButtonElement>(el, '[data-action=test]')!.click();
    await untilRendered(el, () => el._adding?.test.state === 'ok' || el._adding?.test.state === 'error', 'the test');
    expect(q(el, '[part=test-result]')!.textContent).to.match(/Connected\. Tools found: \d+/);
    const closed = new Promise<CustomEvent>((r) =>
      el.addEventListener('mcp-directory-closed', r as never, { once: true }),
    );
    q<HTMLButtonElement>(el, '[data-action=save]')!.click();
    const { detail } = await closed;
    const saved = hub.servers.get(detail.serverId)!;
    expect(saved.source).to.deep.equal({
      registry: urls.registry,
      name: 'io.github.mcp-elements/fixture',
      version: '1.2.0',
    });
    expect(saved.url).to.equal(`${urls.fixture}/t/${tenant}/mcp`);
    await untilRendered(el, () => hub.store.state.connections[saved.id]?.status === 'connected', 'connected');
    await hub.callTool({ serverId: saved.id, tool: 'headers', arguments: {}, source: 'user' });
    const stats = await (await fetch(`${urls.fixture}/t/${tenant}/control/stats`)).json();
    expect(stats.lastHeaders.authorization).to.equal('Bearer sk-dir-1');
    // the key is in the vault, not on the record
    expect(JSON.stringify(saved)).not.to.contain('sk-dir-1');
  });

  it('a package-only entry shows the relay mcp.json and command line, quoted, never run', async () => {
    const el = await directory(privateHub());
    await search(el, 'airtable');
    const li = entryOf(el, 'io.github.domdomegg/airtable-mcp-server');
    expect(li.querySelector('[data-badge=needs-relay]')).to.exist;
    expect(li.querySelector('[data-action=add]')).to.equal(null);
    li.querySelector<HTMLButtonElement>('[data-action=relay]')!.click();
    await el.updateComplete;
    expect(q(el, '[data-relay=command]')!.textContent).to.equal(
      `npx mcp-chat-elements relay --config mcp.json --origin ${location.origin}`,
    );
    expect(JSON.parse(q(el, '[data-relay=config]')!.textContent!).mcpServers['airtable-mcp-server'].args).to.deep.equal(
      ['-y', 'airtable-mcp-server@1.7.3'],
    );
    await expect(el).to.be.accessible();
  });

  it('the hostile corpus: nothing runs, no navigation, no SVG, text stays text, nothing is stored', async () => {
    const hub = privateHub();
    const href = location.href;
    const el = await directory(hub, `${urls.registry}/hostile`);
    await new Promise((r) => requestAnimationFrame(r));
    expect((window as { __pwned?: unknown }).__pwned).to.equal(undefined);
    expect(location.href).to.equal(href);
    expect(qa(el, 'img'), 'no icon at all (the only icons were SVG)').to.have.length(0);
    expect(qa(el, 'script, [onerror], [onload]')).to.have.length(0);
    const markup = entryOf(el, 'io.evil/markup');
    expect(markup.querySelector('h3')!.textContent).to.equal('<img src=x onerror="window.__pwned=1">');
    expect(markup.querySelector('.desc')!.textContent).to.equal('<script>window.__pwned=1</script>');
    expect(qa(el, 'a'), 'no link from the corpus').to.have.length(0);
    expect(q(el, '[part=skipped] summary')!.textContent).to.equal('13 entries were left out');
    entryOf(el, 'io.evil/shell-arg').querySelector<HTMLButtonElement>('[data-action=relay]')!.click();
    await el.updateComplete;
    expect(q(el, '[part=relay]')!.textContent).to.match(/a shell would run/);
    expect(q(el, '[data-relay=command]')).to.equal(null);
    expect(hub.servers.list()).to.deep.equal([]);
    expect((await rawIdb(hub.storeName)).filter((r) => r.key.startsWith('server:'))).to.deep.equal([]);
  });

  it('keyboard only: search, Tab to Add, fill the fields, Enter saves', async () => {
    const hub = privateHub();
    const el = await directory(hub);
    await el.focusSearch();
    await sendKeys({ type: 'io.github.mcp-elements/fixture' });
    await untilRendered(el, () => qa(el, 'li.entry').length === 1 && !el._busy, 'the search (debounced)');
    await sendKeys({ press: 'Tab' }); // the repository link
    await sendKeys({ press: 'Tab' });
    expect((focused() as HTMLElement).dataset.action).to.equal('add');
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => focused()?.id === 'f-url.tenant', 'focus in the first field');
    await sendKeys({ type: `kbd-${Math.random().toString(36).slice(2)}` });
    await sendKeys({ press: 'Tab' });
    expect(focused()?.id).to.equal('f-header.0.api_key');
    await sendKeys({ type: 'sk-kbd' });
    const closed = new Promise((r) => el.addEventListener('mcp-directory-closed', r, { once: true }));
    await sendKeys({ press: 'Enter' });
    await closed;
    expect(hub.servers.list()).to.have.length(1);
  });

  it('offline: the cached answer with its age; a second registry can be chosen', async () => {
    const dead = new URL(urls.origins.dead).origin; // a port nothing listens on
    const storage = new MemoryStorage();
    // what an earlier visit cached three hours ago (only entries that passed are ever cached)
    await storage.set(`registry:${dead}/v0.1/servers?version=latest&limit=30`, {
      at: Date.now() - 3 * 60 * 60 * 1000,
      data: {
        servers: [{ server: { name: 'io.example/cached', description: 'From the cache', version: '1.0.0' } }],
        metadata: {},
      },
    });
    const el = await fixture<McpServerDirectoryElement>(
      html`<mcp-server-directory
        .hub=${privateHub()}
        .registries=${[dead, urls.registry]}
        .storage=${storage}
      ></mcp-server-directory>`,
    );
    await untilRendered(el, () => !el._busy, 'the first search');
    expect(entryOf(el, 'io.example/cached').textContent).to.contain('From the cache');
    expect(q(el, '[part=status]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'The registry could not be reached: these results are from 180 minutes ago.',
    );
    const select = q<HTMLSelectElement>(el, '#reg')!;
    select.value = urls.registry;
    select.dispatchEvent(new Event('change'));
    await untilRendered(el, () => !el._busy && qa(el, 'li.entry').length > 1, 'the second registry');
    expect(q(el, '[part=status]')!.textContent!.trim()).to.equal('');
  });

  it('add from a website: the catalog’s servers listed under the site, each with Add', async () => {
    const el = await directory(privateHub());
    q(el, '[part=website] summary')!.click();
    q<HTMLInputElement>(el, '#site')!.value = urls.registry;
    q<HTMLButtonElement>(el, '[data-action=look-up]')!.click();
    await untilRendered(el, () => el._site, 'the catalog');
    expect(qa(el, 'h3').map((h) => h.textContent)).to.include(`Listed by ${new URL(urls.registry).host}`);
    const fx = entryOf(el, 'io.github.mcp-elements/fixture');
    expect(fx.querySelector('[data-action=add]')).to.exist;
    expect(q(el, '[part=skipped]')!.textContent).to.contain(
      'Script URL: url must use https: or http: (got "javascript:")',
    );
    await expect(el).to.be.accessible();
  });

  it('at phone width (360 px) nothing overflows sideways', async () => {
    const el = await directory(privateHub(), urls.registry, 360);
    await search(el, 'mcp-elements');
    for (const li of qa(el, 'li.entry')) expect(li.scrollWidth, li.dataset.name).to.be.at.most(li.clientWidth + 1);
    expect(el.scrollWidth).to.be.at.most(360);
  });
});
