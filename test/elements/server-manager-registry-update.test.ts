// A server saved from a registry entry keeps where it came from (`source`: registry, name,
// version). The manager asks the registry, lazily and through its cache, whether a newer version
// reaches that server another way, says so on its row, and Review opens the edit form with the
// new address; Save records the newer version (issue 37). Against the fixture registry
// (test/fixtures/registry-server.mjs: io.github.mcp-elements/moving 1.0.0 → 2.0.0 at another URL).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { MemoryStorage } from '../../src/core/index.js';
import { nextEvent, privateHub, untilRendered, urls } from '../helpers.js';
import { q } from './manager-form.js';

const MOVING = 'io.github.mcp-elements/moving';

describe('<mcp-server-manager>: a newer registry version at another address', function () {
  this.timeout(30000);

  it('says so on the row; Review fills in the new address; Save records the version', async () => {
    const hub = privateHub();
    const storage = new MemoryStorage();
    const s = await hub.servers.add({
      name: 'Moving',
      url: urls.everything,
      enabled: false,
      source: { registry: urls.registry, name: MOVING, version: '1.0.0' },
    });
    const same = await hub.servers.add({
      name: 'Everything',
      url: urls.everything,
      enabled: false,
      source: { registry: urls.registry, name: 'io.github.mcp-elements/everything', version: '2025.11.25' },
    });
    const el = await fixture<McpServerManagerElement>(
      html`<mcp-server-manager .hub=${hub} .directory=${{ storage }}></mcp-server-manager>`,
    );
    const notice = () => q(el, `[data-server="${s.id}"] [part=registry-update]`);
    await untilRendered(el, notice, 'the notice');
    expect(notice().textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      `Version 2.0.0 of this server on ${new URL(urls.registry).host} uses a different address. Review the change`,
    );
    // the latest version of the other is the saved one: nothing to say
    expect(q(el, `[data-server="${same.id}"] [part=registry-update]`)).to.equal(null);
    // asked through the registry cache
    expect((await storage.entries()).map(([k]) => k).join(' ')).to.contain(
      `${encodeURIComponent(MOVING)}/versions/latest`,
    );
    await expect(el).to.be.accessible();
    (notice().querySelector('[data-action=review-update]') as HTMLElement).click();
    await untilRendered(el, () => q(el, '#f-url'), 'the edit form');
    const moved = `${urls.fixture}/t/moved/mcp`;
    expect(q<HTMLInputElement>(el, '#f-url').value).to.equal(moved);
    expect(q(el, '[part=registry-review]').textContent).to.contain('Version 2.0.0');
    const updated = nextEvent<CustomEvent>(window, 'mcp-server-updated');
    (q(el, 'form') as HTMLFormElement).requestSubmit();
    const server = (await updated).detail.server;
    expect(server.url).to.equal(moved);
    expect(server.source).to.deep.equal({ registry: urls.registry, name: MOVING, version: '2.0.0' });
    await untilRendered(el, () => !notice(), 'the notice gone');
  });
});
