// Finding a server as a user does, in every engine: the manager's Find servers → search → an
// entry → its add form (a secret header) → Test → Save → the row connected → a tool call shown as
// a card; a package-only entry's relay command. Keyboard only where a user would type, at desktop
// and phone width, each step saved as a screenshot (test-results/screens/<engine>/) to be looked
// at: the e2e harness (Chromium only) cannot reach Firefox and WebKit.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { MemoryStorage } from '../../src/core/index.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import type { McpServerDirectoryElement } from '../../src/elements/mcp-server-directory/mcp-server-directory.js';
import type { McpToolCallElement } from '../../src/elements/mcp-tool-call/mcp-tool-call.js';
import { focused, privateHub, q, qa, untilRendered, urls } from '../helpers.js';

/**
 * The newest fixture (the element under test) as drawn. The others are hidden and the page
 * scrolled to the top while it is taken: in WebKit the shot is the viewport (its element shots
 * draw black outside the first viewport).
 */
async function shot(name: string) {
  const others = [...document.querySelectorAll<HTMLElement>('body > div')].slice(0, -1);
  for (const o of others) o.hidden = true;
  window.scrollTo(0, 0);
  try {
    await executeServerCommand('save-screenshot', { name, selector: 'body > div:last-of-type' });
  } finally {
    for (const o of others) o.hidden = false;
  }
}

// 760 px: as wide as the test page's viewport allows (800); 390 px: a phone
for (const width of [760, 390]) {
  describe(`finding and adding a server from the registry, ${width} px`, () => {
    it('Find servers → search → Add → secret header → Test → Save → connected → a tool call, keyboard only', async () => {
      const hub = privateHub();
      const manager = await fixture<McpServerManagerElement>(
        html`<mcp-server-manager
          style="display: block; width: ${width}px"
          .hub=${hub}
          .directory=${{ registries: [urls.registry], storage: new MemoryStorage() }}
        ></mcp-server-manager>`,
      );
      q<HTMLButtonElement>(manager, '[data-action=find]')!.focus();
      await sendKeys({ press: 'Enter' });
      await untilRendered(manager, () => q(manager, 'mcp-server-directory'), 'the directory');
      const dir = q<McpServerDirectoryElement>(manager, 'mcp-server-directory')!;
      await untilRendered(dir, () => !dir._busy && focused()?.id === 'q', 'the first search, focus in its box');
      await sendKeys({ type: 'io.github.mcp-elements/fixture' });
      await untilRendered(dir, () => !dir._busy && qa(dir, 'li.entry').length === 1, 'the search (debounced)');
      expect(dir.scrollWidth, 'nothing overflows sideways').to.be.at.most(width);
      await shot(`directory-search-${width}`);

      await sendKeys({ press: 'Tab' }); // the repository link
      await sendKeys({ press: 'Tab' });
      expect((focused() as HTMLElement).dataset.action).to.equal('add');
      await sendKeys({ press: 'Enter' });
      await untilRendered(dir, () => focused()?.id === 'f-url.tenant', 'the add form, focus in its first field');
      // no letter twice in a row: WebKitWebDriver may drop the second of two equal keys typed
      const tenant = `flow-${width}-${Math.random().toString(36).slice(2)}`.replace(/(.)\1+/g, '$1');
      await sendKeys({ type: tenant });
      await sendKeys({ press: 'Tab' });
      expect(focused()?.id).to.equal('f-header.0.api_key');
      await sendKeys({ type: 'sk-flow' });
      const secret = q<HTMLInputElement>(dir, '[id="f-header.0.api_key"]')!;
      expect(secret.type, 'the secret header is a password field').to.equal('password');
      await shot(`directory-add-form-${width}`);

      q<HTMLButtonElement>(dir, '[data-action=test]')!.focus();
      await sendKeys({ press: 'Enter' });
      await untilRendered(dir, () => /Connected\.|rror/.test(q(dir, '[part=test-result]')?.textContent ?? ''), 'Test');
      expect(q(dir, '[part=test-result]')!.textContent).to.match(/Connected\. Tools found: \d+/);
      await shot(`directory-tested-${width}`);

      q<HTMLButtonElement>(dir, '[data-action=save]')!.focus();
      await sendKeys({ press: 'Enter' });
      await untilRendered(manager, () => !q(manager, 'mcp-server-directory'), 'the directory closed');
      const [saved] = hub.servers.list();
      expect(saved?.url).to.equal(`${urls.fixture}/t/${tenant}/mcp`);
      await untilRendered(manager, () => hub.store.state.connections[saved!.id]?.status === 'connected', 'connected');
      await untilRendered(
        manager,
        () => qa(manager, '[part=status] .status-text').some((s) => /connected/i.test(s.textContent ?? '')),
        'the row says connected',
      );
      await shot(`manager-connected-${width}`);

      // a tool call of the new server, shown as the chat shows it: the header went with it
      const record = await hub.callTool({ serverId: saved!.id, tool: 'headers', arguments: {}, source: 'user' });
      const card = await fixture<McpToolCallElement>(
        html`<mcp-tool-call
          style="display: block; width: ${width}px"
          .hub=${hub}
          call-id=${record.id}
        ></mcp-tool-call>`,
      );
      await untilRendered(card, () => card.shadowRoot!.textContent!.includes('headers'), 'the card');
      expect(record.status).to.equal('success');
      const stats = await (await fetch(`${urls.fixture}/t/${tenant}/control/stats`)).json();
      expect(stats.lastHeaders.authorization).to.equal('Bearer sk-flow');
      await shot(`tool-call-${width}`);
    });

    it('a package-only entry shows its relay command (shown, never run)', async () => {
      const hub = privateHub();
      const dir = await fixture<McpServerDirectoryElement>(
        html`<mcp-server-directory
          style="display: block; width: ${width}px"
          .hub=${hub}
          .registries=${[urls.registry]}
          .storage=${new MemoryStorage()}
        ></mcp-server-directory>`,
      );
      await untilRendered(dir, () => !dir._busy, 'the first search');
      await dir.search('airtable');
      await dir.updateComplete;
      const li = qa(dir, 'li.entry').find((x) => x.dataset.name === 'io.github.domdomegg/airtable-mcp-server')!;
      li.querySelector<HTMLButtonElement>('[data-action=relay]')!.focus();
      await sendKeys({ press: 'Enter' });
      await untilRendered(dir, () => q(dir, '[data-relay=command]'), 'the relay command');
      expect(q(dir, '[data-relay=command]')!.textContent).to.match(/^npx mcp-chat-elements relay --config mcp\.json/);
      expect(dir.scrollWidth, 'nothing overflows sideways').to.be.at.most(width);
      expect(hub.servers.list()).to.deep.equal([]);
      await shot(`directory-relay-${width}`);
    });
  });
}
