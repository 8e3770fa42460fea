import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/index.js';
import {
  dump,
  fixtureTenant,
  nextEvent,
  privateHub,
  rawIdb,
  recordEvents,
  urls,
  expectNoLeakedSubscriptions,
  untilRendered,
} from '../helpers.js';
import { choose, q, type } from './manager-form.js';

const root = (el: Element) => el.shadowRoot!;
async function click(el: McpServerManagerElement, action: string) {
  q(el, `[data-action="${action}"]`).click();
  await el.updateComplete;
}

describe('<mcp-server-manager>', () => {
  it('empty state is accessible and offers Add', async () => {
    const el = await fixture<McpServerManagerElement>(
      html`<mcp-server-manager .hub=${privateHub()}></mcp-server-manager>`,
    );
    expect(root(el).textContent).to.contain('No MCP servers yet.');
    await expect(el).to.be.accessible();
  });

  it('add: field errors next to the fields, test connection, save; status and tool count in the list', async () => {
    const hub = privateHub();
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await click(el, 'add');
    expect(root(el).textContent).to.contain('This server will receive what the assistant sends to its tools.');
    await expect(el).to.be.accessible();
    // invalid: empty name, remote http URL
    await type(el, 'url', 'http://example.com/mcp');
    await click(el, 'save');
    expect(q(el, '#e-name').textContent).to.contain(REQUIRED_MESSAGE);
    expect(q(el, '#e-url').textContent).to.contain('https');
    expect(q(el, '#f-url').getAttribute('aria-invalid')).to.equal('true');
    expect(hub.servers.list()).to.have.length(0);
    await expect(el).to.be.accessible();
    // valid, with a bearer token
    await type(el, 'name', 'Fixture');
    await type(el, 'url', fixtureTenant().url);
    await choose(el, 'authType', 'bearer');
    await type(el, 'token', 'form-secret-123');
    await click(el, 'test');
    await el.updateComplete;
    await untilRendered(el, () => q(el, '[part=test-result]'), 'the test result');
    const test = q(el, '[part=test-result]').textContent!;
    expect(test).to.contain('mcp-elements-fixture');
    expect(test).to.contain('2025-11-25');
    expect(test).to.match(/Session: [0-9a-f-]{36}/);
    expect(test).to.contain('Echo');
    expect(hub.servers.list()).to.have.length(0); // testing stores nothing
    const added = nextEvent<CustomEvent>(window, 'mcp-server-added');
    const connected = nextEvent<CustomEvent>(
      window,
      'mcp-server-status-changed',
      (e) => e.detail.status === 'connected',
    );
    await click(el, 'save');
    const ev = await added;
    expect(ev.detail.server.auth.token).to.have.property('secretRef');
    await connected;
    await el.updateComplete;
    const row = q(el, '[part=server]');
    expect(row.textContent).to.contain('Connected');
    expect(row.textContent).to.match(/\d+ tools/);
    expect(dump(await rawIdb(hub.storeName))).not.to.contain('form-secret-123');
    await expect(el).to.be.accessible();
  });

  it('shows a CORS failure in plain words', async () => {
    const hub = privateHub();
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await click(el, 'add');
    await type(el, 'name', 'No CORS');
    await type(el, 'url', `${urls.fixture}/nocors/mcp`);
    await choose(el, 'transport', 'streamable-http');
    await click(el, 'test');
    await untilRendered(el, () => q(el, '[part=test-result]'), 'the test result');
    expect(q(el, '[part=test-result]').textContent).to.contain('Access-Control-Allow-Origin');
    await expect(el).to.be.accessible();
  });

  it('edit keeps a saved secret when left empty; remove asks first; a host can veto', async () => {
    const hub = privateHub();
    const t = fixtureTenant();
    const s = await hub.servers.add({ name: 'Kept', url: t.url, auth: { type: 'bearer', token: 'keep-me-please' } });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await click(el, 'edit');
    expect(q<HTMLInputElement>(el, '#f-name').value).to.equal('Kept');
    expect(q(el, '#h-token').textContent).to.contain('Saved');
    await type(el, 'name', 'Kept renamed');
    const updated = nextEvent<CustomEvent>(window, 'mcp-server-updated');
    await click(el, 'save');
    const ev = await updated;
    expect(ev.detail.server.name).to.equal('Kept renamed');
    expect(ev.detail.server.auth).to.deep.equal(s.auth);
    await hub.connect(s.id);
    const r = await hub.client(s.id).callTool('headers', {});
    expect(JSON.parse((r.content[0] as { text: string }).text).authorization).to.equal('Bearer keep-me-please');
    // remove: confirmation, then a veto, then for real
    await click(el, 'remove');
    expect(q(el, '[role=alertdialog]')).to.exist;
    expect(root(el).activeElement?.getAttribute('data-action')).to.equal('keep');
    await expect(el).to.be.accessible();
    const seen = recordEvents(window, ['mcp-server-removed', 'mcp-server-updated']);
    // every removal the element asks the hub for (a vetoed one must never get this far)
    const asked: string[] = [];
    const removeServer = hub.servers.remove.bind(hub.servers);
    hub.servers.remove = (id: string) => (asked.push(id), removeServer(id));
    window.addEventListener('mcp-server-remove-request', (e) => e.preventDefault(), { once: true });
    await click(el, 'confirm-remove');
    // then an allowed change; once its event is in, it alone has taken effect
    const disabled = nextEvent<CustomEvent>(window, 'mcp-server-updated');
    q(el, '[data-action=enable]').click();
    expect((await disabled).detail.server.enabled).to.equal(false);
    seen.stop();
    expect(seen.seen.map((e) => e.type)).to.deep.equal(['mcp-server-updated']);
    expect(hub.servers.list().map((x) => [x.id, x.enabled])).to.deep.equal([[s.id, false]]);
    expect(asked).to.deep.equal([]);
    await click(el, 'remove');
    const removed = nextEvent(window, 'mcp-server-removed');
    await click(el, 'confirm-remove');
    await removed;
    expect(asked).to.deep.equal([s.id]);
    expect(hub.servers.list()).to.have.length(0);
  });

  it('the enable switch disables and enables', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const updated = nextEvent<CustomEvent>(window, 'mcp-server-updated');
    q(el, '[data-action=enable]').click();
    expect((await updated).detail.server.enabled).to.equal(false);
    expect(hub.servers.get(s.id)?.enabled).to.equal(false);
  });

  it('imports mcp.json, reporting each bad entry; exports without secrets', async () => {
    const hub = privateHub();
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    (q(el, 'details.io') as HTMLDetailsElement).open = true;
    const text = JSON.stringify({
      mcpServers: {
        everything: { url: urls.everything, type: 'http', headers: { Authorization: 'Bearer import-secret-1' } },
        local: { command: 'npx', args: ['some-server'] },
        insecure: { url: 'http://example.com/mcp' },
      },
    });
    const area = q<HTMLTextAreaElement>(el, '#f-import');
    area.value = text;
    area.dispatchEvent(new Event('input'));
    await click(el, 'import');
    await untilRendered(el, () => q(el, '.import-errors'), 'the import report');
    const report = root(el).textContent!;
    expect(report).to.contain('Imported: everything');
    expect(q(el, '.import-errors').textContent).to.contain('local');
    expect(q(el, '.import-errors').textContent).to.contain('cannot run in a browser');
    expect(q(el, '.import-errors').textContent).to.contain('insecure');
    expect(hub.servers.list().map((s) => s.name)).to.deep.equal(['everything']);
    expect(hub.servers.list()[0].transport).to.equal('streamable-http');
    await click(el, 'export');
    const exported = q<HTMLTextAreaElement>(el, '#f-export').value;
    expect(exported).not.to.contain('import-secret-1');
    expect(JSON.parse(exported).mcpServers.everything.headers.Authorization).to.equal('<redacted>');
    // re-importing the export asks for the secret instead of storing the placeholder
    const again = await hub.importConfig(exported);
    expect(again.added).to.have.length(0);
    expect(again.errors[0].issues[0].message).to.contain('secret was not exported');
    await expect(el).to.be.accessible();
  });

  it('leaves no subscription behind after 10 attach/detach cycles', () =>
    expectNoLeakedSubscriptions('mcp-server-manager'));
});
